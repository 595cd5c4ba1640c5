// The firm's thesis as its own book shows it: the sectors and stages of its portfolio holdings and
// of the deals in its workspace. Free-text sectors ("Fintech", "B2B payments", "Payments
// infrastructure") are folded into canonical ones by keywords, and stages ("Seed", "series_a",
// "Series A") into canonical stages, so a founder's title and round can be compared with the book.
import { normalizeDomain } from "./network.identity.ts";
import type { DealBookFacts } from "../deals/deals.service.ts";

const SECTOR_KEYWORDS: [sector: string, words: RegExp][] = [
  ["fintech", /\b(fintech|payments?|banking|neobank|lending|credit|insurtech|insurance|ledger|treasury|accounting|invoic\w*|wealth|trading|crypto|defi)\b/i],
  ["health", /\b(health\w*|medical|medtech|clinic\w*|biotech|pharma\w*|care|patients?|therapeutics|diagnostics|digital health)\b/i],
  ["climate", /\b(climate|energy|carbon|solar|batter(y|ies)|sustainab\w*|cleantech|grid|decarboni\w*|ev|mobility)\b/i],
  ["ai", /\b(ai|artificial intelligence|machine learning|ml|llms?|genai|computer vision|nlp|data science)\b/i],
  ["developer tools", /\b(devtools|developer\w*|dev tools|infrastructure|cloud|apis?|observability|databases?|open source|platform engineering)\b/i],
  ["security", /\b(security|cyber\w*|identity|privacy|fraud)\b/i],
  ["saas", /\b(saas|b2b software|workflow|productivity|crm|hr tech|hrtech|vertical software)\b/i],
  ["marketplaces", /\b(marketplaces?|e-?commerce|commerce|retail)\b/i],
  ["consumer", /\b(consumer|social|gaming|media|creator\w*|fitness)\b/i],
  ["logistics", /\b(logistics|supply chain|freight|shipping|delivery)\b/i],
  ["edtech", /\b(edtech|education|learning platform|schools?)\b/i],
  ["proptech", /\b(proptech|real estate|property|construction)\b/i],
  ["robotics", /\b(robotics?|hardware|manufacturing|industrial|drones?)\b/i],
];

// Phrases whose words would be read as another sector's keyword on their own: "carbon
// accounting" is climate software, not fintech; "customer care" is not health care.
const PHRASES: [sector: string, words: RegExp][] = [
  ["climate", /\b(carbon (accounting|credits?|markets?|removal|capture|offsets?)|energy (trading|markets?))\b/gi],
  ["saas", /\bcustomer (care|success|support)\b/gi],
  ["ai", /\b(ai|machine learning) (infrastructure|security)\b/gi],
];

/** Display names, and the forms used inside a sentence ("3 SaaS companies"). */
const SECTOR_NAMES: Record<string, { title: string; noun: string }> = {
  fintech: { title: "Fintech", noun: "fintech" },
  health: { title: "Health", noun: "health" },
  climate: { title: "Climate", noun: "climate" },
  ai: { title: "AI", noun: "AI" },
  "developer tools": { title: "Developer tools", noun: "developer-tools" },
  security: { title: "Security", noun: "security" },
  saas: { title: "SaaS", noun: "SaaS" },
  marketplaces: { title: "Marketplaces", noun: "marketplace" },
  consumer: { title: "Consumer", noun: "consumer" },
  logistics: { title: "Logistics", noun: "logistics" },
  edtech: { title: "Edtech", noun: "edtech" },
  proptech: { title: "Proptech", noun: "proptech" },
  robotics: { title: "Robotics", noun: "robotics" },
};

export const sectorTitle = (sector: string) => SECTOR_NAMES[sector]?.title ?? sector;
export const sectorNoun = (sector: string) => SECTOR_NAMES[sector]?.noun ?? sector;

/** The canonical sectors a text speaks of, in the order they are first mentioned. */
export function sectorsByMention(text: string | null | undefined): string[] {
  if (!text) return [];
  const found = new Map<string, number>();
  const note = (sector: string, at: number) => {
    if (!found.has(sector) || found.get(sector)! > at) found.set(sector, at);
  };
  let rest = text;
  for (const [sector, re] of PHRASES) {
    rest = rest.replace(re, (match, ...args) => {
      note(sector, args[args.length - 2] as number);
      return " ".repeat(match.length); // keeps the positions of what follows
    });
  }
  for (const [sector, re] of SECTOR_KEYWORDS) {
    const m = re.exec(rest);
    if (m) note(sector, m.index);
  }
  return [...found.entries()].sort((a, b) => a[1] - b[1]).map(([s]) => s);
}

/** The canonical sectors a piece of text speaks of (a title, a headline, a portfolio sector), in the keyword list's order. */
export function sectorsIn(text: string | null | undefined): string[] {
  const found = new Set(sectorsByMention(text));
  return SECTOR_KEYWORDS.map(([s]) => s).filter((s) => found.has(s));
}

const STAGES: [stage: string, words: RegExp, name: string][] = [
  ["pre_seed", /^pre[-_ ]?seed$|\bpre[-_ ]?seed\b/i, "pre-seed"],
  ["seed", /^seed$|\bseed\b/i, "seed"],
  ["series_a", /\bseries[-_ ]?a\b/i, "Series A"],
  ["series_b", /\bseries[-_ ]?b\b/i, "Series B"],
  ["series_c", /\bseries[-_ ]?[c-z]\b/i, "Series C or later"],
  ["growth", /\bgrowth\b/i, "growth"],
];

/** A canonical stage from free text ("Seed", "series_a", "a Series A round"); null when none is named. */
export function stageIn(text: string | null | undefined): string | null {
  if (!text) return null;
  return STAGES.find(([, re]) => re.test(text))?.[0] ?? null;
}

export const stageName = (stage: string) => STAGES.find(([s]) => s === stage)?.[2] ?? stage;

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
