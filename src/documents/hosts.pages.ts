// Text of pages that a browser draws with JavaScript: a public Notion page through Notion's public
// page API (loadPageChunk, what its own web app calls), and the text a server-rendered app embeds
// in its HTML as JSON (Pitch's presentation pages).
import { htmlTokens } from "./html-scan.ts";
import { HostError, type HostedLink } from "./hosts.ts";
import { bodyText, type HostSession } from "./hosts.session.ts";

/** Each block one sentence, so the engines read headings and list items apart. */
const asSentence = (s: string) => (/[.!?:;]$/.test(s) ? s : `${s}.`);

/** The page id a Notion link ends with (32 hex digits), as a UUID. */
export function notionPageId(url: URL): string | null {
  const hex = (url.searchParams.get("p") ?? url.pathname).replace(/-/g, "").match(/[0-9a-f]{32}(?=$|[^0-9a-f])/i)?.[0];
  if (!hex) return null;
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

type NotionBlock = { id?: string; type?: string; properties?: Record<string, unknown>; content?: string[] };
type NotionRecord = { role?: string; value?: NotionBlock & { value?: NotionBlock } };

/** Rich text ([["text", [annotations]], ...]) as plain text. */
const richText = (value: unknown): string =>
  Array.isArray(value) ? value.map((part) => (Array.isArray(part) && typeof part[0] === "string" ? part[0] : "")).join("").trim() : "";

const TEXT_BLOCKS = new Set(["page", "text", "header", "sub_header", "sub_sub_header", "bulleted_list", "numbered_list", "to_do", "toggle", "quote", "callout", "code", "table_row", "column_list", "column"]);

/**
 * The text of a public Notion page, block by block in reading order. `apiStatus` says why there
 * is none: "private" (Notion has the page but shares none of it), or what the API answered.
 */
export async function notionPageText(session: HostSession, link: HostedLink): Promise<{ text: string | null; apiStatus: string }> {
  const pageId = notionPageId(link.url);
  if (!pageId) throw new HostError(`${link.label}: the link does not name a Notion page (no page id in it)`);
  const api = new URL("/api/v3/loadPageChunk", link.url.origin);
  const blocks = new Map<string, NotionBlock>();
  let sawPage = false;
  for (let chunk = 0, stack: unknown[] = []; chunk < 10; chunk++) {
    const res = await session.post(api, { json: { pageId, limit: 100, cursor: { stack }, chunkNumber: chunk, verticalColumns: false }, accept: "application/json" });
    if (res.status >= 400) return { text: null, apiStatus: res.status === 401 || res.status === 403 ? "private" : `HTTP ${res.status}` };
    let data: { recordMap?: { block?: Record<string, NotionRecord> }; cursor?: { stack?: unknown[] } };
    try {
      data = JSON.parse(bodyText(res));
    } catch {
      return { text: null, apiStatus: "an answer that is not JSON" };
    }
    for (const [id, record] of Object.entries(data.recordMap?.block ?? {})) {
      // Notion has answered both { value: block } and { value: { value: block } }.
      const block = record?.value?.value ?? record?.value;
      if (block && typeof block === "object" && block.type) blocks.set(id, block);
      if (id === pageId) sawPage = true;
    }
    stack = data.cursor?.stack ?? [];
    if (!Array.isArray(stack) || stack.length === 0) break;
  }
  const root = blocks.get(pageId);
  if (!root) return { text: null, apiStatus: sawPage ? "private" : "no block for the page" };
  const lines: string[] = [];
  const seen = new Set<string>();
  const walk = (id: string, depth: number) => {
    const block = blocks.get(id);
    if (!block || seen.has(id) || depth > 8 || lines.length > 5000) return;
    seen.add(id);
    if (TEXT_BLOCKS.has(block.type ?? "")) {
      const props = block.properties ?? {};
      const own = richText(props.title);
      const cells = block.type === "table_row" ? Object.values(props).map(richText).filter(Boolean).join(" | ") : "";
      const text = own || cells;
      if (text) lines.push(asSentence(text));
    }
    // A sub-page shows as its title only; its own content is another page.
    if (block.type !== "page" || id === pageId) for (const child of block.content ?? []) walk(child, depth + 1);
  };
  walk(pageId, 0);
  const text = lines.join("\n");
  return { text: text.length >= 40 ? text : null, apiStatus: text ? "too little text" : "an empty page" };
}

/** Sentences an app embeds in its HTML as JSON (`__NEXT_DATA__`, application/json scripts). */
export function embeddedText(html: string): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 40 || out.length > 2000) return;
    if (typeof value === "string") {
      const s = value.replace(/\s+/g, " ").trim();
      if (s.split(" ").length >= 4 && !/^(https?:|\/|data:)/.test(s) && !/[{}<>]/.test(s) && !seen.has(s)) {
        seen.add(s);
        out.push(asSentence(s));
      }
    } else if (Array.isArray(value)) value.forEach((v) => visit(v, depth + 1));
    else if (value && typeof value === "object") Object.values(value).forEach((v) => visit(v, depth + 1));
  };
  let jsonScript = false;
  for (const t of htmlTokens(html)) {
    if (t.kind === "tag" && t.name === "script" && !t.closing) jsonScript = /^application\/(?:ld\+)?json$/i.test((t.attrs.type ?? "").trim());
    if (t.kind !== "raw" || t.name !== "script" || !jsonScript) continue;
    try {
      visit(JSON.parse(t.text), 0);
    } catch {
      // not JSON after all: nothing to read
    }
  }
  return out.join("\n");
}
