// The network end to end from hand-built mailboxes: small mbox, .ics and .vcf files written here,
// imported through the real importers for two users of one org (Alice shares her network, Bob
// does not) and a user of another org (Carol), then read over HTTP: who-knows ranking, sharing,
// every unavailable_reason, dedupe on re-import, cadence learning and going-stale with the test
// clock, snooze, org isolation, and contacts paging while another connection imports.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findJob } from "../../../jobs/index.ts";
import { loadConfig } from "../../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../../src/db/client.ts";
import { createDeps } from "../../../src/deps.ts";
import { silentLog } from "../../../src/lib/log.ts";
import { importCalendar, importContacts, importMail } from "../../../src/modules/network/import/network.import.ts";
import { networkSignals } from "../../../src/modules/network/network.signals.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { filesDir, mbox, snapshot, writeTo, type TestMessage } from "../../helpers/import-files.ts";
import { personId } from "../../helpers/network.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();

let t: TestApp;
let f: Fixture;
let ids = 0;
/** Messages between `me` and one person on the given days, alternating as `dirs` says. */
function exchange(me: string, person: string, days: number[], dirs: ("sent" | "received")[] = ["sent", "received"]): TestMessage[] {
  return days.map((d, i) =>
    dirs[i % dirs.length] === "sent"
      ? { from: me, to: person, date: ago(d), id: `m${++ids}@test` }
      : { from: person, to: me, date: ago(d), id: `m${++ids}@test` },
  );
}

const ALICE = "Alice Archer <alice@acme.vc>";
const BOB = "Bob Baker <bob@acme.vc>";
const CAROL = "Carol Chen <carol@globex.vc>";

// Alice's mailbox: pairs of people at target.com who differ in one thing only.
const aliceMail = () => [
  ...exchange(ALICE, "Jane Doe <jane@target.com>", [2, 5, 9, 14, 20, 27]), // more than Mo
  ...exchange(ALICE, "Mo Few <mo@target.com>", [2, 5]),
  ...exchange(ALICE, "Nia Recent <nia@target.com>", [10, 20, 30, 40]), // more recent than Kim
  ...exchange(ALICE, "Kim Old <kim@target.com>", [300, 310, 320, 330]),
  ...exchange(ALICE, "Tara Both <tara@target.com>", [3, 6, 12, 18]), // two-way, Raj one-way
  ...exchange(ALICE, "Raj Oneway <raj@target.com>", [3, 6, 12, 18], ["sent"]),
  ...exchange(ALICE, "Lee Meets <lee@target.com>", [3, 6]), // plus two meetings (calendar) where Em has two emails
  ...exchange(ALICE, "Em Mails <em@target.com>", [3, 6, 12, 18]),
  ...exchange(ALICE, "Wendy Weekly <wendy@weekly.com>", [2, 9, 16, 23, 30, 37, 44, 51, 58, 65]),
  ...exchange(ALICE, "Pat Thin <pat@thin.com>", [4, 8]),
  { from: "Target News <news@target.com>", to: "alice@acme.vc", date: ago(1), id: "list@test", headers: ["List-Id: <news.target.com>"] },
];

function calendar(events: { uid: string; daysAgo: number; with: string; status?: string }[]): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"];
  for (const e of events) {
    const start = ago(e.daysAgo).replace(/[-:]/g, "").replace(/\.\d{3}/, "");
    lines.push("BEGIN:VEVENT", `UID:${e.uid}`, `DTSTART:${start}`, "ORGANIZER;CN=Alice Archer:mailto:alice@acme.vc", `ATTENDEE;PARTSTAT=ACCEPTED:mailto:${e.with}`);
    if (e.status) lines.push(`STATUS:${e.status}`);
    lines.push("END:VEVENT");
  }
  return [...lines, "END:VCALENDAR"].join("\r\n") + "\r\n";
}

const CARD = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cardie Only\r\nEMAIL:card@target.com\r\nURL:https://www.linkedin.com/in/cardie\r\nEND:VCARD\r\n";

/** Imports every hand-built file; returns Alice's paths for a re-import. */
function importAll() {
  ({ t, f } = seededApp({ clock: new TestClock(NOW), file: true })); // Alice shares; Bob does not; Carol is Globex's
  const dir = filesDir();
  const alice = {
    mail: writeTo(dir, "alice.mbox", mbox(aliceMail())),
    cal: writeTo(dir, "alice.ics", calendar([
      { uid: "lee-1", daysAgo: 12, with: "lee@target.com" },
      { uid: "lee-2", daysAgo: 18, with: "lee@target.com" },
      { uid: "raj-cancelled", daysAgo: 1, with: "raj@target.com", status: "CANCELLED" },
      { uid: "jane-next-week", daysAgo: -7, with: "jane@target.com" },
    ])),
    cards: writeTo(dir, "alice.vcf", CARD),
  };
  const bobMail = [
    ...exchange(BOB, "Jane Doe <jane@target.com>", Array.from({ length: 20 }, (_, i) => i + 1)),
    ...exchange(BOB, "Sid Secret <sid@target.com>", [1, 2, 3, 4, 5, 6, 7, 8]),
    ...exchange(BOB, "Hal Hidden <hal@hidden.io>", [1, 3, 5, 7]),
  ];
  const carolMail = [...exchange(CAROL, "Jane Doe <jane@target.com>", [1, 2, 3, 4, 5, 6, 7, 8]), ...exchange(CAROL, "Gus Globex <gus@other.com>", [2, 4])];
  const me = (id: string, path: string) => ({ userId: id, path });
  const stats = {
    aliceMail: importMail(t.deps, me(f.users.alice.id, alice.mail)),
    aliceCal: importCalendar(t.deps, me(f.users.alice.id, alice.cal)),
    aliceCards: importContacts(t.deps, me(f.users.alice.id, alice.cards)),
    bob: importMail(t.deps, me(f.users.bob.id, writeTo(dir, "bob.mbox", mbox(bobMail)))),
    carol: importMail(t.deps, me(f.users.carol.id, writeTo(dir, "carol.mbox", mbox(carolMail)))),
  };
  return { alice, stats };
}

const get = (path: string, key: string) => t.request("GET", path, { key });
const lookup = (key: string, contacts: string[]) => t.request("POST", "/api/v1/network/warmth/lookup", { key, body: { contacts } });

describe("imported mailboxes", () => {
  test("import counts, and a re-import of every file changes nothing", () => {
    const { alice, stats } = importAll();
    expect(stats.aliceMail).toMatchObject({ read: 43, imported: 42, skipped_by_reason: { mailing_list: 1 } });
    expect(stats.aliceCal).toMatchObject({ read: 4, imported: 2, skipped_by_reason: { cancelled: 1, future: 1 } });
    expect(stats.aliceCards).toMatchObject({ imported: 1 });
    const before = snapshot(t.deps);
    t.clock.advance(DAY);
    expect(importMail(t.deps, { userId: f.users.alice.id, path: alice.mail })).toMatchObject({ imported: 0, duplicates: 42 });
    expect(importCalendar(t.deps, { userId: f.users.alice.id, path: alice.cal })).toMatchObject({ imported: 0, duplicates: 2 });
    expect(importContacts(t.deps, { userId: f.users.alice.id, path: alice.cards })).toMatchObject({ persons_created: 0, relationships_created: 0 });
    expect(snapshot(t.deps)).toEqual(before);
  });

  test("who-knows ranks more, more recent, two-way, and meetings higher; every path is Alice's own", async () => {
    importAll();
    const res = await get("/api/v1/network/who-knows?domain=target.com&limit=50", f.keys.read.secret);
    expect(res.status).toBe(200);
    const names: string[] = res.json.paths.map((p: any) => p.name);
    const rank = (name: string) => names.indexOf(name);
    for (const name of ["Jane Doe", "Mo Few", "Nia Recent", "Kim Old", "Tara Both", "Raj Oneway", "Lee Meets", "Em Mails"]) expect(rank(name), name).toBeGreaterThanOrEqual(0);
    expect(rank("Jane Doe")).toBeLessThan(rank("Mo Few")); // more
    expect(rank("Nia Recent")).toBeLessThan(rank("Kim Old")); // more recent
    expect(rank("Tara Both")).toBeLessThan(rank("Raj Oneway")); // two-way
    expect(rank("Lee Meets")).toBeLessThan(rank("Em Mails")); // meetings
    expect(new Set(res.json.paths.map((p: any) => p.path_owner))).toEqual(new Set(["Alice Archer"]));
    // A contact card alone is no path; the list's sender and the cancelled or future meetings made nothing.
    expect(names).not.toContain("Cardie Only");
    expect(names).not.toContain("Target News");
    const jane = res.json.paths.find((p: any) => p.name === "Jane Doe");
    expect(jane.signals).toMatchObject({ emails_sent: 3, emails_received: 3, meetings: 0, last_touch_at: ago(2) });
  });

  test("a teammate who does not share never shows: not by domain, name, email or contact id; Bob still sees his own and Alice's", async () => {
    importAll();
    const sid = personId(t.deps, f.orgs.acme.id, "sid@target.com");
    const key = f.keys.read.secret;
    const domain = await get("/api/v1/network/who-knows?domain=target.com&limit=50", key);
    expect(domain.json.paths.map((p: any) => p.owner_user_id)).not.toContain(f.users.bob.id);
    expect(domain.json.paths.map((p: any) => p.email)).not.toContain("sid@target.com");
    for (const person of ["Sid Secret", "sid@target.com", sid]) {
      const res = await get(`/api/v1/network/who-knows?person=${encodeURIComponent(person)}`, key);
      expect(res.json, person).toMatchObject({ paths: [], unavailable_reason: "contact_not_found" });
    }
    expect((await get("/api/v1/network/who-knows?domain=hidden.io", key)).json).toMatchObject({ paths: [], unavailable_reason: "contact_not_found" });
    const looked = await lookup(key, ["Sid Secret", "sid@target.com", sid, "hal@hidden.io", "jane@target.com"]);
    for (const r of looked.json.results.slice(0, 4)) expect(r, r.query).toMatchObject({ contact_id: null, unavailable_reason: "contact_not_found" });
    // Jane's best path is Alice's, though Bob writes to Jane far more.
    expect(looked.json.results[4]).toMatchObject({ path_owner: "Alice Archer", signals: { emails_sent: 3, emails_received: 3 } });

    const bobs = await get("/api/v1/network/who-knows?domain=target.com&limit=50", f.keys.bobRead.secret);
    const owners = new Set(bobs.json.paths.map((p: any) => p.path_owner));
    expect(owners).toEqual(new Set(["Alice Archer", "Bob Baker"]));
    expect(bobs.json.paths[0]).toMatchObject({ name: "Jane Doe", path_owner: "Bob Baker" });
  });

  test("warmth lookup gives every unavailable_reason, one row per identifier, in order", async () => {
    importAll();
    const carolsJane = personId(t.deps, f.orgs.globex.id, "jane@target.com");
    const queries = ["jane@target.com", "card@target.com", "https://www.linkedin.com/in/cardie", "nobody@target.com", carolsJane, "Gus Globex", "Lee Meets"];
    const res = await lookup(f.keys.read.secret, queries);
    expect(res.json.results.map((r: any) => [r.query, r.name, r.unavailable_reason])).toEqual([
      ["jane@target.com", "Jane Doe", null],
      ["card@target.com", "Cardie Only", "no_relationship_data"],
      ["https://www.linkedin.com/in/cardie", "Cardie Only", "no_relationship_data"],
      ["nobody@target.com", null, "contact_not_found"],
      [carolsJane, null, "contact_not_found"], // another org's person
      ["Gus Globex", null, "contact_not_found"],
      ["Lee Meets", "Lee Meets", null],
    ]);
    expect(res.json.results[6].signals).toMatchObject({ meetings: 2, emails_sent: 1, emails_received: 1 });
  });

  test("cadences are learned from the imported history; going-stale follows the test clock, a declared cadence and a snooze", async () => {
    importAll();
    const signals = networkSignals(t.deps);
    await findJob("cadence-learning")!.runOnce(t.deps);
    const learned = (email: string) =>
      t.deps.db.$client
        .query<{ c: number | null }, [string, string]>("SELECT learned_cadence_days AS c FROM relationships r JOIN person_emails e ON e.person_id = r.person_id WHERE r.user_id = ? AND e.email = ?")
        .get(f.users.alice.id, email)!.c;
    expect([learned("wendy@weekly.com"), learned("kim@target.com"), learned("nia@target.com"), learned("pat@thin.com"), learned("lee@target.com")]).toEqual([7, 10, 10, null, null]);
    const stale = async () => (await get("/api/v1/network/signals/going-stale?limit=200", f.keys.read.secret)).json;
    // Kim: 300 days against 10. Nia: 10 days against 10 is not past it (strictly greater).
    expect((await stale()).signals.map((s: any) => [s.name, s.days_since_last_touch, s.source])).toEqual([["Kim Old", 300, "learned"]]);
    signals.declareCadence(f.users.alice.id, "pat@thin.com", 3); // Pat's history is too thin to learn from
    expect((await stale()).signals.map((s: any) => s.name)).toEqual(["Kim Old", "Pat Thin"]);

    t.clock.advance(10 * DAY); // Wendy and Jane: 12 days against 7
    signals.snooze(f.users.alice.id, "wendy@weekly.com", ago(-15).slice(0, 10));
    const later = await stale();
    expect(later.signals.map((s: any) => s.name)).toEqual(["Kim Old", "Pat Thin", "Nia Recent", "Jane Doe"]);
    expect(later.total).toBe(4);
    t.clock.advance(6 * DAY); // the snooze is over: Wendy is back (18 days against 7)
    expect((await stale()).signals.map((s: any) => s.name)).toContain("Wendy Weekly");
    signals.declareCadence(f.users.alice.id, "wendy@weekly.com", 30); // declared beats learned
    expect((await stale()).signals.map((s: any) => s.name)).not.toContain("Wendy Weekly");
    // Bob's and Carol's lists are their own.
    expect((await get("/api/v1/network/signals/going-stale", f.keys.otherOrgWrite.secret)).json.signals.map((s: any) => s.name)).not.toContain("Kim Old");
  });
});

describe("contacts: isolation and paging under concurrent imports", () => {
  const page = async (key: string, cursor: string | null, limit: number) => {
    const res = await get(`/api/v1/network/contacts?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, key);
    expect(res.status).toBe(200);
    return res.json as { contacts: { contact_id: string; email: string; path_owner: string }[]; next_cursor: string | null };
  };
  const all = async (key: string) => {
    const seen: string[] = [];
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const p = await page(key, cursor, 200);
      seen.push(...p.contacts.map((c) => c.email));
      cursor = p.next_cursor;
    }
    return seen;
  };

  test("each key pages its own user's contacts; another org's key cannot use a cursor, nor see a row", async () => {
    importAll();
    const carol = await all(f.keys.otherOrgWrite.secret);
    expect(carol.sort()).toEqual(["gus@other.com", "jane@target.com"]);
    const alicePage = await page(f.keys.read.secret, null, 2);
    expect(alicePage.contacts.every((c) => c.path_owner === "Alice Archer")).toBe(true);
    const carolsIds = new Set((await page(f.keys.otherOrgWrite.secret, null, 200)).contacts.map((c) => c.contact_id));
    expect((await all(f.keys.read.secret)).length).toBe(11);
    expect(alicePage.contacts.some((c) => carolsIds.has(c.contact_id))).toBe(false);
    const refused = await get(`/api/v1/network/contacts?cursor=${alicePage.next_cursor}`, f.keys.otherOrgWrite.secret);
    expect(refused.status).toBe(422);
    expect(refused.json.detail[0].loc).toEqual(["query", "cursor"]);
  });

  test("an import on a second connection between pages: no duplicate, no gap, the new contacts at the end", async () => {
    importAll();
    const before = await all(f.keys.read.secret);
    const other = openSqlite(join(t.dataDir!, "dealgraph.db"), { busyTimeoutMs: 5000 });
    const writer = createDeps({ db: wrapDrizzle(other), config: loadConfig({}), clock: new TestClock(NOW), log: silentLog });
    const dir = filesDir();
    try {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const p = await page(f.keys.read.secret, cursor, 3);
        seen.push(...p.contacts.map((c) => c.email));
        cursor = p.next_cursor;
        if (++pages === 2) {
          // New people, and new touches on contacts already paged past and still ahead.
          const mail = [...exchange(ALICE, "New One <new1@late.com>", [1]), ...exchange(ALICE, "Jane Doe <jane@target.com>", [1]), ...exchange(ALICE, "Wendy Weekly <wendy@weekly.com>", [1])];
          expect(importMail(writer, { userId: f.users.alice.id, path: writeTo(dir, "late1.mbox", mbox(mail)) }).imported).toBe(3);
        }
        if (pages === 3) importMail(writer, { userId: f.users.alice.id, path: writeTo(dir, "late2.mbox", mbox(exchange(ALICE, "New Two <new2@late.com>", [1]))) });
      } while (cursor && pages < 50);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(0, before.length)).toEqual(before);
      expect(seen.slice(before.length)).toEqual(["new1@late.com", "new2@late.com"]);
    } finally {
      other.close();
    }
  });

  test("imports running in a worker thread on its own connection while the pages are read: no duplicate, no gap", async () => {
    importAll();
    const before = await all(f.keys.read.secret);
    const dir = filesDir();
    // Each file: two new contacts of Alice's and a new touch on Jane (paged past early on).
    const files = Array.from({ length: 12 }, (_, i) =>
      writeTo(dir, `w${i}.mbox`, mbox([...exchange(ALICE, `Worker ${i}a <w${i}a@worker.com>`, [1]), ...exchange(ALICE, "Jane Doe <jane@target.com>", [1]), ...exchange(ALICE, `Worker ${i}b <w${i}b@worker.com>`, [2])])),
    );
    const worker = new Worker(new URL("../../helpers/network-import-worker.ts", import.meta.url).href);
    const replies: string[] = [];
    let wake: (() => void) | null = null;
    worker.onmessage = (e) => {
      replies.push(e.data);
      wake?.();
    };
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    };
    const imported = () => replies.filter((r) => r === "imported").length;
    worker.postMessage({ open: { db: join(t.dataDir!, "dealgraph.db"), userId: f.users.alice.id, at: NOW } });
    worker.postMessage({ file: files[0] }); // the worker is loaded and connected before paging starts
    await until(() => imported() === 1);
    // Each page is read while the worker imports the next file on its own thread and connection.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next = pages + 1;
      if (next < files.length) worker.postMessage({ file: files[next] });
      const p = await page(f.keys.read.secret, cursor, 2);
      seen.push(...p.contacts.map((c) => c.email));
      cursor = p.next_cursor;
      pages++;
      if (next < files.length) await until(() => imported() === next + 1);
    } while (cursor && pages < 200);
    for (let i = pages + 1; i < files.length; i++) worker.postMessage({ file: files[i] });
    worker.postMessage({ close: true });
    await until(() => replies.includes("closed"));
    worker.terminate();
    expect(replies.filter((r) => r === "imported").length).toBe(files.length);
    expect(new Set(seen).size).toBe(seen.length); // no duplicate
    expect(seen.slice(0, before.length)).toEqual(before); // no gap, same order
    // What arrived while paging came after, in insertion order, and the rest is there on a fresh pass.
    const final = await all(f.keys.read.secret);
    expect(final.length).toBe(before.length + 24);
    expect(final.slice(0, seen.length)).toEqual(seen);
  });
});
