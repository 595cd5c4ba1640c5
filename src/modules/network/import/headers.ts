// The header block of an RFC 5322 message, read without the body: unfolded headers by name (with
// the line each starts on, for error messages), address lists through postal-mime's address
// parser (groups, quoted names, comments, RFC 2047 encoded words), and the Date header.
//
// Why not PostalMime.parse on the header block: it is asynchronous, and a file's import runs in
// one synchronous SQLite transaction; it also builds every header and a MIME tree per message.
// Measured on the 100,000-message benchmark mailbox (2 cores, best of 3): PostalMime.parse on
// already split header blocks ~30,000 blocks/s; reading the mbox, these headers and the address
// lists ~157,000 messages/s (~108,000/s with the relationship rules of mail-signal.ts).
import { addressParser } from "postal-mime";
import { normalizeEmail } from "../network.identity.ts";

/** The headers the importer reads; others are not kept. */
const WANTED = new Set([
  "from", "to", "cc", "bcc", "date", "message-id", "subject", "delivered-to", "x-original-to", "return-path",
  "list-id", "list-unsubscribe", "precedence", "auto-submitted", "x-auto-response-suppress",
]);
/** Longest wanted name (`x-auto-response-suppress`): a header name longer than this is not looked at. */
export const MAX_WANTED_NAME = 24;

export const isWantedHeader = (lowerCaseName: string) => WANTED.has(lowerCaseName);

export type HeaderBlock = {
  /** Line of the message's first line in its file (the `From ` separator of an mbox, else line 1). */
  line: number;
  /** Lower-cased name -> values in order, unfolded, with the line each started on. */
  headers: Map<string, { value: string; line: number }[]>;
};

/** Collects the wanted headers of one message, line by line (unfolding continuation lines). */
export class HeaderBuilder {
  private headers = new Map<string, { value: string; line: number }[]>();
  private current: { value: string; line: number } | null = null;

  /** A header line whose (lower-cased) name is wanted. */
  start(name: string, value: string, line: number): void {
    this.current = { value, line };
    const list = this.headers.get(name);
    if (list) list.push(this.current);
    else this.headers.set(name, [this.current]);
  }
  /** A header line that is not wanted (its continuation lines are dropped too). */
  skip(): void {
    this.current = null;
  }
  /** True when the next continuation line belongs to a wanted header. */
  get open(): boolean {
    return this.current !== null;
  }
  /** A folded continuation (a line starting with a space or tab), already trimmed. */
  continue(text: string): void {
    if (this.current) this.current.value += " " + text;
  }
  finish(messageLine: number): HeaderBlock {
    const block = { line: messageLine, headers: this.headers };
    this.headers = new Map();
    this.current = null;
    return block;
  }
}

/**
 * Unfolds header lines (a line starting with a space or tab continues the previous one).
 * `firstLine` is the file line of `lines[0]`.
 */
export function parseHeaderLines(lines: string[], firstLine: number, messageLine = firstLine): HeaderBlock {
  const b = new HeaderBuilder();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const c = raw.charCodeAt(0);
    if (c === 32 || c === 9) {
      if (b.open) b.continue(raw.trim());
      continue;
    }
    const colon = raw.indexOf(":");
    const name = colon > 0 && colon <= MAX_WANTED_NAME + 2 ? raw.slice(0, colon).trim().toLowerCase() : "";
    // Lines that are not `Name: value` are passed over, as mail readers do.
    if (WANTED.has(name)) b.start(name, raw.slice(colon + 1).trim(), firstLine + i);
    else b.skip();
  }
  return b.finish(messageLine);
}

export const header = (block: HeaderBlock, name: string) => block.headers.get(name)?.[0];

export type Mailbox = { email: string; name: string | null };

/** Every valid address of the named headers, in order, each once. */
export function mailboxes(block: HeaderBlock, ...names: string[]): Mailbox[] {
  const out: Mailbox[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    for (const h of block.headers.get(name) ?? []) {
      if (!h.value) continue;
      for (const a of simpleList(h.value) ?? addressParser(h.value, { flatten: true })) {
        if (!("address" in a) || !a.address) continue;
        const email = normalizeEmail(a.address);
        if (!email || seen.has(email)) continue;
        seen.add(email);
        out.push({ email, name: displayName(a.name, email) });
      }
    }
  }
  return out;
}

const SIMPLE_ENTRY = /^\s*(?:([^<>@]*?)\s*<([^<>\s]+@[^<>\s]+)>|([^<>\s]+@[^<>\s]+))\s*$/;

/**
 * The common case without postal-mime's full parser (which costs most of the header parsing
 * time): `Name <a@b>, c@d` with no quotes, comments, groups, encoded words or escapes. Anything
 * else returns null and goes to addressParser.
 */
function simpleList(value: string): { name: string; address: string }[] | null {
  if (/["():;\\]|=\?/.test(value)) return null;
  const out: { name: string; address: string }[] = [];
  for (const part of value.split(",")) {
    if (!part.trim()) continue;
    const m = SIMPLE_ENTRY.exec(part);
    if (!m) return null;
    out.push(m[2] ? { name: m[1], address: m[2] } : { name: "", address: m[3] });
  }
  return out;
}

/** A display name worth keeping: not empty, not the address itself, without stray quotes. */
function displayName(raw: string | undefined, email: string): string | null {
  if (!raw) return null;
  let name = raw.trim();
  if (/^["']|["']$/.test(name)) name = name.replace(/^["'\s]+|["'\s]+$/g, "");
  if (/\s\s|[\t\n]/.test(name)) name = name.replace(/\s+/g, " ");
  if (!name || (name.includes("@") && (name.toLowerCase() === email || normalizeEmail(name) !== null))) return null;
  return name;
}

const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
// RFC 5322 obsolete zone names (RFC 822 military zones other than Z are ambiguous: read as UTC, as RFC 5322 says).
const ZONES: Record<string, number> = { ut: 0, utc: 0, gmt: 0, z: 0, edt: -240, est: -300, cdt: -300, cst: -360, mdt: -360, mst: -420, pdt: -420, pst: -480 };
const RFC5322_DATE = /^(?:[a-z]{3},?\s*)?(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([+-]\d{4}|[a-z]+))?/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const daysInMonth = (year: number, month: number) =>
  month === 1 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month];

/** An RFC 5322 date (obsolete forms included; an ISO 8601 stamp tolerated); null when it is not one. */
export function parseMailDate(raw: string | undefined): Date | null {
  const value = raw?.trim();
  if (!value) return null;
  const m = RFC5322_DATE.exec(value);
  if (m) {
    const month = MONTHS[m[2].toLowerCase()];
    if (month === undefined) return null;
    let year = Number(m[3]);
    if (m[3].length === 2) year += year < 50 ? 2000 : 1900;
    else if (m[3].length === 3) year += 1900;
    const [day, hour, minute, second] = [Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
    if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
    let offset = 0;
    const zone = m[7];
    if (zone && /^[+-]\d{4}$/.test(zone)) {
      offset = (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
    } else if (zone) offset = ZONES[zone.toLowerCase()] ?? 0;
    if (day > daysInMonth(year, month)) return null; // 31 Feb
    return new Date(Date.UTC(year, month, day, hour, minute, Math.min(second, 59)) - offset * 60_000);
  }
  if (ISO_DATE.test(value)) {
    const t = Date.parse(value.replace(" ", "T") + (/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? "" : "Z"));
    return Number.isNaN(t) ? null : new Date(t);
  }
  return null;
}
