// The calendar importer on hand-built .ics files: a meeting touch for every other participant,
// what is skipped (cancelled, declined, crowded, not the user's, not yet happened), recurring
// events counted once, time zones, dedupe by UID, and bad files failing at their line.
import { describe, expect, test } from "bun:test";
import { ImportError, importCalendar } from "../../../src/modules/network/import/network.import.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { calendar, filesDir, personByEmail, relationshipsOf, snapshot, vevent, writeTo, type Ev } from "../../helpers/import-files.ts";

let t: TestApp;
let f: Fixture;
function setup() {
  ({ t, f } = seededApp()); // the clock reads 2026-11-22T12:00Z
}

const writeIcs = (...events: Ev[]) => writeTo(filesDir(), "cal.ics", calendar(...events));
const importFor = (userId: string, path: string, aliases: string[] = []) => importCalendar(t.deps, { userId, path, aliases });
const occurredAt = (key: string) => (t.deps.db.$client.query("SELECT occurred_at FROM interactions WHERE source_key = ?").get(key) as { occurred_at: string } | null)?.occurred_at;

describe("import calendar", () => {
  test("organizer or attendee: a meeting touch for every other person who did not decline; rooms and alarms are not guests", () => {
    setup();
    const path = writeIcs(
      {
        uid: "m1@test",
        lines: [
          'ORGANIZER;CN="Alice Archer":mailto:alice@acme.vc',
          "ATTENDEE;CN=Jane Doe;PARTSTAT=ACCEPTED:mailto:jane@target.com",
          "ATTENDEE;CN=Raj Patel;PARTSTAT=DECLINED:MAILTO:raj@target.com",
          "ATTENDEE;CUTYPE=ROOM;CN=Board Room:mailto:room@acme.vc",
          "BEGIN:VALARM",
          "ACTION:EMAIL",
          "ATTENDEE:mailto:reminder@target.com",
          "END:VALARM",
        ],
      },
      {
        uid: "m2@test",
        start: "20261102T150000Z",
        lines: ["ORGANIZER;CN=Jane Doe:mailto:jane@target.com", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@acme.vc", "ATTENDEE;CN=Kim Lee:mailto:kim@other.io"],
      },
    );
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ kind: "calendar", read: 2, imported: 2, skipped: 0 });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect([...rels.keys()]).toEqual(["jane@target.com", "kim@other.io"]);
    expect(rels.get("jane@target.com")).toMatchObject({ meetings: 2, sent: 0, received: 0, name: "Jane Doe" });
    expect(personByEmail(t.deps, "room@acme.vc")).toBeNull();
    expect(personByEmail(t.deps, "reminder@target.com")).toBeNull();
    expect(t.deps.db.$client.query("SELECT participant_count FROM interactions WHERE source_key = 'evt:m1@test'").get()).toEqual({ participant_count: 3 });
  });

  test("a cancellation notice (calendar METHOD:CANCEL) withdraws its events even without STATUS; other calendars in the file are not affected", () => {
    setup();
    const who = ["ORGANIZER:mailto:jane@target.com", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@acme.vc"];
    const cancel = ["BEGIN:VCALENDAR", "VERSION:2.0", "METHOD:CANCEL", ...vevent({ uid: "gone@test", lines: who }), "END:VCALENDAR"];
    const request = ["BEGIN:VCALENDAR", "VERSION:2.0", "METHOD:REQUEST", ...vevent({ uid: "kept@test", lines: who }), "END:VCALENDAR"];
    // METHOD may also come after the events it applies to.
    const late = ["BEGIN:VCALENDAR", "VERSION:2.0", ...vevent({ uid: "late@test", lines: who }), "METHOD:CANCEL", "END:VCALENDAR"];
    const path = writeTo(filesDir(), "cal.ics", [...cancel, ...request, ...late].join("\r\n") + "\r\n");
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 3, imported: 1, skipped_by_reason: { cancelled: 2 } });
    expect(occurredAt("evt:kept@test")).toBe("2026-11-01T10:00:00.000Z");
    expect(occurredAt("evt:gone@test")).toBeUndefined();
  });

  test("cancelled, declined, crowded, not the user's, and future events are skipped by reason", () => {
    setup();
    const crowd = Array.from({ length: 20 }, (_, i) => `ATTENDEE:mailto:p${i}@crowd.com`);
    const withAlice = ["ORGANIZER:mailto:jane@target.com", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@acme.vc"];
    const path = writeIcs(
      { uid: "cancelled", lines: [...withAlice, "STATUS:CANCELLED"] },
      { uid: "declined", lines: ["ORGANIZER:mailto:jane@target.com", "ATTENDEE;PARTSTAT=DECLINED:mailto:alice@acme.vc"] },
      { uid: "all-hands", lines: [...withAlice, ...crowd] },
      { uid: "not-mine", lines: ["ORGANIZER:mailto:jane@target.com", "ATTENDEE:mailto:raj@target.com"] },
      { uid: "future", start: "20261201T100000Z", lines: withAlice },
      { uid: "alone", lines: ["ORGANIZER:mailto:alice@acme.vc"] },
      { uid: "ok", lines: withAlice },
    );
    const stats = importFor(f.users.alice.id, path);
    expect(stats.skipped_by_reason).toEqual({ cancelled: 1, declined: 1, too_many_participants: 1, not_attended_by_user: 1, future: 1, no_other_participants: 1 });
    expect(stats).toMatchObject({ read: 7, imported: 1, skipped: 6 });
    expect(relationshipsOf(t.deps, f.users.alice.id).get("jane@target.com")).toMatchObject({ meetings: 1 });
  });

  test("a recurring series counts at every past occurrence; a moved occurrence counts where it moved; future ones never", () => {
    setup(); // the clock reads 2026-11-22T12:00Z (a Sunday)
    const who = ["ORGANIZER:mailto:alice@acme.vc", "ATTENDEE:mailto:jane@target.com"];
    const path = writeIcs(
      { uid: "weekly@test", start: "20250106T090000Z", lines: [...who, "RRULE:FREQ=WEEKLY;BYDAY=MO"] },
      { uid: "weekly@test", start: "20250115T100000Z", lines: [...who, "RECURRENCE-ID:20250113T090000Z"] },
    );
    // Mondays from 2025-01-06 to 2026-11-16: 98; the one of 2025-01-13 took place on the 15th.
    expect(importFor(f.users.alice.id, path)).toMatchObject({ read: 2, occurrences: 98, imported: 98, failed_items: 0 });
    expect(occurredAt("evt:weekly@test")).toBe("2025-01-06T09:00:00.000Z");
    expect(occurredAt("evt:weekly@test:2025-01-13T09:00:00.000Z")).toBe("2025-01-15T10:00:00.000Z");
    expect(occurredAt("evt:weekly@test:2026-11-16T09:00:00.000Z")).toBe("2026-11-16T09:00:00.000Z");
    expect(occurredAt("evt:weekly@test:2026-11-23T09:00:00.000Z")).toBeUndefined();
    expect(relationshipsOf(t.deps, f.users.alice.id).get("jane@target.com")).toMatchObject({ meetings: 98 });
  });

  test("times: UTC, TZID (IANA and Windows names), floating and all-day in the user's zone (else UTC); an unknown zone is reported", () => {
    setup();
    const who = ["ORGANIZER:mailto:alice@acme.vc", "ATTENDEE;CN=Jane Doe;PARTSTAT=ACC", " EPTED:mailto:jane@target.com"];
    const path = writeIcs(
      { uid: "ny-winter", start: "", lines: ["DTSTART;TZID=America/New_York:20260115T090000", ...who] },
      { uid: "ny-summer", start: "", lines: ['DTSTART;TZID="America/New_York":20260715T090000', ...who] },
      { uid: "win", start: "", lines: ["DTSTART;TZID=W. Europe Standard Time:20260715T090000", ...who] },
      { uid: "mozilla", start: "", lines: ["DTSTART;TZID=/mozilla.org/20050126_1/Europe/London:20260715T090000", ...who] },
      { uid: "floating", start: "", lines: ["DTSTART:20260301T120000", ...who] },
      { uid: "all-day", start: "", lines: ["DTSTART;VALUE=DATE:20260302", ...who] },
      { uid: "unknown-zone", start: "", lines: ["DTSTART;TZID=Mars/Olympus:20260303T120000", ...who] },
    );
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 7, imported: 6, failed_items: 1, floating_time_zone: "UTC", time_zones: { iana: 2, windows: 1, path: 1, floating: 2 } });
    expect(stats.errors).toEqual([`${path}:48: DTSTART: the time zone "Mars/Olympus" is not defined in the file (VTIMEZONE) and is no IANA, Windows or Lotus zone name`]);
    expect(occurredAt("evt:ny-winter")).toBe("2026-01-15T14:00:00.000Z");
    expect(occurredAt("evt:ny-summer")).toBe("2026-07-15T13:00:00.000Z");
    expect(occurredAt("evt:win")).toBe("2026-07-15T07:00:00.000Z");
    expect(occurredAt("evt:mozilla")).toBe("2026-07-15T08:00:00.000Z");
    expect(occurredAt("evt:floating")).toBe("2026-03-01T12:00:00.000Z");
    expect(occurredAt("evt:all-day")).toBe("2026-03-02T00:00:00.000Z");
    expect(occurredAt("evt:unknown-zone")).toBeUndefined();
    expect(personByEmail(t.deps, "jane@target.com")).toMatchObject({ display_name: "Jane Doe" });

    // Bob's floating times in his own zone: --time-zone, else his user setting.
    const floating = writeIcs({ uid: "f1", start: "", lines: ["DTSTART:20260301T120000", "ORGANIZER:mailto:bob@acme.vc", "ATTENDEE:mailto:kim@target.com"] });
    orgsService(t.deps).setTimeZone(f.users.bob.id, "America/Los_Angeles");
    expect(importFor(f.users.bob.id, floating)).toMatchObject({ imported: 1, floating_time_zone: "America/Los_Angeles" });
    expect(occurredAt("evt:f1")).toBe("2026-03-01T20:00:00.000Z");
    const carol = importCalendar(t.deps, { userId: f.users.carol.id, path: floating, aliases: ["bob@acme.vc"], timeZone: "Asia/Tokyo" });
    expect(carol).toMatchObject({ imported: 1, floating_time_zone: "Asia/Tokyo" });
    const atTokyo = t.deps.db.$client.query("SELECT occurred_at FROM interactions WHERE source_key = 'evt:f1' AND user_id = ?").get(f.users.carol.id) as { occurred_at: string };
    expect(atTokyo.occurred_at).toBe("2026-03-01T03:00:00.000Z");
    expect(() => importCalendar(t.deps, { userId: f.users.carol.id, path: floating, timeZone: "Paris" })).toThrow(/--time-zone "Paris" is not an IANA time zone name/);
  });

  test("a re-import changes nothing; the same event in two calendars is a meeting for each user and one person", () => {
    setup();
    const path = writeIcs({ uid: "shared@test", lines: ["ORGANIZER:mailto:jane@target.com", "ATTENDEE:mailto:alice@acme.vc", "ATTENDEE:mailto:bob@acme.vc"] });
    importFor(f.users.alice.id, path);
    const before = snapshot(t.deps);
    expect(importFor(f.users.alice.id, path)).toMatchObject({ imported: 0, duplicates: 1 });
    expect(snapshot(t.deps)).toEqual(before);
    expect(importFor(f.users.bob.id, path)).toMatchObject({ imported: 1, duplicates: 0 });
    expect(t.deps.db.$client.query("SELECT count(DISTINCT person_id) AS n FROM person_emails WHERE email = 'jane@target.com'").get()).toEqual({ n: 1 });
    // Bob and Alice met each other there too: teammates are persons of each other's graph.
    expect(relationshipsOf(t.deps, f.users.bob.id).get("alice@acme.vc")).toMatchObject({ meetings: 1 });
  });

  test("a file that is no calendar fails at its line and writes nothing", () => {
    setup();
    const path = writeTo(filesDir(), "bad.ics", "BEGIN:VCARD\r\nEND:VCARD\r\n");
    const before = snapshot(t.deps);
    let error: unknown;
    try {
      importFor(f.users.alice.id, path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toBe(`${path}:1: not an iCalendar file: it must start with BEGIN:VCALENDAR (got "BEGIN:VCARD")`);
    expect(snapshot(t.deps)).toEqual(before);
  });

  test("a bad event is reported at its line and the others import", () => {
    setup();
    const ok = { uid: "ok", lines: ["ORGANIZER:mailto:alice@acme.vc", "ATTENDEE:mailto:jane@target.com"] };
    const cases: [content: string, line: number, reason: RegExp][] = [
      [calendar(ok, { uid: "nostart", start: "" }), 10, /the event nostart has no DTSTART/],
      [calendar(ok, { uid: "badstart", start: "", lines: ["DTSTART:2026-11-01"] }), 12, /DTSTART "2026-11-01" is not an iCalendar date/],
      [calendar(ok, { uid: "feb30", start: "20260230T100000Z" }), 12, /DTSTART "20260230T100000Z": February 2026 has no day 30/],
      [calendar(ok).replace("END:VCALENDAR\r\n", "BEGIN:VEVENT\r\nUID:x\r\n"), 10, /BEGIN:VEVENT is never closed/],
      [calendar(ok, { uid: "two", lines: ["DTSTART:20261102T100000Z"] }), 13, /DTSTART appears twice in the event \(lines 12 and 13\)/],
      [calendar(ok, { uid: "rule", lines: ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"] }), 13, /can never occur/],
    ];
    for (const [content, line, reason] of cases) {
      const path = writeTo(filesDir(), "bad.ics", content);
      const stats = importFor(f.users.alice.id, path);
      expect(stats).toMatchObject({ failed_items: 1 });
      expect(stats.errors).toHaveLength(1);
      expect(stats.errors[0]).toStartWith(`${path}:${line}: `);
      expect(stats.errors[0]).toMatch(reason);
    }
    // The good event was imported (once: the later imports were duplicates).
    expect(occurredAt("evt:ok")).toBe("2026-11-01T10:00:00.000Z");
    // A broken line inside a component no reader needs costs nothing; an END that closes nothing spoils its event only.
    const path = writeTo(
      filesDir(),
      "mixed.ics",
      calendar({ uid: "fine", lines: ["ORGANIZER:mailto:alice@acme.vc", "ATTENDEE:mailto:kim@target.com", "BEGIN:VALARM", "TRIGGER broken", "END:VALARM", "X-APPLE-RADIUS=49.9"] }, { uid: "endless" }).replace(/(UID:endless\r\n)/, "$1END:VTODO\r\n"),
    );
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 2, imported: 1, failed_items: 1 });
    expect(stats.errors[0]).toMatch(/END:VTODO closes nothing open/);
  });
});
