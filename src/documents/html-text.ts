// Readable text and same-site links out of an HTML page, without a browser: scripts, styles and
// navigation chrome dropped, block elements turned into sentence breaks, entities decoded. Pages
// come from the internet, so the markup is read by the linear tokenizer of html-scan.ts and the
// text's clean-up uses no pattern that backtracks over a long run.
import { decodeEntities, htmlAnchors, htmlTokens } from "./html-scan.ts";

export function htmlTitle(html: string): string | null {
  for (const t of htmlTokens(html)) {
    if (t.kind === "raw" && t.name === "title") return decodeEntities(t.text).replace(/\s+/g, " ").trim() || null;
  }
  return null;
}

/** Elements whose whole content is left out: code, drawings, embedded frames, navigation chrome. */
const DROPPED = new Set(["script", "style", "noscript", "svg", "template", "iframe", "nav", "footer"]);
/** Tags that end a sentence: a line break, and the end of a paragraph, list item, heading, cell row... */
const BREAK_AT_END = new Set(["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "tr", "header"]);

export function htmlToText(html: string): string {
  const parts: string[] = [];
  // The dropped element being skipped and how deep in it (a <nav> inside a <nav> ends at the outer end tag).
  let skipping: string | null = null;
  let depth = 0;
  for (const t of htmlTokens(html)) {
    if (skipping) {
      if (t.kind === "tag" && t.name === skipping && !t.selfClosing) depth += t.closing ? -1 : 1;
      if (depth === 0) skipping = null;
      continue;
    }
    // References decoded text by text: only the few with a "&" go through the decoder.
    if (t.kind === "text") parts.push(decodeEntities(t.text));
    else if (t.kind === "raw") {
      if (!DROPPED.has(t.name)) parts.push(decodeEntities(t.text)); // title, textarea: their text is text
    } else if (!t.closing && DROPPED.has(t.name) && !t.selfClosing) {
      // Raw-text elements (script, style, ...) come with their content as one token: nothing to skip.
      if (t.name === "svg" || t.name === "template" || t.name === "nav" || t.name === "footer") (skipping = t.name), (depth = 1);
    } else parts.push(t.name === "br" || (t.closing && BREAK_AT_END.has(t.name)) ? ". " : " ");
  }
  // Whitespace is collapsed first, so no pattern below ever scans a long run of it more than once.
  return parts
    .join("")
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:!?])/g, "$1")
    .replace(/(?:\. ?){2,}/g, ". ")
    .replace(/ {2,}/g, " ")
    .replace(/^[. ]+/, "")
    .trim();
}

const INTERESTING = /\b(about|team|company|founders?|people|pricing|plans|product|customers|careers|investors?)\b/i;

/** Same-site links whose path or label suggests about/team/pricing pages, best first, at most `max`. */
export function interestingLinks(html: string, base: URL, max = 4): URL[] {
  const out: URL[] = [];
  const seen = new Set<string>([base.pathname.replace(/\/$/, "")]);
  for (const a of htmlAnchors(html)) {
    const href = a.href.split("#")[0];
    if (!href) continue;
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      continue;
    }
    const sameSite = url.hostname.replace(/^www\./, "") === base.hostname.replace(/^www\./, "");
    const key = url.pathname.replace(/\/$/, "");
    if (!sameSite || !/^https?:$/.test(url.protocol) || seen.has(key)) continue;
    if (!INTERESTING.test(url.pathname) && !INTERESTING.test(a.label)) continue;
    seen.add(key);
    url.hash = "";
    out.push(url);
    if (out.length >= max) break;
  }
  return out;
}
