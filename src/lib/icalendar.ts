// iCalendar (RFC 5545) files as events, for every reader of calendars: file imports and the live
// calendar sync alike. parseCalendar() reads each VEVENT on its own: a bad event (an impossible
// date, a time zone nobody defines, a line that is no content line, a component never closed) is
// reported with its line and reason and the others are read; a broken line inside a component no
// event needs (VTODO, VJOURNAL, a VALARM) costs nothing. Only a file that is no calendar at all
// fails as a whole (CalendarFileError). Start times are instants (UTC ms): a TZID is resolved by
// icalendar-zones.ts (IANA, the file's own VTIMEZONE, Windows and Lotus names), a floating time or
// an all-day date is read in the `timeZone` given (the user's zone), else in UTC, and counted.
// What an event repeats (RRULE, RDATE, EXDATE, RECURRENCE-ID) is expanded by
// icalendar-recurrence.ts.
import { createHash } from "node:crypto";
import { parseContentLine, unfoldLines, type ContentLine } from "./icalendar-lines.ts";
import { ianaZone, resolveTzid, UTC, vtimezoneZone, wallToInstant, type Wall, type Zone, type ZoneSource } from "./icalendar-zones.ts";

export type CalendarPerson = {
  email: string;
  name: string | null;
  /** ACCEPTED, DECLINED, TENTATIVE, NEEDS-ACTION, DELEGATED; null when not said. */
  partstat: string | null;
  /** INDIVIDUAL, GROUP, RESOURCE, ROOM, UNKNOWN; null when not said. */
  cutype: string | null;
};

/** A date or date-time value: its wall-clock time, the zone it is in, and its instant. */
export type CalendarTime = { wall: Wall; allDay: boolean; zone: Zone; instant: number };

export type CalendarEvent = {
  /** Line of BEGIN:VEVENT. */
  line: number;
  uid: string;
  /** The event has no UID (Outlook's web publishing writes none): `uid` is derived from its DTSTART, SUMMARY and ORGANIZER. */
  derivedUid: boolean;
  /** The occurrence of a series this event replaces (RECURRENCE-ID), as an instant. */
  recurrenceId: CalendarTime | null;
  /** RANGE=THISANDFUTURE: the replacement holds for that occurrence and every later one. */
  thisAndFuture: boolean;
  start: CalendarTime;
  status: string | null;
  /** The METHOD of the VCALENDAR the event came in (`CANCEL` withdraws its events). */
  method: string | null;
  sequence: number;
  organizer: CalendarPerson | null;
  attendees: CalendarPerson[];
  rrules: { value: string; line: number }[];
  rdates: CalendarTime[];
  exdates: CalendarTime[];
};

export type CalendarItemError = { line: number; reason: string };

/** How the start times of the events were read. */
export type TimeReading = Partial<Record<ZoneSource | "utc" | "floating", number>>;

export type ParsedCalendar = {
  events: CalendarEvent[];
  /** Events that could not be read: the line and why. */
  errors: CalendarItemError[];
  times: TimeReading;
  /** The zone floating times and all-day dates were read in. */
  floatingZone: string;
};

/** The text is not an iCalendar file at all: nothing of it was read. */
export class CalendarFileError extends Error {
  constructor(
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "CalendarFileError";
  }
}

/** A problem with one event: it is reported and left out. */
class EventError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export type ParseOptions = {
  /** IANA zone for floating times and all-day dates (the user's); UTC when absent. */
  timeZone?: string | null;
};

type RawEvent = { line: number; props: ContentLine[]; broken: CalendarItemError | null };
type RawCalendar = { method: string | null; timezones: Map<string, string>; events: RawEvent[] };

const DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/i;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/**
 * Reads an iCalendar text. Throws CalendarFileError only when the text is no calendar (its first
 * line is not BEGIN:VCALENDAR); every other problem is an entry of `errors`.
 */
export function parseCalendar(text: string, opts: ParseOptions = {}): ParsedCalendar {
  const lines = unfoldLines(text);
  if (lines.length === 0) throw new CalendarFileError(null, "the file is empty (an iCalendar file starts with BEGIN:VCALENDAR)");
  if (lines[0].text.trim().toUpperCase() !== "BEGIN:VCALENDAR") {
    throw new CalendarFileError(lines[0].line, `not an iCalendar file: it must start with BEGIN:VCALENDAR (got ${JSON.stringify(lines[0].text.slice(0, 60))})`);
  }
  const floatingZone = (opts.timeZone && ianaZone(opts.timeZone)) || UTC;
  const out: ParsedCalendar = { events: [], errors: [], times: {}, floatingZone: floatingZone.kind === "iana" ? floatingZone.name : "UTC" };
  for (const calendar of splitCalendars(lines, out.errors)) readCalendar(calendar, floatingZone, out);
  out.errors.sort((a, b) => a.line - b.line);
  return out;
}

/**
 * The calendars of the file with their raw events and VTIMEZONE texts. Components are matched
 * BEGIN to END; an event left open, or closed by the wrong END, is an error of that event.
 */
function splitCalendars(lines: { text: string; line: number }[], errors: CalendarItemError[]): RawCalendar[] {
  const calendars: RawCalendar[] = [];
  let calendar: RawCalendar | null = null;
  const stack: { name: string; line: number }[] = [];
  let event: RawEvent | null = null;
  let timezone: { tzid: string | null; text: string[] } | null = null;
  const current = () => (calendar ??= (calendars.push({ method: null, timezones: new Map(), events: [] }), calendars.at(-1)!));
  const closeEvent = (problem: CalendarItemError | null) => {
    if (!event) return;
    const e = event;
    event = null;
    const first = e.broken ?? problem;
    if (first) errors.push(first);
    else current().events.push(e);
  };
  for (const { text, line } of lines) {
    const upper = text.trim().toUpperCase();
    const begin = upper.startsWith("BEGIN:") ? upper.slice(6).trim() : null;
    const end = upper.startsWith("END:") ? upper.slice(4).trim() : null;
    if (timezone) timezone.text.push(text);
    if (begin) {
      if (begin === "VCALENDAR") {
        if (event) closeEvent({ line: event.line, reason: `BEGIN:VEVENT has no END:VEVENT before the next BEGIN:VCALENDAR (line ${line})` });
        stack.length = 0;
        calendar = null;
        current();
      } else if (begin === "VEVENT" && event && stack.at(-1)?.name === "VEVENT") {
        closeEvent({ line: event.line, reason: `BEGIN:VEVENT has no END:VEVENT before the next BEGIN:VEVENT (line ${line})` });
        stack.pop();
      }
      stack.push({ name: begin, line });
      if (begin === "VEVENT" && stack.length <= 2) event = { line, props: [], broken: null };
      if (begin === "VTIMEZONE" && !timezone) timezone = { tzid: null, text: [text] };
      continue;
    }
    if (end) {
      const at = stack.map((s) => s.name).lastIndexOf(end);
      if (at < 0) {
        // An END that closes nothing: the open event (if any) is suspect.
        if (event && !event.broken) event.broken = { line, reason: `END:${end} closes nothing open (the event's BEGIN:VEVENT is on line ${event.line})` };
        continue;
      }
      for (const dropped of stack.splice(at + 1)) {
        if (dropped.name === "VEVENT" && event) closeEvent({ line: dropped.line, reason: `BEGIN:VEVENT is never closed (END:${end} of line ${line} closes BEGIN:${end} of line ${stack[at].line} first)` });
      }
      stack.pop();
      if (end === "VEVENT") closeEvent(null);
      else if (end === "VTIMEZONE" && timezone) {
        if (timezone.tzid && !current().timezones.has(timezone.tzid)) current().timezones.set(timezone.tzid, timezone.text.join("\r\n"));
        timezone = null;
      } else if (end === "VCALENDAR") calendar = null;
      continue;
    }
    const depth = stack.length;
    const top = stack.at(-1)?.name;
    if (event && top === "VEVENT") {
      const p = parseContentLine(text, line);
      if (p) event.props.push(p);
      // A broken line of a property no reader uses (X-APPLE-..., SUMMARY, DESCRIPTION) costs nothing;
      // one that may be a time, a rule or a participant makes the event unreliable.
      else if (!event.broken && READ.test(text)) event.broken = { line, reason: `not an iCalendar content line (NAME:value): ${JSON.stringify(text.slice(0, 60))}` };
    } else if (top === "VTIMEZONE" && timezone && depth >= 1) {
      const p = parseContentLine(text, line);
      if (p?.name === "TZID") timezone.tzid = cleanTzidValue(p.value);
    } else if (top === "VCALENDAR") {
      const p = parseContentLine(text, line);
      if (p?.name === "METHOD") current().method = p.value.trim().toUpperCase();
    }
    // Anything else (lines of VTODO, VALARM, VJOURNAL, X- components, or between calendars) is not read.
  }
  if (event) closeEvent({ line: (event as RawEvent).line, reason: "BEGIN:VEVENT is never closed (END:VEVENT missing; the file may be cut short)" });
  return calendars;
}

/** The properties an event is read from (a broken line of one of them makes the event unreadable). */
const READ = /^\s*(?:[\w-]+\.)?(?:UID|DTSTART|RECURRENCE-ID|RRULE|RDATE|EXDATE|STATUS|SEQUENCE|ORGANIZER|ATTENDEE)\b/i;

const cleanTzidValue = (v: string) => v.trim().replace(/^"(.*)"$/, "$1").replace(/\\([,;\\])/g, "$1").trim();

function readCalendar(calendar: RawCalendar, floating: Zone, out: ParsedCalendar) {
  const zones = new Map<string, Zone | null>();
  const vtimezone = (tzid: string) => {
    if (!zones.has(tzid)) {
      const text = calendar.timezones.get(tzid);
      zones.set(tzid, text ? vtimezoneZone(text, tzid) : null);
    }
    return zones.get(tzid)!;
  };
  const resolved = new Map<string, ReturnType<typeof resolveTzid>>();
  const zoneOf = (tzid: string) => {
    if (!resolved.has(tzid)) resolved.set(tzid, resolveTzid(tzid, vtimezone));
    return resolved.get(tzid)!;
  };
  for (const raw of calendar.events) {
    try {
      out.events.push(toEvent(raw, calendar.method, zoneOf, floating, out.times));
    } catch (error) {
      if (!(error instanceof EventError)) throw error;
      out.errors.push({ line: error.line, reason: error.reason });
    }
  }
}

/** A DATE or DATE-TIME value (one of a list) in the zone its TZID names, or UTC (`Z`), or floating. */
function readTime(
  value: string,
  prop: ContentLine,
  zoneOf: (tzid: string) => ReturnType<typeof resolveTzid>,
  floating: Zone,
  times?: TimeReading,
): CalendarTime {
  const v = value.trim();
  const m = DATE_TIME.exec(v);
  const shown = JSON.stringify(v.slice(0, 40));
  if (!m) throw new EventError(prop.line, `${prop.name} ${shown} is not an iCalendar date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS)`);
  const wall: Wall = { year: +m[1], month: +m[2], day: +m[3], hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0) };
  if (wall.month < 1 || wall.month > 12) throw new EventError(prop.line, `${prop.name} ${shown}: there is no month ${wall.month}`);
  const days = wall.month === 2 && !leap(wall.year) ? 28 : DAYS[wall.month - 1];
  if (wall.day < 1 || wall.day > days) throw new EventError(prop.line, `${prop.name} ${shown}: ${MONTHS[wall.month - 1]} ${wall.year} has no day ${wall.day}`);
  if (wall.hour > 23 || wall.minute > 59 || wall.second > 60) throw new EventError(prop.line, `${prop.name} ${shown}: not a time of day`);
  wall.second = Math.min(wall.second, 59);
  const allDay = m[4] === undefined;
  let zone: Zone;
  const tzid = prop.params.get("TZID");
  if (m[7]) {
    zone = UTC;
    if (times) times.utc = (times.utc ?? 0) + 1;
  } else if (tzid && !allDay) {
    const found = zoneOf(tzid);
    if (!found) {
      throw new EventError(prop.line, `${prop.name}: the time zone ${JSON.stringify(tzid.slice(0, 80))} is not defined in the file (VTIMEZONE) and is no IANA, Windows or Lotus zone name`);
    }
    zone = found.zone;
    if (times) times[found.source] = (times[found.source] ?? 0) + 1;
  } else {
    zone = floating;
    if (times) times.floating = (times.floating ?? 0) + 1;
  }
  return { wall, allDay, zone, instant: wallToInstant(wall, zone) };
}

function calendarPerson(p: ContentLine, normalizeEmail: (raw: string) => string | null): CalendarPerson | null {
  const value = p.value.trim();
  const email = normalizeEmail(/^mailto:/i.test(value) ? value.slice(7) : (p.params.get("EMAIL") ?? value));
  if (!email) return null;
  const cn = p.params.get("CN")?.trim() || null;
  return {
    email,
    name: cn && normalizeEmail(cn) === null ? cn : null,
    partstat: p.params.get("PARTSTAT")?.trim().toUpperCase() || null,
    cutype: p.params.get("CUTYPE")?.trim().toUpperCase() || null,
  };
}

const EMAIL = /^[^\s@<>",;:]+@[^\s@<>",;:]+\.[^\s@<>",;:]+$/;
/** A lower-cased address, or null when the value is none. */
export function calendarAddress(raw: string | null | undefined): string | null {
  const email = raw?.trim().toLowerCase();
  return email && EMAIL.test(email) ? email : null;
}

/** Properties an event has at most once; a second one makes the event ambiguous. */
const SINGLE = ["UID", "DTSTART", "RECURRENCE-ID", "STATUS"];

function toEvent(raw: RawEvent, method: string | null, zoneOf: (tzid: string) => ReturnType<typeof resolveTzid>, floating: Zone, times: TimeReading): CalendarEvent {
  const byName = new Map<string, ContentLine[]>();
  for (const p of raw.props) {
    const list = byName.get(p.name);
    if (list) list.push(p);
    else byName.set(p.name, [p]);
  }
  for (const name of SINGLE) {
    const list = byName.get(name);
    if (list && list.length > 1) throw new EventError(list[1].line, `${name} appears twice in the event (lines ${list[0].line} and ${list[1].line})`);
  }
  const one = (name: string) => byName.get(name)?.[0];
  const dtstart = one("DTSTART");
  if (!dtstart) throw new EventError(raw.line, `the event${one("UID") ? ` ${one("UID")!.value.trim()}` : ""} has no DTSTART`);
  const start = readTime(dtstart.value, dtstart, zoneOf, floating, times);
  let uid = one("UID")?.value.trim() ?? "";
  const derivedUid = uid === "";
  if (derivedUid) {
    const basis = [dtstart.value.trim(), dtstart.params.get("TZID") ?? "", one("SUMMARY")?.value ?? "", one("ORGANIZER")?.value ?? ""].join("\n");
    uid = `derived-${createHash("sha256").update(basis).digest("hex").slice(0, 32)}`;
  }
  const rid = one("RECURRENCE-ID");
  const list = (name: string) =>
    (byName.get(name) ?? []).flatMap((p) =>
      p.value
        .split(",")
        .filter((v) => v.trim() !== "")
        .map((v) => readTime(v.split("/")[0], p, zoneOf, floating)),
    );
  const sequence = Number.parseInt(one("SEQUENCE")?.value.trim() ?? "0", 10);
  const person = (p: ContentLine) => calendarPerson(p, calendarAddress);
  return {
    line: raw.line,
    uid,
    derivedUid,
    recurrenceId: rid ? readTime(rid.value, rid, zoneOf, floating) : null,
    thisAndFuture: rid?.params.get("RANGE")?.toUpperCase() === "THISANDFUTURE",
    start,
    status: one("STATUS")?.value.trim().toUpperCase() || null,
    method,
    sequence: Number.isFinite(sequence) ? sequence : 0,
    organizer: one("ORGANIZER") ? person(one("ORGANIZER")!) : null,
    attendees: (byName.get("ATTENDEE") ?? []).map(person).filter((a): a is CalendarPerson => a !== null),
    rrules: (byName.get("RRULE") ?? []).map((p) => ({ value: p.value.trim(), line: p.line })),
    rdates: list("RDATE"),
    exdates: list("EXDATE"),
  };
}
