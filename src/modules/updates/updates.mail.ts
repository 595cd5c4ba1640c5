// A message as the updates reader needs it: who really sent it (for a partner's forward, the
// founder in the forwarded header or the attached message), its new text without quoted earlier
// messages (a reply's "On ... wrote:" and "> " lines, Outlook's header block), its HTML tables as
// " | " rows, and its attachments. MIME is postal-mime's; HTML is htmlparser2's.
import { createHash } from "node:crypto";
import type { ChildNode, Element, Text } from "domhandler";
import { parseDocument } from "htmlparser2";
import type { Email } from "postal-mime";

export type MailAttachment = { filename: string; mimeType: string; content: Uint8Array };

export type UpdateMail = {
  messageId: string;
  /** The sender as the mailbox shows it (for a forward: the partner who forwarded). */
  from: string | null;
  /** The founder: the forwarded message's sender, or `from`. */
  sender: string | null;
  forwarded: boolean;
  subject: string;
  date: Date | null;
  /** The new text's lines, HTML tables as " | " rows. */
  lines: string[];
  attachments: MailAttachment[];
};

const FORWARD_MARK = /^[ \t]*(?:-{2,}[ \t]*(?:Forwarded message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado|Original Message|Ursprüngliche Nachricht)[ \t]*-{2,}|Begin forwarded message:|Anfang der weitergeleiteten Nachricht:)[ \t]*$/im;
const REPLY_MARKS = [
  /^[ \t]*On\s.{0,200}?\bwrote:[ \t]*$/ims,
  /^[ \t]*Am\s.{0,200}?\bschrieb\b.{0,120}:[ \t]*$/ims,
  /^[ \t]*Le\s.{0,200}?\ba écrit[ \t]*:[ \t]*$/ims,
  /^[ \t]*-{2,}[ \t]*(?:Original Message|Ursprüngliche Nachricht)[ \t]*-{2,}[ \t]*$/im,
  /^[ \t]*_{8,}[ \t]*$/m,
  /^[ \t]*(?:From|Von|De):[ \t].+\r?\n[ \t]*(?:Sent|Gesendet|Envoyé|Date|Datum):[ \t].+$/im,
];

const ADDRESS = /[\w.+'-]+@[\w-]+(?:\.[\w-]+)+/;

/** The text before the first mark of a quoted earlier message, without "> " lines. */
export function withoutQuotes(text: string): string {
  let cut = text.length;
  for (const re of REPLY_MARKS) {
    const m = re.exec(text);
    if (m && m.index < cut) cut = m.index;
  }
  return text
    .slice(0, cut)
    .split(/\r?\n/)
    .filter((l) => !/^\s*>/.test(l))
    .join("\n");
}

/** A forward's original sender and the forwarded text, or null when the text forwards nothing. */
function forwardedPart(text: string): { sender: string | null; body: string } | null {
  const m = FORWARD_MARK.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length).replace(/^\s*\n/, "");
  const lines = rest.split(/\r?\n/);
  let sender: string | null = null;
  let i = 0;
  // The forwarded header block: "From:", "Date:", "Subject:", "To:" lines (any language), up to a blank line.
  for (; i < lines.length && i < 12; i++) {
    const line = lines[i].replace(/^[*\s]+|[*]+(?=:)/g, "");
    if (line.trim() === "") {
      if (i > 0) break;
      continue;
    }
    const field = /^(From|Von|De|Sent|Gesendet|Envoyé|Date|Datum|Subject|Betreff|Objet|To|An|À|Cc|Reply-To)\s*:\s*(.*)$/i.exec(line);
    if (!field) break;
    if (/^(From|Von|De)$/i.test(field[1]) && !sender) sender = ADDRESS.exec(field[2])?.[0].toLowerCase() ?? null;
  }
  return { sender, body: lines.slice(i).join("\n") };
}

const BLOCK = /^(p|div|li|h[1-6]|ul|ol|table|thead|tbody|tfoot|tr|section|article|header|footer|center|blockquote|pre|hr|dl|dt|dd)$/;
const SKIP = /^(style|script|head|title|template)$/;

/**
 * HTML as lines: block elements end a line; a table row whose cells hold no table is a row line,
 * its cells between " | " and bordered ("| a | b |", so an empty first cell keeps its column); a
 * layout table (a cell holding another table) is read as blocks. Quoted blocks (blockquote, a
 * mail client's quote) are left out unless `keepQuotes` (a forward's quoted part is its update).
 */
export function htmlLines(html: string, keepQuotes: boolean): string[] {
  const lines: string[] = [];
  let line = "";
  const flush = () => {
    const t = line.replace(/\s+/g, " ").trim();
    if (t) lines.push(t);
    line = "";
  };
  const textOf = (n: ChildNode): string => {
    if (n.type === "text") return (n as Text).data;
    if (!("children" in n) || n.type !== "tag" || SKIP.test((n as Element).name)) return "";
    if ((n as Element).name === "br") return " ";
    return (n as Element).children.map(textOf).join(" ");
  };
  const hasTable = (n: ChildNode): boolean => n.type === "tag" && ((n as Element).name === "table" || (n as Element).children.some(hasTable));
  const rowsOf = (table: Element): Element[] =>
    table.children.flatMap((c) => (c.type !== "tag" ? [] : (c as Element).name === "tr" ? [c as Element] : /^(thead|tbody|tfoot)$/.test((c as Element).name) ? rowsOf(c as Element) : []));
  const walk = (n: ChildNode): void => {
    if (n.type === "text") {
      line += (n as Text).data;
      return;
    }
    if (n.type !== "tag") return;
    const el = n as Element;
    if (SKIP.test(el.name)) return;
    const quoted = el.name === "blockquote" || (!keepQuotes && /gmail_quote|yahoo_quoted|moz-cite-prefix/.test(el.attribs.class ?? "")) || /divRplyFwdMsg|appendonsend/.test(el.attribs.id ?? "");
    if (quoted && !keepQuotes) return;
    if (el.name === "br") {
      flush();
      return;
    }
    if (el.name === "table") {
      flush();
      for (const tr of rowsOf(el)) {
        const cells = tr.children.filter((c): c is Element => c.type === "tag" && /^(td|th)$/.test((c as Element).name));
        if (cells.some(hasTable)) {
          for (const c of cells) {
            c.children.forEach(walk);
            flush();
          }
          continue;
        }
        // A cell of block elements (a card, a paragraph laid out in a cell) is read as blocks.
        if (cells.length === 1) {
          cells[0].children.forEach(walk);
          flush();
          continue;
        }
        const texts = cells.map((c) => textOf(c).replace(/\s+/g, " ").replace(/\|/g, "/").trim());
        if (texts.some((t) => t)) lines.push(`| ${texts.join(" | ")} |`);
      }
      return;
    }
    const block = BLOCK.test(el.name);
    if (block) flush();
    el.children.forEach(walk);
    if (block) flush();
  };
  parseDocument(html, { decodeEntities: true }).children.forEach(walk);
  flush();
  return lines;
}

const addressOf = (a: Email["from"]) => a?.address?.toLowerCase() ?? null;

function bytesOf(content: ArrayBuffer | Uint8Array | string): Uint8Array {
  if (typeof content === "string") return new TextEncoder().encode(content);
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

export async function parseMime(raw: Uint8Array | string): Promise<Email> {
  const { default: PostalMime } = await import("postal-mime");
  return PostalMime.parse(raw, { forceRfc822Attachments: true, attachmentEncoding: "arraybuffer" });
}

/** Reads a raw message for its update: sender, new text and attachments. */
export async function readUpdateMail(raw: Uint8Array | string): Promise<UpdateMail> {
  const email = await parseMime(raw);
  const from = addressOf(email.from);
  const subject = (email.subject ?? "").trim();
  const date = email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date) : null;
  const messageId = email.messageId?.trim() || `<sha256-${createHash("sha256").update(typeof raw === "string" ? raw : Buffer.from(raw)).digest("hex").slice(0, 32)}@dealgraph.invalid>`;
  const attachments: MailAttachment[] = [];
  let attached: Email | null = null;
  for (const a of email.attachments) {
    const content = bytesOf(a.content as ArrayBuffer);
    if (a.mimeType === "message/rfc822") {
      if (!attached) attached = await parseMime(content);
      continue;
    }
    attachments.push({ filename: a.filename ?? "attachment", mimeType: a.mimeType, content });
  }
  let text = email.text ?? "";
  const html = email.html ?? "";
  const forward = forwardedPart(text || htmlLines(html, true).join("\n"));
  let sender = from;
  let forwarded = false;
  let htmlRows: string[] = [];
  if (forward) {
    forwarded = true;
    sender = forward.sender ?? from;
    text = withoutQuotes(forward.body);
    htmlRows = html ? htmlLines(html, true).filter((l) => l.includes(" | ")) : [];
  } else if (attached) {
    // Forwarded as an attachment: the attached message is the update.
    forwarded = true;
    sender = addressOf(attached.from) ?? from;
    text = withoutQuotes(attached.text ?? "");
    const attachedHtml = attached.html ? htmlLines(attached.html, false) : [];
    if (!text) text = attachedHtml.join("\n");
    else htmlRows = attachedHtml.filter((l) => l.includes(" | "));
    for (const a of attached.attachments) attachments.push({ filename: a.filename ?? "attachment", mimeType: a.mimeType, content: bytesOf(a.content as ArrayBuffer) });
  } else {
    const fromHtml = html ? htmlLines(html, false) : [];
    if (text) {
      text = withoutQuotes(text);
      htmlRows = fromHtml.filter((l) => l.includes(" | "));
    } else text = withoutQuotes(fromHtml.join("\n"));
  }
  const lines = text.split(/\r?\n/);
  // The HTML part's tables: the text part flattens them, so their rows are read from the HTML.
  if (htmlRows.length) lines.push("", ...htmlRows, "");
  return { messageId, from, sender, forwarded, subject, date, lines, attachments };
}
