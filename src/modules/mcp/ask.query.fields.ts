// The fields of each record kind the `query` operation reads: what each is called, its unit, and
// how a value is written for people (money with its currency, months, multiples, percentages,
// dates). A value the records do not hold is null and stays null: it is left out of rankings,
// sums and averages, and the answer says how many records lacked it.
import type { Answer, DateRange, Entities, Query, RecordKind, YearRange } from "../../engines/ask-engine.ts";
import { fold, money, num, times } from "../../lib/prose.ts";
import { sectorsIn } from "../../lib/sectors.ts";
import type { AskContext } from "./ask.context.ts";

export type Unit = "year" | "money" | "months" | "people" | "percent" | "ratio" | "multiple" | "score" | "date" | "number" | "metric" | "ordinal";

/** A value of a record: a number (money carries its currency) or a date; null when not in the records. */
/** `why`: why a figure is null though the record has one in parts (a stake per fund). */
/** `byPart`: no one figure for the record, though its parts have theirs (a company two funds hold: each fund's stake). */
export type Value = { value: number | null; currency?: string | null; unit?: string | null; date?: string | null; why?: string; byPart?: boolean };

/**
 * How a field combines over several records: `sum` adds up (money, counts, people), `pooled` is a
 * ratio recomputed from the fields it is made of (TVPI = (distributed + NAV) / called), `none`
 * has no total at all (a runway, a margin, a score): asked for one, the answer says so.
 */
export type Combine = "sum" | "pooled" | "none";

export type FieldSpec = { label: string; unit: Unit; combine: Combine };

/** The fields a pooled figure is made of: numerator fields over a denominator field, per currency. */
export const POOLED: Record<string, { over: string[]; under: string }> = {
  multiple: { over: ["valuation"], under: "invested" },
  tvpi: { over: ["distributed", "nav"], under: "called" },
  dpi: { over: ["distributed"], under: "called" },
  rvpi: { over: ["nav"], under: "called" },
};

/** Imported metrics that add up across companies; every other metric (runway, margins, churn, NPS) has no total. */
const ADDITIVE_METRICS = new Set(["arr", "mrr", "revenue", "monthly_burn", "cash", "customers", "headcount", "ebitda", "gmv", "bookings"]);

/** The imported metrics people ask about by name (any other imported metric is read under its own name). */
export const METRIC_LABELS: Record<string, string> = {
  arr: "ARR",
  mrr: "MRR",
  revenue: "revenue",
  monthly_burn: "monthly burn",
  runway_months: "runway",
  headcount: "headcount",
  gross_margin: "gross margin",
  cash: "cash",
  customers: "customers",
  churn: "churn",
  nrr: "net revenue retention",
  nps: "NPS",
  cac: "CAC",
  ltv: "LTV",
  ebitda: "EBITDA",
};

export const metricLabel = (metric: string) => METRIC_LABELS[metric] ?? metric.replaceAll("_", " ");

export const FIELDS: Record<RecordKind, Record<string, FieldSpec>> = {
  deals: {
    score: { label: "score", unit: "score", combine: "none" },
    created: { label: "came in", unit: "date", combine: "none" },
    round_amount: { label: "raising", unit: "money", combine: "sum" },
    pre_money: { label: "pre-money valuation", unit: "money", combine: "none" },
    // How far along the pipeline: new 1 ... invested 5 (a passed deal has none); written as the stage's name.
    progress: { label: "stage", unit: "ordinal", combine: "none" },
    founded: { label: "founded", unit: "year", combine: "none" },
  },
  holdings: {
    invested: { label: "invested", unit: "money", combine: "sum" },
    valuation: { label: "valued at", unit: "money", combine: "sum" },
    multiple: { label: "multiple", unit: "multiple", combine: "pooled" },
    ownership: { label: "ownership", unit: "percent", combine: "none" },
    investment_date: { label: "invested on", unit: "date", combine: "none" },
    // The date of the company's latest actual statement, of any metric: when it last sent numbers.
    last_reported: { label: "last reported", unit: "date", combine: "none" },
    // Every imported metric is a field too (metricField below): its latest actual.
  },
  metrics: {
    value: { label: "value", unit: "metric", combine: "none" },
    budget: { label: "budget", unit: "metric", combine: "none" },
    variance: { label: "against budget", unit: "metric", combine: "none" },
    change: { label: "change", unit: "metric", combine: "none" },
    change_pct: { label: "change", unit: "ratio", combine: "none" },
    date: { label: "statement of", unit: "date", combine: "none" },
  },
  positions: {
    commitment: { label: "committed", unit: "money", combine: "sum" },
    called: { label: "called", unit: "money", combine: "sum" },
    distributed: { label: "distributed", unit: "money", combine: "sum" },
    nav: { label: "NAV", unit: "money", combine: "sum" },
    unfunded: { label: "unfunded", unit: "money", combine: "sum" },
    // What was called as a share of the commitment (paid-in ratio).
    called_pct: { label: "called as a share of commitment", unit: "ratio", combine: "none" },
    tvpi: { label: "TVPI", unit: "multiple", combine: "pooled" },
    dpi: { label: "DPI", unit: "multiple", combine: "pooled" },
    rvpi: { label: "RVPI", unit: "multiple", combine: "pooled" },
    irr: { label: "IRR", unit: "ratio", combine: "pooled" },
    vintage: { label: "vintage", unit: "year", combine: "none" },
    // The date of the fund's latest NAV mark (its NAV may be rolled forward past it by cashflows).
    last_mark: { label: "last marked", unit: "date", combine: "none" },
  },
  marks: {
    nav: { label: "NAV", unit: "money", combine: "sum" },
    called: { label: "called to date", unit: "money", combine: "sum" },
    distributed: { label: "distributed to date", unit: "money", combine: "sum" },
    unfunded: { label: "unfunded", unit: "money", combine: "sum" },
    tvpi: { label: "TVPI", unit: "multiple", combine: "pooled" },
    dpi: { label: "DPI", unit: "multiple", combine: "pooled" },
    rvpi: { label: "RVPI", unit: "multiple", combine: "pooled" },
    date: { label: "mark of", unit: "date", combine: "none" },
  },
  cashflows: {
    amount: { label: "amount", unit: "money", combine: "sum" },
    date: { label: "date", unit: "date", combine: "none" },
  },
  persons: {
    strength: { label: "strength", unit: "score", combine: "none" },
    warmth: { label: "warmth", unit: "number", combine: "none" },
    days_since_last_touch: { label: "days since the last touch", unit: "number", combine: "none" },
  },
  research: { created: { label: "started", unit: "date", combine: "none" } },
  documents: { pages: { label: "pages", unit: "number", combine: "sum" }, uploaded: { label: "received", unit: "date", combine: "none" } },
};

/** A holding's metric as a field: its latest actual, written in the metric's own unit. */
export const metricField = (metric: string): FieldSpec => ({ label: metricLabel(metric), unit: "metric", combine: ADDITIVE_METRICS.has(metric) ? "sum" : "none" });

/** Whether a year is within a range said ("2022 or later", "'18 or '19"). */
export const inYears = (year: number | null, r: YearRange): boolean => {
  if (year === null) return false;
  const within = r.in ? r.in.includes(year) : (r.from === undefined || year >= r.from) && (r.to === undefined || year <= r.to);
  return r.not ? !within : within;
};

/** A range of years in words. */
export const yearsWords = (r: YearRange): string => (r.not ? `other than ${yearsWords({ ...r, not: undefined })}` : r.from !== undefined && r.to === r.from + 9 && r.from % 10 === 0 ? `the ${r.from}s` : r.in ? r.in.map(String).join(" or ") : r.from !== undefined && r.from === r.to ? String(r.from) : r.from !== undefined && r.to !== undefined ? `${r.from} to ${r.to}` : r.from !== undefined ? `${r.from} or later` : `${r.to} or earlier`);

/** A value written for people, in the field's unit; null when the records do not hold it. */
export function written(spec: FieldSpec, v: Value | undefined): string | null {
  if (!v) return null;
  if (spec.unit === "date") return v.date ? v.date.slice(0, 10) : null;
  if (v.value === null) return null;
  switch (spec.unit) {
    case "money":
      return money(v.value, v.currency ?? null);
    case "months":
      return `${num(v.value)} months`;
    case "people":
      return `${num(v.value)} people`;
    case "percent":
      return `${num(v.value)}%`;
    case "ratio":
      return `${num(Math.round(v.value * 10000) / 100)}%`;
    case "multiple":
      return times(v.value);
    case "score":
      return `${num(v.value)}/100`;
    case "year":
      return String(v.value);
    case "metric":
      return metricValue(v);
    case "ordinal":
      return v.unit ?? num(v.value);
    default:
      return num(v.value);
  }
}

/** An imported metric's value in its own unit: money in its currency, months, people, percent. */
export function metricValue(v: Value): string | null {
  if (v.value === null) return null;
  if (v.currency) return money(v.value, v.currency);
  const unit = v.unit?.toLowerCase();
  if (unit === "percent" || unit === "%") return `${num(v.value)}%`;
  return `${num(v.value)}${unit ? ` ${unit}` : ""}`;
}

/**
 * Which sectors as the records write them ("Payments infrastructure") are the one asked for: those
 * that say it in the same words ("payments infrastructure", "payments") when any does, else those of
 * the same canonical sector ("fintech" takes in Payments infrastructure).
 */
export function sectorMatcher(stored: (string | null)[], asked: string): (sector: string | null) => boolean {
  const a = fold(asked);
  const words = (s: string | null) => !!s && (fold(s) === a || ` ${fold(s)} `.includes(` ${a} `));
  if (stored.some(words)) return words;
  const canonical = sectorsIn(asked);
  return (s) => !!s && canonical.length > 0 && sectorsIn(s).some((x) => canonical.includes(x));
}

/** Whether a date or timestamp falls within the range's calendar days (inclusive). */
export function inRange(when: string | null, range: DateRange): boolean {
  if (!when) return false;
  const day = when.slice(0, 10);
  return (!range.from || day >= range.from) && (!range.to || day <= range.to);
}

/** A range as the question said it, with its days: "this month (2026-10-01 to 2026-10-15)". */
/** One day said as a point ("as of 2026-03-31", "its 2025-12-31 mark"): what stood on it, not a span from the start. */
const isPoint = (r: DateRange) => r.from === null && r.to !== null && r.label.endsWith(r.to);
export const datesWords = (r: DateRange) => (isPoint(r) ? `as of ${r.to}` : `${/^(?:last|past|previous|prior|trailing) /.test(r.label) ? "the " : ""}${r.label} (${r.from ?? "the start"} to ${r.to ?? "today"})`);
/** "For June (2026-06-01 to 2026-06-30)", or "as of 2026-03-31" for one day. */
export const forDates = (r: DateRange) => (isPoint(r) ? datesWords(r) : `for ${datesWords(r)}`);
/** "As of" a range's words, or of one day. */
export const asOfDates = (r: DateRange) => (isPoint(r) ? `as of ${r.to}` : `as of ${datesWords(r)}`);

/** One record as a kind's reader hands it over. */
export type Rec = {
  name: string;
  /** What the record is, said after its name: "(Fintech; Northwind Fund II)". */
  about: string | null;
  values: Record<string, Value>;
  /** Words said after the figures: its stage, status. */
  facts?: string[];
  /** What the record is grouped by when counted per group ("deals per stage"): group name -> its value. */
  /** The record's value per group; several values of one group are joined by MULTI_VALUE. */
  groups?: Record<string, string>;
  entities?: Entities;
  /** The record as the REST API has it (structured content). */
  data: Record<string, unknown>;
};

export type Loaded = {
  rows: Rec[];
  /** How the filters read in words: " in Northwind Fund II", " at stage ic". */
  scope: string;
  source: string;
  links: string[];
  notes?: string[];
  /** The one record the set is of (a company whose metric history this is). */
  subject?: string;
  /** What that one record is, for the conversation to go on about ("and its burn then?"). */
  entities?: Entities;
  /** The records' noun when not the kind's own ("holdings" counted per fund position). */
  noun?: [string, string];
};

/** Each kind's reader: its records (filtered by what only it knows), its fields, its defaults. */
export type KindReader = {
  noun: [one: string, many: string];
  field(name: string, ctx: AskContext): FieldSpec | null;
  /** Every field this kind holds, when more than FIELDS lists (a holding's imported metrics). */
  fieldNames?(ctx: AskContext): string[];
  /** Fields every line shows when the question names none. */
  show: string[];
  /** Fields every line shows whatever is asked (a deal's score and when it came in). */
  always?: string[];
  /**
   * The figure a list of this kind is totalled by, per currency and per the group `by` (calls and
   * distributions apart): what "what did Redwood distribute in 2025" asks beside the list.
   */
  totalOf?: { field: string; by?: string };
  order: { by: string; dir: "asc" | "desc" } | null;
  /** The records, or a finished answer (a name that matches nothing, several, ...). */
  load(ctx: AskContext, q: Query): Loaded | { answer: string; data?: Record<string, unknown> };
  /** An aggregate only this kind can make (a metric's change over a period). */
  aggregate?(ctx: AskContext, q: Query, loaded: Loaded): Answer | null;
};

/** The calendar periods a dated record is counted in ("by quarter", "per month"): "2026", "2026 Q3", "2026-09". */
export function periodsOf(date: string): { year: string; quarter: string; month: string } {
  const year = date.slice(0, 4);
  const monthName = new Date(`${date.slice(0, 7)}-01T00:00:00Z`).toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  return { year, quarter: `${year} Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`, month: `${date.slice(0, 7)} (${monthName})` };
}

/** Joins the values of a group a record has several of (an LP position's data-quality flags). */
export const MULTI_VALUE = "\u001f";
