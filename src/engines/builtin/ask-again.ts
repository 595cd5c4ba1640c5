// A follow-up that names another record and nothing else: "what about Northstar?", "and on Kinetic?"
// after one fund's figure asks the same figures of that fund; "how does that compare with Atlas
// Bridge?" puts the two side by side. The figures are the ones the last one-record question asked
// (read again from its words when its call did not carry them), never a guess.
import type { DateRange, Memory, Query, RecordKind } from "../ask-engine.ts";
import type { Directory } from "./ask-directory.ts";
import { FIELD_CUES } from "./ask-lexicon.ts";
import { COMPARE } from "./ask-sets.ts";
import { normalise, type Normalised } from "./ask-text.ts";

type Again = { fn: string; args: Record<string, unknown>; preface?: string };

/** Words that open a follow-up about another record ("and", "what about", "same for"). */
export const ANOTHER = /^(?:and|what about|how about|same (?:for|with|on)|now|then|ok and|okay and)\b/;
/** Words that ask to set the last record against another ("how does that stack up against Relay"). */
export const AGAINST = /\bstack(?:s)? up\b|\bcompare[sd]?\b|\bmeasure[sd]? up\b|\bvs\b|\bversus\b|\b(?:against|next to|relative to)\b/;

/** The record the last one-record answer was about, its kind and the figures it asked. */
function lastAsked(memory: Memory): { kind: RecordKind; name: string; figures: string[] } | null {
  const last = memory.last;
  if (!last) return null;
  const args = last.args as Record<string, unknown>;
  const said = (kind: RecordKind) => {
    const question = memory.turns.at(-1)?.question;
    if (!question) return [];
    const folded = normalise(question).folded;
    return [...new Set(FIELD_CUES.filter((c) => c.kinds.includes(kind) && c.re.test(folded)).map((c) => c.field))];
  };
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  if (last.fn === "fund_positions" && typeof args.fund === "string" && memory.entities.fund) {
    const figures = list(args.figures).length ? list(args.figures) : said("positions");
    return figures.length ? { kind: "positions", name: memory.entities.fund.name, figures } : null;
  }
  if (last.fn === "portfolio_company" && memory.entities.holding) {
    const figures = list(args.figures).length ? list(args.figures) : typeof args.metric === "string" ? [args.metric] : said("holdings");
    return figures.length ? { kind: "holdings", name: memory.entities.holding.name, figures } : null;
  }
  if (last.fn === "query") {
    const q = args as Query;
    if (q.name && q.show?.length && (q.kind === "positions" || q.kind === "holdings" || q.kind === "deals") && !q.aggregate) return { kind: q.kind, name: q.name, figures: q.show };
    // (One fund's marks, one company's metric at a date: that fund's position, that company, asked of another figure.)
    if (q.name && q.kind === "marks") return { kind: "positions", name: q.name, figures: [q.field ?? q.show?.[0] ?? "nav"] };
    if (q.name && q.kind === "metrics" && q.metric) return { kind: "holdings", name: q.name, figures: [q.metric] };
  }
  return null;
}

/**
 * "And 2024?" after a question over dates: the same question over the dates now said. Only a
 * question that says nothing but its dates (a word to open it aside) is read so.
 */
export function sameQuestionOtherDates(n: Normalised, memory: Memory, dates: DateRange | null, said: string | null): Again | null {
  const last = memory.last;
  // ("And 2024?": a year said alone is that calendar year.)
  const year = /^(?:and |what about |how about |and in |and for |same for |now )?(?:in )?((?:19|20)\d{2})$/.exec(n.folded.trim());
  if (!dates && year) [dates, said] = [{ from: `${year[1]}-01-01`, to: `${year[1]}-12-31`, label: year[1] }, year[1]];
  if (!dates || !said || last?.fn !== "query" || !(last.args as Query).dates) return null;
  const rest = n.folded.replace(said, " ").replace(/^(?:and|what about|how about|same for|and for|and in|and during|now|ok and|then)\b/, " ").replace(/\b(?:in|for|during|the|then|same)\b/g, " ").trim();
  if (rest) return null;
  return { fn: "query", args: { ...(last.args as Query), dates } };
}

/** "As a %?" after a fund's called figure: the share of its commitment, of the same fund. */
const AS_SHARE = /^(?:and |ok |so )?(?:what(?: is| s)? (?:that|it) )?(?:as an? |in )?(?:%|(?:percent|percentage)|share|ratio|pct)(?: of (?:the |its )?commit(?:ment|ted))?$/;
const SHARE_OF: Record<string, string> = { called: "called_pct", unfunded: "called_pct" };

export function asShareOfLast(n: Normalised, memory: Memory): Again | null {
  if (!AS_SHARE.test(n.raw.toLowerCase().replace(/[?!.]+$/, "").replace(/['’]/g, " ").trim())) return null;
  const was = lastAsked(memory);
  const share = was?.kind === "positions" ? was.figures.map((f) => SHARE_OF[f]).find(Boolean) : undefined;
  return was && share ? { fn: "fund_positions", args: { fund: was.name, figures: [share] } } : null;
}

/** The same figures of another record named now, or both side by side; null when this is not such a follow-up. */
export function sameFiguresOfAnother(d: Directory, n: Normalised, memory: Memory, fieldsSaid: number): Again | null {
  if (fieldsSaid > 0) return null;
  const compare = AGAINST.test(n.folded) || COMPARE.test(n.folded);
  if (!compare && !ANOTHER.test(n.folded)) return null;
  // "Redwood distributions this year", then "what about Atlas Bridge?": the same question of that LP fund.
  const lastQuery = memory.last?.fn === "query" ? (memory.last.args as Query) : null;
  const fundNow = d.funds().match;
  if (!compare && fundNow.kind === "one" && lastQuery?.kind === "cashflows" && lastQuery.fund && lastQuery.fund !== fundNow.name) return { fn: "query", args: { ...lastQuery, fund: fundNow.name } };
  if (!compare && fundNow.kind === "one" && lastQuery?.kind === "marks" && lastQuery.name && lastQuery.name !== fundNow.name) return { fn: "query", args: { ...lastQuery, name: fundNow.name } };
  const was = lastAsked(memory);
  if (!was) return null;
  const fund = d.funds().match;
  const holding = d.holdings();
  const deal = d.deal();
  const other = was.kind === "positions" ? (fund.kind === "one" ? fund.name : null) : was.kind === "holdings" ? (holding.kind === "one" ? holding.name : null) : (deal?.name ?? null);
  if (!other || other === was.name) return null;
  if (compare) return { fn: "query", args: { kind: was.kind, names: [was.name, other], show: was.figures } };
  if (was.kind === "positions") return { fn: "fund_positions", args: { fund: other, figures: was.figures } };
  // A company's metrics are its own read (every figure of it, the ones asked first).
  if (was.kind === "holdings" && was.figures.every((f) => FIELD_CUES.some((c) => c.field === f && c.metric))) return { fn: "portfolio_company", args: { company: other, metric: was.figures[0], figures: was.figures } };
  return { fn: "query", args: { kind: was.kind, name: other, show: was.figures } };
}

/** Words that point back at every record of the last list ("their DPI", "each of them", "for those"). */
export const EACH_LISTED = /\b(?:their|theirs|they|them|those|these|each(?: one| of them)?|all of them|every one)\b/;

/**
 * "And their DPI?" after a list of distributions: a figure of each record the last answer listed,
 * of the kind that holds the figure (the LP funds the distributions came from, the companies or
 * deals it named), side by side. Only when the last answer named two or more such records and the
 * question names none of its own.
 */
export function figuresOfListed(d: Directory, n: Normalised, memory: Memory, fields: { field: string; kinds: RecordKind[] }[], namesSaid: boolean): Again | null {
  const answer = memory.turns.at(-1)?.answer;
  if (!answer || namesSaid || !fields.length || !EACH_LISTED.test(n.folded) || memory.last?.fn !== "query") return null;
  const lastKind = (memory.last.args as Query).kind;
  // (A figure the listed records hold themselves, "how much did each one call", is theirs.)
  if (fields.some((f) => f.kinds.includes(lastKind))) return null;
  const listed: [RecordKind, string[]][] = [
    ["positions", d.names.lpFunds()],
    ["holdings", [...new Set(d.names.holdings().map((h) => h.name))]],
    ["deals", d.names.deals().map((x) => x.name)],
  ];
  for (const [kind, names] of listed) {
    const figures = [...new Set(fields.filter((f) => f.kinds.includes(kind)).map((f) => f.field))];
    if (!figures.length) continue;
    const named = names.filter((name) => answer.includes(name)).sort((a, b) => answer.indexOf(a) - answer.indexOf(b));
    if (named.length >= 2) return { fn: "query", args: { kind, names: named, show: figures } };
  }
  return null;
}

/** Words that point back at the period the last question asked about ("that month", "the same quarter", "back then"). */
export const THAT_PERIOD = /\b(?:(?:in|for|during|over|of|at) )?(?:that|the same|same) (?:month|quarter|qtr|year|period|half|week|day|date|time|point)\b|\bback then\b|\bat (?:that|the) time\b/;

/**
 * "And the burn that month?" after "what was it in August": the period the last question was asked
 * over, said again in the words it was said in, so the dates are read as they were then. The
 * question is left as it is when the last question had no dates.
 */
export function withPeriodOfLast(question: string, memory: Memory): string {
  const dates = (memory.last?.args as { dates?: DateRange } | undefined)?.dates;
  const folded = question.toLowerCase();
  if (!dates?.label || !THAT_PERIOD.test(folded)) return question;
  return question.replace(new RegExp(THAT_PERIOD.source, "i"), ` in ${dates.label}`);
}

/** A question that only asks for the total of what was just said ("combined?", "together?", "and in total?"). */
export const COMBINED = /^(?:and |so |ok |okay )?(?:what(?: is| s| are)? (?:that|they|those|both|the two) )?(?:combined|together|in total|total|altogether|added up|summed|both together|the sum|sum|the total|(?:for )?both)$/;

/**
 * "Combined?" after one company's figure and then the same figure of another: the total of that
 * figure over the companies the last one-record answers named, in a row (per currency; a figure
 * that does not add up is said so by the query). Null when fewer than two such answers precede it.
 */
export function combinedOfLast(d: Directory, n: Normalised, memory: Memory): Again | null {
  if (!COMBINED.test(n.folded.replace(/[?!.]+$/, "").trim())) return null;
  const was = lastAsked(memory);
  if (!was || was.kind !== "holdings" || was.figures.length !== 1) return null;
  const holdings = [...new Set(d.names.holdings().map((h) => h.name))];
  const named: string[] = [];
  for (const turn of [...memory.turns].reverse()) {
    // (A one-record answer opens with the record's name; a said-back line may come first.)
    const opening = turn.answer.split("\n").find((line) => !/^I can't use /.test(line)) ?? "";
    const name = holdings.find((h) => opening.startsWith(`${h}:`) || opening.startsWith(`${h}'s `) || opening.startsWith(`${h}' `));
    if (!name) break;
    if (!named.includes(name)) named.unshift(name);
  }
  return named.length >= 2 ? { fn: "query", args: { kind: "holdings", names: named, field: was.figures[0], aggregate: "sum" } } : null;
}

/** Words that make a question about a set, not the one record the conversation is on ("our", "total", "which"). */
const OVER_A_SET = /\b(?:our|all|every|each|total|totals|across|overall|portfolio|book|which|who|rank|ranked|top|list|any|sum|average|avg|median|combined|together)\b/;

/**
 * "How much is still uncalled?", "and the IRR?" after one LP fund's figure: another figure of the
 * same record, when the question names no record and nothing that makes it about a set. The
 * conversation keeps its subject instead of answering over every record.
 */
export function otherFiguresOfLast(n: Normalised, memory: Memory, fields: { field: string; kinds: RecordKind[] }[], plural: boolean, namesSaid: boolean, datesSaid: boolean): Again | null {
  if (namesSaid || datesSaid || plural || !fields.length || OVER_A_SET.test(n.folded)) return null;
  const was = lastAsked(memory);
  if (!was) return null;
  const figures = [...new Set(fields.filter((f) => f.kinds.includes(was.kind)).map((f) => f.field))];
  if (!figures.length || figures.length !== new Set(fields.map((f) => f.field)).size) return null;
  if (figures.every((f) => was.figures.includes(f))) return null;
  if (was.kind === "positions") return { fn: "fund_positions", args: { fund: was.name, figures } };
  if (was.kind === "holdings" && figures.every((f) => FIELD_CUES.some((c) => c.field === f && c.metric))) return { fn: "portfolio_company", args: { company: was.name, metric: figures[0], figures } };
  return { fn: "query", args: { kind: was.kind, name: was.name, show: figures } };
}

/** "What's that in dollars?", "convert it to EUR": the last figures in another currency. */
// (Only with a word pointing at the figure: "and in euros?" alone asks for the records held in euros.)
export const CONVERT = /^(?:and |so |ok |okay )?(?:(?:what(?:s| is| s)?|how much is) (?:that|it|this|those|these) |(?:can you )?convert (?:that|it|this|those|these) |(?:that|it) )(?:in|to|into|as) (?:us |u s )?(dollars?|usd|bucks|euros?|eur|pounds?|gbp|sterling|francs?|chf|yen|jpy)$/;

/**
 * A figure asked again in another currency: the records keep no exchange rates, so the figures are
 * never converted. The last answer is given again with that said first, rather than answering with
 * the records that happen to be held in the currency named.
 */
export function inAnotherCurrency(n: Normalised, memory: Memory): Again | null {
  const m = CONVERT.exec(n.folded.replace(/[?!.]+$/, "").trim());
  if (!m || !memory.last) return null;
  return {
    fn: memory.last.fn,
    args: memory.last.args,
    preface: `Your records keep no exchange rates, so I never convert between currencies (a converted figure would be a guess): here it is again in the currency it is recorded in.\n`,
  };
}
