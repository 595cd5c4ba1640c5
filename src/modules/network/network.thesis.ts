// The firm's thesis as its own book shows it: which sectors (and stages) its portfolio and deals
// are in. Free-text sectors ("Fintech", "B2B payments", "Payments infrastructure") are folded into
// canonical ones by keywords, so a founder's title can be compared with the book.

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

/** The canonical sectors a piece of text speaks of (a title, a headline, a portfolio sector). */
export function sectorsIn(text: string | null | undefined): string[] {
  if (!text) return [];
  return SECTOR_KEYWORDS.filter(([, re]) => re.test(text)).map(([s]) => s);
}

export type Thesis = {
  /** canonical sector -> how many of the firm's holdings and deals are in it */
  sectors: Map<string, number>;
  holdings: number;
};

export function thesisFrom(sectorTexts: (string | null)[]): Thesis {
  const sectors = new Map<string, number>();
  for (const text of sectorTexts) for (const s of sectorsIn(text)) sectors.set(s, (sectors.get(s) ?? 0) + 1);
  return { sectors, holdings: sectorTexts.length };
}

/** The firm's thesis from its portfolio book (and, once they exist, its deals). */
export type ThesisSource = (orgId: string) => (string | null)[];
