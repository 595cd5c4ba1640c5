// The interface every research engine implements. A run is: a plan (sub-questions, made during
// the POST), retrieval from the firm's own corpus (shared by every engine: research.corpus.ts),
// then a written report whose every claim cites a numbered passage. The built-in engine plans and
// writes deterministically and offline; the LLM engine (DEALGRAPH_LLM_BASE_URL) plans and writes
// with the model, over the same passages.

/** The kinds of row a citation can point at. */
export type SourceType = "document" | "deal" | "metric_point" | "fund_commitment" | "person";

/** One piece of evidence from the firm's records, with the row it came from. */
export type Passage = {
  source_type: SourceType;
  /** The row's id: deal_documents.id, deals.id, portfolio_metric_points.id, fund_commitments.id, persons.id. */
  source_id: string;
  /** Document page (1-based); null for every other source. */
  page: number | null;
  title: string;
  /** Verbatim text of the source (a snippet of the page, or the stored figures in words). */
  quote: string;
  /** One plain sentence the built-in engine can state as a claim, citing this passage. */
  claim: string;
};

export type Citation = {
  n: number;
  title: string;
  source_type: SourceType;
  source_id: string;
  page: number | null;
  quote: string;
};

/** What retrieval found for one sub-question (possibly nothing). */
export type Findings = {
  question: string;
  /** Only passages that answer it: sharing an everyday word with the question is not enough. */
  passages: Passage[];
  searched: string[];
  /** Passages that shared only some words with the question (`shared`) and were not counted. */
  near_misses?: { count: number; shared: string[] };
  /** Distinctive terms of the question that nothing in the org's documents or analyses carries. */
  missing_terms?: string[];
};

/** Names the org's records know, found in a piece of text (the planner's facets, retrieval's targets). */
export type Entities = {
  companies: { name: string; domain: string | null }[];
  funds: string[];
  persons: string[];
  /** Metric words named (arr, burn, runway...), lower-cased. */
  metrics: string[];
  /** Whether the text asks about the fund book in general (TVPI, DPI, IRR, LP commitments). */
  fundBook: boolean;
};

export type ResearchReport = {
  title: string;
  executive_summary: string;
  report_markdown: string;
  citations: Citation[];
  /** Citation numbers the writer used that match no given passage (dropped; the LLM engine reports them). */
  dropped_citations?: number[];
  /** Sentences the writer stated without any citation (removed; the LLM engine reports them). */
  uncited_removed?: number;
};

export type WriteInput = {
  query: string;
  findings: Findings[];
  /** Reports a stage and percent (also a heartbeat). */
  progress(stage: string, percent: number): void;
  /** Throws when the run's time cap is spent; engines call it between steps. */
  checkpoint(): void;
};

export interface ResearchEngine {
  name: string;
  /** 2-6 sub-questions for the query; runs during the POST. */
  plan(query: string, entities: Entities): Promise<string[]>;
  /** The Markdown report from the retrieved findings. */
  write(input: WriteInput): Promise<ResearchReport>;
}

/** Limits shared by both planners. */
export const MIN_SUB_QUESTIONS = 2;
export const MAX_SUB_QUESTIONS = 6;
