// Hostile calendars (issue 27, finding 1), for the tests and scripts/bench/hostile-uploads.ts: a
// file of about a kilobyte whose few daily series reach back decades, so that expanding it "up to
// now" yields about 100,000 meetings (each series stays under the 20,000 past occurrences after
// which the reader refuses a series outright, which is why there are several).

/** `series` daily series since `since` (YYYYMMDD), each a meeting of `me` with one other person. */
export function calendarBomb(me: string, opts: { series?: number; since?: string } = {}): string {
  const series = opts.series ?? 5;
  const since = opts.since ?? "19730101";
  const events = Array.from({ length: series }, (_, i) => [
    "BEGIN:VEVENT",
    `UID:bomb-${i}@hostile.example`,
    `DTSTART:${since}T${String(8 + i).padStart(2, "0")}0000Z`,
    "RRULE:FREQ=DAILY",
    `ORGANIZER:mailto:${me}`,
    `ATTENDEE;PARTSTAT=ACCEPTED:mailto:guest${i}@hostile.example`,
    "SUMMARY:Daily",
    "END:VEVENT",
  ]);
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN", ...events.flat(), "END:VCALENDAR", ""].join("\r\n");
}

/** A well-formed calendar of one meeting padded past `megabytes` with a long description. */
export function calendarOfSize(me: string, megabytes: number): string {
  const line = `DESCRIPTION:${"x".repeat(70)}`;
  const lines = Math.ceil((megabytes * 1024 * 1024) / (line.length + 2));
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//hostile//EN",
    "BEGIN:VEVENT",
    "UID:big@hostile.example",
    "DTSTART:20260101T100000Z",
    `ORGANIZER:mailto:${me}`,
    "ATTENDEE:mailto:guest@hostile.example",
    ...Array.from({ length: lines }, () => `X-PAD:${"x".repeat(70)}`),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}
