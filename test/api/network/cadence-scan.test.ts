// Cadence learning at scale: the job reads the touches table in its own order (one sequential pass,
// no index: looking up each touch's row through the primary key's index costs more per touch as the
// firm outgrows the cache), and learns exactly what reading each relationship's touches in order
// would, however many passes its memory bound splits the work into.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { recordStatements } from "../../../scripts/lib/statement-recorder.ts";
import { cadenceOf, HISTORY_DAYS, learnCadences } from "../../../src/modules/network/network.cadence.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { seedIdentity, type Fixture } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";

const recorder = recordStatements();
let t: TestApp;
let f: Fixture;
const DAY_MS = 86_400_000;

beforeAll(() => {
  t = createTestApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") });
  f = seedIdentity(t.deps);
  const { alice, bob } = f.users;
  for (let i = 0; i < 12; i++) knows(t.deps, i % 2 ? alice.id : bob.id, { email: `p${i}@a.com` }, thread(4 + i, 3 + 5 * i, i));
  knows(t.deps, alice.id, { email: "aged@a.com" }, [...thread(6, 10, 800), ...thread(4, 9, 2)]); // partly older than the history
  knows(t.deps, alice.id, { email: "ahead@a.com" }, [...thread(5, 8, 1), { daysAgo: -400, direction: "sent" }, { daysAgo: -1500, direction: "sent" }]); // dated ahead, past the bitmap
  knows(t.deps, bob.id, { email: "thin@a.com" }, thread(2, 30, 1));
});
afterAll(() => {
  recorder.stop();
  t.close();
});

/** What reading each relationship's touches in relationship order gives (the job's former way). */
function expected(): Map<number, number> {
  const since = new Date(t.deps.clock.now().getTime() - HISTORY_DAYS * DAY_MS).toISOString();
  const rows = t.deps.db.$client.query<{ seq: number; at: string }, [string]>("SELECT relationship_seq AS seq, occurred_at AS at FROM touches WHERE occurred_at >= ? ORDER BY relationship_seq").all(since);
  const days = new Map<number, Set<number>>();
  for (const r of rows) {
    if (!days.has(r.seq)) days.set(r.seq, new Set());
    days.get(r.seq)!.add(Math.floor(Date.parse(r.at) / DAY_MS));
  }
  const out = new Map<number, number>();
  for (const [seq, set] of days) {
    const c = cadenceOf([...set].sort((a, b) => a - b));
    if (c !== null) out.set(seq, c);
  }
  return out;
}

const stored = () =>
  new Map(
    t.deps.db.$client
      .query<{ seq: number; c: number }, []>("SELECT seq, learned_cadence_days AS c FROM relationships WHERE learned_cadence_days IS NOT NULL")
      .all()
      .map((r) => [r.seq, r.c]),
  );

test("learns what each relationship's touches in order give, in one pass or in many", () => {
  const want = expected();
  expect(want.size).toBeGreaterThan(10);
  for (const perPass of [undefined, 1, 2, 5]) {
    t.deps.db.$client.exec("UPDATE relationships SET learned_cadence_days = NULL");
    const result = learnCadences(t.deps, { relationshipsPerPass: perPass });
    expect(result.learned, `relationshipsPerPass ${perPass}`).toBe(want.size);
    expect(result.relationships).toBe(15);
    expect(stored()).toEqual(want);
  }
});

test("the touches are read by a plain scan of the table: no index (no row looked up per touch), no sort", () => {
  recorder.reset();
  learnCadences(t.deps);
  const reads = recorder.executed().filter((s) => /\bFROM touches\b/i.test(s.sql));
  expect(reads.length).toBeGreaterThan(0);
  for (const s of reads) {
    const plan = t.deps.db.$client
      .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${s.sql}`)
      .all()
      .map((r) => r.detail);
    expect(plan, s.sql).toEqual(["SCAN touches"]);
  }
});
