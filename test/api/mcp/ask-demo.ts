// The demo firm the `ask` corpus is asked against: `dealgraph demo`'s own generators and loaders
// (src/demo: its team, book, deal flow analysed by the real runner, and network), built at a fixed
// clock so every relative date and figure is the same on every run, plus what actions leave behind
// that the demo does not make: a finished founder analysis and a finished research run.
// The corpus test and scripts/bench/ask.ts both build it with this.
import type { Deps } from "../../../src/deps.ts";
import { buildDemo } from "../../../src/demo/build.ts";
import type { Principal } from "../../../src/modules/identity/auth.macro.ts";
import { finishedFounderAnalysis, finishedResearch } from "../../helpers/finished-runs.ts";
import { principalOf } from "../../helpers/fixtures.ts";

/** The demo's "now": a Friday, seven weeks after the book's quarter end. */
export const DEMO_NOW = "2026-11-20T12:00:00.000Z";

export type DemoFirm = { read: Principal; write: Principal; founderAnalysisId: string; researchId: string };

/** Builds the demo firm on `deps` (a file-backed data dir whose clock reads DEMO_NOW). */
export async function buildDemoFirm(deps: Deps): Promise<DemoFirm> {
  const keys = await buildDemo(deps, { err: () => {} });
  const read = principalOf(deps, keys.read.secret);
  const write = principalOf(deps, keys.write.secret);
  // A founder analysis of the CEO of a deal in the pipeline, and a research run on a topic the deal flow covers: finished.
  const founderAnalysisId = finishedFounderAnalysis(deps, write, { name: "Felix Chen", company: "MosaicTreasury", score: 78, expertise: 84, why: "Eight years leading product at McKinsey.", strength: "Led product for eight years" });
  const researchId = await finishedResearch(deps, write, {
    query: "treasury APIs for mid-market finance teams",
    key: "demo-research-treasury",
    title: "Treasury APIs",
    summary: "Two deals in the pipeline sell treasury APIs to mid-market finance teams.",
  });
  return { read, write, founderAnalysisId, researchId };
}
