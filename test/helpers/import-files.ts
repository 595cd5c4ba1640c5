// Hand-built mailboxes, calendars and address books for the importer tests: small files written
// into a temp dir, and a snapshot of what the graph holds so "nothing changed" can be checked.
import { onTestFinished } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Deps } from "../../src/deps.ts";

/** A temp dir, removed when the test finishes. */
export function filesDir(): string {
  const d = mkdtempSync(join(tmpdir(), "dealgraph-import-"));
  onTestFinished(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

export function writeTo(dir: string, name: string, content: string): string {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

export type TestMessage = {
  from: string;
  to?: string;
  cc?: string;
  /** ISO or RFC 5322; default 2026-11-01 10:00 UTC. */
  date?: string | null;
  id?: string | null;
  subject?: string;
  headers?: string[];
  body?: string;
};

const rfc5322 = (iso: string) => new Date(iso).toUTCString().replace("GMT", "+0000");

/** The header block and body of one message (RFC 5322, LF line ends). */
export function message(m: TestMessage): string {
  const date = m.date === undefined ? "2026-11-01T10:00:00Z" : m.date;
  const lines = [
    `From: ${m.from}`,
    ...(m.to ? [`To: ${m.to}`] : []),
    ...(m.cc ? [`Cc: ${m.cc}`] : []),
    `Subject: ${m.subject ?? "Hello"}`,
    ...(date === null ? [] : [`Date: ${/^\d{4}-/.test(date) ? rfc5322(date) : date}`]),
    ...(m.id === null ? [] : [`Message-ID: <${m.id ?? `${Math.random().toString(36).slice(2)}@test`}>`]),
    ...(m.headers ?? []),
  ];
  return `${lines.join("\n")}\n\n${m.body ?? "Hi there."}\n`;
}

/** An mbox (mboxrd) of the messages, each under a `From ` separator line. */
export function mbox(messages: TestMessage[]): string {
  return messages
    .map((m) => {
      const sender = /<([^>]+)>/.exec(m.from)?.[1] ?? m.from;
      const body = message(m).replace(/^(>*From )/gm, (line, _p, offset: number, all: string) => (offset > all.indexOf("\n\n") ? `>${line}` : line));
      return `From ${sender} Sat Nov  1 10:00:00 2026\n${body}\n`;
    })
    .join("");
}

/** A VEVENT: its UID (`""` for none), DTSTART (`""` for none) and any other lines. */
export type Ev = { uid?: string; start?: string; lines?: string[] };
export const vevent = (e: Ev) => ["BEGIN:VEVENT", ...(e.uid === "" ? [] : [`UID:${e.uid ?? "u1@test"}`]), ...(e.start === "" ? [] : [`DTSTART:${e.start ?? "20261101T100000Z"}`]), ...(e.lines ?? []), "END:VEVENT"];

/** An iCalendar file of the events (CRLF line ends). */
export const calendar = (...events: Ev[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...events.flatMap(vevent), "END:VCALENDAR"].join("\r\n") + "\r\n";

export type Snapshot = {
  persons: number;
  person_emails: number;
  relationships: number;
  interactions: number;
  touches: number;
  interaction_people: number;
  aggregates: string;
};

/** Counts of every network table and the relationships' aggregates, for "nothing changed" checks. */
export function snapshot(deps: Deps): Snapshot {
  const q = (sql: string) => (deps.db.$client.query(sql).get() as { n: number }).n;
  const rows = deps.db.$client
    .query(
      "SELECT user_id, person_id, first_touch_at, last_touch_at, last_touch_direction, sent_count, received_count, meeting_count, decayed_score, score_at, updated_at FROM relationships ORDER BY seq",
    )
    .all();
  return {
    persons: q("SELECT count(*) AS n FROM persons"),
    person_emails: q("SELECT count(*) AS n FROM person_emails"),
    relationships: q("SELECT count(*) AS n FROM relationships"),
    interactions: q("SELECT count(*) AS n FROM interactions"),
    touches: q("SELECT count(*) AS n FROM touches"),
    interaction_people: q("SELECT count(*) AS n FROM interaction_people"),
    aggregates: JSON.stringify(rows),
  };
}

export type Rel = { email: string; sent: number; received: number; meetings: number; name: string | null };

/** A user's relationships by the person's email. */
export function relationshipsOf(deps: Deps, userId: string): Map<string, Rel> {
  const rows = deps.db.$client
    .query<{ email: string; sent_count: number; received_count: number; meeting_count: number; display_name: string | null }, [string]>(
      `SELECT e.email, r.sent_count, r.received_count, r.meeting_count, p.display_name FROM relationships r
       JOIN persons p ON p.id = r.person_id JOIN person_emails e ON e.person_id = p.id WHERE r.user_id = ? ORDER BY e.email`,
    )
    .all(userId);
  return new Map(rows.map((r) => [r.email, { email: r.email, sent: r.sent_count, received: r.received_count, meetings: r.meeting_count, name: r.display_name }]));
}

export function personByEmail(deps: Deps, email: string) {
  return deps.db.$client
    .query<Record<string, string | null>, [string]>("SELECT p.* FROM persons p JOIN person_emails e ON e.person_id = p.id WHERE e.email = ?")
    .get(email);
}
