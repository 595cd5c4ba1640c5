// The demo firm the `ask` corpus is asked against: `dealgraph demo`'s own generators and loaders
// (src/demo: its team, book, deal flow analysed by the real runner, and network), built at a fixed
// clock so every relative date and figure is the same on every run, plus what actions leave behind
// that the demo does not make: a finished founder analysis and a finished research run.
// The corpus test and scripts/bench/ask.ts both build it with this.
import type { Deps } from "../../../src/deps.ts";
import { buildDemo } from "../../../src/demo/build.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import type { Principal } from "../../../src/modules/identity/auth.macro.ts";
import { foundersService } from "../../../src/modules/founders/founders.service.ts";
import { researchService } from "../../../src/modules/research/research.service.ts";

/** The demo's "now": a Friday, seven weeks after the book's quarter end. */
export const DEMO_NOW = "2026-11-20T12:00:00.000Z";

function principalOf(deps: Deps, secret: string): Principal {
  const v = apiKeysService(deps).verify(secret);
  if (v.status !== "VALID" || !v.key.orgId) throw new Error("the demo key is not a valid key of an organization");
  return { ...v.key, orgId: v.key.orgId };
}

export type DemoFirm = { read: Principal; write: Principal; founderAnalysisId: string; researchId: string };

/** Builds the demo firm on `deps` (a file-backed data dir whose clock reads DEMO_NOW). */
export async function buildDemoFirm(deps: Deps): Promise<DemoFirm> {
  const keys = await buildDemo(deps, { err: () => {} });
  const read = principalOf(deps, keys.read.secret);
  const write = principalOf(deps, keys.write.secret);
  const actions = actionsService(deps);

  // A founder analysis of the CEO of a deal in the pipeline, finished.
  const founders = foundersService(deps);
  const { body: founder } = founders.analyze(write, { name: "Felix Chen", company: "MosaicTreasury" });
  const founderRun = actions.latestFor(write.orgId, founder.analysis_id)!;
  actions.start(founderRun.id);
  founders.storeResult(
    founder.analysis_id,
    {
      engine: "builtin",
      overall_score: 78,
      metrics: [
        { key: "domain_expertise", label: "Domain expertise", score: 84, confidence: 0.9, reasoning: "Eight years leading product at McKinsey.", missing_info: [] },
        { key: "leadership", label: "Leadership", score: null, confidence: 0, reasoning: "No evidence.", missing_info: ["team history"] },
      ],
      strengths: ["Led product for eight years"],
      risks: ["First-time CEO"],
      sources: [],
    },
    "Felix Chen",
  );
  actions.succeed(founderRun.id);

  // A research run on a topic the deal flow covers, finished with its summary.
  const research = researchService(deps);
  const { body: run } = await research.start(write, { query: "treasury APIs for mid-market finance teams", idempotency_key: "demo-research-treasury" });
  const researchRun = actions.latestFor(write.orgId, run.research_id)!;
  actions.start(researchRun.id);
  research.storeReport(run.research_id, "builtin", {
    title: "Treasury APIs",
    executive_summary: "Two deals in the pipeline sell treasury APIs to mid-market finance teams.",
    report_markdown: "# Treasury APIs",
    citations: [],
  });
  actions.succeed(researchRun.id);
  return { read, write, founderAnalysisId: founder.analysis_id, researchId: run.research_id };
}
