// The one strict reader of dates and zoned timestamps (src/lib/dates.ts) behind the CLI's
// --expires-at, snooze --until, CSV timestamp cells and the web app's expiry field.
import { describe, expect, test } from "bun:test";
import { isCalendarDate, parseDateOrTimestamp, parseZonedTimestamp } from "../../src/lib/dates.ts";

const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("parseZonedTimestamp", () => {
  test("Z, ±HH:MM and ±HHMM zones all name the same instant new Date does", () => {
    for (const [text, expected] of [
      ["2026-03-01T09:00:00Z", "2026-03-01T09:00:00.000Z"],
      ["2026-03-01t09:00:00z", "2026-03-01T09:00:00.000Z"],
      ["2026-03-01T09:00:00+01:00", "2026-03-01T08:00:00.000Z"],
      ["2026-03-01T09:00:00+0100", "2026-03-01T08:00:00.000Z"],
      ["2026-03-01T09:00-05:30", "2026-03-01T14:30:00.000Z"],
      ["2026-03-01T00:30:00+01:00", "2026-02-28T23:30:00.000Z"],
      ["2026-03-01T09:00:00.123456789Z", "2026-03-01T09:00:00.123Z"],
      ["2026-03-01T09:00:00.5+00:00", "2026-03-01T09:00:00.500Z"],
    ]) {
      expect(iso(parseZonedTimestamp(text)), text).toBe(expected);
      expect(new Date(text).toISOString(), text).toBe(expected);
    }
  });

  test("no zone, no real day, no real time or no real zone: null", () => {
    for (const text of [
      "2026-03-01T09:00:00", // no zone: the server's local time would decide
      "2026-02-31T09:00:00Z", // new Date rolls it over into March
      "2026-13-01T09:00:00Z",
      "2026-03-01T24:00:00Z",
      "2026-03-01T09:60:00Z",
      "2026-03-01T09:00:60Z",
      "2026-03-01T09:00:00+24:00",
      "2026-03-01T09:00:00+01:60",
      "2026-03-01T09:00:00+1",
      "2026-03-01T09:00:00 +01:00",
      "2026-03-01 09:00:00Z",
      "2026-03-01",
      "yesterday",
      "",
    ]) {
      expect(parseZonedTimestamp(text), text).toBeNull();
    }
  });
});

describe("parseDateOrTimestamp", () => {
  test("a real calendar day is its UTC midnight; a zoned timestamp its instant", () => {
    expect(iso(parseDateOrTimestamp("2028-02-29"))).toBe("2028-02-29T00:00:00.000Z");
    expect(iso(parseDateOrTimestamp("2026-03-01T09:00:00+0100"))).toBe("2026-03-01T08:00:00.000Z");
    expect(iso(parseDateOrTimestamp("2026-03-01T09:00:00+01:00"))).toBe("2026-03-01T08:00:00.000Z");
    expect(iso(parseDateOrTimestamp("2026-03-01T09:00:00Z"))).toBe("2026-03-01T09:00:00.000Z");
  });

  test("2026-02-31, 2027-02-29 and a time without a zone: null", () => {
    for (const text of ["2026-02-31", "2027-02-29", "2026-3-1", "2026-03-01T09:00:00", "01/03/2026"]) {
      expect(parseDateOrTimestamp(text), text).toBeNull();
    }
  });

  test("isCalendarDate: real days only", () => {
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-31")).toBe(false);
    expect(isCalendarDate("2026-02-28T00:00:00Z")).toBe(false);
  });
});
