// The shared iCalendar reader on calendars real clients wrote (test/fixtures/real/SOURCES.md):
// start instants in Windows, Exchange display-name, custom VTIMEZONE and floating zones; series
// expanded per past occurrence with their EXDATEs and moved occurrences; bad events reported at
// their line while the others are read; and every file of the corpus read without anything but a
// file-level refusal, each error naming a line of the file.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CalendarFileError, parseCalendar, type ParseOptions } from "../../src/lib/icalendar.ts";
import { expandOccurrences } from "../../src/lib/icalendar-recurrence.ts";
import { windowsZoneToIana } from "../../src/lib/icalendar-zones.ts";
import { LEGACY_WINDOWS_ZONES, WINDOWS_ZONES } from "../../src/lib/icalendar-windows-zones.ts";

const REAL = join(import.meta.dir, "../fixtures/real/calendar");
const NOW = Date.parse("2026-11-22T12:00:00Z");
const read = (path: string, opts: ParseOptions = {}) => parseCalendar(readFileSync(join(REAL, path), "utf8"), opts);
const iso = (t: number) => new Date(t).toISOString();
const starts = (path: string, opts: ParseOptions = {}) => read(path, opts).events.map((e) => iso(e.start.instant));
const occurrences = (path: string, opts: ParseOptions = {}) => expandOccurrences(read(path, opts).events, NOW).occurrences;

describe("time zones of real exports", () => {
  test("Exchange display names, with and without the file's VTIMEZONE, at the right UTC instant (daylight saving time included)", () => {
    // "(UTC+07:00) Bangkok\, Hanoi\, Jakarta" defined in the file, referred to with unescaped commas.
    expect(starts("node-ical/exchange-custom-tz.ics")).toEqual(["2019-04-30T02:00:00.000Z"]);
    // OWA without any VTIMEZONE: "(GMT+10:00) Canberra, Melbourne, Sydney" in October is AEDT (+11);
    // "(UTC-05:00) Eastern Time (US & Canada)" is EDT before 1 November 2020, EST after.
    const owa = read("node-ical/Office-2012-owa.ics");
    expect(owa.errors).toEqual([]);
    expect(owa.events.slice(0, 3).map((e) => iso(e.start.instant))).toEqual(["2020-10-28T02:30:00.000Z", "2020-10-28T17:30:00.000Z", "2020-11-02T18:30:00.000Z"]);
    expect(owa.events.every((e) => e.derivedUid)).toBe(true); // OWA writes no UID
    expect(owa.times).toMatchObject({ windows: 4 });
    // "Eastern Time (US and Canada)": 'and' for '&'.
    expect(starts("node-ical/windows-quoted-tz-rrule.ics")).toEqual(["2015-07-06T16:00:00.000Z"]);
  });

  test("Outlook's Customized Time Zone and a TZID of ' 1' are read from the file's own VTIMEZONE", () => {
    const custom = read("node-ical/bad_ms_tz.ics");
    expect(custom.times).toEqual({ vtimezone: 1 });
    expect(iso(custom.events[0].start.instant)).toBe("2020-08-25T14:35:00.000Z");
    // Tuesdays and Thursdays at 10:35 local from 25 August to 17 December 2020 (UNTIL 15:35Z, inclusive): 34, EDT then EST.
    const series = expandOccurrences(custom.events, NOW).occurrences.map((o) => iso(o.start));
    expect(series).toHaveLength(34);
    expect(series).toContain("2020-10-29T14:35:00.000Z");
    expect(series).toContain("2020-11-03T15:35:00.000Z");
    expect(series.at(-1)).toBe("2020-12-17T15:35:00.000Z");
    expect(starts("node-ical/test_with_int_tzid.ics")).toEqual(["2023-12-15T14:00:00.000Z", "2024-01-08T10:00:00.000Z"]);
    // The Exchange line whose quote swallows the value (`TZID="W. Europe Standard Time:2020...`) is still read.
    const ms = read("node-ical/ms_timezones.ics");
    expect(ms.errors).toEqual([]);
    expect(ms.events.map((e) => iso(e.start.instant))).toContain("2020-06-09T07:00:00.000Z");
  });

  test("a floating time is read in the user's zone, else in UTC", () => {
    expect(starts("node-ical/floating-dtstart-custom-vtimezone.ics")).toEqual(["2025-06-10T14:00:00.000Z"]);
    const ny = read("node-ical/floating-dtstart-custom-vtimezone.ics", { timeZone: "America/New_York" });
    expect(ny.floatingZone).toBe("America/New_York");
    expect(iso(ny.events[0].start.instant)).toBe("2025-06-10T18:00:00.000Z");
  });

  test("every Windows zone of the CLDR table resolves, by id and by display name, to its own IANA zone", () => {
    for (const [display, id, iana] of WINDOWS_ZONES) {
      expect(windowsZoneToIana(id)).toBe(iana);
      expect(windowsZoneToIana(display)).toBe(iana);
      expect(windowsZoneToIana(display.replace("(UTC", "(GMT"))).toBe(iana);
    }
    expect(windowsZoneToIana("Eastern")).toBe("America/New_York"); // Lotus-style short name
    expect(windowsZoneToIana("(GMT) Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London")).toBe("Europe/London");
    expect(windowsZoneToIana("Customized Time Zone")).toBeNull();
  });

  test("VTIMEZONEs whose periods are RDATE lists: every onset counts (DTSTART, each value of a list), and before the first the offset it changes from, never UTC", () => {
    // khal (a pytz-made Europe_Berlin): each period's first onset only in DTSTART, the rest as RDATE lists.
    // Before: 1996-01-15 read as UTC (12:00Z), April 2014 at CET (08:30Z).
    expect(starts("ours/khal-Europe_Berlin-rdate.ics")).toEqual(["1996-01-15T11:00:00.000Z", "1997-07-01T08:00:00.000Z", "2014-04-09T07:30:00.000Z", "2014-12-24T17:00:00.000Z"]);
    // libical's US-Eastern: one RDATE line listing every onset of the period (folded). Before: July 2009 and March 2014 at EST.
    expect(starts("ours/libical-US-Eastern-rdate-list.ics")).toEqual(["2009-07-15T13:00:00.000Z", "2011-01-10T19:00:00.000Z", "2011-11-07T15:00:00.000Z", "2014-03-20T12:30:00.000Z"]);
    // python-icalendar / iCalcreator: RRULE periods beside RDATE;VALUE=DATE-TIME lists. Before: October 1981 and 1993 at CEST.
    const vaduz = read("ours/python-icalendar-timezone-rdate.ics");
    expect(vaduz.times).toEqual({ vtimezone: 4 });
    expect(vaduz.events.map((e) => iso(e.start.instant))).toEqual(["1982-11-10T09:00:00.000Z", "1993-10-20T09:00:00.000Z", "1981-10-01T09:00:00.000Z", "2012-07-04T13:00:00.000Z"]);
    // Each agrees with the IANA zone the definition was made from, at every event.
    for (const [file, zone] of [["ours/khal-Europe_Berlin-rdate.ics", "Europe/Berlin"], ["ours/libical-US-Eastern-rdate-list.ics", "America/New_York"], ["ours/python-icalendar-timezone-rdate.ics", "Europe/Zurich"]]) {
      for (const e of read(file).events) {
        const w = e.start.wall;
        const written = `${w.year}` + [w.month, w.day, w.hour, w.minute, w.second].map((n) => String(n).padStart(2, "0")).join("");
        expect(new Date(e.start.instant).toLocaleString("sv-SE", { timeZone: zone }).replace(/[- :]/g, ""), `${file} ${e.uid}`).toBe(written);
      }
    }
  });

  test("the Windows XP-era zone ids Outlook 2003 wrote (Armenian, Kamchatka, Mexico, Mexico 2, Mid-Atlantic) are known", () => {
    const xp = read("ours/outlook-2003-xp-zone-ids.ics");
    expect(xp.errors).toEqual([]);
    expect(xp.times).toEqual({ windows: 5 });
    expect(xp.events.map((e) => iso(e.start.instant))).toEqual([
      "2010-07-01T05:00:00.000Z", // Yerevan, summer time (+05) until Armenia dropped it in 2011
      "2009-01-19T21:00:00.000Z", // Petropavlovsk-Kamchatsky, +12
      "2008-07-01T14:00:00.000Z", // Mexico City, CDT (-05)
      "2008-12-01T16:00:00.000Z", // Chihuahua, MST (-07)
      "2008-05-01T11:00:00.000Z", // Mid-Atlantic, -02
    ]);
    for (const [display, id, iana] of LEGACY_WINDOWS_ZONES) {
      expect(windowsZoneToIana(id)).toBe(iana);
      expect(windowsZoneToIana(display)).toBe(iana);
    }
  });
});

describe("recurring series of real exports", () => {
  test("Google: a daily series with one occurrence moved", () => {
    expect(occurrences("node-ical/google-recurrence-order.ics").map((o) => [iso(o.recurrenceId!), iso(o.start)])).toEqual([
      ["2026-02-10T17:00:00.000Z", "2026-02-10T17:00:00.000Z"],
      ["2026-02-11T17:00:00.000Z", "2026-02-11T17:30:00.000Z"],
      ["2026-02-12T17:00:00.000Z", "2026-02-12T17:00:00.000Z"],
    ]);
  });

  test("COUNT with EXDATEs and an occurrence moved to another day", () => {
    const list = occurrences("node-ical/daily-count-exdate-recurrence-id.ics");
    expect(list).toHaveLength(8);
    expect(list.map((o) => iso(o.recurrenceId!))).not.toContain("2015-07-08T19:00:00.000Z");
    expect(list.find((o) => o.recurrenceId === Date.parse("2015-07-07T19:00:00Z"))!.start).toBe(Date.parse("2015-07-09T22:00:00Z"));
  });

  test("a Google monthly series counts each past occurrence, never a future one", () => {
    const list = occurrences("google-invite/apparmor-monthly.ics");
    expect(list.map((o) => iso(o.start))).toEqual([
      "2026-06-09T18:00:00.000Z",
      "2026-07-14T18:00:00.000Z",
      "2026-08-11T18:00:00.000Z",
      "2026-09-08T18:00:00.000Z",
      "2026-10-13T18:00:00.000Z",
      "2026-11-10T18:00:00.000Z",
    ]);
  });
});

describe("bad events in real files", () => {
  test("impossible dates and a doubled DTSTART in a 400-event calendar: each reported at its line, the others read", () => {
    const cal = read("node-ical/large-file-with-late-error.ics");
    expect(cal.events).toHaveLength(394);
    expect(cal.errors[0]).toEqual({ line: 360, reason: 'DTSTART "20240230T100000Z": February 2024 has no day 30' });
    expect(cal.errors.at(-1)).toEqual({ line: 2407, reason: "DTSTART appears twice in the event (lines 2406 and 2407)" });
    expect(cal.errors).toHaveLength(7);
  });

  test("every real calendar of the corpus is read: only a file that is no calendar is refused, and every error names a line of its file", () => {
    let files = 0;
    let refused = 0;
    let events = 0;
    for (const dir of readdirSync(REAL)) {
      for (const name of readdirSync(join(REAL, dir)).filter((f) => f.endsWith(".ics"))) {
        files++;
        const text = readFileSync(join(REAL, dir, name), "utf8");
        const lines = text.split(/\r\n|\n|\r/).length;
        try {
          const cal = parseCalendar(text);
          const x = expandOccurrences(cal.events, NOW);
          events += cal.events.length;
          for (const e of [...cal.errors, ...x.errors]) {
            expect(e.line, `${dir}/${name}`).toBeGreaterThanOrEqual(1);
            expect(e.line, `${dir}/${name}`).toBeLessThanOrEqual(lines);
            expect(e.reason.length, `${dir}/${name}`).toBeGreaterThan(0);
          }
        } catch (error) {
          if (!(error instanceof CalendarFileError)) throw new Error(`${dir}/${name}: ${(error as Error).stack}`);
          refused++;
        }
      }
    }
    expect(files).toBeGreaterThan(200);
    expect(refused).toBeLessThan(files / 5);
    expect(events).toBeGreaterThan(700);
  });
});
