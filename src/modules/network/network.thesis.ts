// The firm's thesis as its own book shows it: the sectors and stages of its portfolio holdings and
// of the deals in its workspace. Free-text sectors ("Fintech", "B2B payments", "Payments
// infrastructure") are folded into canonical ones by keywords, and stages ("Seed", "series_a",
// "Series A") into canonical stages, so a founder's title and round can be compared with the book.
import { normalizeDomain } from "../../lib/hosts.ts";
import { sectorsIn, stageIn } from "../../lib/sectors.ts";
import type { DealBookFacts } from "../deals/deals.service.ts";

/** One holding of the firm's portfolio book. */
export type BookHolding = { name: string; website: string | null; sector: string | null; stage: string | null };
/** One deal of the firm's workspace, with what its analysis found (as the deals service reads it). */
export type BookDeal = DealBookFacts;
export type FirmBook = { holdings: BookHolding[]; deals: BookDeal[] };
/** The firm's book for an org (the reach-candidates job reads it through the portfolio and deals services). */
export type BookSource = (orgId: string) => FirmBook;

export type SectorFacts = { companies: string[]; deals: number; inDiligence: number };

export type Thesis = {
  /** canonical sector -> the firm's distinct holdings (names) and deals in it */
  sectors: Map<string, SectorFacts>;
  /** canonical stage -> holdings and deals at it */
  stages: Map<string, { holdings: number; deals: number }>;
  holdingsWithStage: number;
  dealsWithStage: number;
};

/** The holding's company: its website's host, else its name (two funds' holdings of one company count once). */
function companyKey(h: BookHolding): string {
  return normalizeDomain(h.website) ?? h.name.trim().toLowerCase();
}

export function thesisFrom(book: FirmBook): Thesis {
  const sectors = new Map<string, SectorFacts & { keys: Set<string> }>();
  const sector = (s: string) => {
    let facts = sectors.get(s);
    if (!facts) sectors.set(s, (facts = { companies: [], deals: 0, inDiligence: 0, keys: new Set() }));
    return facts;
  };
  const stages = new Map<string, { holdings: number; deals: number }>();
  const stage = (s: string) => {
    let n = stages.get(s);
    if (!n) stages.set(s, (n = { holdings: 0, deals: 0 }));
    return n;
  };
  const seen = new Set<string>();
  let holdingsWithStage = 0;
  for (const h of book.holdings) {
    const key = companyKey(h);
    for (const s of sectorsIn(h.sector)) {
      const facts = sector(s);
      if (!facts.keys.has(key)) facts.keys.add(key), facts.companies.push(h.name);
    }
    if (seen.has(key)) continue;
    seen.add(key);
    const st = stageIn(h.stage);
    if (st) (stage(st).holdings++, holdingsWithStage++);
  }
  let dealsWithStage = 0;
  for (const d of book.deals) {
    if (d.kind !== "company") continue; // a fund is no company a founder could be raising for
    for (const s of sectorsIn(d.sector)) {
      const facts = sector(s);
      facts.deals++;
      if (d.pipelineStage === "diligence" || d.pipelineStage === "ic") facts.inDiligence++;
    }
    const st = stageIn(d.roundStage);
    if (st) (stage(st).deals++, dealsWithStage++);
  }
  return {
    sectors: new Map([...sectors].map(([s, { keys: _, ...facts }]) => [s, facts])),
    stages,
    holdingsWithStage,
    dealsWithStage,
  };
}
