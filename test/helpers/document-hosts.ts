// Loopback servers that behave like the public links of each document-host family (viewer HTML,
// export and download URLs, redirects, gates, sign-in walls), reached under their real names:
// deps.outbound resolves those names to public-looking addresses (so safe-fetch checks them as it
// would in production, private networks NOT allowed) and dials the checked address to loopback.
// Every request a server receives is recorded in `hits` as "host path?query".
import { expect } from "bun:test";
import type { Server } from "bun";
import type { Static } from "elysia";
import type { Deps } from "../../src/deps.ts";
import type { OutboundOverrides } from "../../src/lib/safe-fetch.ts";
import type { AnalysisStatusResponse, DealDetailResponse, DocumentsResponse } from "../../src/modules/deals/deals.model.ts";
import { createTestApp, runAll } from "./app.ts";
import { LEDGERLY_DECK, pdfDeck } from "./decks.ts";
import { files } from "./document-hosts-files.ts";
import { seedIdentity } from "./fixtures.ts";

export type Family = "google" | "dropbox" | "onedrive" | "box" | "docsend" | "notion" | "figma" | "pitch" | "files";

type Ctx = { req: Request; url: URL; host: string; cookies: Record<string, string>; world: HostWorld };
export type Handler = (c: Ctx) => Response | Promise<Response>;

const HOSTS: Record<Family, string[]> = {
  google: ["docs.google.com", "drive.google.com", "drive.usercontent.google.com", "doc-04-docs.googleusercontent.com", "accounts.google.com"],
  dropbox: ["www.dropbox.com", "ucabc.dl.dropboxusercontent.com"],
  onedrive: ["1drv.ms", "onedrive.live.com", "api.onedrive.com", "public.bn.files.1drv.com", "login.live.com", "acme-my.sharepoint.com"],
  box: ["app.box.com", "account.box.com"],
  docsend: ["docsend.com"],
  notion: ["www.notion.so", "acme.notion.site"],
  figma: ["www.figma.com"],
  pitch: ["pitch.com"],
  // A host Dealgraph does not know (files served directly, and hostile pages), and another site.
  files: ["files.example.net", "evil.example"],
};

export type HostWorld = {
  pdf: Uint8Array;
  /** Mails the hosts "sent" (raw RFC 5322), newest last. */
  mails: { to: string; raw: string }[];
  hits: string[];
  /** Requests whose client went away before the answer ("host path"): a fetch that was aborted. */
  aborted: string[];
  /** Names resolved to other (private) addresses, for refusals. */
  resolve: Record<string, string[]>;
  /** Where Google's SLIDES_REDIRECTED export redirects (a test sets it). */
  redirectTo: string | null;
  stop(): void;
};

const html = (body: string, init: ResponseInit & { title?: string } = {}) =>
  new Response(`<!doctype html><html><head><title>${init.title ?? "Document"}</title><script>window.__app = {"boot": true};</script></head><body>${body}</body></html>`, {
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...(init.headers as Record<string, string>) },
  });
const redirect = (to: string, status = 302, headers: Record<string, string> = {}) => new Response(null, { status, headers: { location: to, ...headers } });
const pdfResponse = (pdf: Uint8Array, filename: string) =>
  new Response(pdf, { headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="${filename}"` } });
const notFound = () => html("<h1>Not found</h1>", { status: 404, title: "Not found" });
const deckHtml = () => LEDGERLY_DECK.map((p) => `<p>${p}</p>`).join("");

function parseCookies(header: string | null): Record<string, string> {
  return Object.fromEntries((header ?? "").split(";").map((c) => c.trim().split("=")).filter((p) => p.length === 2) as [string, string][]);
}

// ---- Google: export URLs, Drive download with the virus-scan confirmation, sign-in wall ----
const google: Handler = ({ url, host, world }) => {
  const p = url.pathname;
  if (host === "accounts.google.com") return html("<h1>Sign in</h1><p>Use your Google Account</p>", { title: "Sign in - Google Accounts" });
  if (host === "docs.google.com") {
    if (p === "/document/d/DOC_PUBLIC/export" && url.searchParams.get("format") === "pdf") return pdfResponse(world.pdf, "Ledgerly memo.pdf");
    if (p === "/presentation/d/SLIDES_PUBLIC/export/pdf") return redirect("https://doc-04-docs.googleusercontent.com/export/x1/SLIDES_PUBLIC.pdf", 307);
    if (p.startsWith("/document/d/DOC_PRIVATE/")) return redirect(`https://accounts.google.com/ServiceLogin?continue=${encodeURIComponent(url.href)}`);
    if (p === "/document/d/e/2PACX-PUB/pub") return html(`<div id="contents">${deckHtml()}</div>`, { title: "Ledgerly memo" });
    if (p === "/presentation/d/SLIDES_REDIRECTED/export/pdf" && world.redirectTo) return redirect(world.redirectTo);
    if (/^\/(document|presentation)\/d\/[\w-]+\/(edit|view)$/.test(p)) return html("<div id='docs-editor'></div>", { title: "Google Docs" });
    return notFound();
  }
  if (host === "doc-04-docs.googleusercontent.com" && p === "/export/x1/SLIDES_PUBLIC.pdf") return pdfResponse(world.pdf, "Ledgerly slides.pdf");
  if (host === "drive.google.com") {
    const id = url.searchParams.get("id");
    if (p !== "/uc" || url.searchParams.get("export") !== "download" || !id) return html("<div id='drive-viewer'></div>", { title: "Google Drive" });
    if (id === "FILE_PRIVATE") return redirect(`https://accounts.google.com/ServiceLogin?continue=${encodeURIComponent(url.href)}`);
    if (id === "FILE_QUOTA") return html("<p>Sorry, you can't view or download this file at this time.</p><p>Too many users have viewed or downloaded this file recently.</p>", { title: "Google Drive - Quota exceeded" });
    return redirect(`https://drive.usercontent.google.com/download?id=${id}&export=download`, 303);
  }
  if (host === "drive.usercontent.google.com" && p === "/download") {
    const id = url.searchParams.get("id");
    if (id === "FILE_SMALL") return pdfResponse(world.pdf, "Ledgerly deck.pdf");
    if (id === "FILE_LARGE" || id === "FILE_LARGE_SLOW") {
      if (url.searchParams.get("confirm") === "t" && url.searchParams.get("uuid") === "u-123") {
        if (id === "FILE_LARGE_SLOW") return new Promise<Response>(() => {}); // never answers
        return pdfResponse(world.pdf, "Ledgerly big deck.pdf");
      }
      return html(
        `<p>Google Drive can't scan this file for viruses.</p><p>Ledgerly big deck.pdf (212M) is too large for Google to scan for viruses. Would you still like to download this file?</p>
         <form id="download-form" action="https://drive.usercontent.google.com/download" method="get"><input type="submit" value="Download anyway">
         <input type="hidden" name="id" value="${id}"><input type="hidden" name="export" value="download"><input type="hidden" name="confirm" value="t"><input type="hidden" name="uuid" value="u-123"></form>`,
        { title: "Google Drive - Virus scan warning" },
      );
    }
  }
  return notFound();
};

// ---- Dropbox: dl=1 redirects to the content host; a dl=0 link is a preview page ----
const dropbox: Handler = ({ url, host, world }) => {
  if (host === "ucabc.dl.dropboxusercontent.com" && url.pathname.startsWith("/cd/0/get/")) return pdfResponse(world.pdf, "Ledgerly deck.pdf");
  if (url.pathname === "/scl/fi/k1abc/Ledgerly-deck.pdf" && url.searchParams.get("rlkey") === "r1") {
    if (url.searchParams.get("dl") === "1" || url.searchParams.get("raw") === "1") return redirect("https://ucabc.dl.dropboxusercontent.com/cd/0/get/XYZ/file");
    return html("<div id='preview'></div>", { title: "Ledgerly-deck.pdf | Dropbox" });
  }
  if (url.pathname === "/s/expired/deck.pdf") return html("<h1>This link has expired</h1>", { title: "Dropbox - Link expired" });
  if (url.pathname === "/login") return html("<h1>Sign in to Dropbox</h1>", { title: "Dropbox - Sign in" });
  return notFound();
};

// ---- OneDrive: 1drv.ms redirects to the viewer; the download URL (or the shares API) gives the file ----
const ONEDRIVE_NEW = "https://1drv.ms/b/c/cid9/IQBtoken";
const oneDrive: Handler = ({ url, host, world }) => {
  const p = url.pathname;
  if (host === "1drv.ms") {
    if (p === "/b/s!AbcPublic") return redirect("https://onedrive.live.com/redir?resid=CID1%21101&authkey=%21AKEY&ithint=file%2cpdf", 301);
    if (p === "/b/s!AbcPrivate") return redirect("https://onedrive.live.com/redir?resid=CID1%21102&ithint=file%2cpdf", 301);
    if (p === "/b/c/cid9/IQBtoken") return redirect("https://onedrive.live.com/?redeem=aHR0cHM6Ly8xZHJ2Lm1zL2IvYy9jaWQ5L0lRQnRva2Vu&cid=cid9", 301);
    return notFound();
  }
  if (host === "onedrive.live.com") {
    const resid = url.searchParams.get("resid");
    if (p === "/download" && resid === "CID1!101" && url.searchParams.get("authkey") === "!AKEY") return redirect("https://public.bn.files.1drv.com/y4mAbc/Ledgerly%20deck.pdf");
    if (p === "/download") return redirect("https://login.live.com/login.srf?wa=wsignin1.0");
    return html("<div id='appRoot'></div>", { title: "OneDrive" }); // the viewer app: no file here
  }
  const b64 = Buffer.from(ONEDRIVE_NEW).toString("base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  if (host === "api.onedrive.com" && p === `/v1.0/shares/u!${b64}/root/content`) return redirect("https://public.bn.files.1drv.com/y4mNew/Ledgerly%20deck.pdf");
  if (host === "public.bn.files.1drv.com") return pdfResponse(world.pdf, "Ledgerly deck.pdf");
  if (host === "login.live.com") return html("<h1>Sign in</h1>", { title: "Sign in to your Microsoft account" });
  if (host === "acme-my.sharepoint.com" && p === "/:b:/g/personal/sam_acme_com/EaBcD" && url.searchParams.get("download") === "1") return pdfResponse(world.pdf, "Ledgerly deck.pdf");
  return notFound();
};

// ---- Box: /shared/static, else the shared page's file id; a password page; a sign-in wall ----
const box: Handler = async ({ req, url, host, cookies, world }) => {
  const p = url.pathname;
  if (host === "account.box.com") return html("<h1>Log in to Box</h1>", { title: "Box | Login" });
  if (p === "/shared/static/staticok") return pdfResponse(world.pdf, "Ledgerly deck.pdf");
  if (p === "/shared/static/private" || p === "/s/private") return redirect(`https://account.box.com/login?redirect_url=${encodeURIComponent(p)}`);
  if (p === "/shared/static/pageonly" || p === "/shared/static/locked") return notFound();
  const page = (name: string) => html(`<div id="app"></div><script>Box.postStreamData = {"/app-api/enduserapp/shared-item": {"itemID":998877,"itemType":"file","typedID":"f_998877","sharedName":"${name}"}};</script>`, { title: "Ledgerly deck.pdf | Powered by Box" });
  if (p === "/s/pageonly") return page("pageonly");
  if (p === "/s/gone") return html("<h1>This shared file or folder link has been removed or is unavailable to you.</h1>", { title: "Box" });
  if (p === "/s/locked") {
    if (req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (form.get("password") === "box-pass-1" && form.get("request_token") === "rt-1") return redirect("/s/locked", 302, { "set-cookie": "box_shared_pw=ok; Path=/" });
      return html(`<p>Incorrect password</p><form method="post" action="/s/locked"><input type="hidden" name="request_token" value="rt-1"><input type="password" name="password"></form>`);
    }
    if (cookies.box_shared_pw === "ok") return page("locked");
    return html(`<h1>This content is password protected</h1><form method="post" action="/s/locked"><input type="hidden" name="request_token" value="rt-1"><input type="password" name="password"><button>Submit</button></form>`);
  }
  if (p === "/index.php" && url.searchParams.get("rm") === "box_download_shared_file" && url.searchParams.get("file_id") === "f_998877") {
    const name = url.searchParams.get("shared_name");
    if (name === "pageonly" || (name === "locked" && cookies.box_shared_pw === "ok")) return pdfResponse(world.pdf, "Ledgerly deck.pdf");
    return redirect("https://account.box.com/login");
  }
  return notFound();
};

// ---- DocSend: gate form (CSRF + session cookie), verification email, cookie, viewer, download ----
type DocsendDoc = { email: boolean; password?: string; verify: boolean; download: boolean };
export const DOCSEND_DOCS: Record<string, DocsendDoc> = {
  dverify: { email: true, password: "hunter22", verify: true, download: true },
  dverifyonly: { email: true, verify: true, download: true },
  demail: { email: true, verify: false, download: true },
  dpass: { email: false, password: "opensesame", verify: false, download: true },
  dimages: { email: true, verify: false, download: false },
};
const docsendTokens = new WeakMap<HostWorld, Map<string, string>>();

function verificationMail(to: string, id: string, token: string): string {
  const link = `https://docsend.com/view/${id}/verify?token=${token}`;
  return [
    "From: DocSend <no-reply@docsend.com>",
    `To: ${to}`,
    'Subject: Verify your email to view "Ledgerly deck"',
    "Date: Sun, 22 Nov 2026 12:00:00 +0000",
    `Message-ID: <${token}@docsend.com>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/alternative; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain; charset=utf-8",
    "",
    `Ledgerly shared "Ledgerly deck" with you: https://docsend.com/view/${id}`,
    `Confirm your email address to view it: ${link}`,
    "--b1",
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    `<p><a href=3D"https://docsend.com/view/${id}">Ledgerly deck</a></p><p><a href=3D"${link.replace("=", "=3D")}">Verify email</a></p>`,
    "--b1--",
    "",
  ].join("\r\n");
}

const docsend: Handler = async ({ req, url, cookies, world }) => {
  const m = /^\/view\/(\w+)(?:\/(gate|verify|download))?$/.exec(url.pathname);
  const doc = m ? DOCSEND_DOCS[m[1]] : undefined;
  if (!m || !doc) return notFound();
  const id = m[1];
  const granted = cookies[`dsv_${id}`] === "granted";
  const tokens = docsendTokens.get(world) ?? docsendTokens.set(world, new Map()).get(world)!;
  const gate = (session: string, error = "") =>
    html(
      `${error}<form action="/view/${id}/gate" method="post" accept-charset="UTF-8"><input type="hidden" name="authenticity_token" value="csrf-${session}">
       <label>Enter your email to view this document</label>${doc.email ? `<input type="email" name="link_auth_form[email]">` : ""}
       ${doc.password ? `<input type="password" name="link_auth_form[passcode]">` : ""}<input type="submit" value="Continue"></form>`,
      { title: "DocSend", headers: { "set-cookie": `_ds_session=${session}; Path=/; HttpOnly` } },
    );
  switch (m[2]) {
    case undefined:
      if (granted) {
        return html(`<div class="viewer"><img src="/view/${id}/page_data/1"><img src="/view/${id}/page_data/2"></div>${doc.download ? `<a class="download" href="/view/${id}/download">Download</a>` : ""}`, { title: "Ledgerly deck" });
      }
      return gate(cookies._ds_session ?? `s${Math.random().toString(36).slice(2, 10)}`);
    case "gate": {
      const form = new URLSearchParams(await req.text());
      if (req.method !== "POST" || !cookies._ds_session || form.get("authenticity_token") !== `csrf-${cookies._ds_session}`) return html("<p>Invalid authenticity token</p>", { status: 422 });
      if (doc.password && form.get("link_auth_form[passcode]") !== doc.password) return gate(cookies._ds_session, "<p class='error'>Incorrect passcode</p>");
      const email = form.get("link_auth_form[email]") ?? "";
      if (doc.email && !email.includes("@")) return gate(cookies._ds_session, "<p class='error'>Enter a valid email</p>");
      if (doc.verify) {
        const token = `t${Math.random().toString(36).slice(2, 12)}`;
        tokens.set(token, id);
        world.mails.push({ to: email, raw: verificationMail(email, id, token) });
        return html(`<h1>Check your email</h1><p>We sent a verification link to ${email}. Open it to view the document.</p>`, { title: "DocSend" });
      }
      return redirect(`/view/${id}`, 302, { "set-cookie": `dsv_${id}=granted; Path=/; HttpOnly` });
    }
    case "verify": {
      const token = url.searchParams.get("token") ?? "";
      if (tokens.get(token) !== id) return html("<h1>This link has expired</h1>", { status: 410 });
      tokens.delete(token);
      return redirect(`/view/${id}`, 302, { "set-cookie": `dsv_${id}=granted; Path=/; HttpOnly` });
    }
    default:
      return granted ? pdfResponse(world.pdf, "Ledgerly deck.pdf") : redirect(`/view/${id}`);
  }
};

// ---- Notion: a JavaScript shell; content only from the public page API ----
export const NOTION_PUBLIC = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
export const NOTION_PRIVATE = "aaaabbbbccccddddeeeeffff00001111";
export const NOTION_BROKEN = "99998888777766665555444433332222";
const dashed = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
const notion: Handler = async ({ req, url }) => {
  if (url.pathname === "/api/v3/loadPageChunk" && req.method === "POST") {
    const { pageId } = (await req.json()) as { pageId: string };
    if (pageId === dashed(NOTION_PUBLIC)) {
      const blocks: Record<string, unknown> = {
        [pageId]: { role: "reader", value: { id: pageId, type: "page", properties: { title: [["Ledgerly investor memo"]] }, content: ["b1", "b2", "b3", "b4", "b5", "b6"] } },
        b1: { role: "reader", value: { id: "b1", type: "header", properties: { title: [["Company"]] } } },
        b2: { role: "reader", value: { id: "b2", type: "text", properties: { title: [[LEDGERLY_DECK[0]]] } } },
        b3: { role: "reader", value: { id: "b3", type: "toggle", properties: { title: [["Team and traction"]] }, content: ["b3a", "b3b"] } },
        b3a: { role: "reader", value: { id: "b3a", type: "bulleted_list", properties: { title: [[LEDGERLY_DECK[1].slice(0, 40)], [LEDGERLY_DECK[1].slice(40), [["b"]]]] } } },
        b3b: { role: "reader", value: { id: "b3b", type: "bulleted_list", properties: { title: [[LEDGERLY_DECK[2]]] } } },
        b4: { role: "reader", value: { id: "b4", type: "text", properties: { title: [[LEDGERLY_DECK[3]]] } } },
        b5: { role: "reader", value: { id: "b5", type: "quote", properties: { title: [[LEDGERLY_DECK[4]]] } } },
        b6: { role: "reader", value: { id: "b6", type: "image", properties: { source: [["https://example.com/x.png"]] } } },
      };
      return Response.json({ recordMap: { block: blocks }, cursor: { stack: [] } });
    }
    if (pageId === dashed(NOTION_PRIVATE)) return Response.json({ recordMap: { block: { [pageId]: { role: "none" } } }, cursor: { stack: [] } });
    return Response.json({ errorId: "e1", name: "ValidationError", message: "Invalid input." }, { status: 400 });
  }
  if (url.pathname.endsWith(NOTION_PUBLIC) || url.pathname.endsWith(NOTION_PRIVATE) || url.pathname.endsWith(NOTION_BROKEN)) {
    return html(`<div id="notion-app"></div><script src="/app-1234.js"></script>`, { title: "Notion" });
  }
  return notFound();
};

// ---- Figma: the file page is the browser app; a private file asks to log in ----
const figma: Handler = ({ url }) => {
  if (url.pathname.startsWith("/file/KEYPUB123/") || url.pathname.startsWith("/deck/KEYPUB123/")) return html(`<div id="react-page"></div>`, { title: "Ledgerly deck – Figma" });
  if (url.pathname.startsWith("/design/KEYPRIV456/")) return redirect(`/login?cont=${encodeURIComponent(url.pathname)}`);
  if (url.pathname === "/login") return html("<h1>Log in to Figma</h1>", { title: "Figma" });
  return notFound();
};

// ---- Pitch: a server-rendered presentation (slide text in __NEXT_DATA__), and a JavaScript-only one ----
const pitch: Handler = ({ url }) => {
  if (url.pathname === "/v/ledgerly-seed-ab12cd") {
    const data = { props: { pageProps: { presentation: { title: "Ledgerly seed", slides: LEDGERLY_DECK.map((text, i) => ({ id: `s${i}`, blocks: [{ type: "text", text }] })) } } } };
    return html(`<div id="__next"><h1>Ledgerly seed</h1></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script>`, { title: "Ledgerly seed | Pitch" });
  }
  if (url.pathname === "/v/js-only-ef34gh") return html(`<div id="__next"></div><script src="/_next/static/app.js"></script>`, { title: "Presentation | Pitch" });
  if (url.pathname === "/v/private-deck") return redirect("/login");
  if (url.pathname === "/login") return html("<h1>Log in to Pitch</h1>", { title: "Pitch" });
  return notFound();
};

/** A port nothing listens on (bound once, then released). */
function closedPort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

/**
 * The public internet as tests see it: each routed name resolves to a public-looking address
 * (checked by safe-fetch like any other, never connected to) that dials the name's loopback port;
 * `resolve` gives other names other (e.g. private) addresses; every other name does not resolve,
 * and every other address dials a closed port, so nothing a test does leaves the machine.
 */
export function standInHosts(routes: Map<string, number | null>, resolve: Record<string, string[]> = {}): OutboundOverrides {
  const names = [...routes.keys()];
  const addressOf = (host: string) => `93.184.216.${10 + names.indexOf(host)}`;
  const closed = closedPort();
  return {
    resolver: async (host) => {
      if (resolve[host]) return resolve[host];
      if (routes.has(host)) return [addressOf(host)];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    },
    dial: ({ host, address }) => new URL(`http://127.0.0.1:${(routes.has(host) && address === addressOf(host) && routes.get(host)) || closed}`),
  };
}

const HANDLERS: Record<Family, Handler> = { google, dropbox, onedrive: oneDrive, box, docsend, notion, figma, pitch, files };

/**
 * Starts the given families' servers and points `deps.outbound` at them. `resolve` adds names
 * (e.g. one resolving to a private address); `closed` lists names that resolve but refuse connections.
 */
export async function startDocumentHosts(deps: Deps, families: Family[], opts: { resolve?: Record<string, string[]>; closed?: string[] } = {}): Promise<HostWorld> {
  const servers: Server<unknown>[] = [];
  const routes = new Map<string, number | null>();
  const world: HostWorld = { pdf: await pdfDeck(), mails: [], hits: [], aborted: [], resolve: { ...opts.resolve }, redirectTo: null, stop: () => servers.forEach((s) => s.stop(true)) };
  for (const family of families) {
    const handler = HANDLERS[family];
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      // A host that never answers keeps the connection open, as a real one does (Bun would drop it after 10 s).
      idleTimeout: 0,
      fetch: (req) => {
        const url = new URL(req.url);
        const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
        // The URL the client asked for, under its public name.
        const publicUrl = new URL(`https://${host}${url.pathname}${url.search}`);
        world.hits.push(`${host} ${url.pathname}${url.search}`);
        req.signal.addEventListener("abort", () => world.aborted.push(`${host} ${url.pathname}`));
        return handler({ req, url: publicUrl, host, cookies: parseCookies(req.headers.get("cookie")), world });
      },
    });
    servers.push(server);
    for (const host of HOSTS[family]) routes.set(host, server.port!);
  }
  for (const host of opts.closed ?? []) routes.set(host, null); // resolves, refuses connections
  deps.outbound = standInHosts(routes, world.resolve);
  return world;
}

/** A test app with the families' hosts in place of the internet, and the verbs document-link tests use. */
export async function documentHostApp(families: Family[], opts: Parameters<typeof startDocumentHosts>[2] = {}, env: Record<string, string> = {}) {
  const t = createTestApp({ file: true, env });
  const f = seedIdentity(t.deps);
  const world = await startDocumentHosts(t.deps, families, opts);
  const read = f.keys.read.secret;
  return {
    t,
    f,
    world,
    analyze: (body: unknown, key = f.keys.write.secret) => t.request("POST", "/api/v1/deals/analyze", { key, body }),
    verify: (dealId: string, body: unknown, key = f.keys.write.secret) => t.request("POST", `/api/v1/deals/${dealId}/verification`, { key, body }),
    /** Runs everything the runner can take now (wait steps included), then stops it. */
    run: () => runAll(t),
    // Typed from the routes' response models: a test reading a field the API does not have fails to typecheck.
    status: async (dealId: string) => (await t.request<Static<typeof AnalysisStatusResponse>>("GET", `/api/v1/deals/${dealId}/analysis`, { key: read })).json,
    deal: async (dealId: string) => (await t.request<Static<typeof DealDetailResponse>>("GET", `/api/v1/deals/${dealId}?view=full`, { key: read })).json,
    documents: async (dealId: string) => (await t.request<Static<typeof DocumentsResponse>>("GET", `/api/v1/deals/${dealId}/documents`, { key: read })).json.documents,
    close() {
      world.stop();
      t.close();
    },
  };
}

export type DocumentHostApp = Awaited<ReturnType<typeof documentHostApp>>;

/** Submits each link (a distinct company each), runs everything, returns each deal's status read. */
export async function analyseAll(h: DocumentHostApp, links: string[], extra: Record<string, string> = {}) {
  const ids: string[] = [];
  for (const [i, url] of links.entries()) {
    const res = await h.analyze({ document_url: url, company_name: `Company ${i}`, ...extra });
    expect(res.status, url).toBe(202);
    ids.push(res.json.deal_id);
  }
  await h.run();
  return Promise.all(ids.map(async (id) => ({ id, ...(await h.status(id)) })));
}
