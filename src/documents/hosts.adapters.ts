// What a public link of each host family allows, fetched the way that host serves it:
//   Google Docs/Slides/Sheets: the export URL (PDF); a published (/d/e/) page: its HTML text.
//   Google Drive: uc?export=download, through the virus-scan confirmation of large files.
//   Dropbox: dl=1 (raw=1 kept), which redirects to the file on dropboxusercontent.com.
//   OneDrive: a 1drv.ms short link is followed to onedrive.live.com, then its download URL
//     (redir/embed/view -> download; the newer ?redeem= links through the public shares API);
//     SharePoint/OneDrive for Business links get download=1.
//   Box: /shared/static/<name>, else the shared page's file id through its download URL.
//   DocSend: the viewer (behind its email/password gate), then its download link.
//   Notion: the public page API (loadPageChunk), since the page HTML is drawn by JavaScript.
//   Figma: nothing without an API token: the error says so. Pitch: the text its page HTML holds.
// A private link (sign-in page, 401/403), a missing one and an unreachable host fail with an error
// naming the host and the reason. A gate is passed with the submission's credentials (hosts.gates.ts).
import { detectFileKind, isOffice, type FileKind } from "./file-type.ts";
import { firstLink, htmlForms } from "./html-scan.ts";
import { htmlTitle, htmlToText } from "./html-text.ts";
import { gateError, looksGated, passGate, VerificationPending, type Credentials } from "./hosts.gates.ts";
import { HostError, isSignInUrl, type HostedLink } from "./hosts.ts";
import { bodyText, isHtml, type HostResponse, type HostSession } from "./hosts.session.ts";
import { embeddedText, notionPageText } from "./hosts.pages.ts";

export type HostedDocument =
  | { kind: "file"; body: Uint8Array; fileKind: FileKind; filename: string; url: string }
  | { kind: "page"; text: string; url: string };

export type FetchContext = {
  session: HostSession;
  link: HostedLink;
  credentials: Credentials;
  /** A verification link from the host's email, followed first (its cookie opens the viewer). */
  verificationUrl?: string | null;
  /** The largest document accepted (default 50 MB). */
  maxDocumentBytes?: number;
};

/** A gated page reached by an adapter: the caller passes the gate (once) and asks again. */
class GateReached extends Error {
  constructor(readonly page: HostResponse) {
    super("gated");
  }
}

const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** A page drawn by JavaScript still has a title and a few words; a readable document has more. */
const RENDERED_TEXT_MIN = 200;

export async function fetchHostedDocument(ctx: FetchContext): Promise<HostedDocument> {
  const { link, session, credentials } = ctx;
  if (ctx.verificationUrl) {
    const v = await session.get(ctx.verificationUrl);
    if (v.status >= 400) {
      throw new HostError(`${link.label} refused the verification link (HTTP ${v.status}): it may have expired or been used already; submit the document link again`);
    }
  }
  for (let attempt = 0; ; attempt++) {
    try {
      return await ADAPTERS[link.family](ctx);
    } catch (error) {
      if (!(error instanceof GateReached)) throw error;
      if (ctx.verificationUrl) {
        throw new HostError(`${link.label} still asks for the email address after the verification link was followed: the link may have expired or been used already; submit the document link again`);
      }
      if (attempt > 0) throw gateError(link.label, error.page, credentials);
      await passGate(session, error.page, link, credentials);
    }
  }
}

/**
 * Opens the link's gate without fetching the document: what a waiting run does first, so the
 * host emails its verification link. "open": no gate, or the gate let the session in at once.
 */
export async function openGate(ctx: FetchContext): Promise<"open" | "verification_sent"> {
  const page = judge(ctx, await ctx.session.get(ctx.link.url));
  if (!isHtml(page) || !looksGated(bodyText(page))) return "open";
  try {
    await passGate(ctx.session, page, ctx.link, ctx.credentials);
    return "open";
  } catch (error) {
    if (error instanceof VerificationPending) return "verification_sent";
    throw error;
  }
}

/** Refusals every host shares: sign-in walls, 401/403, 404/410, rate limits, oversize. */
function judge(ctx: FetchContext, res: HostResponse): HostResponse {
  const label = ctx.link.label;
  if (res.chain.some(isSignInUrl) || (res.location && isSignInUrl(res.location))) {
    throw new HostError(`${label}: the link is not shared publicly (it leads to a sign-in page); share it so that anyone with the link can view it, or upload the file`);
  }
  if (res.status === 401 || res.status === 403) {
    throw new HostError(`${label} refused the link (HTTP ${res.status}): it is not shared publicly; share it publicly or upload the file`);
  }
  if (res.status === 404 || res.status === 410) throw new HostError(`${label} says the link does not exist (HTTP ${res.status})`);
  if (res.status === 429) throw new HostError(`${label} is limiting requests for the link (HTTP 429); try again later or upload the file`);
  if (res.status >= 400) throw new HostError(`${label} answered HTTP ${res.status} for the link`);
  if (res.truncated) {
    throw new HostError(
      isHtml(res)
        ? `${label}: the page is larger than ${sizeText(ctx.session.maxPageBytes)}, more than a document's page holds; upload the file instead`
        : `${label}: the document is larger than ${sizeText(ctx.maxDocumentBytes ?? MAX_DOCUMENT_BYTES)}`,
    );
  }
  return res;
}

function filenameOf(res: HostResponse, fallback: string): string {
  const cd = res.headers.get("content-disposition") ?? "";
  const star = /filename\*\s*=\s*(?:UTF-8'')?"?([^";]+)"?/i.exec(cd)?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(cd)?.[1];
  const raw = star ?? plain;
  if (raw) {
    try {
      return decodeURIComponent(raw).trim().slice(0, 200) || fallback;
    } catch {
      return raw.trim().slice(0, 200) || fallback;
    }
  }
  const segment = new URL(res.url).pathname.split("/").pop() ?? "";
  let last: string;
  try {
    last = decodeURIComponent(segment);
  } catch {
    last = segment; // a broken percent-encoding ("%E0%A4%A"): the name as the URL spells it
  }
  return last.includes(".") ? last.slice(0, 200) : fallback;
}

/** A PDF or Office file, or null when the response is something else (a page). */
function asFile(res: HostResponse): HostedDocument | null {
  const name = filenameOf(res, "document");
  const fileKind = detectFileKind(res.body, name);
  if (fileKind !== "pdf" && !isOffice(fileKind)) return null;
  const filename = name.includes(".") ? name : `${name}.${fileKind}`;
  return { kind: "file", body: res.body, fileKind, filename, url: res.url };
}

/** The response as a document: a file, or a page's text (a gate on it is handed back to pass). */
function asDocument(link: HostedLink, res: HostResponse, minText = 40): HostedDocument {
  const file = asFile(res);
  if (file) return file;
  const type = res.headers.get("content-type") ?? "";
  const kind = detectFileKind(res.body, "");
  if (/html/i.test(type) || kind === "text") {
    const html = bodyText(res);
    if (looksGated(html)) throw new GateReached(res);
    const text = /html/i.test(type) ? htmlToText(html) : html;
    if (text.length < minText) throw new HostError(`${link.label} showed no readable text for the link (it may need a browser or a sign-in)`);
    return { kind: "page", text, url: res.url };
  }
  throw new HostError(`${link.label} served a file that is not a PDF, Office document or page (${type || "unknown type"})`);
}

/** The file a download URL must give; a page there is the host saying why not. */
function mustBeFile(link: HostedLink, res: HostResponse, what: string): HostedDocument {
  const file = asFile(res);
  if (file) return file;
  if (isHtml(res) && looksGated(bodyText(res))) throw new GateReached(res);
  const title = isHtml(res) ? htmlTitle(bodyText(res)) : null;
  throw new HostError(`${link.label} showed a page instead of the file at ${what}${title ? ` ("${title}")` : ""}: the link may have expired or be disabled; share the file again or upload it`);
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`);

/** A GET of the visit, judged: a file may be document-sized, an HTML page stays within the session's page cap. */
async function get(ctx: FetchContext, url: string | URL): Promise<HostResponse> {
  return judge(ctx, await ctx.session.get(url, { maxBytes: ctx.maxDocumentBytes ?? MAX_DOCUMENT_BYTES }));
}

// ---- Google --------------------------------------------------------------------------------

function withResourceKey(target: URL, from: URL): URL {
  const key = from.searchParams.get("resourcekey");
  if (key) target.searchParams.set("resourcekey", key);
  return target;
}

async function googleDocs(ctx: FetchContext): Promise<HostedDocument> {
  const url = ctx.link.url;
  const m = /^\/(document|presentation|spreadsheets)\/d\/(e\/)?([\w-]+)/.exec(url.pathname);
  if (!m) throw new HostError(`${ctx.link.label}: the link is not a link to a document, presentation or spreadsheet`);
  const [, type, published, id] = m;
  if (published) {
    // A document "published to the web" has no export URL; its page is the document.
    return asDocument(ctx.link, await get(ctx, url), RENDERED_TEXT_MIN);
  }
  const exportUrl = withResourceKey(
    new URL(type === "presentation" ? `https://docs.google.com/presentation/d/${id}/export/pdf` : `https://docs.google.com/${type}/d/${id}/export?format=pdf`),
    url,
  );
  return mustBeFile(ctx.link, await get(ctx, exportUrl), "its PDF export URL");
}

/** Drive's "can't scan this file for viruses" page: its download form, or the older confirm link. */
export function driveConfirmUrl(html: string, base: URL): URL | null {
  for (const form of htmlForms(html)) {
    if (form.attrs.id !== "download-form" || !form.attrs.action || !URL.canParse(form.attrs.action, base.href)) continue;
    const url = new URL(form.attrs.action, base);
    for (const input of form.inputs) if (input.name) url.searchParams.set(input.name, input.value ?? "");
    return url;
  }
  return firstLink(html, base, (href) => /[?&]confirm=./.test(href));
}

async function googleDrive(ctx: FetchContext): Promise<HostedDocument> {
  const url = ctx.link.url;
  if (/\/(drive\/)?(u\/\d+\/)?folders\//.test(url.pathname)) {
    throw new HostError(`${ctx.link.label}: the link is a folder, not a file; share the deck itself`);
  }
  const id = /\/file\/d\/([\w-]+)/.exec(url.pathname)?.[1] ?? url.searchParams.get("id");
  if (!id) throw new HostError(`${ctx.link.label}: the link does not name a file`);
  const download = withResourceKey(new URL(`https://drive.google.com/uc?export=download&id=${encodeURIComponent(id)}`), url);
  const res = await get(ctx, download);
  const file = asFile(res);
  if (file) return file;
  const html = bodyText(res);
  if (/too many users have viewed or downloaded this file/i.test(html)) {
    throw new HostError(`${ctx.link.label}: the file's download limit is reached for now ("too many users have viewed or downloaded this file recently"); try again later or upload the file`);
  }
  const confirm = driveConfirmUrl(html, new URL(res.url));
  if (!confirm) return mustBeFile(ctx.link, res, "its download URL");
  // Large files: Drive cannot scan them for viruses and asks to confirm; the confirmed URL is one more checked hop.
  return mustBeFile(ctx.link, await get(ctx, confirm), "the download confirmation of a large file");
}

// ---- Dropbox -------------------------------------------------------------------------------

async function dropbox(ctx: FetchContext): Promise<HostedDocument> {
  const url = new URL(ctx.link.url);
  if (/^\/(sh|scl\/fo)\//.test(url.pathname)) throw new HostError(`${ctx.link.label}: the link is a folder, not a file; share the deck itself`);
  if (!url.hostname.endsWith("dropboxusercontent.com") && url.searchParams.get("raw") !== "1") {
    url.searchParams.delete("raw");
    url.searchParams.set("dl", "1");
  }
  return mustBeFile(ctx.link, await get(ctx, url), "its download link (dl=1)");
}

// ---- OneDrive ------------------------------------------------------------------------------

const base64url = (s: string) => Buffer.from(s).toString("base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** The download URL of a OneDrive link once any short link has been followed. */
export function oneDriveDownloadUrl(url: URL, sharedLink: URL): URL {
  const host = url.hostname.toLowerCase();
  if (host.endsWith("sharepoint.com")) {
    const out = new URL(url);
    out.searchParams.set("download", "1");
    return out;
  }
  const p = url.searchParams;
  const resid = p.get("resid") ?? p.get("id");
  if (resid && !p.get("redeem")) {
    const out = new URL("https://onedrive.live.com/download");
    const cid = p.get("cid") ?? resid.split("!")[0];
    if (cid) out.searchParams.set("cid", cid);
    out.searchParams.set("resid", resid);
    const authkey = p.get("authkey");
    if (authkey) out.searchParams.set("authkey", authkey);
    return out;
  }
  // Newer links carry only an opaque token: OneDrive's public shares API serves any sharing link.
  return new URL(`https://api.onedrive.com/v1.0/shares/u!${base64url(sharedLink.href)}/root/content`);
}

async function oneDrive(ctx: FetchContext): Promise<HostedDocument> {
  let url = ctx.link.url;
  // 1drv.ms is a short link: follow it (each hop checked) to the real OneDrive URL, then rewrite that.
  for (let hops = 0; url.hostname.toLowerCase() === "1drv.ms"; hops++) {
    const res = judge(ctx, await ctx.session.get(url, { maxRedirects: 0 }));
    if (!res.location || hops >= 3) throw new HostError(`${ctx.link.label}: the short link did not lead to a OneDrive file (HTTP ${res.status})`);
    url = new URL(res.location);
  }
  const download = oneDriveDownloadUrl(url, ctx.link.url);
  return mustBeFile(ctx.link, await get(ctx, download), "its download URL");
}

// ---- Box -----------------------------------------------------------------------------------

async function box(ctx: FetchContext): Promise<HostedDocument> {
  const url = ctx.link.url;
  const origin = url.origin;
  if (url.pathname.startsWith("/shared/static/")) return mustBeFile(ctx.link, await get(ctx, url), "its direct link");
  const shared = /^\/s\/([\w-]+)/.exec(url.pathname)?.[1];
  const vanity = /^\/v\/([\w-]+)/.exec(url.pathname)?.[1];
  if (!shared && !vanity) throw new HostError(`${ctx.link.label}: the link is not a shared link (/s/... or /v/...)`);
  if (shared) {
    // The direct link of a shared file; some accounts do not offer it (then the page names the file).
    const direct = await ctx.session.get(`${origin}/shared/static/${shared}`, { maxBytes: ctx.maxDocumentBytes ?? MAX_DOCUMENT_BYTES });
    if (direct.status < 400 && !direct.chain.some(isSignInUrl)) {
      judge(ctx, direct);
      const file = asFile(direct);
      if (file) return file;
    }
  }
  const page = await get(ctx, url);
  const html = bodyText(page);
  if (looksGated(html)) throw new GateReached(page);
  if (/shared (file or folder )?link has been removed|is unavailable to you/i.test(htmlToText(html))) {
    throw new HostError(`${ctx.link.label}: the shared link was removed or is not shared with you`);
  }
  if (/"itemType"\s*:\s*"folder"|"typedID"\s*:\s*"d_\d+"/.test(html)) throw new HostError(`${ctx.link.label}: the link is a folder, not a file; share the deck itself`);
  const fileId = /"typedID"\s*:\s*"f_(\d+)"/.exec(html)?.[1] ?? /"itemID"\s*:\s*(\d+)/.exec(html)?.[1] ?? /data-file-id=["'](\d+)["']/.exec(html)?.[1];
  if (!fileId) throw new HostError(`${ctx.link.label}: the shared page does not name a file to download (downloads may be turned off for the link)`);
  const download = new URL(`${origin}/index.php`);
  download.searchParams.set("rm", "box_download_shared_file");
  download.searchParams.set(shared ? "shared_name" : "vanity_name", (shared ?? vanity)!);
  download.searchParams.set("file_id", `f_${fileId}`);
  return mustBeFile(ctx.link, await get(ctx, download), "its download URL");
}

// ---- Page hosts: DocSend, Notion, Figma, Pitch, and any other host ------------------------

async function docsend(ctx: FetchContext): Promise<HostedDocument> {
  const viewer = await get(ctx, ctx.link.url);
  const file = asFile(viewer);
  if (file) return file;
  const html = bodyText(viewer);
  if (looksGated(html)) throw new GateReached(viewer);
  // The viewer draws pages as images; the text is in the file its download link serves (when the sender allows it).
  const download = firstLink(html, viewer.url, (href) => href.includes("/download"));
  if (download) return mustBeFile(ctx.link, await get(ctx, download), "its download link");
  const text = htmlToText(html);
  if (text.length >= RENDERED_TEXT_MIN) return { kind: "page", text, url: viewer.url };
  throw new HostError(`${ctx.link.label} shows this document only as page images and its download is turned off: ask the sender to allow downloads, or upload the file`);
}

async function notion(ctx: FetchContext): Promise<HostedDocument> {
  const { text, apiStatus } = await notionPageText(ctx.session, ctx.link);
  if (text) return { kind: "page", text, url: ctx.link.url.href };
  // No content from the API: the server HTML is the last chance (it is mostly a JavaScript shell).
  const page = await get(ctx, ctx.link.url);
  if (isHtml(page) && looksGated(bodyText(page))) throw new GateReached(page);
  const html = isHtml(page) ? htmlToText(bodyText(page)) : "";
  if (html.length >= RENDERED_TEXT_MIN) return { kind: "page", text: html, url: page.url };
  throw new HostError(
    apiStatus === "private"
      ? `${ctx.link.label}: the page is not shared to the web (Notion's public page API gives no content for it); share it to the web or export it as PDF and upload it`
      : `${ctx.link.label}: the page is drawn by JavaScript and Notion's public page API gave no content (${apiStatus}), so its text could not be read; export it as PDF from Notion and upload it`,
  );
}

async function figma(ctx: FetchContext): Promise<HostedDocument> {
  if (!/^\/(file|design|proto|deck|slides|board)\/[A-Za-z0-9]+/.test(ctx.link.url.pathname)) {
    throw new HostError(`${ctx.link.label}: the link is not a link to a Figma file, prototype or deck`);
  }
  // Reachable or not is still worth saying (a private file is a different fix from a missing token).
  await get(ctx, ctx.link.url);
  throw new HostError(
    `${ctx.link.label}: a Figma file can only be exported through Figma's API with an access token, which this server does not have (the public link shows the file only in Figma's browser app); export it as PDF from Figma and upload it`,
  );
}

async function pitch(ctx: FetchContext): Promise<HostedDocument> {
  const page = await get(ctx, ctx.link.url);
  const file = asFile(page);
  if (file) return file;
  const html = bodyText(page);
  if (looksGated(html)) throw new GateReached(page);
  const text = [htmlToText(html), embeddedText(html)].filter(Boolean).join("\n");
  const title = htmlTitle(html) ?? "";
  if (text.replace(title, "").trim().length >= RENDERED_TEXT_MIN) return { kind: "page", text, url: page.url };
  throw new HostError(
    `${ctx.link.label}: the presentation page draws its slides in the browser and its HTML holds no slide text; export it as PDF from Pitch and upload it`,
  );
}

async function other(ctx: FetchContext): Promise<HostedDocument> {
  return asDocument(ctx.link, await get(ctx, ctx.link.url));
}

const ADAPTERS: Record<HostedLink["family"], (ctx: FetchContext) => Promise<HostedDocument>> = {
  google_docs: googleDocs,
  google_slides: googleDocs,
  google_drive: googleDrive,
  dropbox,
  onedrive: oneDrive,
  box,
  docsend,
  notion,
  figma,
  pitch,
  other,
};
