// The occurrences of a calendar's events up to now: a single event once; a series (RRULE, RDATE)
// at every instance from its DTSTART up to `now`, without its EXDATEs, each instance replaced by
// the event carrying its RECURRENCE-ID (moved, cancelled, other attendees; RANGE=THISANDFUTURE
// for that one and every later one). Future instances of a series are never produced.
//
// Rules are iterated by ical.js in the series' wall-clock time (a 09:00 meeting stays at 09:00
// across daylight saving time), each instance then placed in the series' zone. ical.js loops
// forever on rules that can never match (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30, a numbered BYDAY
// under DAILY): such rules, and rules that repeat more often than daily (no meeting does), are
// refused before iterating, and a series is cut off with an error past MAX_PAST_OCCURRENCES.
import ICAL from "ical.js";
import type { CalendarEvent, CalendarItemError, CalendarPerson, CalendarTime } from "./icalendar.ts";
import { instantToWall, wallToInstant, type Wall } from "./icalendar-zones.ts";

export type Occurrence = {
  uid: string;
  /** Line of the VEVENT the occurrence's details come from (the master, or the exception). */
  line: number;
  /** The instance of a series this is (its original start); null for an event that does not repeat. */
  recurrenceId: number | null;
  /** The series' own first start (DTSTART); null for an event that does not repeat. */
  seriesStart: number | null;
  /** When it takes place (an exception may move it). */
  start: number;
  status: string | null;
  method: string | null;
  organizer: CalendarPerson | null;
  attendees: CalendarPerson[];
};

/** More past instances than this in one series (a daily meeting for 50 years) is no meeting series. */
export const MAX_PAST_OCCURRENCES = 20_000;

export type Expansion = {
  occurrences: Occurrence[];
  /** Series left out (a rule that cannot be read or never ends), with line and reason. */
  errors: CalendarItemError[];
  /** Events replaced by a later version of the same UID (higher SEQUENCE). */
  superseded: CalendarEvent[];
  /** Series whose instances all lie after `now`. */
  futureSeries: CalendarEvent[];
  /**
   * The earliest start after `now` of anything that will count once it has happened (a series'
   * next instance, a meeting still ahead); null when nothing is ahead. A calendar sync reads the
   * event again then, so each occurrence of a series counts as it passes.
   */
  nextStart: number | null;
};

class RuleError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const ALLOWED_FREQ = new Set(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Parts of a rule (upper-cased names), as written. */
function ruleParts(value: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of value.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) parts.set(part.slice(0, eq).trim().toUpperCase(), part.slice(eq + 1).trim().toUpperCase());
  }
  return parts;
}

const ints = (v: string | undefined) => (v ? v.split(",").map((x) => Number.parseInt(x, 10)) : []);

/** Refuses what ical.js cannot iterate safely, and what no meeting series is. */
function checkRule(value: string, line: number): Map<string, string> {
  const parts = ruleParts(value);
  const freq = parts.get("FREQ");
  if (!freq) throw new RuleError(line, `RRULE ${JSON.stringify(value.slice(0, 80))} has no FREQ`);
  if (!ALLOWED_FREQ.has(freq)) {
    if (["SECONDLY", "MINUTELY", "HOURLY"].includes(freq)) throw new RuleError(line, `RRULE FREQ=${freq} repeats more often than daily: not read as meetings`);
    throw new RuleError(line, `RRULE FREQ=${JSON.stringify(freq.slice(0, 20))} is not an iCalendar frequency`);
  }
  const notWith = (part: string, freqs: string[], why: string) => {
    if (parts.has(part) && freqs.includes(freq)) throw new RuleError(line, `RRULE ${part} with FREQ=${freq}: ${why}`);
  };
  notWith("BYWEEKNO", ["DAILY", "WEEKLY", "MONTHLY"], "BYWEEKNO is only allowed with FREQ=YEARLY (RFC 5545)");
  notWith("BYYEARDAY", ["DAILY", "WEEKLY", "MONTHLY"], "BYYEARDAY is not allowed with this frequency (RFC 5545)");
  notWith("BYMONTHDAY", ["WEEKLY"], "BYMONTHDAY is not allowed with FREQ=WEEKLY (RFC 5545)");
  if ((freq === "DAILY" || freq === "WEEKLY") && /[+-]?\d/.test(parts.get("BYDAY") ?? "")) {
    throw new RuleError(line, `RRULE BYDAY=${parts.get("BYDAY")} with FREQ=${freq}: a numbered weekday is only allowed with MONTHLY or YEARLY (RFC 5545)`);
  }
  const monthDays = ints(parts.get("BYMONTHDAY"));
  if (monthDays.some((d) => !Number.isInteger(d) || d === 0 || Math.abs(d) > 31)) throw new RuleError(line, `RRULE BYMONTHDAY=${parts.get("BYMONTHDAY")} is not a day of a month`);
  const months = ints(parts.get("BYMONTH"));
  if (months.some((m) => !Number.isInteger(m) || m < 1 || m > 12)) throw new RuleError(line, `RRULE BYMONTH=${parts.get("BYMONTH")} is not a month`);
  if (monthDays.length) {
    const inMonths = months.length ? months : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const possible = inMonths.some((m) => monthDays.some((d) => Math.abs(d) <= MONTH_DAYS[m - 1]));
    if (!possible) throw new RuleError(line, `RRULE ${value.slice(0, 80)} can never occur (no such day in those months)`);
  }
  const interval = parts.get("INTERVAL");
  if (interval !== undefined && !(Number.parseInt(interval, 10) >= 1)) throw new RuleError(line, `RRULE INTERVAL=${interval} is not a positive whole number`);
  return parts;
}

const icalTime = (w: Wall, isDate: boolean) => ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: isDate ? 0 : w.hour, minute: isDate ? 0 : w.minute, second: isDate ? 0 : w.second, isDate });

/** The UNTIL of a rule as a wall-clock time of the series (`Z` is an instant, else wall time; a DATE ends that day). */
function untilWall(raw: string, start: CalendarTime, line: number): Wall {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/i.exec(raw);
  if (!m) throw new RuleError(line, `RRULE UNTIL=${JSON.stringify(raw.slice(0, 30))} is not a date or date-time`);
  const wall: Wall = { year: +m[1], month: +m[2], day: +m[3], hour: +(m[4] ?? 23), minute: +(m[5] ?? 59), second: +(m[6] ?? 59) };
  if (m[7]) return instantToWall(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second), start.zone);
  return wall;
}

/** How many instances past `now` are looked at for the next one (all of them excluded: none ahead). */
const MAX_LOOKAHEAD = 1_000;

/**
 * The instants of a series from DTSTART up to `now` (inclusive), without its EXDATEs, and its
 * first instance after `now` (null when the series has ended).
 */
function seriesInstants(master: CalendarEvent, now: number): { instants: number[]; next: number | null } {
  const start = master.start;
  const found = new Set<number>([start.instant]);
  const excludedDays = new Set(master.exdates.filter((x) => x.allDay && !start.allDay).map((x) => `${x.wall.year}-${x.wall.month}-${x.wall.day}`));
  const excluded = new Set(master.exdates.map((x) => x.instant));
  const isExcluded = (t: number) => {
    if (excluded.has(t)) return true;
    if (excludedDays.size === 0) return false;
    const w = instantToWall(t, start.zone);
    return excludedDays.has(`${w.year}-${w.month}-${w.day}`);
  };
  let next: number | null = start.instant > now ? start.instant : null;
  const ahead = (t: number) => {
    if (t > now && !isExcluded(t) && (next === null || t < next)) next = t;
  };
  for (const rule of master.rrules) {
    const parts = checkRule(rule.value, rule.line);
    let recur: ICAL.Recur;
    try {
      recur = ICAL.Recur.fromString(rule.value);
    } catch (error) {
      throw new RuleError(rule.line, `RRULE ${JSON.stringify(rule.value.slice(0, 80))} cannot be read: ${(error as Error).message}`);
    }
    const until = parts.get("UNTIL");
    if (until) recur.until = icalTime(untilWall(until, start, rule.line), start.allDay);
    let iterator: ICAL.RecurIterator;
    try {
      iterator = recur.iterator(icalTime(start.wall, start.allDay));
      for (let next = iterator.next(); next; next = iterator.next()) {
        const at = wallToInstant({ year: next.year, month: next.month, day: next.day, hour: next.hour, minute: next.minute, second: next.second }, start.zone);
        if (at > now) {
          // The first instance ahead that is not excluded; the rule's later ones come after it.
          let looked = 0;
          for (let t: number | null = at; t !== null && looked < MAX_LOOKAHEAD; looked++) {
            if (!isExcluded(t)) {
              ahead(t);
              break;
            }
            const more = iterator.next();
            t = more ? wallToInstant({ year: more.year, month: more.month, day: more.day, hour: more.hour, minute: more.minute, second: more.second }, start.zone) : null;
          }
          break;
        }
        found.add(at);
        if (found.size > MAX_PAST_OCCURRENCES) {
          throw new RuleError(rule.line, `the series repeats more than ${MAX_PAST_OCCURRENCES.toLocaleString("en-US")} times up to now: not read as meetings`);
        }
      }
    } catch (error) {
      if (error instanceof RuleError) throw error;
      throw new RuleError(rule.line, `RRULE ${JSON.stringify(rule.value.slice(0, 80))} cannot be expanded: ${(error as Error).message}`);
    }
  }
  for (const rdate of master.rdates) {
    if (rdate.instant <= now) found.add(rdate.instant);
    else ahead(rdate.instant);
  }
  const instants = [...found].filter((t) => !isExcluded(t)).sort((a, b) => a - b);
  return { instants, next };
}

const details = (e: CalendarEvent) => ({ line: e.line, status: e.status, method: e.method, organizer: e.organizer, attendees: e.attendees });

/** The latest version of each (UID, RECURRENCE-ID): the highest SEQUENCE, the later one in the file on a tie. */
function latest(events: CalendarEvent[], superseded: CalendarEvent[]): CalendarEvent[] {
  const byKey = new Map<string, CalendarEvent>();
  for (const e of events) {
    const key = `${e.uid}\u0000${e.recurrenceId?.instant ?? ""}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, e);
    else if (e.sequence >= seen.sequence) {
      superseded.push(seen);
      byKey.set(key, e);
    } else superseded.push(e);
  }
  return [...byKey.values()];
}

/** Every occurrence up to `now` of the events of a calendar (grouped by UID, in the order their series first appear). */
export function expandOccurrences(events: CalendarEvent[], now: number): Expansion {
  const out: Expansion = { occurrences: [], errors: [], superseded: [], futureSeries: [], nextStart: null };
  const ahead = (t: number) => {
    if (t > now && (out.nextStart === null || t < out.nextStart)) out.nextStart = t;
  };
  const groups = new Map<string, CalendarEvent[]>();
  for (const e of latest(events, out.superseded)) {
    const list = groups.get(e.uid);
    if (list) list.push(e);
    else groups.set(e.uid, [e]);
  }
  for (const [uid, group] of groups) {
    const master = group.find((e) => e.recurrenceId === null);
    const exceptions = group.filter((e) => e.recurrenceId !== null).sort((a, b) => a.recurrenceId!.instant - b.recurrenceId!.instant);
    const repeats = master && (master.rrules.length > 0 || master.rdates.length > 0);
    if (!master || !repeats) {
      // A single event, and any exception standing alone (an invitation to one instance of a series).
      if (master) out.occurrences.push({ uid, recurrenceId: null, seriesStart: null, start: master.start.instant, ...details(master) });
      for (const x of exceptions) {
        if (master && x.recurrenceId!.instant === master.start.instant) {
          // It replaces the one instance there is.
          const at = out.occurrences.findLastIndex((o) => o.uid === uid && o.recurrenceId === null);
          out.occurrences[at] = { uid, recurrenceId: null, seriesStart: null, start: x.start.instant, ...details(x) };
        } else out.occurrences.push({ uid, recurrenceId: x.recurrenceId!.instant, seriesStart: null, start: x.start.instant, ...details(x) });
      }
      continue;
    }
    let instants: number[];
    try {
      const series = seriesInstants(master, now);
      instants = series.instants;
      if (series.next !== null) {
        // Where the next instance takes place: its own exception, else shifted by the latest THISANDFUTURE one.
        const own = exceptions.find((x) => !x.thisAndFuture && x.recurrenceId!.instant === series.next);
        const range = exceptions.filter((x) => x.thisAndFuture && x.recurrenceId!.instant <= series.next!).at(-1);
        ahead(own ? own.start.instant : range ? series.next + range.start.instant - range.recurrenceId!.instant : series.next);
      }
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      out.errors.push({ line: error.line, reason: error.reason });
      continue;
    }
    const exact = new Map(exceptions.filter((x) => !x.thisAndFuture).map((x) => [x.recurrenceId!.instant, x]));
    const ranges = exceptions.filter((x) => x.thisAndFuture);
    const seriesStart = master.start.instant;
    let produced = 0;
    for (const instant of instants) {
      const x = exact.get(instant);
      exact.delete(instant);
      if (x) {
        out.occurrences.push({ uid, recurrenceId: instant, seriesStart, start: x.start.instant, ...details(x) });
        produced++;
        continue;
      }
      // The latest THISANDFUTURE exception at or before this instance shifts it and gives its details.
      const range = ranges.filter((r) => r.recurrenceId!.instant <= instant).at(-1);
      const shift = range ? range.start.instant - range.recurrenceId!.instant : 0;
      out.occurrences.push({ uid, recurrenceId: instant, seriesStart, start: instant + shift, ...details(range ?? master) });
      produced++;
    }
    // Exceptions of instances the rule did not produce up to now: an instance moved here from the
    // future, or one the rule (as read) does not generate. Each is still a meeting of the series.
    for (const [instant, x] of exact) {
      if (master.exdates.some((d) => d.instant === instant)) continue;
      out.occurrences.push({ uid, recurrenceId: instant, seriesStart, start: x.start.instant, ...details(x) });
      produced++;
    }
    if (produced === 0) out.futureSeries.push(master);
  }
  // Single events and exceptions still ahead are occurrences too (they count once past).
  for (const o of out.occurrences) ahead(o.start);
  return out;
}
