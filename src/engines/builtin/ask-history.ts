/**
 * The one-record history reader: a portfolio company's metric or an LP position's marks at a time
 * other than now (a year before, at dates, first statement, listed as a trend).
 */
import type { Aggregate, DateRange, Query } from "../ask-engine.ts";
import type { FieldCue } from "./ask-lexicon.ts";
import { FLOW_FIELD } from "./ask-sets.ts";
import { wordsValue } from "./ask-text.ts";

/** Twelve months before the latest statement: "a year ago", "vs last year", "over the past year". */
export const YEAR_AGO = /\b(?:a|one|1|twelve months|12 months|12 mos?|twelve mos?) (?:year )?(?:ago|before|earlier|prior)\b|\byear (?:ago|before|earlier)\b|\byear over year\b|\byoy\b|\bthis time last year\b|\b(?:vs|versus|compared (?:to|with)|against) (?:a|last|the prior|the previous) year\b|\bthis year (?:vs|versus|against|compared to) last\b|\b(?:over|in|during) the (?:past|last) (?:year|twelve months|12 months)\b|\blast twelve months\b|\b(?:last|past|trailing) (?:12|twelve) (?:months|mos?)\b|\bttm\b|\bpast year\b/;
/**
 * "Six months ago", "two quarters back", "18 mo earlier": how many months before the latest statement
 * one record's figure is asked at (the rule for a year, said of any span); null when not said.
 */
export function monthsAgo(text: string): number | null {
  if (/\bhalf a year (?:ago|before|earlier|back)\b/.test(text)) return 6;
  // ("Since 6 months ago" anchors a change at a calendar point: the dates reader's, not a span back from the latest statement.)
  const m = /(?<!\b(?:since|from|after|before) )\b(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty four) (months?|mos?|quarters?|qtrs?|qs|years?|yrs?) (?:ago|before|earlier|prior|back)\b/.exec(text);
  if (!m) return null;
  const n = /^\d/.test(m[1]) ? Number(m[1]) : (wordsValue(m[1].replace(/^an$/, "a").split(" ")) ?? 0);
  const months = n * (/^(?:q|qtr)/.test(m[2]) ? 3 : /^(?:y|yr)/.test(m[2]) ? 12 : 1);
  return months >= 1 && months <= 240 ? months : null;
}
/** A history listed rather than one point of it. */
/** The first statement of a record's history ("when they first reported", "initially", "at the start"). */
export const AT_MARK = /\b(?:at|as of|on|per) (?:the |its |their |that |this )?(?:last |latest |most recent |recent |current )?(?:nav |quarterly |quarter[- ]end )?mark\b/;
export const FIRST_STATEMENT = /\bwhen (?:they|it|we|she|he) first\b|\bfirst (?:reported|report|statement|figure|number|data ?point|reading|mark)\b|\bat first\b|\binitially\b|\boriginally\b|\bearliest\b|\bto begin with\b|\bat the (?:start|outset|beginning)\b/;
export const TREND = /\bsince\b|\beach of (?:the|its) (?:last |past )?\w+ (?:marks|quarters|months)\b|\bmark by mark\b|\bqoq\b|\bmom\b|\bquarter over quarter\b|\bmonth over month\b|\b(?:last|past) \d+ (?:mo|mos|marks)\b|\btrend|\bover time\b|\bhistory\b|\bby (?:quarter|qtr|month)\b|\beach (?:quarter|qtr|month)\b|\bquarter by quarter\b|\bmonth by month\b|\b(?:last|past) (?:\d+|two|three|four|five|six|eight|twelve) (?:quarters|qtrs|months)\b|\bdevelop(?:ed|ing)?\b|\bevolv(?:e|ed|ing)\b|\btrajectory\b|\bup or down\b|\b(?:at|as of|on) each (?:of (?:the|its) (?:last |past )?\w+ )?marks?\b|\b\d+ (?:quarters|qtrs|qs)\b|\bevolution\b|\bprogression\b|\bquarterly\b|\bmonthly (?:figures|numbers|history)\b/;
/** How many periods a trend asks for ("4 qtrs", "last 6 months"): the statements to list. */
const PERIODS = /\b(\d{1,2}|two|three|four|five|six|eight|twelve) (quarters|qtrs|qs|months|mos|mo|marks)\b/;
const PERIOD_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, eight: 8, twelve: 12 };
const MARK_FIELDS = ["tvpi", "dpi", "rvpi", "nav", "unfunded"];

/**
 * A question about one record's figure at a time other than now (a portfolio company's metric, an
 * LP position's TVPI, DPI, RVPI or NAV): that record's history, at the dates, a year before its
 * latest statement, or listed over the dates. Null when the question is not one.
 */
export function historyOf(a: { q: Query; text: string; dates: DateRange | null; fields: FieldCue[]; holding: string | null; fund: string | null; aggregate: Aggregate | undefined }): Query | null {
  const back = monthsAgo(a.text);
  const yearAgo = YEAR_AGO.test(a.text) || back !== null;
  const trend = TREND.test(a.text);
  const first = FIRST_STATEMENT.test(a.text);
  // "At the last mark", "at that mark": a fund's figures as its latest NAV mark stated them (not rolled forward to today).
  const atMark = !!a.fund && AT_MARK.test(a.text);
  if (!yearAgo && !a.dates && !trend && !first && !atMark) return null;
  // (A total over the dates is the set's; a trend of one named record is its history.)
  if (a.aggregate && !["change", "latest"].includes(a.aggregate) && !yearAgo && !(trend && (a.fund || a.holding))) return null;
  const metric = a.fields.find((f) => f.metric);
  // "A year ago" alone asks what it was then; with "now", "vs", "change", "trend" it asks for both.
  const both = /\byoy\b|\byear over year\b|\bgrowth\b|\bnow\b|\bvs\b|\bversus\b|\bcompared?\b|\bagainst\b|\bchang|\bgr[eo]w|\btrend|\bthan\b|\bover the\b|\bthis year\b|\bup\b|\bdown\b|\bhigher\b|\blower\b|\bmore\b|\bless\b|\bfrom\b/.test(a.text);
  const aggregate: Aggregate | undefined = yearAgo ? (both ? "year_change" : "year_ago") : a.aggregate === "change" ? "change" : trend ? undefined : first ? "first" : "at";
  // (An LP fund's "multiple" or MOIC is its TVPI; what was called or distributed "at each mark" is the mark's to-date figure.)
  const atMarks = /\bmarks?\b/.test(a.text);
  const markField = a.fields.find((f) => MARK_FIELDS.includes(f.field) || (atMarks && (f.field === "called" || f.field === "distributed"))) ?? (a.fund && a.fields.some((f) => f.field === "multiple") ? { field: "tvpi" } : undefined)
    ?? flowAtMarks(a.text, !!a.fund && atMarks);
  // A trend with no dates: the latest statements, as many as the periods said (a year of quarterly marks when none is).
  const periods = PERIODS.exec(a.text);
  const n = periods ? (Number(periods[1]) || PERIOD_WORDS[periods[1]]) : null;
  // ("The last four quarters" of a fund are its last four marks, whatever their dates.)
  if (trend && !yearAgo && (!a.dates || (periods && !/^(?:months|mos|mo)$/.test(periods[2]))) && a.fund && markField && (a.q.kind === "positions" || a.q.kind === "cashflows" || a.q.kind === "marks")) {
    const marks = n ? (/^(?:months|mos|mo)$/.test(periods![2]) ? Math.max(1, Math.round(n / 3)) : n) : 5;
    return { kind: "marks", name: a.fund, field: markField.field, show: [markField.field], order: { by: "date", dir: "desc" }, limit: marks };
  }
  // (A trend over "the last 4 quarters" lists that many periods' statements, whether or not the words also read as dates.)
  if (trend && !yearAgo && (!a.dates || (periods && !/^(?:months|mos|mo)$/.test(periods[2]))) && n && a.holding && metric && (a.q.kind === "holdings" || a.q.kind === "metrics")) {
    return { kind: "metrics", name: a.holding, metric: metric.field, order: { by: "date", dir: "desc" }, limit: /^(?:months|mos|mo)$/.test(periods![2]) ? n : n * 3 };
  }
  if (a.holding && metric && (a.q.kind === "holdings" || a.q.kind === "metrics")) {
    return { kind: "metrics", name: a.holding, metric: metric.field, ...(a.dates && !yearAgo ? { dates: a.dates } : {}), ...(aggregate ? { aggregate } : {}), ...(back && back !== 12 && aggregate?.startsWith("year_") ? { months_back: back } : {}) };
  }
  if (a.fund && markField && (a.q.kind === "positions" || a.q.kind === "cashflows" || a.q.kind === "marks")) {
    return { kind: "marks", name: a.fund, field: markField.field, show: [markField.field], ...(a.dates && !yearAgo ? { dates: a.dates } : {}), ...(aggregate && !(aggregate === "change" && a.dates) ? { aggregate: aggregate === "change" ? "year_change" : aggregate } : {}), ...(back && back !== 12 && yearAgo ? { months_back: back } : {}) };
  }
  return null;
}

/** "Distributions as of each of the last 4 marks": what a fund had distributed (or called) to date at each mark. */
export function flowAtMarks(text: string, atMarks: boolean): { field: string } | undefined {
  if (!atMarks || !/\b(?:each|every|at|as of)\b/.test(text)) return undefined;
  const field = FLOW_FIELD.find(([re]) => re.test(text))?.[1];
  return field ? { field } : undefined;
}

