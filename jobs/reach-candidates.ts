import type { Deps } from "../src/deps.ts";
import { dealsService } from "../src/modules/deals/deals.service.ts";
import { computeReachCandidates } from "../src/modules/network/network.reach-compute.ts";
import type { FirmBook } from "../src/modules/network/network.thesis.ts";
import { portfolioService } from "../src/modules/portfolio/portfolio.service.ts";
import type { Job } from "./index.ts";

/**
 * The firm's own book, read through the portfolio and deals services: every holding, and every
 * deal with its analysed facts (a deal not analysed yet has a null sector and round, not a guess).
 */
function firmBook(deps: Deps, orgId: string): FirmBook {
  return { holdings: portfolioService(deps).bookHoldings(orgId), deals: dealsService(deps).bookFacts(orgId) };
}

export const reachCandidates: Job = {
  id: "reach-candidates",
  pattern: "35 2 * * *",
  description: "find founders each user can reach through someone they know well, scored against the sectors and stages of the firm's book",
  runOnce: (deps) => computeReachCandidates(deps, (orgId) => firmBook(deps, orgId)),
};
