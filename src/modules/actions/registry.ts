// Every kind of action and its handler (and the wait step of a kind whose runs may wait for
// something outside), registered by the module that owns it (deal analysis, founder analysis,
// research), the way jobs/index.ts lists the jobs. `serve` starts one runner over all of them.
import type { Deps } from "../../deps.ts";
import { dealAnalysisHandler } from "../deals/deals.handler.ts";
import { DEAL_ANALYSIS } from "../deals/deals.service.ts";
import { documentGateStep } from "../deals/deals.verification.service.ts";
import { founderAnalysisHandler } from "../founders/founders.handler.ts";
import { FOUNDER_ANALYSIS } from "../founders/founders.service.ts";
import { researchHandler } from "../research/research.handler.ts";
import { RESEARCH } from "../research/research.service.ts";
import type { Handler } from "./runner.ts";

export function actionHandlers(deps: Deps): Map<string, Handler> {
  return new Map([
    // A gated document link first submits the host's gate while it waits (queued) for the email verification.
    [DEAL_ANALYSIS.kind, Object.assign(dealAnalysisHandler(deps), { waitStep: documentGateStep(deps) })],
    [FOUNDER_ANALYSIS.kind, founderAnalysisHandler(deps)],
    [RESEARCH.kind, researchHandler(deps)],
  ]);
}
