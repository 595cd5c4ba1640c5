// The `ask` corpus (ask-corpus.ts) asked of the demo firm, built by `dealgraph demo`'s own
// generators at a fixed clock: every phrasing gets the expected operation with the expected
// arguments, and the figures worked out independently from the REST API. The read key asks, so a
// request to start an action reaches its operation and is refused: the firm is unchanged after.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { CORPUS, allRows, type Category } from "./ask-corpus.ts";
import { readFacts } from "./ask-corpus-facts.ts";
import { runCorpus, type Verdict } from "./ask-corpus-run.ts";
import { buildDemoFirm, DEMO_NOW } from "./ask-demo.ts";

let t: TestApp;
let verdicts: Verdict[];
let before: Record<string, number>;
let after: Record<string, number>;

const counts = () =>
  Object.fromEntries(
    ["action_runs", "deals", "founder_analyses", "research_runs", "key_usage"].map((table) => [table, t.deps.db.$client.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n]),
  );

beforeAll(async () => {
  t = createTestApp({ file: true, clock: new TestClock(DEMO_NOW) });
  const firm = await buildDemoFirm(t.deps);
  const key = apiKeysService(t.deps).create({ userId: firm.read.userId, scope: "read", name: "corpus facts", dailyRequests: 1_000_000 }).secret;
  const facts = await readFacts(async (path) => (await t.request("GET", path, { key })).json);
  before = counts();
  verdicts = await runCorpus(t.deps, firm.read, CORPUS, facts);
  after = counts();
}, 240_000);
afterAll(() => t?.close());

const rows = allRows();

describe("the corpus", () => {
  test("has at least 300 phrasings, in every category", () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const categories: Category[] = ["issue", "holdings", "metrics", "deals", "deal", "positions", "cashflows", "network", "runs", "documents", "not-in-data", "follow-up", "actions"];
    for (const c of categories) expect(rows.filter((r) => r.cat === c).length, c).toBeGreaterThanOrEqual(5);
  });

  test("asking it started, charged and changed nothing (the read key's action requests were refused)", () => {
    expect(after).toEqual(before);
  });
});

describe("every phrasing: the expected operation and figures", () => {
  for (const [i, row] of rows.entries()) {
    test(`[${row.cat}] ${row.q}`, () => {
      const v = verdicts[i];
      expect(v.row).toBe(row);
      expect(v.ok, `${v.why}\n${v.text}`).toBe(true);
    });
  }
});
