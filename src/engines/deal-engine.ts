// The interface every deal engine implements: material in (pages of text, each with where it came
// from), structured facts and scored sections out. The built-in engine is deterministic and
// offline; the LLM engine (when DEALGRAPH_LLM_BASE_URL is set) sits behind the same interface.
// Both read only pages with usable text (readablePages) and say which they could not read.
import { pageList, textProblem } from "../lib/text-quality.ts";

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

/**
 * The pages whose text can be read, and what to say of a document's pages that cannot be (page
 * images, fonts without a usable encoding) once OCR, where the server has it, did not recover
 * them. A page set in an unreadable font is always said; pages with no text at all are said when
 * they are most of their document (one photo slide is no news). Unreadable pages are never read.
 */
export function readablePages(pages: SourcePage[]): { readable: SourcePage[]; note: string | null } {
  const problems = pages.map((p) => textProblem(p.text));
  const readable = pages.filter((_, i) => problems[i] === null);
  const said = pages.filter((p, i) => {
    if (problems[i] === null || p.documentId === null || p.page === null) return false;
    if (problems[i] === "scrambled") return true;
    const own = pages.filter((q) => q.documentId === p.documentId);
    return own.filter((q) => textProblem(q.text) === "no_text").length * 2 >= own.length;
  });
  if (readable.length === 0 && pages.length > 0) {
    const n = pages.length;
    return {
      readable,
      note: `${n === 1 ? "The material's only page has" : `None of the material's ${n} pages has`} usable text (page images, or a font without a usable text encoding), and OCR did not recover ${n === 1 ? "it" : "them"} (OCR needs Tesseract on the server; /readyz says whether it is installed), so nothing on ${n === 1 ? "it" : "them"} was read.`,
    };
  }
  if (said.length === 0) return { readable, note: null };
  const one = said.length === 1;
  return {
    readable,
    note: `${pageList(said.map((p) => p.page!)).replace(/^p/, "P")} ${one ? "has" : "have"} no usable text (an image, or a font without a usable text encoding), and OCR did not recover ${one ? "it" : "them"} (OCR needs Tesseract on the server; /readyz says whether it is installed), so nothing on ${one ? "it" : "them"} was read.`,
  };
}

/** The analysis of material with nothing readable: every section null for that reason, no facts but the hints. */
export function unreadableAnalysis(engine: string, kind: "company" | "fund", hints: DealEngineInput["hints"], note: string): DealAnalysis {
  const website = hints.website ? (/^https?:\/\//i.test(hints.website) ? hints.website : `https://${hints.website}`) : null;
  const domain = website && URL.canParse(website) ? new URL(website).hostname.replace(/^www\./, "") : null;
  const catalogue = kind === "fund" ? FUND_SECTIONS : COMPANY_SECTIONS;
  const name = hints.companyName?.trim() || null;
  return {
    engine,
    kind,
    facts: {
      company: { name, domain, website, description: null, sector: null, location: null, founded_year: null },
      round: { stage: null, amount: null, currency: null, pre_money_valuation: null },
      team: [],
    },
    sections: catalogue.map(([key, title]) => ({ key, title, score: null, summary: null, evidence: [], unavailable_reason: note })),
    score: null,
    score_confidence: 0,
    summary: `${name ?? "The deal"}: ${note[0].toLowerCase()}${note.slice(1)}`,
  };
}
