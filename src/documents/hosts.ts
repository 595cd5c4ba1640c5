// Links to hosted documents: which host family a link belongs to, how the family is named in
// errors, and the sign-in pages a private link leads to. What each family's public link allows is
// in hosts.adapters.ts; gates (email, password) in hosts.gates.ts.
export type HostFamily =
  | "docsend"
  | "notion"
  | "figma"
  | "google_drive"
  | "google_docs"
  | "google_slides"
  | "dropbox"
  | "box"
  | "onedrive"
  | "pitch"
  | "other";

export type HostedLink = { family: HostFamily; url: URL; label: string };

const LABELS: Record<HostFamily, string> = {
  docsend: "DocSend",
  notion: "Notion",
  figma: "Figma",
  google_drive: "Google Drive",
  google_docs: "Google Docs",
  google_slides: "Google Slides",
  dropbox: "Dropbox",
  box: "Box",
  onedrive: "OneDrive",
  pitch: "Pitch",
  other: "the document host",
};

/** A failure of a hosted link whose message names the host and the reason (it becomes a run's `error`). */
export class HostError extends Error {}

/** Whether a host name is `domain` or one of its subdomains (both lower case). */
export const withinDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

export function hostFamily(raw: string | URL): HostFamily {
  const url = new URL(String(raw));
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (withinDomain(host, "docsend.com")) return "docsend";
  if (withinDomain(host, "notion.so") || withinDomain(host, "notion.site")) return "notion";
  if (withinDomain(host, "figma.com")) return "figma";
  if (withinDomain(host, "pitch.com")) return "pitch";
  if (host === "docs.google.com") {
    const kind = /^\/(presentation|document|spreadsheets)\//.exec(url.pathname)?.[1];
    return kind === "presentation" ? "google_slides" : "google_docs";
  }
  if (host === "drive.google.com" || host === "drive.usercontent.google.com") return "google_drive";
  if (withinDomain(host, "dropbox.com") || withinDomain(host, "dropboxusercontent.com")) return "dropbox";
  if (withinDomain(host, "box.com") || withinDomain(host, "box.net")) return "box";
  if (host === "1drv.ms" || withinDomain(host, "onedrive.live.com") || withinDomain(host, "onedrive.com") || withinDomain(host, "sharepoint.com")) return "onedrive";
  return "other";
}

export function recognizeHost(raw: string | URL): HostedLink {
  const url = new URL(String(raw));
  const family = hostFamily(url);
  return { family, url, label: LABELS[family] };
}

export const hostLabel = (family: HostFamily) => LABELS[family];

/** Google Docs and Slides are one host family for verification links and sign-in walls. */
const FAMILY_GROUP: Partial<Record<HostFamily, string>> = { google_docs: "google", google_slides: "google", google_drive: "google" };

/** Whether two links belong to the same host family (a verification link must come from the document's host). */
export function sameHostFamily(a: string | URL, b: string | URL): boolean {
  const fa = hostFamily(a);
  const fb = hostFamily(b);
  if (fa === "other" || fb === "other") return false;
  return (FAMILY_GROUP[fa] ?? fa) === (FAMILY_GROUP[fb] ?? fb);
}

const SIGN_IN_HOSTS = new Set(["accounts.google.com", "login.live.com", "login.microsoftonline.com", "account.box.com", "account.live.com"]);

/** A page that asks to sign in: where a private link of every family leads. */
export function isSignInUrl(raw: string | URL): boolean {
  const url = new URL(String(raw));
  if (SIGN_IN_HOSTS.has(url.hostname.toLowerCase())) return true;
  return /^\/(login|signin|sign-in|sign_in|servicelogin|account\/login)(\/|$|\?)/i.test(url.pathname);
}
