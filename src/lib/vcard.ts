// vCard 2.1, 3.0 and 4.0 files (as Android, iOS, Outlook, Gmail, Lotus Notes and Thunderbird
// export them) as cards: one per BEGIN:VCARD ... END:VCARD, each property with its line. vCard
// 2.1 values are decoded: ENCODING=QUOTED-PRINTABLE (with its `=` soft line breaks, which are not
// RFC folding) in the CHARSET given (UTF-8, ISO-8859-x, Windows-125x, Shift_JIS...), and bare
// parameters (`EMAIL;PREF;INTERNET:`) read as TYPE. BASE64 values (photos, keys) are skipped.
// A card that cannot be read is an error of that card; the others are read.
import { parseContentLine, structuredValue, unescapeText, type ContentLine } from "./icalendar-lines.ts";

export type VcardProperty = ContentLine & { /** The value as text: decoded, TEXT escapes undone. */ text: string };

export type Vcard = { line: number; version: string | null; props: VcardProperty[] };

export type VcardError = { line: number; reason: string };

export class VcardFileError extends Error {
  constructor(
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "VcardFileError";
  }
}

/** Raw lines (vCard 2.1 soft breaks and RFC folding joined), with the line each starts on. */
function logicalLines(text: string): { text: string; line: number }[] {
  const raw = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const out: { text: string; line: number }[] = [];
  let qpOpen = false;
  for (let i = 0; i < raw.length; i++) {
    const l = raw[i];
    const last = out.at(-1);
    if (last && qpOpen) {
      // A quoted-printable value ending in `=` continues on the next line as it stands.
      last.text = last.text.slice(0, -1) + l;
    } else if (last && (l.startsWith(" ") || l.startsWith("\t"))) {
      last.text += /QUOTED-PRINTABLE/i.test(last.text.split(":", 1)[0]) ? l.trimStart() : l.slice(1);
    } else if (l.trim() !== "") out.push({ text: l, line: i + 1 });
    else continue;
    const cur = out.at(-1)!;
    qpOpen = cur.text.endsWith("=") && /ENCODING=QUOTED-PRINTABLE|;QUOTED-PRINTABLE[;:]/i.test(cur.text.slice(0, cur.text.indexOf(":") + 1));
  }
  return out;
}

const decoders = new Map<string, TextDecoder | null>();
function decoder(charset: string): TextDecoder | null {
  const key = charset.toLowerCase();
  if (!decoders.has(key)) {
    try {
      decoders.set(key, new TextDecoder(key as ConstructorParameters<typeof TextDecoder>[0], { fatal: false }));
    } catch {
      decoders.set(key, null);
    }
  }
  return decoders.get(key)!;
}

/** A quoted-printable value's bytes in its charset; null when the charset is unknown. */
function decodeQuotedPrintable(value: string, charset: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === "=" && i === value.length - 1) {
      // a trailing soft break
    } else {
      const code = value.charCodeAt(i);
      if (code < 0x80) bytes.push(code);
      else bytes.push(...Buffer.from(c, "utf8"));
    }
  }
  const d = decoder(charset);
  return d ? d.decode(new Uint8Array(bytes)) : null;
}

/** Reads a property's value as text (decoding 2.1 quoted-printable); throws VcardError-shaped objects via the callback. */
function propertyText(p: ContentLine, fail: (reason: string) => void): string | null {
  const encoding = (p.params.get("ENCODING") ?? "").toUpperCase();
  const types = (p.params.get("TYPE") ?? "").toUpperCase().split(",");
  if (encoding === "B" || encoding === "BASE64" || types.includes("BASE64")) return null;
  const charset = p.params.get("CHARSET") ?? "utf-8";
  if (encoding === "QUOTED-PRINTABLE" || types.includes("QUOTED-PRINTABLE")) {
    const decoded = decodeQuotedPrintable(p.value, charset);
    if (decoded === null) {
      fail(`${p.name}: the charset ${JSON.stringify(charset.slice(0, 40))} is not one this reader knows`);
      return null;
    }
    return decoded;
  }
  return p.value;
}

/**
 * Every card of a vCard text. Throws VcardFileError only when the text is no vCard file at all;
 * a card left open, or one with a value that cannot be decoded, is an entry of `errors`.
 */
export function parseVcards(text: string): { cards: Vcard[]; errors: VcardError[] } {
  const lines = logicalLines(text);
  if (lines.length === 0) throw new VcardFileError(null, "the file is empty (a vCard file starts with BEGIN:VCARD)");
  if (lines[0].text.trim().toUpperCase() !== "BEGIN:VCARD") {
    throw new VcardFileError(lines[0].line, `not a vCard file: it must start with BEGIN:VCARD (got ${JSON.stringify(lines[0].text.slice(0, 60))})`);
  }
  const cards: Vcard[] = [];
  const errors: VcardError[] = [];
  let open: (Vcard & { broken: VcardError | null; depth: number }) | null = null;
  for (const { text: raw, line } of lines) {
    const upper = raw.trim().toUpperCase();
    if (upper === "BEGIN:VCARD") {
      if (open && open.depth === 0) {
        errors.push({ line: open.line, reason: `the card has no END:VCARD before the next BEGIN:VCARD (line ${line})` });
        open = null;
      }
      if (open) open.depth++; // an embedded card (AGENT): part of this one
      else open = { line, version: null, props: [], broken: null, depth: 0 };
      continue;
    }
    if (upper === "END:VCARD") {
      if (!open) {
        errors.push({ line, reason: "END:VCARD without a BEGIN:VCARD" });
        continue;
      }
      if (open.depth > 0) {
        open.depth--;
        continue;
      }
      if (open.broken) errors.push(open.broken);
      else cards.push({ line: open.line, version: open.version, props: open.props });
      open = null;
      continue;
    }
    if (!open || open.depth > 0) continue; // between cards, or inside an embedded one: not read
    const p = parseContentLine(raw, line);
    if (!p) {
      // A line that is no property: a broken card only when it looks like one the reader uses.
      if (/^\s*(?:[\w-]+\.)?(?:EMAIL|FN|N|ORG|TITLE|URL|X-SOCIALPROFILE|ADR)\b/i.test(raw) && !open.broken) {
        open.broken = { line, reason: `not a vCard content line (NAME:value): ${JSON.stringify(raw.slice(0, 60))}` };
      }
      continue;
    }
    const card = open;
    const value = propertyText(p, (reason) => {
      if (!card.broken) card.broken = { line, reason };
    });
    if (value === null) continue;
    if (p.name === "VERSION") open.version = value.trim();
    open.props.push({ ...p, text: value });
  }
  if (open) errors.push({ line: open.line, reason: "the card (BEGIN:VCARD) has no END:VCARD (the file may be cut short)" });
  return { cards, errors };
}

/** A TEXT property as one string (escapes undone, trimmed); null when empty. */
export const vcardText = (p: VcardProperty | undefined) => (p ? unescapeText(p.text).trim() || null : null);

/** A structured property's components (N, ADR, ORG). */
export const vcardParts = (p: VcardProperty) => structuredValue(p.text);

/** Whether a property is marked preferred (`PREF=1`, `TYPE=pref`, 2.1's bare `PREF`). */
export function isPreferred(p: VcardProperty): boolean {
  return p.params.get("PREF") === "1" || (p.params.get("TYPE") ?? "").toLowerCase().split(",").includes("pref");
}
