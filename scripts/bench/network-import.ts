// Import rate of the real mail importer (issue 3: 5,000 messages/s or better, on a sample of at
// least 100,000 messages), with baselines measured in the same run on the same file:
//   - bare: reading the file in chunks and splitting it into messages (no decoding, no parsing)
//   - parse: the importer's reader and header parsing plus the relationship rules, no database
//   - import: `importMail` into a fresh data dir (one transaction, the graph writer)
// and of the calendar importer (events/s, issue 15) on a generated calendar of --events VEVENTs
// (UTC, TZID and all-day times, 2% weekly series with an exception each), the same three ways:
// bare (reading the file and counting BEGIN:VEVENT lines), parse (reader and rules), import.
//
//   bun scripts/bench/network-import.ts [--messages 100000] [--events 20000] [--keep DIR]
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { mailSignal } from "../../src/modules/network/import/mail-signal.ts";
import { readMbox } from "../../src/modules/network/import/mbox.ts";
import { importMail } from "../../src/modules/network/import/network.import.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { writeMailbox } from "../../src/demo/network.ts";
import { renderIcs, type CalEvent } from "../../src/demo/network-calendar.ts";
import { DAY } from "../../src/demo/network-mail.ts";
import { partnerNetwork } from "../../src/demo/network-partner.ts";
import { generatePeople } from "../../src/demo/network-people.ts";
import { rng } from "../../src/demo/rng.ts";
import { parseCalendar } from "../../src/lib/icalendar.ts";
import { expandOccurrences } from "../../src/lib/icalendar-recurrence.ts";
import { calendarSignal } from "../../src/modules/network/import/calendar-signal.ts";
import { importCalendar } from "../../src/modules/network/import/network.import.ts";

export type ImportRateSample = {
  messages: number;
  bytes: number;
  seconds: number;
  perSecond: number;
  /** Reading and splitting the same file only. */
  baselinePerSecond: number;
  /** Reading, header parsing and the relationship rules, without writing. */
  parsePerSecond: number;
  imported: number;
  skipped: number;
  duplicates: number;
};

/** Messages per second of reading the file in 1 MB chunks and finding the `From ` separators. */
/** A new data dir under `dir` with one firm and `me` in it, to import into. */
function freshFirm(dir: string, me: { name: string; email: string }) {
  const config = loadConfig({}, { dataDir: join(dir, "data") });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, log: silentLog });
  const orgs = orgsService(deps);
  const org = orgs.createOrg("Northwind Ventures");
  return { db, deps, user: orgs.createUser({ orgId: org.id, email: me.email, name: me.name }) };
}

function bareSplit(path: string): { messages: number; seconds: number } {
  const started = performance.now();
  const fd = openSync(path, "r");
  const chunk = Buffer.allocUnsafe(1 << 20);
  let messages = 0;
  let atLineStart = true;
  try {
    for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
      let pos = 0;
      while (pos < n) {
        // A separator split across chunks is counted by its start; good enough for a baseline.
        if (atLineStart && chunk[pos] === 70 && chunk[pos + 1] === 114 && chunk[pos + 2] === 111 && chunk[pos + 3] === 109 && chunk[pos + 4] === 32) messages++;
        const nl = chunk.indexOf(10, pos);
        if (nl === -1 || nl >= n) {
          atLineStart = false;
          break;
        }
        pos = nl + 1;
        atLineStart = true;
      }
    }
  } finally {
    closeSync(fd);
  }
  return { messages, seconds: (performance.now() - started) / 1000 };
}

export async function importRateSample(o: { messages?: number; keep?: string } = {}): Promise<ImportRateSample> {
  const wanted = Math.max(100_000, o.messages ?? 100_000);
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-import-bench-"));
  try {
    const me = { name: "Maya Okafor", email: "maya@northwind.vc" };
    const mbox = join(dir, "sample.mbox");
    const now = new Date();
    const written = writeMailbox(mbox, { now, messages: wanted, me });

    const bare = bareSplit(mbox);
    if (Math.abs(bare.messages - written.messages) > written.messages / 1000) throw new Error(`bare split found ${bare.messages} messages, ${written.messages} were written`);

    const parseStarted = performance.now();
    const own = (e: string) => e === me.email;
    readMbox(mbox, (block) => void mailSignal(block, own, now));
    const parseSeconds = (performance.now() - parseStarted) / 1000;

    const { db, deps, user } = freshFirm(dir, me);
    const started = performance.now();
    const stats = importMail(deps, { userId: user.id, path: mbox });
    const seconds = (performance.now() - started) / 1000;
    db.$client.close();
    return {
      messages: stats.read,
      bytes: written.bytes,
      seconds,
      perSecond: stats.read / seconds,
      baselinePerSecond: bare.messages / bare.seconds,
      parsePerSecond: stats.read / parseSeconds,
      imported: stats.imported,
      skipped: stats.skipped,
      duplicates: stats.duplicates,
    };
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

export type CalendarRateSample = {
  events: number;
  bytes: number;
  seconds: number;
  perSecond: number;
  /** Reading the file and counting its BEGIN:VEVENT lines only. */
  baselinePerSecond: number;
  /** The reader and the relationship rules, without writing. */
  parsePerSecond: number;
  imported: number;
  skipped: number;
  meetings: number;
  /** Occurrences weighed (each event once, each series at every past instance); the old importer read one per event. */
  occurrences: number;
};

/**
 * A calendar of about `events` VEVENTs for `me`: the demo partner's meetings (UTC, TZID, all-day,
 * cancelled, declined, future), plus a weekly series for every 50th meeting (started a year
 * before it, with one occurrence moved by an exception VEVENT).
 */
function writeCalendarSample(path: string, o: { now: Date; events: number; me: { name: string; email: string } }): { events: number; bytes: number } {
  const now = o.now.getTime();
  const { people } = generatePeople(13, Math.max(2000, Math.round(o.events / 4)));
  const net = partnerNetwork(rng(14), now, o.me, people, 300, { contacts: Math.max(900, Math.round(o.events / 6)), messages: 0, meetings: o.events }, o.me.email.split("@")[1]);
  const events: CalEvent[] = net.events.map((e, i) => (i % 50 === 7 && e.at < now ? { ...e, at: e.at - 365 * DAY, rrule: "FREQ=WEEKLY;COUNT=60" } : e));
  const stamp = (t: number) => new Date(t).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const moved = events
    .filter((e) => e.rrule && !e.tzid && !e.allDay)
    .map((e) => {
      const original = e.at + 3 * 7 * DAY;
      const who = [`ORGANIZER:mailto:${e.organizer!.email}`, ...e.attendees.map((a) => `ATTENDEE;PARTSTAT=${a.partstat ?? "ACCEPTED"}:mailto:${a.email}`)];
      return ["BEGIN:VEVENT", `UID:${e.uid}`, `RECURRENCE-ID:${stamp(original)}`, `DTSTART:${stamp(original + 3600_000)}`, ...who, "END:VEVENT"].join("\r\n");
    });
  const ics = renderIcs(events, o.me.name, now).replace(/END:VCALENDAR\r\n$/, `${moved.map((m) => `${m}\r\n`).join("")}END:VCALENDAR\r\n`);
  writeFileSync(path, ics);
  return { events: events.length + moved.length, bytes: Buffer.byteLength(ics) };
}

export async function calendarRateSample(o: { events?: number; keep?: string } = {}): Promise<CalendarRateSample> {
  const wanted = o.events ?? 20_000;
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-calendar-bench-"));
  try {
    const me = { name: "Maya Okafor", email: "maya@northwind.vc" };
    const ics = join(dir, "sample.ics");
    const now = new Date();
    const written = writeCalendarSample(ics, { now, events: wanted, me });

    const bareStarted = performance.now();
    const bareCount = (readFileSync(ics, "utf8").match(/^BEGIN:VEVENT\r?$/gm) ?? []).length;
    const bareSeconds = (performance.now() - bareStarted) / 1000;
    if (bareCount !== written.events) throw new Error(`bare read found ${bareCount} events, ${written.events} were written`);

    const parseStarted = performance.now();
    const own = (e: string) => e === me.email;
    const parsed = parseCalendar(readFileSync(ics, "utf8"));
    for (const occurrence of expandOccurrences(parsed.events, now.getTime()).occurrences) calendarSignal(occurrence, own, now);
    const parseSeconds = (performance.now() - parseStarted) / 1000;

    const { db, deps, user } = freshFirm(dir, me);
    const started = performance.now();
    const stats = importCalendar(deps, { userId: user.id, path: ics });
    const seconds = (performance.now() - started) / 1000;
    const meetings = (db.$client.query("SELECT count(*) AS n FROM interactions").get() as { n: number }).n;
    db.$client.close();
    return {
      events: stats.read,
      bytes: written.bytes,
      seconds,
      perSecond: stats.read / seconds,
      baselinePerSecond: bareCount / bareSeconds,
      parsePerSecond: stats.read / parseSeconds,
      imported: stats.imported,
      skipped: stats.skipped,
      meetings,
      occurrences: stats.occurrences ?? stats.read,
    };
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { messages: { type: "string" }, events: { type: "string" }, keep: { type: "string" } } });
  const s = await importRateSample({ messages: values.messages ? Number(values.messages) : undefined, keep: values.keep });
  const r = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(`sample: ${r(s.messages)} messages, ${(s.bytes / 1e6).toFixed(1)} MB (${r(s.imported)} imported, ${r(s.skipped)} skipped, ${r(s.duplicates)} duplicates)`);
  console.log(`bare read + split:        ${r(s.baselinePerSecond).padStart(10)} msg/s`);
  console.log(`read + parse + rules:     ${r(s.parsePerSecond).padStart(10)} msg/s`);
  console.log(`import (into SQLite):     ${r(s.perSecond).padStart(10)} msg/s  (${s.seconds.toFixed(2)} s; ${(s.perSecond / s.baselinePerSecond).toFixed(3)} of the bare baseline)`);
  console.log(`target >= 5,000 msg/s:    ${s.perSecond >= 5000 ? "PASS" : "MISS"}`);

  const c = await calendarRateSample({ events: values.events ? Number(values.events) : undefined, keep: values.keep });
  console.log(`calendar: ${r(c.events)} events, ${(c.bytes / 1e6).toFixed(1)} MB (${r(c.occurrences)} occurrences: ${r(c.imported)} imported, ${r(c.skipped)} skipped; ${r(c.meetings)} meetings recorded)`);
  console.log(`bare read + count:        ${r(c.baselinePerSecond).padStart(10)} events/s`);
  console.log(`read + parse + rules:     ${r(c.parsePerSecond).padStart(10)} events/s`);
  console.log(`import (into SQLite):     ${r(c.perSecond).padStart(10)} events/s  (${c.seconds.toFixed(2)} s; ${(c.perSecond / c.baselinePerSecond).toFixed(3)} of the bare baseline)`);
}
