// The sectors and stages of venture deals, from free text: "Fintech", "B2B payments" and "Payments
// infrastructure" fold into one canonical sector by keywords, "Seed", "series_a" and "a Series A
// round" into one canonical stage, so titles, rounds and books can be compared.

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
