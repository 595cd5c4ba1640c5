// iCalendar date-times (RFC 5545 3.3.5) as instants: UTC (`Z`), local time in a named zone
// (`TZID=`), floating local time and all-day dates. Named zones resolve through Intl (the IANA
// database Bun ships); a Windows zone name, as Outlook writes it, is mapped to its IANA zone; a
// floating time, an all-day date and a zone nobody knows are read as UTC (at most hours off, and
// the relationship model works in days).

const WINDOWS_ZONES: Record<string, string> = {
  "pacific standard time": "America/Los_Angeles",
  "mountain standard time": "America/Denver",
  "central standard time": "America/Chicago",
  "eastern standard time": "America/New_York",
  "gmt standard time": "Europe/London",
  "greenwich standard time": "Atlantic/Reykjavik",
  "w. europe standard time": "Europe/Berlin",
  "romance standard time": "Europe/Paris",
  "central europe standard time": "Europe/Budapest",
  "central european standard time": "Europe/Warsaw",
  "e. europe standard time": "Europe/Chisinau",
  "fle standard time": "Europe/Kiev",
  "israel standard time": "Asia/Jerusalem",
  "india standard time": "Asia/Kolkata",
  "china standard time": "Asia/Shanghai",
  "singapore standard time": "Asia/Singapore",
  "tokyo standard time": "Asia/Tokyo",
  "aus eastern standard time": "Australia/Sydney",
  "utc": "UTC",
};

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The Intl formatter of a zone, null when no zone of that name is known. */
function zoneFormatter(tzid: string): Intl.DateTimeFormat | null {
  let f = formatters.get(tzid);
  if (f !== undefined) return f;
  const candidates = [tzid, WINDOWS_ZONES[tzid.toLowerCase()], /([A-Za-z_]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?)$/.exec(tzid)?.[1]];
  f = null;
  for (const zone of candidates) {
    if (!zone) continue;
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
      break;
    } catch {
      // not a zone Intl knows
    }
  }
  formatters.set(tzid, f);
  return f;
}

/** Minutes the zone is ahead of UTC at the instant `t`. */
function offsetAt(f: Intl.DateTimeFormat, t: number): number {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(t))) if (part.type !== "literal") p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((wall - Math.floor(t / 1000) * 1000) / 60_000);
}

/** Wall-clock time in a zone -> instant (the usual two-step fix-up around offset changes). */
function zonedToUtc(wallUtc: number, f: Intl.DateTimeFormat): number {
  let t = wallUtc - offsetAt(f, wallUtc) * 60_000;
  const second = wallUtc - offsetAt(f, t) * 60_000;
  if (second !== t) t = second;
  return t;
}

const DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/i;

/** An iCalendar DATE or DATE-TIME value as an instant; null when the value is not one. */
export function parseIcalDateTime(value: string, tzid?: string): Date | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59));
  if (new Date(wall).getUTCDate() !== d) return null;
  if (m[7] || !m[4] || !tzid) return new Date(wall);
  const f = zoneFormatter(tzid.replace(/^"|"$/g, ""));
  return new Date(f ? zonedToUtc(wall, f) : wall);
}
