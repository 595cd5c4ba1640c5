// Links to hosted documents: which host family a link belongs to, and the URL that fetches what a
// public link allows (an export or download URL where the host has one).
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

export type HostedLink = { family: HostFamily; fetchUrl: string; label: string };

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

export function recognizeHost(raw: string): HostedLink {
  const url = new URL(raw);
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const make = (family: HostFamily, fetchUrl = url.toString()) => ({ family, fetchUrl, label: LABELS[family] });
  if (host === "docsend.com" || host.endsWith(".docsend.com")) return make("docsend");
  if (host === "notion.so" || host.endsWith(".notion.site") || host === "notion.site") return make("notion");
  if (host === "figma.com") return make("figma");
  if (host === "pitch.com") return make("pitch");
  if (host === "docs.google.com") {
    const m = /\/(presentation|document|spreadsheets)\/d\/([\w-]+)/.exec(url.pathname);
    if (m) {
      const kind = m[1] === "presentation" ? "google_slides" : "google_docs";
      return make(kind, `https://docs.google.com/${m[1]}/d/${m[2]}/export${m[1] === "spreadsheets" ? "?format=pdf" : "/pdf"}`);
    }
    return make("google_docs");
  }
  if (host === "drive.google.com") {
    const id = /\/file\/d\/([\w-]+)/.exec(url.pathname)?.[1] ?? url.searchParams.get("id");
    return make("google_drive", id ? `https://drive.google.com/uc?export=download&id=${id}` : url.toString());
  }
  if (host === "dropbox.com" || host.endsWith(".dropbox.com")) {
    const direct = new URL(url);
    direct.searchParams.set("dl", "1");
    return make("dropbox", direct.toString());
  }
  if (host === "box.com" || host.endsWith(".box.com") || host.endsWith(".app.box.com")) return make("box");
  if (host === "1drv.ms" || host === "onedrive.live.com" || host.endsWith(".sharepoint.com")) {
    const direct = new URL(url);
    if (host !== "1drv.ms") direct.searchParams.set("download", "1");
    return make("onedrive", direct.toString());
  }
  return make("other");
}

/** A page that asks for an email or a passcode before showing the document. */
export function looksGated(html: string): "email" | "password" | null {
  if (/<input[^>]+type=["']?password/i.test(html) || /\b(passcode|enter (the )?password)\b/i.test(html)) return "password";
  if (/<input[^>]+type=["']?email/i.test(html) || /\benter your email\b/i.test(html)) return "email";
  return null;
}
