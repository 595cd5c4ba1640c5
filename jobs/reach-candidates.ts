import type { Deps } from "../src/deps.ts";
import { dealsService } from "../src/modules/deals/deals.service.ts";
import { computeReachCandidates } from "../src/modules/network/network.reach-compute.ts";
import type { BookDeal, BookHolding, FirmBook } from "../src/modules/network/network.thesis.ts";
import { portfolioService } from "../src/modules/portfolio/portfolio.service.ts";
import type { Job } from "./index.ts";

const PAGE = 200;

/** The firm's own book, read through the portfolio and deals services: every holding, and every deal with its analysed facts. */
export function firmBook(deps: Deps, orgId: string): FirmBook {
  const holdings: BookHolding[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = portfolioService(deps).list(orgId, { limit: PAGE, offset });
    holdings.push(...page.companies.map((c) => ({ name: c.name, website: c.website, sector: c.sector, stage: c.stage })));
    if (offset + PAGE >= page.total) break;
  }
  const deals: BookDeal[] = [];
  const service = dealsService(deps);
  for (let offset = 0; ; offset += PAGE) {
    const page = service.list(orgId, { limit: PAGE, offset });
    for (const row of page.deals) {
      const d = service.detail(orgId, row.deal_id, "summary");
      // A deal not analysed yet has no facts: its sector and round are unknown (null), not guessed.
      deals.push({ name: d.company?.name ?? null, domain: d.company?.domain ?? null, kind: d.kind, pipelineStage: d.stage, sector: d.company?.sector ?? null, roundStage: d.round?.stage ?? null });
    }
    if (offset + PAGE >= page.total) break;
  }
  return { holdings, deals };
}

export const reachCandidates: Job = {
  id: "reach-candidates",
  pattern: "35 2 * * *",
  description: "find founders each user can reach through someone they know well, scored against the sectors and stages of the firm's book",
  runOnce: (deps) => computeReachCandidates(deps, (orgId) => firmBook(deps, orgId)),
};
