// Reading a question about a set of records into a typed query: which kind of record (by its
// noun, else by the figure asked, else by the name said), the filters (pipeline stage, status,
// round, sector, fund, vintage, currency, dates, thresholds), the order and how many, and the
// aggregate. Names the question says are resolved against the firm's own records first, so a
// name is never read as a filter ("Juniper Ledger" is a company, not the fintech sector).
import type { Aggregate, FilterValues, Memory, Query, RecordKind, Threshold } from "../ask-engine.ts";
import { canon, nameForPhrase, namesInQuestion, numerals } from "../../lib/name-match.ts";
import { datesIn, twoPointsIn } from "./ask-dates.ts";
import type { Directory } from "./ask-directory.ts";
import {
  AGGREGATE_CUES,
  ASCENDING,
  COMPANY_DEAL,
  STARTUPS,
  CURRENCY_CUES,
  DEAL_STAGE_CUES,
  FIELD_CUES,
  FUND_DEAL,
  HOLDING_STATUS_CUES,
  KIND_CUES,
  LEXICON_WORDS,
  NUMBER_WORDS,
  ORDER_BY,
  ORDER_CUES,
  BEST_FIELD,
  COUNTED_FIGURES,
  NEWEST_FIELD,
  ROUND_CUES,
  TOP_N,
  type CueUnit,
  type FieldCue,
} from "./ask-lexicon.ts";
import { amountsWithCurrency, FOUNDED, sectorOf, thresholdsIn, writtenNames, yearsSaid } from "./ask-filters.ts";
import { ABSENCE, absentField, presentFlow, BUDGET, BUDGET_VERSUS, COLLEAGUES, FLAG_CUES, MARKING, NOT_SINCE, OUTSIDERS, OWN_NETWORK, POOLED_NETWORK, RELATIONSHIP_CUES, TOUCH_GAP, GAIN, LOSS, REPORT_DUE, REPORTING, fundPhrases, fundsNamed, groupAsked, listParts, negationScopes, roundRange } from "./ask-sets.ts";
import { historyOf, TREND, YEAR_AGO } from "./ask-history.ts";
import { STOP, type Normalised } from "./ask-text.ts";

/** Why a question reads as one about a set of records (none: it is about one record, or nothing). */
export type Signal = "noun" | "aggregate" | "order" | "top" | "filter" | "threshold" | "dates" | "follow-up";

export type SetRead = {
  query: Query;
  signals: Signal[];
  /** A single record of the query's kind the question names (a company, a deal, a fund). */
  named: string | null;
  /** Figures asked for, whatever their kind. */
  fields: FieldCue[];
};

/** Kinds by a noun that names only them; generic nouns ("companies", "people", "funds") count less. */
const WEAK_NOUNS: Partial<Record<RecordKind, RegExp>> = {
  holdings: /\bcompan(?:y|ies)\b|\bstartups\b|\bbusinesses\b|\bcos\b/,
  persons: /\bpeople\b/,
  positions: /\bfunds\b/,
};

const FOLLOW_UP = /\b(?:them|those|these|ones|they|their|theirs)\b|\bhow much (?:is|are|was|were|did|does|do|has|have) each\b|\bwhich one\b|\b(?:into|in|to|for|of|on|at) each\s*\??$|\beach one\b|\bwho among\b|\b(?:for|of) each\b(?! (?:deal|compan|fund|portco|holding|position))|\beach one\b|^(?:and|what about|how about|only|just|sort|rank|order|by|now|same|also)\b/;
const SINGULAR_NOUN = /^(?:deal|holding|portfolio company|document|file|pdf|capital call|distribution|cash ?flow|drawdown|fund position|lp fund|lp commitment|contribution|pitched)$/;
/** The figure a total or a threshold is of when the question names none ("calls over 1 million"). */
const DEFAULT_FIELD: Partial<Record<RecordKind, string>> = { cashflows: "amount", deals: "score", persons: "strength" };
/** The figure a total is of when the question names none ("add up the euro raises", "sum of the rounds at IC"). */
const SUM_FIELD: Partial<Record<RecordKind, string>> = { deals: "round_amount", cashflows: "amount" };
/** The figure a threshold is on when only its unit says which ("holdings above 2x", "funds over 1.5x"). */
const UNIT_FIELD: Partial<Record<RecordKind, Partial<Record<CueUnit, string>>>> = { holdings: { x: "multiple", "%": "ownership" }, positions: { x: "tvpi", "%": "irr" }, cashflows: { money: "amount" }, deals: { money: "round_amount" } };
const READER_WORDS = new Set(LEXICON_WORDS);
/** Which way a figure moved: up ("grown", "increased", "went up") or down ("declined", "shrunk", "dropped"). */
const CHANGE_SIGN = /\b(gr[eo]wn?|grows|growing|increas(?:e|ed|es|ing)|r[io]sen?|rises|went up|gone up|go up|expand(?:ed|ing)?)\b|\b(declin(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|shr[iau]nk|fall(?:en|s)?|fell|dropp?(?:ed|s)?|went down|gone down|go down)\b/;
const FELL_MOST = /\b(?:biggest|largest|steepest|sharpest|worst|most) (?:\w+ ){0,2}(?:drops?|declines?|falls?|decreases?|dips?|contractions?)\b|\b(?:fell|dropped|declined|decreased|shrank|shrunk|shrinking|falling|dropping|declining) (?:\w+ ){0,2}(?:the )?most\b/;
const THRESHOLD_BEFORE = /\b(?:north of|upwards of|in excess of|south of|hit|hits|reached|reach|crossed|cross|topped|above|over|more than|greater than|higher than|bigger than|exceeding|at least|at most|below|under|less than|fewer than|lower than|no more than|no less than)\s*$/;
const HOLDING_STAGE: Record<string, string> = { "pre-seed": "pre_seed", seed: "seed", "series a": "series_a", "series b": "series_b", "series c": "series_c", growth: "growth" };
const SINGULAR_NOUNS = String.raw`(?:one|company|deal|fund|startup|holding|investment|position|call|distribution|contact|person|manager|relationship|portco)`;
const SINGULAR = new RegExp(
  String.raw`\b(?:which|what) (?:\w+ ){0,2}${SINGULAR_NOUNS}\b|\b(?:which|who) (?:has|is|was|had)\b|\b(?:highest|lowest|biggest|largest|smallest|best|worst|newest|latest|oldest|most recent|strongest|warmest)[ -](?:\w+ ){0,2}${SINGULAR_NOUNS}\b(?!s)`,
);

const pluralCompanies = (text: string) => /\b(?:companies|portcos|startups|holdings|investments|businesses|rates|ones)\b/.test(text);

/** A text without a name, also where a one-word name is said as words ("mosaic treasury" for MosaicTreasury). */
function withoutName(text: string, name: string): string {
  let out = without(text, name);
  if (name.includes(" ")) return out;
  const w = out.split(" ");
  for (let i = 0; i < w.length; i++) {
    for (let k = 2; k <= 3 && i + k <= w.length; k++) {
      if (w.slice(i, i + k).join("") === name) w.splice(i, k, ...Array(k).fill(""));
    }
  }
  out = w.join(" ").replace(/\s+/g, " ").trim();
  return out;
}

/** A folded text with every occurrence of `phrase` blanked (so a name's words are not read as filters). */
const without = (text: string, phrase: string) => (phrase ? ` ${text} `.split(` ${phrase} `).join("  ").trim() : text);

const THING = /\b(?:its|it|their|they|that fund|this fund|that company|this company)\b|\bof (?:that|this)\b(?! (?:deal|fund|compan|portco|list|pipeline|portfolio|year|quarter|month|week|time|kind|sort|type)s?\b)/;
/** Series said by their letter in a list of rounds: "seed vs A vs B", "A or B rounds" (not the article "a"). */
function seriesLetters(text: string): string[] {
  const w = text.split(" ");
  const joiner = (x: string | undefined) => !!x && /^(?:or|and|vs|versus|&|nor)$/.test(x);
  const round = (x: string | undefined) => !!x && /^(?:[a-c]|seed|series|pre-seed|seeds)$/.test(x);
  return w.flatMap((x, i) => {
    if (!/^[a-c]$/.test(x)) return [];
    const listed = (joiner(w[i - 1]) && round(w[i - 2])) || (joiner(w[i + 1]) && round(w[i + 2]));
    return listed ? [`series ${x}`] : [];
  });
}

export type ReadContext = { n: Normalised; d: Directory; today: Date; memory: Memory };

/** The query a question about a set of records asks; null when it names no kind, figure or filter at all. */
export function readSet({ n, d, today, memory }: ReadContext): SetRead | null {
  const signals: Signal[] = [];
  // The words as said (decimals kept: "1.5x"), without addresses (a domain's ".ai" is no sector) and the dates.
  let text = numerals(n.tokens.filter((t) => !t.f.includes("@") && !/\.[a-z]/.test(t.f)).map((t) => t.f).join(" "));
  // "Including the exited ones": all of them, not only those ("incl" as people shorten it).
  text = text.replace(/\b(?:incl|including|inc|plus|as well as|together with) (?:the |any |all )?(?:exited|exits|written off|write ?offs|dead|sold|passed|inactive)(?: ones| companies| deals)?\b/g, " ");
  // "On file", "on record": in the records, not a document.
  text = text.replace(/\b(?:on|in) (?:file|record)\b/g, " ");
  // "The distribution of round types": a split, not LP distributions.
  text = text.replace(/\bdistribution (?=of (?:the |their |our )?(?:\w+ )?(?:stage|sector|industr|round|fund|status|currenc|vintage|city|cities|type|year|quarter|month))/g, "breakdown ");
  // "Founded in 2022 or later": the company's founding year, not when the deal came in.
  const founded = yearsSaid(n.folded, FOUNDED, today.getUTCFullYear());
  const firstDates = founded ? null : datesIn(n.folded, today);
  // "End of 2024 vs today", "end of Q2 vs end of Q3": how a figure changed between the two.
  const twoPoints = firstDates ? twoPointsIn(n.folded, firstDates, today) : null;
  const dates = twoPoints ?? firstDates;
  if (dates) text = without(text, numerals(dates.matched.trim()));

  // Names first: what the records call things is not a filter word.
  const h = d.holdings();
  const deal = d.deal();
  const lp = d.funds();
  const own = d.ownFunds();
  // A company or deal named inside a negated part is left out, not asked about ("all portcos except Acme").
  const negatedNames = ` ${canon(negationScopes(numerals(n.folded)).negated)} `;
  const saidNegated = (name: string | null) => !!name && negatedNames.includes(` ${canon(name)} `);
  // (A company left out by its first word, "not counting quill": every holding that word begins.)
  const negatedWords = negatedNames.trim().split(" ").filter((w) => w.length >= 4 && !READER_WORDS.has(w) && !STOP.has(w));
  // (Not when a whole name begins with that word: "except acme robotics" leaves out that one.)
  const saidWhole = d.holdingsSaid().filter(saidNegated);
  const byFirstWord = [...new Set(d.names.holdings().map((x) => x.name))].filter((name) => { const first = canon(name).split(" ")[0]; return negatedWords.includes(first) && !saidWhole.some((w) => canon(w).split(" ")[0] === first); });
  const excludedHoldings = [...new Set([...saidWhole, ...byFirstWord])];
  const excludedDeals = [...new Set([...(deal ? [deal.name] : []), ...d.dealsSaid()])].filter(saidNegated);
  const namedHolding = h.kind === "one" && !saidNegated(h.name) ? h.name : null;
  const namedDeal = deal && !saidNegated(deal.name) ? deal.name : null;
  for (const name of [namedHolding, namedDeal, ...excludedHoldings, ...excludedDeals, lp.match.kind === "one" ? lp.match.name : null, own.match.kind === "one" ? own.match.name : null, lp.phrase]) {
    if (name) text = withoutName(text, canon(name));
  }
  const fundPhrase = lp.phrase ?? own.phrase;

  // The figures asked for, in the order said.
  const fields = FIELD_CUES.map((c) => ({ c, at: c.re.exec(text)?.index ?? -1 }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.c);

  // "What was it a year ago?": the figure the conversation was about, when a point in time is all it asks.
  // ("Is that higher than a year before?": "that" is the figure just given.)
  // ("That" is one record's figure only when the last answer was about one record, or ranked records
  // with the first of them on top: after a total, "is that higher than a year ago" is about the total.)
  const lastCall = memory.last?.args as Query | undefined;
  const lastOnOne = memory.last?.fn === "portfolio_company" || memory.last?.fn === "fund_positions" && !!memory.entities.fund || (memory.last?.fn === "query" && !!lastCall && (!!lastCall.name || (!!lastCall.order && !lastCall.aggregate && !lastCall.group)));
  const backToSubject = THING.test(text) || /^(?:and|what about|how about|then)\b/.test(text.trim()) || (lastOnOne && /^(?:is|was|has|does|did|how (?:does|did|is|was)) (?:that|this)\b/.test(text.trim()));
  let carried: FieldCue | undefined;
  if (!fields.length && backToSubject && memory.last && (YEAR_AGO.test(n.folded) || dates || TREND.test(n.folded))) {
    const lastArgs = memory.last.args as Record<string, unknown>;
    // (After a ranked list, the figure it was ranked by: "who has the longest runway", then "was that higher a year before?")
    const rankedBy = (lastArgs.order as { by?: unknown } | undefined)?.by;
    const lastFigure = typeof lastArgs.metric === "string" ? lastArgs.metric : Array.isArray(lastArgs.figures) ? String(lastArgs.figures[0]) : typeof lastArgs.field === "string" ? lastArgs.field : typeof rankedBy === "string" ? rankedBy : null;
    const cue = lastFigure ? FIELD_CUES.find((c) => c.field === lastFigure) : undefined;
    if (cue) fields.push(cue), (carried = cue);
  }

  // The kind: its noun (a specific one over a generic one), else the figure's, else the name's.
  const nouns = KIND_CUES.filter(([, re]) => re.test(text)).map(([k]) => k);
  // "the deal", "this document": one record's noun; a set is named in the plural or collectively.
  const plural = KIND_CUES.some(([, re]) => [...text.matchAll(new RegExp(re.source, "g"))].some((m) => !SINGULAR_NOUN.test(m[0])));
  const weak = (Object.entries(WEAK_NOUNS) as [RecordKind, RegExp][]).filter(([, re]) => re.test(text)).map(([k]) => k);
  const fieldKinds = fields.flatMap((f) => f.kinds);
  // Words only one kind has: a pipeline stage ("at IC", "passed on"), a company's fate ("write-offs").
  const stageKind: RecordKind | null = /\b(?:ic|investment committee|dil+igence|dd|screening|passed on|turned down)\b/.test(text)
    ? "deals"
    : /\bexit(?:ed|s)\b|\bwritten off\b|\bwrite ?offs?\b|\bwrote off\b/.test(text)
      ? "holdings"
      : null;
  // "How many companies has each fund exited", "number of marks for each LP fund": the noun counted is
  // the records' kind, the one after "each" its groups.
  const counted = /\b(?:how many|number of|count (?:of |the )?|counts? of)\s+((?:[a-z-]+ ){0,2}[a-z-]+)/.exec(text)?.[1];
  const countedKind: RecordKind | undefined = counted ? (/\bmarks?\b/.test(counted) ? "marks" : (KIND_CUES.find(([, re]) => re.test(counted))?.[0] ?? (Object.entries(WEAK_NOUNS) as [RecordKind, RegExp][]).find(([, re]) => re.test(counted))?.[0])) : undefined;
  let kind: RecordKind | null =
    (countedKind && groupAsked(text, countedKind) ? countedKind : null) ??
    (FUND_DEAL.test(text) ? "deals" : null) ??
    // A data-quality flag is an LP position's ("funds whose marks are out of date").
    (FLAG_CUES.some(([, re]) => re.test(text)) && !nouns.some((k) => k !== "positions") ? "positions" : null) ??
    // An LP fund within dates: its calls and distributions (a position's figures have no dates, its NAV marks do).
    (lp.match.kind === "one" && dates && !fields.some((f) => f.field === "nav") && !nouns.length ? "cashflows" : null) ??
    // An LP fund named: its position ("Halcyon Fund V performance"), unless the question is about companies.
    // (Not when the figure is one only portfolio companies have and one of the firm's own funds is said too: "avg check size in fund ii".)
    (lp.match.kind === "one" && !fields.some((f) => f.metric) && !weak.includes("holdings") && !nouns.length && !(own.match.kind === "one" && !lp.whole && fields.length > 0 && fields.every((f) => !f.kinds.includes("positions"))) ? "positions" : null) ??
    // "Which f2 companies...": one of the firm's own funds and its companies, whatever else is said of them.
    (own.match.kind === "one" && (lp.match.kind === "none" || !lp.whole) && /\b(?:companies|startups|businesses)\b/.test(text) && !nouns.includes("cashflows") ? "holdings" : null) ??
    nouns.find((k) => fieldKinds.length === 0 || fieldKinds.includes(k)) ??
    nouns[0] ??
    // "Diligence/IC/invested": a list of pipeline stages, not what was invested.
    (stageKind === "deals" && fields.length > 0 && fields.every((f) => f.field === "invested") ? "deals" : null) ??
    fieldKinds[0] ??
    // One of the firm's own funds named, and no LP fund: its portfolio companies ("sector mix in fund III").
    (own.match.kind === "one" && lp.match.kind === "none" ? "holdings" : null) ??
    // A pipeline stage or a company's fate says the kind more than a generic noun ("what's in diligence that isn't a health company").
    stageKind ??
    weak[0] ??
    (namedDeal ? "deals" : namedHolding ? "holdings" : null);
  if (plural || weak.some((k) => /s$/.test(WEAK_NOUNS[k]!.exec(text)![0]))) signals.push("noun");
  // "fund" as a noun on its own: the firm's own funds hold companies; "portfolio companies in Fund II".
  if (kind === "positions" && weak.includes("holdings") && !nouns.includes("positions") && !fieldKinds.includes("positions")) kind = "holdings";

  // The aggregate.
  let aggregate: Aggregate | undefined = twoPoints ? "change" : AGGREGATE_CUES.find(([, re]) => re.test(text))?.[0];
  // "How many employees does X have": a metric, not a count of records.
  // ("How many months of cash", "how many people work across our portcos combined": a figure, maybe totalled.)
  // "Nimbus Pay, how many people then vs now": a named company's people are its headcount (not whom we know there).
  // ("How many people did they have in Q2", right after a company's figure: that company's.)
  const lastArgs = (memory.last?.args ?? {}) as Query;
  const lastOfOneHolding = memory.last?.fn === "portfolio_company" || (memory.last?.fn === "query" && (lastArgs.kind === "metrics" || lastArgs.kind === "holdings") && !!lastArgs.name);
  const subjectHolding = namedHolding ?? (backToSubject && lastOfOneHolding ? (memory.entities.holding?.name ?? null) : null);
  if (aggregate === "count" && subjectHolding && /\bhow many (?:people|ppl|folks|heads)\b/.test(text) && !/\bknow\b|\bcontacts?\b/.test(text)) {
    // (Its people are the figure asked, not the one the conversation carried.)
    if (carried) fields.splice(fields.indexOf(carried), 1);
    if (!fields.some((f) => f.field === "headcount")) fields.push(FIELD_CUES.find((c) => c.field === "headcount")!);
    aggregate = AGGREGATE_CUES.find(([a, re]) => a !== "count" && re.test(text))?.[0];
  }
  if (aggregate === "count" && /\bhow many (?:employees|people work|(?:people|ppl|folks|heads) (?:at|in|on|work)|staff|customers|clients|ftes|months|years|weeks)\b/.test(text)) {
    aggregate = AGGREGATE_CUES.find(([a, re]) => a !== "count" && a !== "change" && re.test(text))?.[0];
  }
  if (aggregate === "change" && /\bgrowth (?:stage|round|equity|fund)/.test(text)) aggregate = undefined;
  // "Across the pipeline" says where, not a total, unless a figure is named ("ARR across the portfolio").
  if (aggregate === "sum" && !fields.length && !/\btotal\b|\bsum\b|\badd(?:ed|ing)? (?:\w+ )?up\b|\bcombined\b|\baltogether\b|\btogether\b|\bin total\b|\baggregate\b|\boverall\b|\bhow much\b/.test(text)) aggregate = undefined;
  const fastest = /\bfastest[ -]growing\b|\bgr[eo]w(?:n|ing|s)?(?: \w+){0,2} (?:the )?(?:fastest|most|quickest|least|slowest)\b/.test(text);
  if (fastest || FELL_MOST.test(text)) aggregate = "change";
  // "How much runway does Acme have": one record's figure; a total only over several, or when said ("in total").
  // (What was invested in one company is a total over its positions.)
  const overPositions = namedHolding && fields.some((f) => f.field === "invested" || f.field === "valuation");
  // (One of the firm's own funds said about its companies is a set of them, not one LP fund's figure.)
  const oneLpFund = lp.match.kind === "one" && !(own.match.kind === "one" && kind === "holdings");
  if (aggregate === "sum" && !overPositions && (namedHolding || namedDeal || oneLpFund) && !/\btotal\b|\bin total\b|\baltogether\b|\bcombined\b|\bsum\b/.test(text)) aggregate = undefined;
  // "How much are they raising?" of the record the conversation is about: its figure, not a total over every record.
  const aboutOne = !plural && !namedHolding && !namedDeal && lp.match.kind === "none" && THING.test(text) && !!(memory.entities.deal || memory.entities.holding || memory.entities.fund);
  if (aggregate === "sum" && aboutOne && /\bhow much\b/.test(text) && !/\btotal\b|\bin total\b|\baltogether\b|\bcombined\b|\bsum\b|\beach\b/.test(text) && !(memory.last?.fn === "query" && !(memory.last.args as Query).name && !((memory.last.args as Query).order && /\b(?:it|its)\b/.test(text)))) aggregate = undefined;
  if (aggregate) signals.push("aggregate");

  // A follow-up narrows, re-orders or counts the last set: it names no kind of its own, or only the
  // last one's with words that point back at it ("sort them by score", "and their burn?").
  const last = memory.last;
  const lastKind: RecordKind | null = !last ? null : last.fn === "query" ? ((last.args as Query).kind ?? null) : last.fn === "list_deals" ? "deals" : last.fn === "fund_positions" ? "positions" : null;
  const pointsBack = FOLLOW_UP.test(text) && !plural && !namedHolding && !namedDeal;
  // (A figure the last list's records hold too, "how much did each one call", is of those records.)
  const sameFigures = pointsBack && !nouns.length && fields.length > 0 && fields.every((f) => f.kinds.includes(lastKind!));
  const follow = lastKind !== null && (kind === null || (kind === lastKind && pointsBack) || (lastKind === "metrics" && kind === "holdings" && pointsBack) || sameFigures);
  if (follow) {
    kind = lastKind;
    signals.push("follow-up");
  }
  // What records have none of ("funds that haven't distributed", "portcos without ARR"): the
  // records whose figure is nothing, of the kind the question is about, not the figure's own records.
  const absent = absentField(text, fields);
  if (absent && kind === "cashflows" && (weak.includes("positions") || nouns.includes("positions"))) kind = "positions";
  if (!kind) return null;

  const q: Query = follow && memory.last!.fn === "query" ? structuredClone(memory.last!.args as Query) : { kind };

  // Calls and distributions within dates are cashflows (a position's figures have no dates).
  // (Records with none within the dates are positions: "funds that haven't called capital this year".)
  if (q.kind === "positions" && dates && !absent && fields.some((f) => f.field === "called" || f.field === "distributed")) q.kind = "cashflows";

  // A metric's change over time is the metrics kind, for one company or all.
  const metricField = fields.find((f) => f.metric);
  if (aggregate === "change" && (kind === "holdings" || kind === "metrics" || (metricField && kind !== "positions"))) {
    q.kind = "metrics";
    q.metric = metricField?.field ?? "arr";
    if (namedHolding) q.name = namedHolding;
    else if (/\b(?:its|it|their|they)\b/.test(text) && memory.entities.holding && !q.name) q.name = memory.entities.holding.name;
  }

  // Filters, by kind.
  // What a negation governs is not a filter but an exclusion ("deals that are not fintech").
  const { positive, negated } = negationScopes(text);
  // A stage's bare name in a list of stages is that stage ("diligence, IC or invested", "new or passed").
  const stagesIn = (t: string) => {
    const found = DEAL_STAGE_CUES.filter(([, re]) => re.test(t)).map(([s]) => s);
    if (!found.length) return found;
    const bare = listParts(t).flatMap((p) => DEAL_STAGE_CUES.filter(([s]) => p.split(" ").at(-1) === s).map(([s]) => s));
    return [...new Set([...found, ...bare])];
  };
  // "Got past screening", "beyond diligence": the pipeline's later stages (a deal passed on is not past anything).
  const past = /\b(?:past|beyond|further than|later than|after|through) (?:the )?(new|screening|diligence|dd|ic|investment committee)\b/.exec(positive);
  const PIPELINE = ["new", "screening", "diligence", "ic", "invested"];
  const pastStage = past ? PIPELINE.indexOf(past[1] === "dd" ? "diligence" : past[1] === "investment committee" ? "ic" : past[1]) : -1;
  const stageCues = pastStage >= 0 ? PIPELINE.slice(pastStage + 1) : stagesIn(positive);
  const notStages = negated ? stagesIn(negated) : [];
  const roundsIn = (t: string) => {
    const named = ROUND_CUES.filter(([, re]) => re.test(t)).map(([r]) => r);
    // In a list of rounds, a letter alone is a series ("seed vs A vs B", "A, B or C rounds").
    const letters = named.length || /\brounds?\b/.test(t) ? seriesLetters(t) : [];
    // (In the order rounds come: seed before Series A.)
    const order = ROUND_CUES.map(([r]) => r);
    const found = [...new Set([...named, ...letters])].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    // "pre-seed" also says "seed": seed only when said on its own.
    return found.includes("pre-seed") && !/\bseed\b/.test(t.replace(/\bpre[ -]?seed\b/g, " ")) ? found.filter((r) => r !== "seed") : found;
  };
  const roundOf = (phrase: string) => roundsIn(phrase)[0] ?? null;
  const rounds = roundRange(positive, roundOf) ?? roundsIn(positive);
  const notRounds = negated ? roundsIn(negated) : [];
  const currency = CURRENCY_CUES.find(([, re]) => re.test(positive))?.[0];
  const notCurrencies = negated ? CURRENCY_CUES.filter(([, re]) => re.test(negated)).map(([c]) => c) : [];
  const names = writtenNames(n);
  const heads = kind === "holdings" || kind === "metrics";
  const sectors = [...new Set(listParts(positive).map((part) => sectorOf(part, d, names, heads)).filter((x): x is string => !!x))];
  const sector = sectors.length === 1 ? sectors[0] : sectors.length ? null : sectorOf(positive, d, names, heads);
  const notSectors = negated ? [...new Set(listParts(negated).map((part) => sectorOf(part, d, names, heads)).filter((x): x is string => !!x))] : [];
  const notSector = notSectors[0] ?? null;
  const except: FilterValues = {};
  const anyOf: FilterValues = {};
  const filter = () => signals.includes("filter") || signals.push("filter");
  if (sectors.length > 1 && (q.kind === "deals" || q.kind === "holdings")) (anyOf.sector = sectors), filter();
  if (notSectors.length && (q.kind === "deals" || q.kind === "holdings")) (except.sector = notSectors), filter();
  if (notCurrencies.length && ["deals", "holdings", "positions", "cashflows"].includes(q.kind)) (except.currency = notCurrencies), filter();
  if (q.kind === "deals") {
    // "New deals" with no dates: those at the pipeline's stage "new" (with dates, "new" is when they came in).
    const newStage = !dates && !stageCues.length && /\bnew (?:deals?|opportunities|leads|inbound)\b/.test(positive) ? ["new"] : [];
    const stages = [...stageCues, ...newStage].filter((s) => s !== "invested" || !/\bhow much\b/.test(text));
    if (stages.length) (q.stage = stages), filter();
    if (notStages.length) (except.stage = notStages), filter();
    if (rounds.length === 1) (q.round = rounds[0]), filter();
    else if (rounds.length > 1) (anyOf.round = rounds), filter();
    if (notRounds.length) (except.round = notRounds), filter();
    // "Fund deals vs company deals, how many each": both kinds, counted per kind.
    if (FUND_DEAL.test(text) && COMPANY_DEAL.test(text)) filter();
    else if (/\bnon[ -]?fund\b/.test(text)) (q.type = "company"), filter();
    else if (FUND_DEAL.test(text)) (q.type = "fund"), filter();
    else if (COMPANY_DEAL.test(text)) (q.type = "company"), filter();
    // Deals called "startups" or "operating companies" are the companies' (a fund raising is neither); not one of them, a fund's.
    else if (STARTUPS.test(positive)) (q.type = "company"), filter();
    else if (negated && STARTUPS.test(negated)) (q.type = "fund"), filter();
    if (/\bfailed analys[ie]s\b|\banalys[ie]s (?:that )?failed\b/.test(text)) (q.status = ["failed"]), filter();
    // Cities as the deals' analyses read them ("deals out of Zurich or Copenhagen", "not in London").
    const citiesIn = (t: string) => (t ? d.names.cities().filter((c) => ` ${t} `.includes(` ${canon(c)} `)) : []);
    const cities = citiesIn(positive);
    const notCities = citiesIn(negated);
    if (cities.length === 1) (q.location = cities[0]), filter();
    else if (cities.length > 1) (anyOf.location = cities), filter();
    if (notCities.length) (except.location = notCities), filter();
  }
  // A fund phrase inside a negated part is left out ("outside Fund II"); several named are alternatives.
  // (Funds are found in the question as said: the names found are blanked out of `text`.)
  const asSaid = numerals(n.folded);
  const negatedAsSaid = negationScopes(asSaid).negated;
  const fundsNegated = (names: string[]): string[] => {
    const phrases = fundPhrases(negatedAsSaid);
    if (phrases.length) return [...new Set(phrases.flatMap((p) => { const m = nameForPhrase(names, p); return m.kind === "one" ? [m.name] : []; }))];
    // A fund named by its name or brand inside the negated part ("LP funds except Halcyon").
    const m = negatedAsSaid ? namesInQuestion(names, canon(negatedAsSaid), canon(negatedAsSaid).split(" ").filter((w) => w.length >= 4 && !STOP.has(w))) : null;
    return m?.kind === "one" ? [m.name] : m?.kind === "several" ? m.names : [];
  };
  if (q.kind === "holdings") {
    const statuses = HOLDING_STATUS_CUES.filter(([, re]) => re.test(positive)).map(([s]) => s);
    if (statuses.length) (q.status = statuses), filter();
    const notStatuses = negated ? HOLDING_STATUS_CUES.filter(([, re]) => re.test(negated)).map(([s]) => s) : [];
    if (notStatuses.length) (except.status = notStatuses), filter();
    const stages = rounds.flatMap((r) => (HOLDING_STAGE[r] ? [HOLDING_STAGE[r]] : []));
    if (stages.length) (q.stage = stages), filter();
    const notStagesH = notRounds.flatMap((r) => (HOLDING_STAGE[r] ? [HOLDING_STAGE[r]] : []));
    if (notStagesH.length) (except.stage = notStagesH), filter();
    const notFunds = fundsNegated(d.names.ownFunds());
    const several = fundsNamed(d.names.ownFunds(), asSaid)?.filter((f) => !notFunds.includes(f));
    const fund = own.match.kind === "one" ? own.match.name : fundPhrase && own.match.kind === "none" ? fundPhrase : null;
    if (several && several.length > 1) (anyOf.fund = several), filter();
    else if (several?.length === 1) (q.fund = several[0]), filter();
    else if (!several && fund && !notFunds.includes(fund)) (q.fund = fund), filter();
    if (notFunds.length) (except.fund = notFunds), filter();
  }
  // "its distributions this year": the fund the conversation is about.
  if ((q.kind === "positions" || q.kind === "cashflows") && lp.match.kind === "none" && !lp.phrase && THING.test(text) && memory.entities.fund) {
    q.fund = memory.entities.fund.name;
  }
  if (q.kind === "positions" || q.kind === "cashflows") {
    // A phrase inside one fund's name goes as said ("Fund II"), so the answer says what it was read as.
    const fund = lp.match.kind === "one" ? (lp.match.partial && lp.phrase ? lp.phrase : lp.match.name) : (lp.phrase ?? (own.match.kind === "one" ? own.match.name : null));
    const notFunds = fundsNegated(d.names.lpFunds());
    // Several LP funds said by name or brand ("halcyon and atlas bridge").
    const brands = new Set(d.words);
    const byBrand = d.names.lpFunds().filter((f) => brands.has(canon(f).split(" ")[0]) || ` ${d.questionCanon} `.includes(` ${canon(f)} `));
    const several = (fundsNamed(d.names.lpFunds(), asSaid) ?? (lp.match.kind === "several" && lp.whole ? lp.match.names : byBrand.length >= 2 ? byBrand : null))?.filter((f) => !notFunds.includes(f));
    if (several && several.length > 1) (anyOf.fund = several), filter();
    else if (several?.length === 1) (q.fund = several[0]), filter();
    else if (!several && fund && !notFunds.some((f) => canon(f) === canon(fund))) (q.fund = fund), filter();
    if (notFunds.length) (except.fund = notFunds), filter();
  }
  if (q.kind === "positions") {
    // Data-quality flags: wanted, or (said after "without", "not", "no") left out.
    const flagsIn = (t: string) => FLAG_CUES.filter(([, re]) => re.test(t)).map(([f]) => f);
    const said = flagsIn(text);
    if (said.length) {
      const none = ABSENCE.exec(text);
      // (Said with its own "not": "where the NAV is not stale".)
      const saysNot = (f: string) => / (?:not|n t|isn t|aren t) /.test(FLAG_CUES.find(([x]) => x === f)![1].exec(text)?.[0] ?? "");
      const denied = said.filter((f) => flagsIn(negated).includes(f) || (none && flagsIn(none[1]).includes(f)) || saysNot(f));
      const wanted = said.filter((f) => !denied.includes(f));
      const one = (l: string[]) => (l.includes("any") && l.length > 1 ? l.filter((f) => f !== "any") : l);
      if (wanted.length) (q.flag = one(wanted)), filter();
      if (denied.length) (except.flag = one(denied)), filter();
    }
  }
  if (q.kind === "persons") {
    // "My contacts", "have I got": the key user's own relationships, not the firm's pooled network.
    if (OWN_NETWORK.test(n.folded) && !POOLED_NETWORK.test(n.folded.replace(OUTSIDERS, " ").replace(COLLEAGUES, " "))) q.own = true;
    // "Strong relationships", "strong vs weak", "contacts that aren't dormant": the relationship's label.
    const labels = RELATIONSHIP_CUES.filter(([, re]) => re.test(positive)).map(([l]) => l);
    const notLabels = negated ? RELATIONSHIP_CUES.filter(([, re]) => re.test(negated)).map(([l]) => l) : [];
    if (labels.length === 1) (q.status = labels), filter();
    else if (labels.length > 1) (anyOf.status = labels), filter();
    if (notLabels.length) (except.status = notLabels), filter();
    // "Outside the firm": not the firm's own people; "colleagues": only them.
    if (OUTSIDERS.test(n.folded) || (negated && COLLEAGUES.test(negated))) (q.type = "outside"), filter();
    else if (COLLEAGUES.test(n.folded)) (q.type = "colleague"), filter();
  }
  const leftOut = q.kind === "holdings" ? excludedHoldings : q.kind === "deals" ? excludedDeals : [];
  if (leftOut.length) (except.name = leftOut), filter();
  if (Object.keys(except).length) q.except = except;
  if (Object.keys(anyOf).length) q.anyOf = anyOf;
  if (q.kind === "positions") {
    const vintage = yearsSaid(n.folded, String.raw`vintages?(?: years?)?(?: of)?`, today.getUTCFullYear());
    // Said where a negation governs ("that aren't 2020s vintages"): every other vintage.
    const negatedPart = negationScopes(n.folded).negated;
    const denied = vintage && [vintage.from, vintage.to, ...(vintage.in ?? [])].some((y) => y !== undefined && new RegExp(String.raw`\b(?:'?${String(y).slice(2)}|${y}|${String(y).slice(0, 3)}0s)\b`).test(negatedPart));
    if (vintage) (q.vintage = denied ? { ...vintage, not: true } : vintage), filter();
  }
  if (q.kind === "deals" && founded) (q.founded = founded), (q.show = [...new Set([...(q.show ?? []), "founded"])]), filter();
  let bothTypes = false;
  if (q.kind === "cashflows") {
    const calls = /\bcalls?\b|\bcalled\b|\bdrawdowns?\b|\bdraw(?:s|n|ing)? down\b|\bcontributions?\b|\bpaid in\b/.test(text);
    const dists = /\bdistribut(?:e|es|ed|ions?)\b|\bpaid out\b|\breturned\b/.test(text);
    if (calls !== dists) q.type = calls ? "call" : "distribution";
    bothTypes = calls && dists;
  }
  if ((q.kind === "deals" || q.kind === "holdings") && sector && sector !== notSector) (q.sector = sector), filter();
  // (One company named with a currency asks its figure in that currency, a conversion: not a filter that would leave it out.)
  // (Two currencies said, "dollars and euros separately": each apart, which every answer does, not a filter to the first.)
  const bothCurrencies = CURRENCY_CUES.filter(([, re]) => re.test(positive)).length > 1 && !/\bor\b/.test(positive);
  if (currency && !namedHolding && !bothCurrencies && ["deals", "holdings", "positions", "cashflows"].includes(q.kind) && /\b(?:in|denominated|held in)\b|\beur\b|\busd\b|\bgbp\b|(?<!\b(?:\d+|million|thousand|k|m|mm|bn|billion) )\b(?:euros?|dollars?)\b(?! (?:\d|million|thousand))/.test(text)) (q.currency = currency), filter();
  // "Worth today", "right now": the current figures, not records dated today.
  const now = dates && /^(?:today|this week)$/.test(dates.range.label) && (q.kind === "holdings" || q.kind === "persons" || q.kind === "positions");
  if (dates && !now && q.kind !== "persons" && (q.kind !== "positions" || fields.some((f) => f.field === "nav") || (absent === "called" || absent === "distributed"))) {
    q.dates = dates.range;
    signals.push("dates");
    // The date the range was read against is shown beside each record.
    if (q.kind === "holdings") q.show = [...new Set([...(q.show ?? []), "investment_date"])];
    // "Our NAV in 2024": the NAV as of then, totalled.
    if (q.kind === "positions" && !aggregate && !absent) aggregate = "sum";
  }

  // Names within a set question: the company a metric history or its documents are of, a topic.
  if (q.kind === "persons") {
    const phrase = d.companyPhrase();
    // A phrase of the reader's own words ("in total") names nobody.
    // (Nor does the span of a gap since the last touch: "not spoken to in 6 months".)
    const inGap = phrase ? (TOUCH_GAP.exec(text)?.[0] ?? "").includes(canon(phrase)) : false;
    const target = n.domains[0] ?? namedHolding ?? namedDeal ?? (phrase && !inGap && !canon(phrase).split(" ").every((w) => READER_WORDS.has(w)) ? phrase : null);
    if (target) q.name = target;
  }
  if (q.kind === "documents") {
    const about = /\b(?:mention(?:s|ing|ed)?|about|on|containing|that say|saying|with the words?|regarding|discuss(?:es|ing)?)\b (.+)$/.exec(n.raw.toLowerCase().replace(/[?!.]+$/, ""));
    if (namedDeal && (!about || canon(about[1]) === canon(namedDeal))) q.name = namedDeal;
    else if (about) q.text = about[1].replace(/^(?:the|our|a|an) /, "").trim();
  }
  if (q.kind === "research") {
    const about = /\b(?:research(?:ed)?|researching|run|runs|report|reports|investigat\w*|looked into|look into)\b (?:(?:on|about|into|of|for|regarding) )?(?:the )?(.+?)(?: (?:find|found|say|conclude|show)\w*)?$/.exec(n.raw.toLowerCase().replace(/[?!.]+$/, ""));
    const topic = about?.[1]?.replace(/\b(?:already|yet|before|so far|recently|ever)$/, "").trim();
    if (topic && !/^(?:runs?|status|reports?|done|have we done|do we have)$/.test(topic)) q.text = topic;
  }

  // Thresholds: "runway under 12 months", "ARR above $2M", "score of 70 or more".
  // "Haven't been in touch with for over a year": days since the last touch (not a strength of 12).
  const gap = q.kind === "persons" ? TOUCH_GAP.exec(text) : null;
  const where = thresholdsIn(gap ? text.replace(gap[0], " ") : text, q.kind === "metrics" ? [] : FIELD_CUES.filter((c) => c.kinds.includes(q.kind)), DEFAULT_FIELD[q.kind] ?? null, UNIT_FIELD[q.kind]);
  if (gap) where.push({ field: "days_since_last_touch", op: "gt", value: (NUMBER_WORDS[gap[1]] ?? (Number(gap[1]) || 1)) * ({ y: 365, m: 30, w: 7, d: 1 } as Record<string, number>)[gap[2][0]] });
  // The currency an amount was written in ("$2M"): the folded words have lost the symbol.
  const written = amountsWithCurrency(n.raw);
  for (const w of where) w.currency ??= written.find((a) => a.value === w.value)?.currency;
  for (const w of where) if (!w.currency) delete w.currency;
  if (absent && FIELD_CUES.some((c) => c.field === absent && c.kinds.includes(q.kind)) && !where.some((w) => w.field === absent)) where.push({ field: absent, op: "lte", value: 0, orNone: true });
  // "Funds that have paid us back something", "which have called capital": some of it, more than none.
  const present = !absent && q.kind === "positions" ? presentFlow(text) : null;
  if (present && !where.some((w) => w.field === present)) where.push({ field: present, op: "gt", value: 0 });
  // "Which portcos haven't sent October numbers", "who reported in the last 30 days": when each
  // company last stated an actual, against the dates said (not when the firm invested).
  if (q.kind === "holdings" && dates && q.dates && !fields.length && REPORTING.test(n.folded)) {
    delete q.dates;
    q.show = (q.show ?? []).filter((f) => f !== "investment_date");
    if (!q.show.length) delete q.show;
    const from = Date.parse(dates.range.from ?? dates.range.to ?? "");
    if (Number.isFinite(from)) {
      where.push(ABSENCE.test(n.folded) || REPORT_DUE.test(n.folded) ? { field: "last_reported", op: "lt", value: from, orNone: true } : { field: "last_reported", op: "gte", value: from });
    }
  }
  // "LP funds with no marks this year", "funds not marked since June": when each fund was last marked,
  // against the dates said (not the cashflows dated then).
  if (q.kind === "positions" && !q.name && !q.fund && lp.match.kind !== "one" && dates && MARKING.test(n.folded) && !where.some((w) => w.field === "last_mark")) {
    delete q.dates;
    // ("No NAV update", "no marks": no mark within the dates, not a NAV that is missing.)
    const missingNav = where.findIndex((w) => w.field === "nav" && w.orNone);
    if (missingNav >= 0 && /\bnav (?:updates?|marks?|statements?)\b/.test(n.folded)) where.splice(missingNav, 1);
    const from = dates.range.from ? Date.parse(dates.range.from) : NaN;
    const to = dates.range.to ? Date.parse(dates.range.to) : NaN;
    const none = ABSENCE.test(n.folded) || REPORT_DUE.test(n.folded) || NOT_SINCE.test(n.folded);
    // ("Before 2026" is a range with no start: last marked by its end.)
    if (!Number.isFinite(from) && Number.isFinite(to)) where.push(none ? { field: "last_mark", op: "gt", value: to } : { field: "last_mark", op: "lte", value: to, orNone: true });
    else if (none && Number.isFinite(from)) where.push({ field: "last_mark", op: "lt", value: from, orNone: true });
    else if (Number.isFinite(from)) {
      where.push({ field: "last_mark", op: "gte", value: from });
      if (Number.isFinite(to) && to < today.getTime()) where.push({ field: "last_mark", op: "lte", value: to });
    }
  }
  // "Exits where we didn't lose money", "which portcos are underwater": worth against what was put in.
  const vsCost = q.kind === "holdings" && !where.some((w) => w.field === "multiple") ? (LOSS.exec(n.folded) ?? GAIN.exec(n.folded)) : null;
  if (vsCost) {
    const loss = LOSS.test(vsCost[0]);
    const denied = /\b(?:not|never|no|without|didn t|did not|don t|do not|haven t|have not|hasn t|has not|isn t|aren t|wasn t|weren t)\b(?: \w+){0,2} $/.test(n.folded.slice(Math.max(0, vsCost.index - 24), vsCost.index));
    // (What was not marked up is held at cost or below: at cost is neither a gain nor a loss.)
    where.push(loss && !denied ? { field: "multiple", op: "lt", value: 1 } : !loss && denied ? { field: "multiple", op: "lte", value: 1 } : { field: "multiple", op: "gte", value: 1 });
  }
  if (where.length) (q.where = where), signals.push("threshold");

  // The order: "by ARR", else a superlative and the figure it goes with.
  // A call or a distribution's figure is its amount.
  const asKind = (f: FieldCue): FieldCue => (q.kind === "cashflows" && (f.field === "called" || f.field === "distributed") ? { ...f, field: "amount" } : f);
  const kindFields = fields.filter((f) => f.kinds.includes(q.kind) && !q.where?.some((w) => w.field === f.field)).map(asKind);
  const byAt = ORDER_BY.exec(text);
  const afterBy = byAt ? text.slice(byAt.index) : "";
  const byField = byAt ? kindFields.map((f) => ({ f, at: f.re.exec(afterBy)?.index ?? -1 })).filter((x) => x.at >= 0).sort((a, b) => a.at - b.at)[0]?.f : undefined;
  const cue = ORDER_CUES.find((c) => c.re.test(text));
  // (A number inside a threshold counts a figure, not the records: "more than 40 people", "40 people or more".)
  const topSaid = TOP_N.exec(text);
  const top = topSaid && (THRESHOLD_BEFORE.test(text.slice(0, topSaid.index)) || /^ or (?:more|fewer|less|above|below|higher|lower)\b/.test(text.slice(topSaid.index + topSaid[0].length))) ? null : topSaid;
  let order: Query["order"] | undefined;
  // "NAV by fund", "burn per company": the figure, record by record.
  // ("How much is each raising", "the pre-money for each": each record's own figure, not a total.)
  const eachOwn = /\bhow much (?:is|are|was|were|did|does|do|has|have) each\b|\b(?:for|of) each\s*\??$/.test(text);
  const perRecord = !byField && /\b(?:by|per|for each|for every) (?:fund|company|deal|position|portco|portfolio company|manager|holding)s?\b/.test(text);
  // (Of calls and distributions, "how much did each one send" is each fund's total: a sum per fund.)
  if (eachOwn && (aggregate === "sum" || aggregate === "avg") && q.kind !== "cashflows") aggregate = undefined;
  if (byField) order = { by: byField.field, dir: ASCENDING.test(text) ? "asc" : (cue?.dir ?? "desc") };
  else if (perRecord && kindFields[0]) order = { by: kindFields[0].field, dir: "desc" };
  else if (cue && q.kind !== "metrics") {
    // The figure the question names, else the one the superlative stands for ("best-scoring", "biggest").
    // (A figure this kind does not hold is still the order asked for: the answer says it is not in the records.)
    const by = kindFields[0]?.field ?? cue.field?.[q.kind] ?? fields[0]?.field;
    if (by) order = { by, dir: cue.dir };
  }
  // ("Just the worst two" of a list already ranked: its own order, shortened; a figure named re-ranks it.)
  const keepsOrder = follow && !kindFields.length && !byField && !!(last!.args as Query).order;
  if (order && !keepsOrder) (q.order = order), signals.push("order");
  if (top) {
    const raw = top[1] ?? top[2];
    q.limit = /^\d+$/.test(raw) ? Number(raw) : (NUMBER_WORDS[raw] ?? 5);
    signals.push("top");
    // "Top 5 deals", "the last 3 calls": the kind's best, or its newest.
    if (!q.order && q.kind !== "metrics") {
      const by = /\b(?:last|latest|newest)\b/.test(top[0]) ? NEWEST_FIELD[q.kind] : (kindFields[0]?.field ?? BEST_FIELD[q.kind]);
      if (by) q.order = { by, dir: /\bbottom|worst|lowest|smallest|oldest|least\b/.test(top[0]) ? "asc" : "desc" };
    }
  } else if (order && !byField && !perRecord && q.kind !== "metrics" && !aggregate) {
    // A superlative: "the shortest runway" is one; "which companies have the shortest runway", a few.
    const pluralSaid = plural || /\b(?:companies|deals|funds|positions|holdings|contacts|people|calls|distributions|runs|documents|startups|investments|relationships|ones)\b/.test(text);
    q.limit = SINGULAR.test(text) && !pluralSaid ? 1 : 5;
  }

  // What else to show: the figures asked for that the order, an aggregate or a threshold does not already show.
  if (aggregate && aggregate !== "change" && aggregate !== "count") {
    // (A total of deals with no figure named is of what they raise: a score does not add up.)
    const f = kindFields[0]?.field ?? q.order?.by ?? (aggregate === "sum" ? SUM_FIELD[q.kind] : undefined) ?? DEFAULT_FIELD[q.kind];
    if (f) q.field = f;
    q.aggregate = aggregate;
    if (q.field && q.order?.by === q.field) delete q.order, delete q.limit;
  } else if (aggregate === "count") {
    q.aggregate = "count";
    // "How many and how much": the count, with the total of the kind's money figure.
    const money = kindFields.find((f) => f.unit === "money")?.field ?? (q.kind === "cashflows" ? "amount" : undefined);
    if (money && /\bhow much\b|\bin total\b|\btotal(?:led|ing)?\b|\bsum\b/.test(text)) q.field = money;
  }
  else if (aggregate === "change" && q.kind === "metrics") q.aggregate = "change";
  // "Over the past year" of every company: each one's latest statement against twelve months before it.
  if (q.aggregate === "change" && q.kind === "metrics" && !q.name && YEAR_AGO.test(numerals(n.folded))) (q.aggregate = "year_change"), delete q.dates;
  // "Portcos that haven't grown headcount", "which companies' burn went down": companies by the
  // sign of their change (a filter, not the ranking "fastest-growing" or "how has it grown" asks).
  if ((q.aggregate === "change" || q.aggregate === "year_change") && q.kind === "metrics" && !q.name && !fastest && !/\bhow (?:has|have|did|much|is|are)\b/.test(text) && /\b(?:which|who|any|those|ones|that|companies|portcos|names)\b/.test(text)) {
    const sign = CHANGE_SIGN.exec(text);
    if (sign) {
      const up = !!sign[1];
      const denied = /\b(?:not|never|no|haven t|hasn t|didn t|don t|doesn t|isn t|aren t|weren t|wasn t|failed to)\b(?: \w+){0,1} $/.test(text.slice(Math.max(0, sign.index - 20), sign.index + (sign[0].startsWith(" ") ? 1 : 0)));
      const where: Threshold = up ? (denied ? { field: "change", op: "lte", value: 0 } : { field: "change", op: "gt", value: 0 }) : denied ? { field: "change", op: "gte", value: 0 } : { field: "change", op: "lt", value: 0 };
      q.where = [...(q.where ?? []).filter((w) => w.field !== "change"), where];
    }
  }
  // "Biggest yoy drop in headcount", "whose margin fell the most": the companies whose figure fell, the largest fall first.
  if ((q.aggregate === "change" || q.aggregate === "year_change") && q.kind === "metrics" && !q.name && FELL_MOST.test(text)) {
    q.where = [...(q.where ?? []).filter((w) => w.field !== "change"), { field: "change", op: "lt", value: 0 }];
    q.order = { by: "change", dir: "asc" };
  }
  // "How much have we put to work overall": what was put in over all time, the companies since exited
  // or written off too; "our portcos", "the portfolio" are the companies held today (they lead then).
  if (q.kind === "holdings" && q.aggregate === "sum" && q.field === "invested" && !q.status?.length && !nouns.includes("holdings") && !weak.includes("holdings") && !/\bportcos?\b|\bportfolio\b|\bcompan(?:y|ies)\b|\bstartups?\b|\bholdings?\b/.test(text)) q.all_time = true;
  // "What's our dry powder", "what is our NAV": the firm's one figure, a total over its records.
  if (!q.aggregate && !q.order && !q.name && (q.kind === "positions" || q.kind === "holdings") && kindFields.length === 1 && kindFields[0].unit === "money" && /\bwhat(?: s| is|s)? (?:our|my)\b/.test(text) && !pluralCompanies(text)) {
    q.aggregate = "sum";
    q.field = kindFields[0].field;
    delete q.show;
    if (!signals.includes("aggregate")) signals.push("aggregate");
  }
  // "What's the portfolio worth?", "our portfolio's ARR": one figure for the whole, a total.
  if (!q.aggregate && !q.order && q.kind === "holdings" && kindFields.length && /\b(?:the|our|my|whole|entire)(?: active)? (?:portfolio|book)\b(?! compan)/.test(text) && !pluralCompanies(text)) {
    q.aggregate = "sum";
    q.field = kindFields[0].field;
  }
  // "And the current value?" after a total: the same total of the figure now named.
  if (follow && !aggregate && q.aggregate && q.aggregate !== "count" && q.field && kindFields[0] && !kindFields.some((f) => f.field === q.field)) q.field = kindFields[0].field;
  const shown = kindFields.map((f) => f.field).filter((f) => f !== q.order?.by && f !== q.field);
  if (shown.length && q.kind !== "metrics") q.show = [...new Set([...(q.show ?? []), ...shown])];
  // "What's the burn of our portfolio companies?": the figure asked, highest first.
  if (!q.order && !q.aggregate && q.show?.length === 1 && q.kind === "holdings" && !namedHolding) {
    q.order = { by: q.show[0], dir: "desc" };
    delete q.show;
  }
  if (!q.order && q.where?.length && q.where.every((w) => w.field === q.where![0].field) && !q.where[0].orNone && !q.aggregate) q.order = { by: q.where[0].field, dir: q.where[0].op.startsWith("l") ? "asc" : "desc" };
  // "Deals per stage", "holdings by fund", "breakdown by sector": a count (or a total) per group.
  // "How many calls and distributions": both values of one field counted, so a count per that field.
  // "How many in USD vs EUR", "fintech vs health, how many each": a count per the field both values are of.
  const eachOf = aggregate === "count" && /\bvs\b|\bversus\b|\beach\b/.test(text)
    ? q.anyOf?.status && q.kind === "persons" ? "status" : q.anyOf?.currency || CURRENCY_CUES.filter(([, re]) => re.test(positive)).length > 1 ? "currency" : q.anyOf?.sector ? "sector" : q.anyOf?.round ? "round" : (q.stage?.length ?? 0) > 1 ? "stage" : undefined
    : undefined;
  // "How much did each one send" of a list of calls or distributions: a total per fund.
  const eachFund = follow && q.kind === "cashflows" && aggregate === "sum" && /\beach(?: one| of them| fund)?\b|\bapiece\b|\bper head\b/.test(text) ? "fund" : undefined;
  const group = groupAsked(text, q.kind) ?? (bothTypes && aggregate === "count" ? "type" : undefined) ?? (eachOf as Query["group"] | undefined) ?? eachFund ?? (q.kind === "deals" && FUND_DEAL.test(text) && COMPANY_DEAL.test(text) ? "kind" : undefined);
  if (group && (q.aggregate !== "change" || !q.aggregate)) {
    q.group = group;
    // A filter on the field grouped by leaves one group: its values name the groups ("by round (seed, A, B)").
    const same: Partial<Record<string, keyof Query>> = { round: "round", stage: "stage", sector: "sector", status: "status", fund: "fund", currency: "currency", type: "type" };
    // (Values said to be counted each, "USD vs EUR", stay the filter: a count for each of them.)
    const grouped = groupAsked(text, q.kind) || bothTypes ? same[group] : undefined;
    if (grouped && q[grouped] !== undefined) delete q[grouped];
    if (q.anyOf && grouped && grouped in q.anyOf) delete (q.anyOf as Record<string, unknown>)[grouped];
    // (Currencies are read one per question: "USD vs EUR" counts every currency.)
    if (group === "currency" && !q.anyOf?.currency) delete q.currency;
    if (!q.aggregate || q.aggregate === "min" || q.aggregate === "max" || q.aggregate === "latest") q.aggregate = "count";
    // "Split by currency - count and total": each group's count with the total of the figure named.
    const totalled = fields.find((f) => f.kinds.includes(q.kind) && (f.unit === "money" || COUNTED_FIGURES.has(f.field)));
    if ((q.aggregate === "count" || (q.aggregate === "sum" && !q.field)) && totalled && /\btotals?\b|\bsum\b|\bhow much\b|\bamounts?\b|\bcombined\b|\badd(?:ed|ing)? (?:\w+ )?up\b/.test(text)) (q.aggregate = "sum"), (q.field = asKind(totalled).field);
    delete q.order, delete q.limit, delete q.show;
    if (!signals.includes("aggregate")) signals.push("aggregate");
  }
  if (namedHolding && q.kind === "holdings" && !signals.includes("filter") && !signals.includes("noun")) q.name = namedHolding;
  // "How many holdings", "holdings by status": a holding is a fund's position; "companies" and "portcos" count each company once.
  // "Simple average, not pooled", "the mean of the six numbers": each record's own figure averaged.
  if (q.aggregate === "avg" && /\bsimple (?:average|mean|avg)\b|\bunweighted\b|\bnot pooled\b|\b(?:arithmetic|plain|straight) (?:average|mean|avg)\b|\b(?:average|mean) of the (?:\w+ )?(?:numbers|figures|values|multiples)\b/.test(text)) q.unweighted = true;
  if (q.kind === "holdings" && (q.aggregate === "count" || q.group) && /\bholdings\b|\bpositions\b/.test(text) && !/\bcompan|\bportcos?\b|\bstartups\b|\bbusinesses\b|\bnames\b/.test(text)) q.per_position = true;
  // A follow-up that re-filters, re-orders or totals is over the whole set again; one that only adds a figure keeps the same records.
  if (follow && !top && signals.some((x) => x === "filter" || x === "aggregate" || x === "threshold" || x === "dates") && q.limit === (last!.args as Query).limit) delete q.limit;
  // A total of what the firm's funds put in "without Fund I" is over the other funds' positions: a
  // company Fund I also holds keeps what another fund put in (its Fund I position alone is left out).
  if (q.kind === "holdings" && q.aggregate === "sum" && q.except?.fund?.length && !q.fund && !q.anyOf?.fund) {
    const others = d.names.ownFunds().filter((f) => !q.except!.fund!.includes(f));
    if (others.length) {
      if (others.length === 1) q.fund = others[0];
      else q.anyOf = { ...q.anyOf, fund: others };
      delete q.except.fund;
      if (!Object.keys(q.except).length) delete q.except;
    }
  }
  // One company's figure against its budget ("burn vs plan", "how did October compare with the budget"),
  // or its budgeted figures: the metric's budgets beside its actuals.
  const budgetHolding = namedHolding ?? (backToSubject ? (memory.entities.holding?.name ?? null) : null);
  const budgetMetric = fields.find((f) => f.metric);
  if (budgetHolding && budgetMetric && BUDGET.test(text)) {
    const versus = BUDGET_VERSUS.test(text);
    const query: Query = { kind: "metrics", name: budgetHolding, metric: budgetMetric.field, budget: versus ? "versus" : "only", show: versus ? ["value", "budget", "variance"] : ["budget"], order: { by: "date", dir: "desc" }, ...(dates ? { dates: dates.range } : { limit: 6 }) };
    return { query, signals: [...signals, "aggregate"], named: budgetHolding, fields };
  }
  // One record's figure at a point of its history, or against a year before: its history's kind.
  const history = historyOf({ q, text: numerals(n.folded), dates: now ? null : (dates?.range ?? null), fields, holding: namedHolding ?? (backToSubject ? (memory.entities.holding?.name ?? null) : null), fund: lp.match.kind === "one" ? lp.match.name : backToSubject ? (memory.entities.fund?.name ?? null) : null, aggregate });
  if (history && !(follow && JSON.stringify(history) === JSON.stringify(last!.args))) {
    if (!signals.includes("aggregate")) signals.push("aggregate");
    // (Marks between two points in time are listed from the first point's period on, so both are said.)
    if (twoPoints && firstDates && history.kind === "marks" && history.dates) history.dates = { ...history.dates, from: firstDates.range.from ?? history.dates.from };
    return { query: history, signals, named: namedHolding, fields };
  }
  // "How much did we invest in it", "its valuation and what we put in": one record's figures, not a
  // total over one record (a date has no total; two figures are both asked for).
  // (One additive figure over a company's funds stays a total: "our ownership in X, all funds together".)
  const asked = fields.filter((f) => f.kinds.includes(q.kind));
  const noTotal = asked.length > 1 || asked.some((f) => /date|created/.test(f.field));
  if (q.name && !q.names?.length && !q.group && (q.aggregate === "sum" || q.aggregate === "avg") && (q.kind === "holdings" || q.kind === "deals") && noTotal) {
    q.show = [...new Set([...asked.map((f) => f.field), ...(q.show ?? [])])];
    delete q.aggregate, delete q.field;
  }
  if (follow && JSON.stringify(q) === JSON.stringify(last!.args)) return null;
  return { query: q, signals, named: q.kind === "deals" ? namedDeal : q.kind === "holdings" || q.kind === "metrics" ? namedHolding : null, fields };
}
