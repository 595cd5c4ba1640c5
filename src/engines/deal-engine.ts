// The interface every deal engine implements: material in (pages of text, each with where it came
// from), structured facts and scored sections out. The built-in engine is deterministic and
// offline; the LLM engine (when DEALGRAPH_LLM_BASE_URL is set) sits behind the same interface.

export type SourcePage = { documentId: string | null; url: string | null; page: number | null; text: string };

export type Evidence = { quote: string; document_id: string | null; page: number | null; url?: string };

export type Section = {
  key: string;
  title: string;
  /** 0-100, null with `unavailable_reason` when the material says nothing about it. */
  score: number | null;
  summary: string | null;
  evidence: Evidence[];
  unavailable_reason: string | null;
};

export type DealFacts = {
  company: {
    name: string | null;
    domain: string | null;
    website: string | null;
    description: string | null;
    sector: string | null;
    location: string | null;
    founded_year: number | null;
  };
  round: { stage: string | null; amount: number | null; currency: string | null; pre_money_valuation: number | null };
  team: { name: string; title: string | null; linkedin_url: string | null }[];
};

export type DealAnalysis = {
  engine: string;
  kind: "company" | "fund";
  facts: DealFacts;
  sections: Section[];
  /** Mean of the scored sections; null when none could be scored. */
  score: number | null;
  /** Share of sections with evidence, 0-1. */
  score_confidence: number;
  summary: string;
};

export type DealEngineInput = {
  pages: SourcePage[];
  /** `siteTitle`: the website's <title>, when the material is a website. */
  hints: { companyName?: string | null; website?: string | null; kind?: "company" | "fund" | null; siteTitle?: string | null };
  progress(stage: string): void;
};

export interface DealEngine {
  name: string;
  analyze(input: DealEngineInput): Promise<DealAnalysis>;
}

export const COMPANY_SECTIONS = [
  ["team", "Team"],
  ["market", "Market"],
  ["product", "Product"],
  ["traction", "Traction"],
  ["business_model", "Business model"],
  ["competition", "Competition"],
  ["financials", "Financials"],
  ["round", "Round"],
] as const;

export const FUND_SECTIONS = [
  ["team", "Team"],
  ["strategy", "Strategy"],
  ["fund_terms", "Fund terms"],
  ["portfolio_construction", "Portfolio construction"],
  ["track_record", "Track record"],
  ["lp_base", "LP base"],
] as const;
