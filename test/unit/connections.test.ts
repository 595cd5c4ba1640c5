// The pure parts of connected mailboxes and calendars: when a calendar object is due again (a
// series' next instance, its exceptions, EXDATEs and THISANDFUTURE moves, a meeting ahead), IMAP
// UID sets, the admin's host:port, the folders that are never read, and loopback hosts.
import { describe, expect, test } from "bun:test";
import { parseCalendar } from "../../src/lib/icalendar.ts";
import { expandOccurrences } from "../../src/lib/icalendar-recurrence.ts";
import { isLoopbackHost } from "../../src/lib/safe-fetch.ts";
import { refusedFolder } from "../../src/modules/connections/connections.imap.ts";
import { uidSet } from "../../src/modules/connections/connections.mail-sync.ts";
import { parseHostPort } from "../../src/modules/connections/connections.service.ts";
import { calendar, type Ev } from "../helpers/import-files.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const next = (...events: Ev[]) => {
  const n = expandOccurrences(parseCalendar(calendar(...events), { timeZone: "Europe/Paris" }).events, NOW).nextStart;
  return n === null ? null : new Date(n).toISOString();
};

describe("nextStart: when an object has something ahead that will count once it happens", () => {
  test.each<[string, Ev[], string | null]>([
    ["a past single meeting: nothing ahead", [{ start: "20261110T100000Z" }], null],
    ["a meeting ahead", [{ start: "20261125T100000Z" }], "2026-11-25T10:00:00.000Z"],
    ["a weekly series: its next instance", [{ start: "20261102T090000Z", lines: ["RRULE:FREQ=WEEKLY"] }], "2026-11-23T09:00:00.000Z"],
    ["a series that has ended", [{ start: "20261102T090000Z", lines: ["RRULE:FREQ=WEEKLY;COUNT=3"] }], null],
    ["a series ending at UNTIL before now", [{ start: "20261102T090000Z", lines: ["RRULE:FREQ=WEEKLY;UNTIL=20261120T000000Z"] }], null],
    ["the next instance excluded: the one after it", [{ start: "20261102T090000Z", lines: ["RRULE:FREQ=WEEKLY", "EXDATE:20261123T090000Z"] }], "2026-11-30T09:00:00.000Z"],
    ["an RDATE ahead", [{ start: "20261102T090000Z", lines: ["RDATE:20261124T150000Z"] }], "2026-11-24T15:00:00.000Z"],
    [
      "the next instance moved later by its own exception",
      [{ uid: "s", start: "20261102T090000Z", lines: ["RRULE:FREQ=WEEKLY"] }, { uid: "s", start: "20261124T140000Z", lines: ["RECURRENCE-ID:20261123T090000Z"] }],
      "2026-11-24T14:00:00.000Z",
    ],
    [
      "instances shifted by a THISANDFUTURE exception",
      [{ uid: "s", start: "20261102T090000Z", lines: ["RRULE:FREQ=WEEKLY"] }, { uid: "s", start: "20261117T100000Z", lines: ["RECURRENCE-ID;RANGE=THISANDFUTURE:20261116T090000Z"] }],
      "2026-11-24T10:00:00.000Z",
    ],
    ["a series not started yet: its first instance", [{ start: "20261201T090000Z", lines: ["RRULE:FREQ=DAILY"] }], "2026-12-01T09:00:00.000Z"],
    ["a floating daily meeting, in the user's zone", [{ start: "20261120T090000", lines: ["RRULE:FREQ=DAILY"] }], "2026-11-23T08:00:00.000Z"],
  ])("%s", (_name, events, expected) => {
    expect(next(...events)).toBe(expected);
  });
});

test("uidSet: ascending UIDs as IMAP ranges", () => {
  expect(uidSet([1])).toBe("1");
  expect(uidSet([1, 2, 3, 5, 7, 8, 9, 20])).toBe("1:3,5,7:9,20");
  expect(uidSet([4, 6])).toBe("4,6");
});

test("parseHostPort: an administrator's HOST[:PORT]", () => {
  expect(parseHostPort("mail.acme.vc")).toEqual({ host: "mail.acme.vc", port: null });
  expect(parseHostPort("Mail.Acme.VC:993")).toEqual({ host: "mail.acme.vc", port: 993 });
  expect(parseHostPort("10.0.0.5:143")).toEqual({ host: "10.0.0.5", port: 143 });
  expect(parseHostPort("[::1]:1143")).toEqual({ host: "::1", port: 1143 });
  for (const bad of ["", "mail acme", "mail.acme.vc:0", "mail.acme.vc:70000", "http://mail.acme.vc", "a:b:c", "-bad-.com"]) expect(parseHostPort(bad)).toBeNull();
});

test("refusedFolder: junk, trash and drafts by SPECIAL-USE or by their usual names, whatever the language", () => {
  const f = (path: string, specialUse?: string, flags: string[] = []) => ({ path, name: path.split("/").at(-1)!, specialUse: specialUse ?? "", flags: new Set(flags) });
  expect(refusedFolder(f("INBOX", "\\Inbox"))).toBeNull();
  expect(refusedFolder(f("Sent Items", "\\Sent"))).toBeNull();
  expect(refusedFolder(f("Archive"))).toBeNull();
  expect(refusedFolder(f("[Gmail]/Spam", "\\Junk"))).toMatch(/Junk folder/);
  expect(refusedFolder(f("Corbeille", undefined, ["\\Trash"]))).toMatch(/Trash folder/);
  expect(refusedFolder(f("Deleted Items"))).toMatch(/junk, trash or drafts/);
  expect(refusedFolder(f("INBOX/Junk E-mail"))).toMatch(/junk, trash or drafts/);
  expect(refusedFolder(f("Entwürfe"))).toMatch(/junk, trash or drafts/);
});

test("isLoopbackHost", () => {
  for (const h of ["localhost", "127.0.0.1", "127.9.9.9", "::1", "[::1]", "0x7f.1", "app.localhost"]) expect(isLoopbackHost(h)).toBe(true);
  for (const h of ["10.0.0.1", "mail.acme.vc", "192.168.1.1", "::ffff:10.0.0.1", "localhost.acme.vc"]) expect(isLoopbackHost(h)).toBe(false);
});
