// What actions leave behind, made through the real services without running an engine: a founder
// analysis and a research run, each dispatched (and charged) as the API would, then finished with
// the given result. Tests that read results (the MCP `ask` tool, its corpus) start from these.
import type { Deps } from "../../src/deps.ts";
import type { FounderAssessment } from "../../src/engines/founder-engine.ts";
import { actionsService } from "../../src/modules/actions/actions.service.ts";
import { foundersService } from "../../src/modules/founders/founders.service.ts";
import type { Principal } from "../../src/modules/identity/auth.macro.ts";
import { researchService } from "../../src/modules/research/research.service.ts";

/** A succeeded founder analysis of `name` at `company`, scored `score` (one scored metric, one not). */
export function finishedFounderAnalysis(deps: Deps, principal: Principal, o: { name: string; company: string; score: number; expertise: number; why: string; strength: string }): string {
  const actions = actionsService(deps);
  const founders = foundersService(deps);
  const { body } = founders.analyze(principal, { name: o.name, company: o.company });
  const run = actions.latestFor(principal.orgId, body.analysis_id)!;
  actions.start(run.id);
  const assessment: FounderAssessment = {
    engine: "builtin",
    overall_score: o.score,
    metrics: [
      { key: "domain_expertise", label: "Domain expertise", score: o.expertise, confidence: 0.9, reasoning: o.why, missing_info: [] },
      { key: "leadership", label: "Leadership", score: null, confidence: 0, reasoning: "No evidence.", missing_info: ["team history"] },
    ],
    strengths: [o.strength],
    risks: ["First-time CEO"],
    sources: [],
  };
  founders.storeResult(body.analysis_id, assessment, o.name);
  actions.succeed(run.id);
  return body.analysis_id;
}

/** A succeeded research run on `query` with its executive summary. */
export async function finishedResearch(deps: Deps, principal: Principal, o: { query: string; key: string; title: string; summary: string }): Promise<string> {
  const actions = actionsService(deps);
  const research = researchService(deps);
  const { body } = await research.start(principal, { query: o.query, idempotency_key: o.key });
  const run = actions.latestFor(principal.orgId, body.research_id)!;
  actions.start(run.id);
  research.storeReport(body.research_id, "builtin", { title: o.title, executive_summary: o.summary, report_markdown: `# ${o.title}`, citations: [] });
  actions.succeed(run.id);
  return body.research_id;
}
