// Time zones of iCalendar date-times: which zone a TZID names, and wall-clock time <-> instant in it.
// A TZID is resolved, in order, as: an IANA name (through Intl, the IANA database Bun ships:
// full history), the file's own VTIMEZONE of that TZID (ical.js computes its offsets: Outlook's
// "Customized Time Zone", Exchange's display names, Lotus short names), a Windows zone id or a
// Windows display name ("(GMT-05:00) Eastern Time (US & Canada)", "(UTC+07:00) Bangkok, Hanoi,
// Jakarta") through the CLDR windowsZones table (and the Windows XP-era ids it has dropped), a Lotus-style short name ("Eastern", "W. Europe")
// as that Windows zone, and a path ending in an IANA name (`/mozilla.org/20050126_1/Europe/London`).
// Anything else is unknown: the caller reports it rather than guessing an offset.
import ICAL from "ical.js";
import { LEGACY_WINDOWS_ZONES, WINDOWS_ZONES } from "./icalendar-windows-zones.ts";

/** A wall-clock time; month 1-12. */
export type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

export type Zone =
  | { kind: "utc" }
  | { kind: "iana"; name: string; format: Intl.DateTimeFormat }
  | {
      kind: "vtimezone";
      tzid: string;
      tz: ICAL.Timezone;
      /** The definition's first onset (wall ms) and the offset before it (ms, its TZOFFSETFROM); null when it has none. */
      first: { wall: number; offsetBefore: number } | null;
    };

export const UTC: Zone = { kind: "utc" };

const formats = new Map<string, Intl.DateTimeFormat | null>();

/** The zone of an IANA name Intl knows (aliases such as Asia/Calcutta included); null otherwise. */
export function ianaZone(name: string): Zone | null {
  let f = formats.get(name);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: name,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      f = null;
    }
    formats.set(name, f);
  }
  return f ? { kind: "iana", name, format: f } : null;
}

const wallMs = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

function wallOf(ms: number): Wall {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

/** Milliseconds the IANA zone is ahead of UTC at `t`, straight from Intl (~3 µs). */
function intlOffset(format: Intl.DateTimeFormat, t: number): number {
  const p: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(t))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second) - Math.floor(t / 1000) * 1000;
}

const QUARTER_HOUR = 15 * 60_000;
const WEEK = 7 * 86_400_000;
/** Per zone and UTC year: where the offset changes ([start, offset] from the year's start), found once. */
const transitions = new Map<Intl.DateTimeFormat, Map<number, [number, number][]>>();

/**
 * The offsets of one UTC year: sampled weekly, each change located by bisection to the quarter
 * hour (every zone's offsets and changes fall on quarter hours). A series of hundreds of meetings
 * then costs a lookup each instead of two Intl calls.
 */
function yearOffsets(format: Intl.DateTimeFormat, year: number): [number, number][] {
  let years = transitions.get(format);
  if (!years) transitions.set(format, (years = new Map()));
  let list = years.get(year);
  if (list) return list;
  const from = Date.UTC(year, 0, 1);
  const to = Date.UTC(year + 1, 0, 1);
  list = [[from, intlOffset(format, from)]];
  let prev = from;
  let prevOffset = list[0][1];
  for (let t = Math.min(from + WEEK, to); ; t = Math.min(t + WEEK, to)) {
    const offset = intlOffset(format, t);
    if (offset !== prevOffset) {
      let lo = prev;
      let hi = t;
      while (hi - lo > QUARTER_HOUR) {
        const mid = lo + Math.floor((hi - lo) / 2 / QUARTER_HOUR) * QUARTER_HOUR || lo + QUARTER_HOUR;
        if (intlOffset(format, mid) === prevOffset) lo = mid;
        else hi = mid;
      }
      list.push([hi, offset]);
      prevOffset = offset;
    }
    prev = t;
    if (t >= to) break;
  }
  years.set(year, list);
  return list;
}

/** Milliseconds the zone is ahead of UTC at the instant `t`. */
function offsetAtInstant(zone: Zone, t: number): number {
  if (zone.kind === "utc") return 0;
  if (zone.kind === "iana") {
    const list = yearOffsets(zone.format, new Date(t).getUTCFullYear());
    let offset = list[0][1];
    for (const [start, o] of list) {
      if (start > t) break;
      offset = o;
    }
    return offset;
  }
  // ical.js answers for a local time: look it up at the wall time the instant would have at
  // that offset, twice (settles around a change).
  const first = vtimezoneOffset(zone, t);
  return vtimezoneOffset(zone, t + first);
}

/**
 * Milliseconds ahead of UTC at a wall time, from a VTIMEZONE. Before the definition's first onset
 * ical.js answers 0 (UTC); the offset then is the one the first onset changes from.
 */
function vtimezoneOffset(zone: Extract<Zone, { kind: "vtimezone" }>, wall: number): number {
  if (zone.first && wall < zone.first.wall) return zone.first.offsetBefore;
  return zone.tz.utcOffset(ICAL.Time.fromData({ ...wallOf(wall), isDate: false })) * 1000;
}

/** Milliseconds ahead of UTC for a wall-clock time in the zone (the usual two-step fix-up around changes). */
function offsetAtWall(zone: Zone, wall: number): number {
  if (zone.kind === "utc") return 0;
  if (zone.kind === "vtimezone") return vtimezoneOffset(zone, wall);
  const guess = offsetAtInstant(zone, wall);
  const second = offsetAtInstant(zone, wall - guess);
  return second;
}

/** The instant (ms since the epoch) of a wall-clock time in a zone. */
export function wallToInstant(w: Wall, zone: Zone): number {
  const wall = wallMs(w);
  return wall - offsetAtWall(zone, wall);
}

/** The wall-clock time of an instant in a zone. */
export function instantToWall(t: number, zone: Zone): Wall {
  return wallOf(t + offsetAtInstant(zone, t));
}

// --- names ------------------------------------------------------------------------------------------

const STOP = new Set(["time", "standard", "and", "the", "of", "is", "zone", "mean"]);
const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, " and ")
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1 && !STOP.has(w));

/** `(UTC+05:30) ...`, `(GMT-05:00) ...`, `(GMT+01.00) ...`, `(UTC) ...`: minutes east of UTC and the rest. */
function displayOffset(name: string): { minutes: number; rest: string } | null {
  const m = /^\(?\s*(?:UTC|GMT)\s*(?:([+-])\s*(\d{1,2})(?:[:.]?(\d{2}))?)?\s*\)\s*(.*)$/i.exec(name.trim());
  if (!m) return null;
  const minutes = m[1] ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
  return { minutes, rest: m[4] };
}

// Today's ids first: an XP-era display name shares words with its successor's, and a tie goes to the first.
const ALL_WINDOWS_ZONES = [...WINDOWS_ZONES, ...LEGACY_WINDOWS_ZONES];
const byWindowsId = new Map(ALL_WINDOWS_ZONES.map(([, id, iana]) => [id.toLowerCase(), iana]));
const byOffset = new Map<number, { words: Set<string>; iana: string }[]>();
for (const [display, , iana] of ALL_WINDOWS_ZONES) {
  const d = displayOffset(display)!;
  const list = byOffset.get(d.minutes) ?? [];
  list.push({ words: new Set(words(d.rest)), iana });
  byOffset.set(d.minutes, list);
}

/** `+05:30` for minutes east of UTC: a zone Intl reads as that fixed offset. */
const offsetName = (minutes: number) => `${minutes < 0 ? "-" : "+"}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0")}:${String(Math.abs(minutes) % 60).padStart(2, "0")}`;

/**
 * The IANA zone of a Windows zone id ("W. Europe Standard Time"), a Windows display name (its
 * offset must agree, and its places: the one sharing the most words; without an offset, at least
 * two places), or a Lotus-style short name ("Eastern" for "Eastern Standard Time"); null when it
 * is none of these.
 */
export function windowsZoneToIana(name: string): string | null {
  const key = name.trim().toLowerCase();
  const direct = byWindowsId.get(key) ?? byWindowsId.get(`${key} standard time`);
  if (direct) return direct;
  const d = displayOffset(name);
  const mine = words(d ? d.rest : name);
  const candidates = d ? (byOffset.get(d.minutes) ?? []) : [...byOffset.values()].flat();
  let best: { iana: string; shared: number } | null = null;
  for (const entry of candidates) {
    const shared = mine.filter((w) => entry.words.has(w)).length;
    if (shared > 0 && (!best || shared > best.shared)) best = { iana: entry.iana, shared };
  }
  return best && (d || best.shared >= 2) ? best.iana : null;
}

/** A name that is only an offset (`UTC+01`, `GMT-5`, `(GMT +01:00)`): that fixed offset, as the name says. */
function offsetOnly(name: string): Zone | null {
  const d = displayOffset(/^\(/.test(name) ? name : `(${name.replace(/^(UTC|GMT)/i, "$1 ")})`);
  if (!d || words(d.rest).length > 0 || Math.abs(d.minutes) > 14 * 60) return null;
  return d.minutes === 0 ? UTC : ianaZone(offsetName(d.minutes));
}

/** How a TZID was read (the import summary counts them). */
export type ZoneSource = "iana" | "vtimezone" | "windows" | "path" | "offset";

/** A TZID as the calendar writes it: quotes and TEXT escapes (Exchange escapes the commas of display names) removed. */
export const cleanTzid = (tzid: string) => tzid.trim().replace(/^"(.*)"$/, "$1").replace(/\\([,;\\])/g, "$1").trim();

/**
 * The zone a TZID names. `vtimezone` looks up the file's own definition by (cleaned) TZID.
 * Null when nothing names a zone: the caller reports the event instead of reading it as UTC.
 */
export function resolveTzid(raw: string, vtimezone: (tzid: string) => Zone | null): { zone: Zone; source: ZoneSource } | null {
  const tzid = cleanTzid(raw);
  if (!tzid) return null;
  if (/^(?:UTC|GMT|Z|Etc\/(?:UTC|GMT))$/i.test(tzid)) return { zone: UTC, source: "iana" };
  if (tzid.includes("/") && !tzid.startsWith("/")) {
    const iana = ianaZone(tzid);
    if (iana) return { zone: iana, source: "iana" };
  }
  const own = vtimezone(tzid);
  if (own) return { zone: own, source: "vtimezone" };
  const plain = !tzid.includes("/") && /^[A-Za-z][A-Za-z0-9+-]*$/.test(tzid) ? ianaZone(tzid) : null; // CET, EST5EDT
  if (plain) return { zone: plain, source: "iana" };
  const windows = windowsZoneToIana(tzid);
  if (windows) return { zone: ianaZone(windows)!, source: "windows" };
  const fixed = offsetOnly(tzid);
  if (fixed) return { zone: fixed, source: "offset" };
  // A globally unique TZID (`/mozilla.org/20070129_1/America/New_York`, `/freeassociation.sourceforge.net/Tzfile/...`).
  const parts = tzid.split("/").filter(Boolean);
  for (const n of [3, 2]) {
    const fromPath = parts.length >= n ? ianaZone(parts.slice(-n).join("/")) : null;
    if (fromPath) return { zone: fromPath, source: "path" };
  }
  return null;
}

const offsetSeconds = (o: { factor: number; hours: number; minutes: number }) => o.factor * (o.hours * 3600 + o.minutes * 60);
const timeWall = (t: ICAL.Time) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/**
 * Puts a VTIMEZONE's onsets in the form ical.js reads, and returns its first onset. ical.js takes
 * only the first value of an RDATE line (pytz- and libical-made zones list a period's onsets as
 * `RDATE:19810329T020000,19820328T020000,...`), skips a period's DTSTART when the period has RDATEs
 * (RFC 5545: DTSTART is its first onset), and reads a PERIOD value as nothing: each onset becomes
 * an RDATE of its own, DTSTART included. Wrong, the zone would be read as UTC before the onsets it
 * kept, and at the previous period's offset between them.
 */
function normalizeOnsets(component: ICAL.Component): { wall: number; offsetBefore: number } | null {
  let first: { wall: number; offsetBefore: number } | null = null;
  for (const period of component.getAllSubcomponents()) {
    if (period.name !== "standard" && period.name !== "daylight") continue;
    const dtstart = period.getFirstPropertyValue("dtstart") as ICAL.Time | null;
    const from = period.getFirstPropertyValue("tzoffsetfrom") as { factor: number; hours: number; minutes: number } | null;
    if (!dtstart || !from || !period.hasProperty("tzoffsetto")) continue;
    const rdates = period.getAllProperties("rdate");
    if (rdates.length > 0) {
      const onsets = new Map<string, ICAL.Time>();
      if (!period.hasProperty("rrule")) onsets.set(dtstart.toString(), dtstart);
      for (const rdate of rdates) {
        for (const value of rdate.getValues() as (ICAL.Time | ICAL.Period)[]) {
          const time = value instanceof ICAL.Period ? value.start : value;
          if (time instanceof ICAL.Time) onsets.set(time.toString(), time);
        }
        period.removeProperty(rdate);
      }
      for (const time of onsets.values()) {
        const prop = new ICAL.Property("rdate", period);
        prop.resetType(time.isDate ? "date" : "date-time");
        prop.setValue(time);
        period.addProperty(prop);
      }
    }
    const wall = timeWall(dtstart);
    if (!first || wall < first.wall) first = { wall, offsetBefore: offsetSeconds(from) * 1000 };
  }
  return first;
}

/** A VTIMEZONE component's text as a zone; null when ical.js cannot read it or it defines no offsets. */
export function vtimezoneZone(text: string, tzid: string): Zone | null {
  try {
    const component = new ICAL.Component(ICAL.parse(text));
    if (component.name !== "vtimezone") return null;
    if (!component.getFirstSubcomponent("standard") && !component.getFirstSubcomponent("daylight")) return null;
    const first = normalizeOnsets(component);
    const tz = new ICAL.Timezone({ component, tzid });
    // Reading one offset proves the definition usable (ical.js throws on broken rules).
    tz.utcOffset(ICAL.Time.fromData({ year: 2020, month: 1, day: 1, hour: 12, minute: 0, second: 0, isDate: false }));
    return { kind: "vtimezone", tzid, tz, first };
  } catch {
    return null;
  }
}
