// How a Microsoft Graph event becomes an occurrence for the recording rules: times in UTC, IANA
// or Windows zones (Graph answers in the zone asked for, or the mailbox's), the mailbox's own
// answer on the event, declined attendees and rooms, series instances keyed by their series.
import { describe, expect, test } from "bun:test";
import { graphInstant, graphOccurrence, type GraphEvent } from "../../src/modules/connections/connections.graph-calendar.ts";

describe("Graph events as occurrences", () => {
  test("dateTimeTimeZone in UTC, an IANA zone or a Windows zone; an unknown zone or a bad time is null", () => {
    expect(graphInstant({ dateTime: "2026-11-20T10:00:00.0000000", timeZone: "UTC" })).toBe(Date.parse("2026-11-20T10:00:00Z"));
    expect(graphInstant({ dateTime: "2026-07-01T09:30:00", timeZone: "Europe/Paris" })).toBe(Date.parse("2026-07-01T07:30:00Z"));
    expect(graphInstant({ dateTime: "2026-03-01T09:00:00.0000000", timeZone: "Pacific Standard Time" })).toBe(Date.parse("2026-03-01T17:00:00Z"));
    expect(graphInstant({ dateTime: "2026-03-01T09:00:00", timeZone: "Mars/Olympus" })).toBeNull();
    expect(graphInstant({ dateTime: "soon", timeZone: "UTC" })).toBeNull();
    expect(graphInstant(null)).toBeNull();
  });

  const base: GraphEvent = {
    id: "AAMk-1",
    uid: "040000008200E00074C5B7101A82E008",
    type: "singleInstance",
    start: { dateTime: "2026-11-20T10:00:00.0000000", timeZone: "UTC" },
    organizer: { emailAddress: { name: "Jane Doe", address: "Jane@Target.com" } },
    attendees: [
      { type: "required", status: { response: "accepted" }, emailAddress: { name: "Alice", address: "alice@acme.vc" } },
      { type: "optional", status: { response: "declined" }, emailAddress: { name: "Kim", address: "kim@target.com" } },
      { type: "resource", status: { response: "accepted" }, emailAddress: { name: "Room 4", address: "room4@acme.vc" } },
    ],
    responseStatus: { response: "accepted" },
  };

  test("people with their answers: a declined attendee says DECLINED, a room is a resource, addresses lower-cased", () => {
    const o = graphOccurrence(base, "alice@acme.vc");
    expect(o).toMatchObject({
      uid: base.uid,
      recurrenceId: null,
      seriesStart: null,
      start: Date.parse("2026-11-20T10:00:00Z"),
      status: null,
      organizer: { email: "jane@target.com", name: "Jane Doe" },
      attendees: [
        { email: "alice@acme.vc", partstat: "ACCEPTED", cutype: "INDIVIDUAL" },
        { email: "kim@target.com", partstat: "DECLINED" },
        { email: "room4@acme.vc", cutype: "RESOURCE" },
      ],
    });
  });

  test("the mailbox's own answer is on the event: declined there is declined, whatever the attendee list says", () => {
    const declined = graphOccurrence({ ...base, responseStatus: { response: "declined" } }, "alice@acme.vc");
    expect("attendees" in declined && declined.attendees.find((p) => p.email === "alice@acme.vc")?.partstat).toBe("DECLINED");
    // Not in the list (a forwarded invitation): added with the answer.
    const added = graphOccurrence({ ...base, attendees: [], responseStatus: { response: "tentativelyAccepted" } }, "alice@acme.vc");
    expect("attendees" in added && added.attendees).toEqual([{ email: "alice@acme.vc", name: null, partstat: "TENTATIVE", cutype: "INDIVIDUAL" }]);
    // The organizer's own meeting with no organizer field: the mailbox is the organizer.
    const own = graphOccurrence({ ...base, organizer: null, isOrganizer: true, attendees: [] }, "alice@acme.vc");
    expect(own).toMatchObject({ organizer: { email: "alice@acme.vc" }, attendees: [] });
  });

  test("an instance of a series: its original start and the series' start; cancelled is CANCELLED; no start, an error", () => {
    const o = graphOccurrence({ ...base, type: "occurrence", originalStart: "2026-11-13T10:00:00Z", isCancelled: true }, "alice@acme.vc", Date.parse("2026-11-06T10:00:00Z"));
    expect(o).toMatchObject({ recurrenceId: Date.parse("2026-11-13T10:00:00Z"), seriesStart: Date.parse("2026-11-06T10:00:00Z"), status: "CANCELLED" });
    // A single meeting never carries a series start.
    expect(graphOccurrence(base, "alice@acme.vc", 123)).toMatchObject({ seriesStart: null });
    expect(graphOccurrence({ ...base, start: null }, "alice@acme.vc")).toMatchObject({ line: 0, reason: expect.stringContaining("AAMk-1") });
  });
});
