// Dates and timestamps as people type them (CLI flags, CSV cells, form and API inputs), read
// strictly. `new Date` is too lenient to judge them: it rolls 2026-02-31 over into March, reads a
// zone-less time in the server's local zone, and takes hour 24. Here every part is checked and the
// instant is computed from the parts, so what is accepted means one thing on every server.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// YYYY-MM-DDTHH:MM[:SS[.fraction]] and a zone: Z, or ±HH:MM / ±HHMM (RFC 3339 allows a lower-case t and z).
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** `YYYY-MM-DD` that names a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * An ISO 8601 timestamp with its zone (`2026-03-01T09:00:00Z`, `...+01:00`, `...+0100`; seconds
 * and fractions optional) on a real calendar day with a real time of day; null otherwise (no
 * zone, hour 24, a zone beyond ±23:59, 2026-02-31).
 */
export function parseZonedTimestamp(value: string): Date | null {
  const m = TIMESTAMP.exec(value.trim());
  if (!m || !isCalendarDate(m[1])) return null;
  const [hour, minute, second] = [m[2], m[3], m[4] ?? "0"].map(Number);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const [zoneHours, zoneMinutes] = [Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (zoneHours > 23 || zoneMinutes > 59) return null;
  const offsetMinutes = (m[7] === "-" ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  const [year, month, day] = m[1].split("-").map(Number);
  const millis = Number((m[5] ?? "").padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return new Date(utc);
}

/** A real calendar day (its UTC midnight) or a zoned timestamp (parseZonedTimestamp); null otherwise. */
export function parseDateOrTimestamp(value: string): Date | null {
  const v = value.trim();
  if (isCalendarDate(v)) return new Date(`${v}T00:00:00.000Z`);
  return parseZonedTimestamp(v);
}
