// Every kind of action and its handler, registered by the module that owns it (deal analysis,
// founder analysis, research), the way jobs/index.ts lists the jobs. `serve` starts one runner
// over all of them.
import type { Deps } from "../../deps.ts";
import { dealAnalysisHandler } from "../deals/deals.handler.ts";
import { DEAL_ANALYSIS } from "../deals/deals.service.ts";
import { founderAnalysisHandler } from "../founders/founders.handler.ts";
import { FOUNDER_ANALYSIS } from "../founders/founders.service.ts";
import { researchHandler } from "../research/research.handler.ts";
import { RESEARCH } from "../research/research.service.ts";
import type { Handler } from "./runner.ts";

export function actionHandlers(deps: Deps): Map<string, Handler> {
  return new Map([
    [DEAL_ANALYSIS.kind, dealAnalysisHandler(deps)],
    [FOUNDER_ANALYSIS.kind, founderAnalysisHandler(deps)],
    [RESEARCH.kind, researchHandler(deps)],
  ]);
}
