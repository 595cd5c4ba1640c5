// The blind corpus's labels: what a careful analyst would write down for each deck, and nothing
// the reader's code suggested (this corpus was written without opening the reader).

export const COMPANY_SECTIONS = ["team", "market", "product", "traction", "business_model", "competition", "financials", "round"] as const;
export const FUND_SECTIONS = ["team", "strategy", "fund_terms", "portfolio_construction", "track_record", "lp_base"] as const;
export type CompanySection = (typeof COMPANY_SECTIONS)[number];
export type FundSection = (typeof FUND_SECTIONS)[number];
export type SectionKey = CompanySection | FundSection;

/**
 * Stages as labelled: "pre-seed", "seed", "pre-series-a", "series-a", "series-b", "bridge".
 * Compared after lower-casing and dropping everything but letters and digits (and a trailing
 * "round"), so "Series A" = "series a" = "series-a", but "pre-series-a" is never "series-a".
 */
export type Stage = "pre-seed" | "seed" | "pre-series-a" | "series-a" | "series-b" | "bridge";

export type BlindFormat = "pdf" | "pptx" | "docx";
export type Part = "dev" | "heldout";

export type BlindLabels = {
  id: string;
  filename: string;
  format: BlindFormat;
  /** The renderer that drew it (real decks: "real"). */
  style: string;
  /** The writing voice (yc, consultant, european, deeptech, marketplace, saas, biotech, fund; real decks: "real"). */
  voice: string;
  /** Brand name, without a legal suffix (GmbH, Inc., AG, Ltd ...). */
  company_name: string;
  /** Other names that are just as right (a fund deck: the firm and the fund). */
  company_aliases: string[];
  domain: string | null;
  kind: "company" | "fund";
  /**
   * The raise the deck asks for now. amount is null when the deck states none, or states it only as
   * a range ("$2-3M"), or only as something other than a single amount. For a fund, the amount is the
   * fund's target size (not its hard cap, first close, or GP commitment), stage is null.
   * currency is null exactly when amount is null. pre_money: stated pre-money, or post-money minus
   * the amount when only post-money is stated; a SAFE's valuation cap is NOT a pre-money (null).
   */
  round: { stage: Stage | null; amount: number | null; currency: string | null; pre_money: number | null };
  /** The company's (or firm's) own people shown as its team. Titles as the deck writes them. */
  team: { name: string; title: string }[];
  /** People named in the deck who are not its team: advisors, investors, board observers, customers, LPs, portfolio founders. */
  not_team: string[];
  /** Sections the deck addresses: scoring any other section is "scored without evidence". */
  sections_addressed: SectionKey[];
  /** Sections the deck touches only in passing (neither required nor penalised when scored). */
  sections_optional: SectionKey[];
  traps: string[];
};

export const sectionKeysFor = (kind: "company" | "fund"): readonly SectionKey[] => (kind === "fund" ? FUND_SECTIONS : COMPANY_SECTIONS);
