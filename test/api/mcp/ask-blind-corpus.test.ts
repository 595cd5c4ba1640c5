// The blind corpus (test/fixtures/ask-corpus, written by a helper that never read the ask tool,
// from the demo firm's REST API): no dev answer may state a wrong figure, the held-out part no more
// than measured, and the dev part's share answered stays at least where it is. The held-out part's questions are never
// printed here: a failure names its count, not its items (see the corpus's README).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { openDataDir } from "../../../src/db/open.ts";
import { createDeps, type Deps } from "../../../src/deps.ts";
import { silentLog } from "../../../src/lib/log.ts";
import { runBlind, type BlindScore } from "./ask-blind-run.ts";
import { buildDemoFirm, DEMO_NOW, type DemoFirm } from "./ask-demo.ts";

/** The dev share measured when this floor was set (0.675; 0.93 when raised to 0.85; 0.975 at 0.93 and at 0.95); raise it as the reader improves. */
const DEV_FLOOR = 0.95;
/** The second blind dev part (dev2.json, written later by another helper): 0.80 when this floor was set. */
const DEV2_FLOOR = 0.92;
/** The third blind dev part (dev3.json, weighted to the classes held-out fails): 0.716 when this floor was set at 0.69, 0.730 at 0.70, 0.924 at 0.90. */
const DEV3_FLOOR = 0.90;
/** The fourth blind dev part (dev4.json, written as partners type): 0.739 on arrival, 0.889 when this floor was set. */
const DEV4_FLOOR = 0.86;
/** The fifth blind dev part (dev5.json, written as assistants, associates and dictating partners ask): 0.651 with 4 wrong figures on arrival, 0.830 when this floor was set. */
const DEV5_FLOOR = 0.8;
/** The sixth blind dev part (dev6.json, written as non-native speakers, spreadsheet and SQL users, LPs and chiefs of staff ask): 0.631 with 3 wrong figures on arrival, 0.742 when this floor was set. */
const DEV6_FLOOR = 0.7;
/**
 * Wrong figures the held-out part still draws (measured 3 of 210 when this was written: their
 * questions are not looked at while the reader changes, so they are fixed by classes found in
 * dev). A ratchet: any more fails; lower it when they go.
 */
const HELD_OUT_WRONG_AT_MOST = 2;

let dir: string;
let deps: Deps;
let firm: DemoFirm;
const scores: Partial<Record<"dev" | "dev2" | "dev3" | "dev4" | "dev5" | "dev6" | "heldout", BlindScore>> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "dealgraph-ask-blind-"));
  const config = loadConfig({}, { dataDir: dir });
  deps = createDeps({ db: openDataDir(config).db, config, log: silentLog, clock: { now: () => new Date(DEMO_NOW) } });
  firm = await buildDemoFirm(deps);
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the blind ask corpus on the demo firm", () => {
  // Each dev part: how many answers it holds at least, and the share answered it must keep.
  const DEV_PARTS: ["dev" | "dev2" | "dev3" | "dev4" | "dev5" | "dev6", number, number][] = [
    ["dev", 150, DEV_FLOOR],
    ["dev2", 150, DEV2_FLOOR],
    ["dev3", 200, DEV3_FLOOR],
    ["dev4", 200, DEV4_FLOOR],
    ["dev5", 200, DEV5_FLOOR],
    ["dev6", 170, DEV6_FLOOR],
  ];
  for (const [part, atLeast, floor] of DEV_PARTS) {
    test(`${part}: no wrong figure, and at least its floor answered`, async () => {
      const s = (scores[part] = await runBlind(deps, firm.read, part));
      expect(s.asked).toBeGreaterThan(atLeast);
      const wrong = s.verdicts.filter((v) => v.wrongFigure).map((v) => `${v.id} ${v.q}: ${v.why}`);
      expect(wrong).toEqual([]);
      expect(s.correct / s.asked).toBeGreaterThanOrEqual(floor);
    }, 240_000);
  }

  test("held-out: no more wrong figures than measured (counts only)", async () => {
    const s = (scores.heldout = await runBlind(deps, firm.read, "heldout"));
    expect(s.asked).toBeGreaterThan(150);
    expect(s.wrongFigures).toBeLessThanOrEqual(HELD_OUT_WRONG_AT_MOST);
  }, 240_000);
});
