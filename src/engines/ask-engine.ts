// The interface every question-answering engine of the `ask` tool implements, and the typed
// operations the MCP module hands it. An engine reads a partner's question and decides which
// operations answer it (the built-in reader by grammar and the firm's own names, the LLM engine by
// tool calls); the operations themselves (src/modules/mcp/ask.tools*.ts, ask.query*.ts) call the
// owning modules' services with the caller's org and scopes. Engines never import modules: they
// see the firm only through `AskTools`.
import type { ToolSpec } from "./llm/client.ts";

/** What the conversation last talked about: follow-ups ("how warm is she?", "its runway?") resolve here. */
export type Entities = {
  person?: { id: string | null; name: string };
  company?: { name: string; domain: string | null };
  holding?: { id: string; name: string };
  deal?: { id: string; name: string };
  fund?: { name: string };
  founder?: { id: string; name: string };
  research?: { id: string; query: string };
};

/** One operation: a named function of the module and its arguments (JSON, as a model sends them). */
export type AskCall = { fn: string; args: Record<string, unknown> };

/** One operation's answer: words, the figures it read (as the REST API returns them) and links. */
export type Answer = {
  function: string;
  arguments: Record<string, unknown>;
  text: string;
  data: Record<string, unknown> | null;
  links: string[];
  entities?: Entities;
};

/** What an engine remembers of the conversation: the last turns, the last entities, the last operation. */
export type Memory = {
  turns: { question: string; answer: string }[];
  entities: Entities;
  last: AskCall | null;
};

// ---------------------------------------------------------------------------------------------
// The typed query over the firm's records (operation `query`): one record kind, its filters, an
// order and top-N, an aggregate. Dates are calendar days (YYYY-MM-DD, inclusive): an engine turns
// "this month" into a range with the caller's clock, so the operation never guesses.

export const RECORD_KINDS = ["deals", "holdings", "metrics", "positions", "marks", "cashflows", "persons", "research", "documents"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/**
 * Over a dated history (metrics, marks): `at` is the figure at the dates (the last one within them),
 * `year_ago` the figure twelve months before the latest statement, `year_change` the latest against
 * that one, both dated; `first` the earliest statement (within the dates when given).
 */
export const AGGREGATES = ["count", "sum", "avg", "median", "min", "max", "latest", "change", "at", "first", "year_ago", "year_change"] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export type DateRange = { from: string | null; to: string | null; label: string };
/** `currency`: the currency the question said the amount in ("$2M"); records in another currency are not compared with it. */
/** Years said as a range ("2022 or later", "before 2019") or as alternatives ("'18 or '19"). */
export type YearRange = { from?: number; to?: number; in?: number[]; /** every year but these ("not 2020s vintages") */ not?: true };

export type Threshold = { field: string; op: "gt" | "gte" | "lt" | "lte"; value: number; currency?: string; /** "Without X": a record with no figure at all has none of it too. */ orNone?: boolean };

/** A filter several values of which are wanted ("Fund II or Fund III"), or unwanted ("not fintech"). */
export type FilterValues = { name?: string[]; fund?: string[]; sector?: string[]; round?: string[]; stage?: string[]; status?: string[]; type?: string[]; currency?: string[]; location?: string[]; flag?: string[] };

/** What records are counted per ("deals per stage", "holdings by fund"). */
export const GROUPS = ["stage", "sector", "round", "kind", "fund", "status", "currency", "vintage", "type", "year", "quarter", "month", "city", "founded", "flag"] as const;

export type Query = {
  kind: RecordKind;
  /** One record by name: a company, a deal, a fund, a person or company domain, a research topic. */
  name?: string;
  /** Holdings counted one per fund position (the question counts "holdings", not companies: a company two funds hold is two). */
  per_position?: boolean;
  /** avg of a pooled figure (a multiple, TVPI): the plain mean of each record's own figure, as asked ("simple average, not pooled"). */
  unweighted?: boolean;
  /** A total of what was put in over every company it went to, exited and written-off ones first-class ("how much have we deployed overall"); without it, the companies held today lead. */
  all_time?: boolean;
  /** year_ago, year_change: how many months before the latest statement the earlier point is ("six months ago"); 12 when not said. */
  months_back?: number;
  /** metrics of one company: its budgeted figures ("only"), or each date's actual against its budget ("versus"). */
  budget?: "only" | "versus";
  /** deals: the pipeline stage (new, screening, diligence, ic, invested, passed); holdings: the round (seed, series_a, ...). */
  stage?: string[];
  /** deals: the round the company is raising (seed, series a, ...). */
  round?: string;
  /** holdings: active, exited, written_off; deals: the analysis status (queued, running, succeeded, failed); persons: the relationship (strong, moderate, weak, dormant). */
  status?: string[];
  /** persons: the key user's own relationships, not the shared network's warm paths. */
  own?: boolean;
  /** positions: data-quality flags (stale_nav, cashflows_after_last_mark, ...; "any" for any flag at all). */
  flag?: string[];
  /** deals: company or fund; cashflows: call or distribution; persons: colleague (someone at the firm) or outside. */
  type?: string;
  sector?: string;
  /** deals: where the company is based, as its analysis read it ("London"). */
  location?: string;
  /** holdings: one of the firm's own funds; positions and cashflows: an LP fund. */
  fund?: string;
  vintage?: YearRange;
  /** deals: the year the company was founded, as its analysis read it. */
  founded?: YearRange;
  currency?: string;
  /** deals: when they came in; holdings: the investment date; cashflows, metrics: their dates; research: when started. */
  dates?: DateRange;
  where?: Threshold[];
  /** metrics: which metric (arr, monthly_burn, runway_months, headcount, gross_margin, ...); marks: tvpi, dpi, rvpi, nav. */
  metric?: string;
  /** documents: the words to find; research: the topic. */
  text?: string;
  /** Several named records side by side ("compare Acme and Lumen"). */
  names?: string[];
  /** Records matching any one of these values (each a filter of its own), in place of the single filters. */
  anyOf?: FilterValues;
  /** Records matching any of these are left out ("deals that are not fintech", "outside Fund II"). */
  except?: FilterValues;
  /** Count (and total the field, if any) per group. */
  group?: (typeof GROUPS)[number];
  /** Fields to show beside each record. */
  show?: string[];
  order?: { by: string; dir: "asc" | "desc" };
  limit?: number;
  aggregate?: Aggregate;
  /** The field an aggregate is over (count needs none). */
  field?: string;
};

// ---------------------------------------------------------------------------------------------
// What the firm's records call things: the names an engine resolves a question against. Each
// list is read once per question, and only when asked for.

export type DealName = { id: string; name: string; domain: string | null };
/** `active`: held today in at least one fund (not only exited or written off). */
export type HoldingName = { id: string; name: string; website: string | null; sector: string; funds: string[]; active: boolean };
export type PersonName = { identifier: string; name: string };

export interface AskNames {
  /** The org's deals, newest first. */
  deals(): DealName[];
  dealById(id: string): DealName | null;
  dealByDomain(domainOrUrl: string): DealName | null;
  /** Portfolio companies (one entry per company, with the firm's funds that hold it). */
  holdings(): HoldingName[];
  /** The firm's own funds (those its holdings sit in). */
  ownFunds(): string[];
  /** The funds the firm is an LP in. */
  lpFunds(): string[];
  /** Sectors as the records write them (holdings and analysed deals). */
  sectors(): string[];
  /** Cities deals are based in, as their analyses read them ("London", "Zurich"). */
  cities(): string[];
  /** Metric names imported for the portfolio. */
  metrics(): string[];
  /** Research runs, newest first. */
  research(): { id: string; query: string }[];
  researchById(id: string): { id: string; query: string } | null;
  /** A person of the pooled network by full name (the first that matches), or null. */
  personNamed(fullNames: string[]): PersonName | null;
  /** Distinct display names of pooled people whose name starts with this first name. */
  personsByFirstName(first: string): string[];
  founderById(id: string): { id: string; name: string } | null;
  /** Finished founder analyses whose founder name contains this (newest first). */
  foundersNamed(text: string): { id: string; name: string }[];
}

/** What the module hands an engine for one question. */
export interface AskTools {
  names: AskNames;
  /** Runs one operation under the key's rules (a read-only key starts nothing); never throws for a caller's mistake. */
  call(call: AskCall): Promise<Answer>;
  /** The operations in the OpenAI tools format, for a model. */
  specs: ToolSpec[];
  caller: { userName: string; canStart: boolean; today: Date; maxActionsPerQuestion: number };
  /** Action calls refused this question because it had already started its allowance. */
  actionsOverCap(): number;
}

export type EngineResult = {
  engine: "builtin" | "llm";
  text: string;
  answers: Answer[];
  /** llm: figures the model wrote that no operation returned, removed from its text. */
  figures_removed?: number;
};

export interface AskEngine {
  name: "builtin" | "llm";
  answer(question: string, memory: Memory, tools: AskTools): Promise<EngineResult>;
}

/** What the built-in engine can answer, in words (the tool's description and the help answer share it). */
export const CAPABILITIES = [
  "who knows someone at a company, or a person (\"who do we know at Stripe?\", \"introduce me to Dana Scully\")",
  "how warm a contact is (\"how close am I to Dana?\"), your strongest relationships",
  "which of your relationships are going stale (\"who haven't I talked to in a while?\")",
  "founders you can reach through people you know well",
  "a deal's status and score (\"what's the status of Ledgerly?\"), or the newest deals in the pipeline",
  "deals by stage, sector, round, city, score and date (\"which deals are at IC?\", \"fintech deals that came in this month\", \"best-scoring deals in diligence\")",
  "what a portfolio company reported in its investor updates, with the sentence each figure came from (\"what did Acme report last month?\")",
  "a portfolio company's runway, ARR and burn (\"what is Acme Robotics' runway?\", \"how's Acme doing?\"), and how a metric changed (\"Acme's ARR growth this year\")",
  "portfolio companies by fund, sector, stage and status, ranked and totalled (\"shortest runway\", \"portfolio companies in Fund II\", \"total invested\")",
  "a fund's TVPI, DPI and IRR (\"TVPI of Alpha Fund I?\"), totals across positions (\"our total NAV\"), capital calls and distributions (\"calls this year\")",
  "a founder analysis already made (\"what score did founder Jane Doe get?\"), research runs and their findings, and the documents you hold",
  "with a read-and-write key, when you ask to start one: a deal analysis of a website (\"analyze https://ledgerly.io\"), a founder analysis (\"analyze founder Jane Doe of Ledgerly\") or a research run (\"research payroll APIs in Europe\")",
];

export const HELP = `I did not understand that question. I can answer:\n${CAPABILITIES.map((c) => `- ${c}`).join("\n")}`;

export const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
