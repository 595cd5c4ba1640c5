// iCalendar files (RFC 5545): the VEVENTs with what the network needs (UID, RECURRENCE-ID,
// DTSTART, STATUS, ORGANIZER, ATTENDEEs with CN, PARTSTAT and CUTYPE, whether it recurs).
// Lines are unfolded first; each property keeps the line it starts on, for error messages.
// Properties of nested components (a VALARM's ATTENDEE is an address to remind, not a guest)
// are not the event's.
import { readFileSync } from "node:fs";
import { normalizeEmail } from "../network.identity.ts";
import { ImportError } from "./errors.ts";
import { parseIcalDateTime } from "./ical-time.ts";

export type Property = { name: string; params: Map<string, string>; value: string; line: number };

export type CalendarPerson = { email: string; name: string | null; partstat: string | null; cutype: string | null };

export type CalendarEvent = {
  line: number;
  uid: string;
  recurrenceId: string | null;
  start: Date;
  status: string | null;
  /** The METHOD of the VCALENDAR the event came in (`CANCEL` withdraws the events it carries). */
  method: string | null;
  recurring: boolean;
  organizer: CalendarPerson | null;
  attendees: CalendarPerson[];
};

/** Unfolded content lines with the line each starts on (RFC 5545 3.1: CRLF + space or tab continues). */
export function unfold(text: string): { text: string; line: number }[] {
  const raw = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const out: { text: string; line: number }[] = [];
  for (let i = 0; i < raw.length; i++) {
    const l = raw[i];
    if ((l.startsWith(" ") || l.startsWith("\t")) && out.length > 0) out[out.length - 1].text += l.slice(1);
    else if (l.trim() !== "") out.push({ text: l, line: i + 1 });
  }
  return out;
}

/** `NAME;P1=v;P2="quoted:v":value`, names and parameter names upper-cased; null when there is no colon. */
export function parseProperty(text: string, line: number): Property | null {
  let i = 0;
  let quoted = false;
  const cut: number[] = [];
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ";") cut.push(i);
    else if (!quoted && c === ":") break;
  }
  if (i >= text.length) return null;
  const head = text.slice(0, i);
  const parts = [0, ...cut.map((c) => c + 1)].map((start, k) => head.slice(start, k < cut.length ? cut[k] : head.length));
  const name = parts[0].trim().toUpperCase();
  const params = new Map<string, string>();
  for (const p of parts.slice(1)) {
    const eq = p.indexOf("=");
    if (eq > 0) params.set(p.slice(0, eq).trim().toUpperCase(), p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1"));
  }
  // vCard 4 / iCalendar group prefixes (`item1.EMAIL`) name the same property.
  return { name: name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : name, params, value: text.slice(i + 1), line };
}

/** TEXT value escapes (RFC 5545 3.3.11). */
export const unescapeText = (v: string) => v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));

function calendarPerson(p: Property): CalendarPerson | null {
  const value = p.value.trim();
  const email = normalizeEmail(/^mailto:/i.test(value) ? value : (p.params.get("EMAIL") ?? value));
  if (!email) return null;
  const name = p.params.get("CN")?.trim() || null;
  return {
    email,
    name: name && normalizeEmail(name) === null ? name : null,
    partstat: p.params.get("PARTSTAT")?.toUpperCase() ?? null,
    cutype: p.params.get("CUTYPE")?.toUpperCase() ?? null,
  };
}

/** Every VEVENT of an .ics file. Throws ImportError (file:line) on a file that is not a calendar or an event without UID/DTSTART. */
export function readIcs(path: string, file = path): CalendarEvent[] {
  const lines = unfold(readFileSync(path, "utf8"));
  if (lines.length === 0 || lines[0].text.trim().toUpperCase() !== "BEGIN:VCALENDAR") {
    throw new ImportError(file, lines[0]?.line ?? 1, "not an iCalendar file: it must start with BEGIN:VCALENDAR");
  }
  const events: CalendarEvent[] = [];
  const stack: { name: string; line: number }[] = [];
  let props: Property[] = [];
  // The METHOD of the open VCALENDAR (it may come after its events), and where its events start.
  let method: string | null = null;
  let calendarStart = 0;
  for (const { text, line } of lines) {
    const p = parseProperty(text, line);
    if (!p) throw new ImportError(file, line, `not an iCalendar content line (NAME:value): ${JSON.stringify(text.slice(0, 60))}`);
    if (p.name === "BEGIN") {
      stack.push({ name: p.value.trim().toUpperCase(), line });
      if (stack.at(-1)!.name === "VEVENT") props = [];
      if (stack.at(-1)!.name === "VCALENDAR") (method = null), (calendarStart = events.length);
      continue;
    }
    if (p.name === "END") {
      const name = p.value.trim().toUpperCase();
      const open = stack.pop();
      if (!open || open.name !== name) {
        throw new ImportError(file, line, open ? `END:${name} closes BEGIN:${open.name} of line ${open.line}` : `END:${name} without a BEGIN`);
      }
      if (name === "VEVENT") events.push(toEvent(props, open.line, file));
      if (name === "VCALENDAR") for (let i = calendarStart; i < events.length; i++) events[i].method = method;
      continue;
    }
    if (stack.at(-1)?.name === "VEVENT") props.push(p);
    else if (stack.at(-1)?.name === "VCALENDAR" && p.name === "METHOD") method = p.value.trim().toUpperCase();
  }
  if (stack.length > 0) {
    const open = stack.at(-1)!;
    throw new ImportError(file, open.line, `BEGIN:${open.name} is never closed (END:${open.name} missing)`);
  }
  return events;
}

function toEvent(props: Property[], line: number, file: string): CalendarEvent {
  const one = (name: string) => props.find((p) => p.name === name);
  const uid = one("UID")?.value.trim();
  if (!uid) throw new ImportError(file, line, "the event (BEGIN:VEVENT) has no UID");
  const dtstart = one("DTSTART");
  if (!dtstart) throw new ImportError(file, line, `the event ${uid} has no DTSTART`);
  const start = parseIcalDateTime(dtstart.value, dtstart.params.get("TZID"));
  if (!start) throw new ImportError(file, dtstart.line, `DTSTART ${JSON.stringify(dtstart.value.slice(0, 40))} is not an iCalendar date or date-time`);
  const rid = one("RECURRENCE-ID");
  let recurrenceId: string | null = null;
  if (rid) {
    const at = parseIcalDateTime(rid.value, rid.params.get("TZID"));
    recurrenceId = at ? at.toISOString() : rid.value.trim();
  }
  const organizerProp = one("ORGANIZER");
  return {
    line,
    uid,
    recurrenceId,
    start,
    status: one("STATUS")?.value.trim().toUpperCase() ?? null,
    method: null,
    recurring: props.some((p) => p.name === "RRULE" || p.name === "RDATE"),
    organizer: organizerProp ? calendarPerson(organizerProp) : null,
    attendees: props.filter((p) => p.name === "ATTENDEE").map(calendarPerson).filter((a): a is CalendarPerson => a !== null),
  };
}
