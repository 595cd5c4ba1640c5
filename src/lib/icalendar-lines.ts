// Content lines of iCalendar (RFC 5545 3.1) and vCard (RFC 6350 3.3) text, each with the line of
// the file it starts on, so an error names the line a person will find in an editor.
//
// Why not ical.js's parser for the lines themselves: it keeps no line numbers, and a whole-event
// ICAL.parse measured ~29,000 events/s on one core, below the importer's own rate; ical.js does
// what is hard (recurrence rules, VTIMEZONE offsets: icalendar-zones.ts, icalendar-recurrence.ts).

export type ContentLine = {
  /** Upper-cased, without a group prefix (`item1.EMAIL` is `EMAIL`). */
  name: string;
  /** Upper-cased parameter names; a parameter without `=` (vCard 2.1 `EMAIL;PREF;INTERNET`) is `TYPE`. */
  params: Map<string, string>;
  value: string;
  line: number;
};

/** Unfolded lines with the line each starts on (CRLF/LF/CR then a space or tab continues a line). */
export function unfoldLines(text: string): { text: string; line: number }[] {
  const raw = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const out: { text: string; line: number }[] = [];
  for (let i = 0; i < raw.length; i++) {
    const l = raw[i];
    const c = l.charCodeAt(0);
    if ((c === 32 || c === 9) && out.length > 0) out[out.length - 1].text += l.slice(1);
    else if (l.trim() !== "") out.push({ text: l, line: i + 1 });
  }
  return out;
}

/** A property name, with an optional group prefix (`item1.EMAIL`). */
const NAME = /^(?:[A-Z0-9-]+\.)*[A-Z0-9_-]+$/;

/** RFC 6868 parameter value escapes: ^n newline, ^' double quote, ^^ caret. */
const caret = (v: string) => (v.includes("^") ? v.replace(/\^(['n^])/g, (_, c: string) => (c === "n" ? "\n" : c === "'" ? '"' : "^")) : v);

/**
 * `NAME;P1=v;P2="quoted:v":value`; null when the line has no colon. A quote left open (Exchange
 * writes `DTSTART;TZID="W. Europe Standard Time:20200609T090000"`) is read as a plain character.
 */
export function parseContentLine(text: string, line: number, quotes = true): ContentLine | null {
  let i = 0;
  let quoted = false;
  let cuts: number[] | null = null;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 && quotes) quoted = !quoted;
    else if (!quoted && c === 59) (cuts ??= []).push(i);
    else if (!quoted && c === 58) break;
  }
  if (i >= text.length) return quotes && text.includes('"') ? parseContentLine(text, line, false) : null;
  const nameEnd = cuts ? cuts[0] : i;
  let name = text.slice(0, nameEnd).trim().toUpperCase();
  if (!NAME.test(name)) return null;
  const dot = name.lastIndexOf(".");
  if (dot >= 0) name = name.slice(dot + 1);
  const params = new Map<string, string>();
  if (cuts) {
    for (let k = 0; k < cuts.length; k++) {
      const p = text.slice(cuts[k] + 1, k + 1 < cuts.length ? cuts[k + 1] : i);
      const eq = p.indexOf("=");
      if (eq > 0) {
        const key = p.slice(0, eq).trim().toUpperCase();
        const value = caret(p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1")).replace(quotes ? /^$/ : /"/g, "");
        params.set(key, params.has(key) ? `${params.get(key)},${value}` : value);
      } else if (p.trim()) {
        params.set("TYPE", params.has("TYPE") ? `${params.get("TYPE")},${p.trim()}` : p.trim());
      }
    }
  }
  return { name, params, value: quotes ? text.slice(i + 1) : text.slice(i + 1).replace(/"$/, ""), line };
}

/** TEXT value escapes (RFC 5545 3.3.11, RFC 6350 3.4). */
export const unescapeText = (v: string) => (v.includes("\\") ? v.replace(/\\([\\;,nN:])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c)) : v);

/** Components of a structured value (`a;b\;c;d`), each unescaped and trimmed. */
export function structuredValue(value: string): string[] {
  const parts: string[] = [];
  let cur = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "\\" && i + 1 < value.length) cur += c + value[++i];
    else if (c === ";") {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts.map((p) => unescapeText(p).trim());
}
