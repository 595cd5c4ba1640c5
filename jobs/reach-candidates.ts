import { computeReachCandidates } from "../src/modules/network/network.reach-compute.ts";
import { dealsService } from "../src/modules/deals/deals.service.ts";
import { portfolioService } from "../src/modules/portfolio/portfolio.service.ts";
import type { Job } from "./index.ts";

export const reachCandidates: Job = {
  id: "reach-candidates",
  pattern: "35 2 * * *",
  description: "find founders each user can reach through someone they know well, scored against the firm's book",
  // The thesis is the firm's own book: the sectors of its portfolio holdings and of its analysed deals.
  runOnce: (deps) =>
    computeReachCandidates(deps, (orgId) => [...portfolioService(deps).sectorTexts(orgId), ...dealsService(deps).sectorTexts(orgId)]),
};
