// What a question says about WHICH records beyond one value per filter: the parts a negation
// governs ("not fintech", "outside Fund II", "other than seed"), several values of one filter
// ("Fund II or Fund III", "seed or series A", "fintech and health"), open ranges of an ordered
// filter ("series B or later", "before series B"), and a count per group ("deals per stage").
// The reader finds its usual filters in the parts of the question that are not negated, and the
// same filters in the negated parts become exclusions: negation is a scope over the filters the
// reader already knows, not a list of negated phrases.
import { GROUPS, type Query } from "../ask-engine.ts";
import { canon, nameForPhrase } from "../../lib/name-match.ts";
import type { FieldCue } from "./ask-lexicon.ts";

/** Words that negate what follows them, up to the end of their clause. */
export const NEGATION = /\b(?:not|non|neither|without|excluding|exclude|excl|except(?: for)?|other than|outside(?: of)?|apart from|aside from|besides|but not|(?:everything|anything|all|any|every \w+) but|minus|leaving out|leave out|ignoring|isn t|aren t|isnt|arent|haven t|hasn t|don t|doesn t|didn t|wasn t|weren t|never|no longer|drop(?= (?:the|all|any|those|these)\b)|remove|take out|filter out|get rid of|strip out)\b/g;
/** Where a negated part ends: a new clause, or a word that starts another filter or an order. */
// ("And currency is USD", "and stage not passed": a condition on another field begins.)
export const CLAUSE_END = /\b(?:with|that|which|who|whose|where|sorted|ranked|ordered|by|per|and (?:with|that|which|whose|have|has|are|is)|and [\w-]+ (?:is|are|equals|not)|but|only)\b|[,;:?!]/;

/** The text split into what is said positively and what a negation governs. */
export function negationScopes(text: string): { positive: string; negated: string } {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(NEGATION)) {
    // "not yet screened" is a stage of its own; "not only", "not just" negate nothing.
    if (/^(?:not) (?:yet|only|just|sure|been)\b/.test(text.slice(m.index))) continue;
    const from = m.index + m[0].length;
    const rest = text.slice(from);
    const scan = rest.replace(/^\s*(?:in|at|from|of|the|a|an|our|any)\b/g, (w) => " ".repeat(w.length));
    let end = CLAUSE_END.exec(scan);
    let at = end ? end.index : scan.length;
    // A list goes on past its commas ("not in diligence, IC or invested"): up to the clause after its last item.
    while (end && end[0] === "," && /^,\s*(?:[\w-]+\s+){0,3}?(?:[\w-]+\s*,\s*)*(?:[\w-]+\s+){0,2}(?:or|and|nor)\s+[\w-]+/.test(scan.slice(at))) {
      const next = CLAUSE_END.exec(scan.slice(at + 1));
      at = next ? at + 1 + next.index : scan.length;
      end = next && next[0] === "," ? next : null;
    }
    // A negated verb negates the act, not the place said after it: "deals we did not pass on in fintech"
    // are fintech deals not passed (a date after it stays in: "haven't reported in the last 3 months").
    const verbal = /^(?:didn t|don t|doesn t|haven t|hasn t|hadn t|won t|never)$/.test(m[0]) || (m[0] === "not" && /\b(?:did|do|does|have|has|had|will|would|can|ca|could)\s*$/.test(text.slice(0, m.index)));
    const act = verbal ? /^\s*(?:(?:been|yet|ever|really|even|actually) )*[a-z-]+(?: (?:on|up|out|off|back|down|through|over))?(?=\s+(?:in|at|from|among|within|across)\s+(?!(?:the )?(?:this|last|past|next|previous|first|\d|q[1-4]|h[12]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|months?|weeks?|days?|years?|quarters?)\b))/.exec(rest) : null;
    if (act && act[0].length < at) at = act[0].length;
    // "Non-euro", "non fintech": a prefix, it negates the one word it is joined to.
    const words = rest.slice(0, at).split(" ").filter(Boolean).slice(0, m[0] === "non" ? 1 : 9);
    spans.push([m.index, from + (words.length ? rest.indexOf(words.at(-1)!) + words.at(-1)!.length : 0)]);
  }
  if (!spans.length) return { positive: text, negated: "" };
  let positive = "";
  let negated = "";
  let at = 0;
  for (const [from, to] of spans) {
    if (from < at) continue;
    positive += text.slice(at, from) + " ";
    // (Spans apart are items apart: "not in fintech and also not in payments" negates two sectors.)
    negated += (negated ? ", " : "") + text.slice(from, to) + " ";
    at = to;
  }
  positive += text.slice(at);
  return { positive: positive.replace(/\s+/g, " ").trim(), negated: negated.replace(/\s+/g, " ").trim() };
}

/** Rounds in their order, for open ranges ("series B or later"). */
export const ROUND_ORDER = ["pre-seed", "seed", "series a", "series b", "series c", "growth"];

/** An open range over rounds the text states: "series B or later", "series A and beyond", "before series B", "later than seed". */
export function roundRange(text: string, roundOf: (phrase: string) => string | null): string[] | null {
  const R = String.raw`(pre ?seed|seed|series [a-f]|growth)`;
  const up = new RegExp(String.raw`\b${R} (?:or|and) (?:later|beyond|above|after|higher|up)\b|\b(?:later|after|beyond) than ${R}\b|\bpost ${R}\b|\b${R} (?:onwards|and up|\+)`).exec(text);
  const down = new RegExp(String.raw`\b${R} (?:or|and) (?:earlier|before|below|lower|younger)\b|\b(?:before|earlier than|pre(?! ?seed\b)|up to) ${R}\b`).exec(text);
  const m = up ?? down;
  if (!m) return null;
  const said = roundOf(m.slice(1).find(Boolean)!);
  const at = said ? ROUND_ORDER.indexOf(said) : -1;
  if (at < 0) return null;
  const strict = /\b(?:later than|after|beyond than|post|before|earlier than|pre)\b/.test(m[0]) && !/\bor\b|\band\b/.test(m[0]);
  if (up) return ROUND_ORDER.slice(strict ? at + 1 : at);
  return ROUND_ORDER.slice(0, strict ? at : at + 1);
}

/** Every "Fund II", "Fund II and III", "Funds 2 or 3" the text names, as phrases a fund name is found by. */
export function fundPhrases(text: string): string[] {
  const out: string[] = [];
  const NUM = String.raw`(?:[ivx]{1,4}|\d{1,2}|one|two|three|four|five)`;
  for (const m of text.matchAll(new RegExp(String.raw`\bfunds? (${NUM}(?:(?:,| or| and| &| vs| versus)+ (?:fund )?${NUM})*)\b`, "g"))) {
    const WORD: Record<string, string> = { one: "I", two: "II", three: "III", four: "IV", five: "V" };
    for (const n of m[1].split(/,| or | and | & | vs | versus |fund /)) if (n.trim()) out.push(`Fund ${WORD[n.trim()] ?? n.trim().toUpperCase()}`);
  }
  return [...new Set(out)];
}

/** The funds among `names` that several fund phrases of the question name, one each; null unless two or more. */
export function fundsNamed(names: string[], text: string): string[] | null {
  const found = fundPhrases(text).flatMap((p) => {
    const m = nameForPhrase(names, p);
    return m.kind === "one" ? [m.name] : [];
  });
  const distinct = [...new Set(found)];
  return distinct.length > 1 ? distinct : null;
}

/** The group a count is per ("deals per stage", "holdings by fund", "breakdown by sector"), if this kind has it. */
export function groupAsked(text: string, kind: Query["kind"]): Query["group"] | undefined {
  const m =
    /\b(?:per|by|for each|for every|in each|each of|each|broken down by|breakdown by|break down by|split by|grouped by|group by|across|distribution of|breakdown of|split of|mix of) (?:the |their |its |our )?(?:pipeline |deal |funding |raise |investment |portfolio |lp |calendar |fiscal |reporting |reported |base )?(founding (?:year|yr|date)|year founded|yr founded|(?:data[- ]quality )?flag|stage|sector|industr(?:y|ies)|round|fund|status|currenc(?:y|ies)|vintage|year|yr|quarter|month|type|kind|city|cities|location|hq)s?\b/.exec(text) ??
    // "The sector mix of the portfolio", "stage breakdown": the group named before the word for a split.
    /\b(founding (?:year|yr)|(?:data[- ]quality )?flag|stage|sector|industr(?:y|ies)|round|fund|status|currenc(?:y|ies)|vintage|year|quarter|month|type|city|cities)s?(?: |-)(?:mix|breakdown|break down|split|distribution|spread|allocation|exposure|counts?|wise)\b/.exec(text) ??
    // "Which cities do our deals come from": the places asked for are the groups.
    /\b(?:which|what) (cities|locations)\b|\bwhere (?:do|are|did) (?:\w+ ){0,3}(?:come from|based)\b()/.exec(text);
  if (!m) return undefined;
  const said = m[1] ?? "city";
  // (A deal's type or kind is whether a company or a fund is raising.)
  const word = kind === "deals" && /^(?:type|kind)$/.test(said) ? "kind" : said.startsWith("industr") ? "sector" : said.startsWith("currenc") ? "currency" : /^(?:city|cities|location|hq)$/.test(said) ? "city" : /found/.test(said) ? "founded" : /flag$/.test(said) ? "flag" : said === "yr" ? "year" : said;
  // "How many were founded each year": the founding year, not the year they came in.
  if (word === "year" && kind === "deals" && /\b(?:founded|founding|incorporated|established)\b/.test(text)) return "founded";
  // An LP position is a fund: "NAV by fund" is per record, not a group.
  if (word === "fund" && kind === "positions") return undefined;
  const allowed: Partial<Record<Query["kind"], string[]>> = {
    deals: ["stage", "sector", "round", "kind", "currency", "city", "year", "quarter", "month", "founded"],
    holdings: ["fund", "sector", "status", "stage", "currency", "year"],
    positions: ["currency", "vintage", "flag"],
    cashflows: ["fund", "type", "currency", "year", "quarter", "month"],
    marks: ["fund", "year", "quarter"],
  };
  const group = (allowed[kind] ?? []).includes(word) ? word : word === "stage" && kind === "holdings" ? "stage" : undefined;
  return group && (GROUPS as readonly string[]).includes(group) ? (group as Query["group"]) : undefined;
}

/** Whether the question asks to put records side by side. */
export const COMPARE = /\bcompar(?:e|ed|es|ing)\b|\b(?:performing|doing) better\b|\boutperform\w*\b|\bcomparison\b|\bvs\b|\bversus\b|\bside by side\b|\bagainst each other\b|\bhow do .+ stack up\b|\bwhich (?:is|has|one is|one has) (?:higher|lower|bigger|smaller|better|worse|more|less|longer|shorter)\b/;

/** A few-word sector phrase of each part of a list ("fintech or health" -> ["fintech", "health"]). */
export const listParts = (text: string) => text.split(/ or | and |, | vs | versus | nor | \+ | & | plus /).map((p) => canon(p)).filter(Boolean);

/** Words that say a record has none of what follows ("haven't sent any distributions", "never called", "without ARR"). */
export const ABSENCE = /\b(?:(?:do|does|did) not have|(?:don|doesn|didn) t have|have not|has not|had not|haven t|hasn t|never|not yet|without|with no|zero|nothing|not reporting|not reported|(?:do|does|did) not report|(?:don|doesn|didn) t report|missing|lacking|no)\b((?: \w+){0,5})/;
/** The nouns of calls and distributions as the position's figure they add up to ("sent nothing back": a distribution). */
export const FLOW_FIELD: [RegExp, string][] = [[/\bdistributions?\b|\bback\b|\bpaid out\b/, "distributed"], [/\b(?:capital )?calls?\b|\bcontributions?\b|\bdrawdowns?\b/, "called"]];

/** "That have paid us back something", "which have distributed", "funds that called capital": a flow that happened. */
const PRESENCE = /\b(?:that|which|who)(?: have| has| had| did)?(?: ever| already| actually)? (?:(distributed|paid (?:us )?(?:back|out)|returned|sent (?:us )?(?:back|money|cash)|given (?:us )?back|made (?:any )?distributions?)|(called|drawn|drawn down|made (?:any )?(?:capital )?calls?))\b/;

/** The flow figure a question says records have some of ("funds that have paid us back"), if it says so. */
export function presentFlow(text: string): string | null {
  const m = PRESENCE.exec(text);
  return m ? (m[1] ? "distributed" : "called") : null;
}

/** The figure a question says records have none of, if it says so. */
export function absentField(text: string, fields: FieldCue[]): string | null {
  const m = ABSENCE.exec(text);
  if (!m) return null;
  // What follows up to the clause's end ("haven't passed on, by score": no score is said to be absent).
  const end = CLAUSE_END.exec(m[1]);
  const rest = end ? m[1].slice(0, end.index) : m[1];
  // ("Haven't hit $5M ARR": an amount not reached is a bound, not a figure they have none of.)
  if (/[$€£]\s?\d|\b\d[\d.,]*\s?(?:k|m|mm|bn|b|million|billion|x|percent|usd|eur|people|employees|months|mo)\b/.test(rest)) return null;
  const cue = fields.find((f) => f.re.test(rest));
  if (cue) return cue.field;
  return FLOW_FIELD.find(([re]) => re.test(rest))?.[1] ?? null;
}

/** Words that say a holding is worth less, or more, than the firm put in. */
export const LOSS = /\b(?:lo(?:se|st|sing) money|at a loss|underwater|under water|(?:marked|written|wrote|mark(?:ing)?|write) (?:it |them )?down|down on (?:cost|it|them)|below (?:cost|what we (?:put in|paid|invested))|in the red|money[- ]losing|lost (?:us )?money)\b/;
export const GAIN = /\b(?:made|make|making|returned) (?:us )?money\b|\b(?:marked|written|wrote|mark(?:ing)?|write) (?:it |them )?up\b|\bup on (?:cost|it|them)\b|\bin the green\b|\babove (?:cost|what we (?:put in|paid|invested))\b|\bprofitabl[ey]\b(?= exit)|\bat a (?:gain|profit)\b|\bin the money\b/;
/** Words of a fund's NAV marks ("marked", "no marks", "NAV update", "revalued"). */
export const MARKING = /\bmark(?:ed|s|ing)?\b|\bnav (?:updates?|marks?|statements?)\b|\bre-?valued\b|\brevaluations?\b/;
/** "Not marked since June", "haven't been marked since": nothing since the date. */
export const NOT_SINCE = /\b(?:not|haven t|hasn t|have not|has not|no|never|nothing)\b(?: \w+){0,4} since\b/;
/** A company's plan for a figure ("budget", "vs plan", "forecast"), and words that set its actual against it. */
export const BUDGET = /\bbudget(?:ed|s)?\b|\bplan(?:ned)?\b|\bforecast(?:ed|s)?\b/;
export const BUDGET_VERSUS = /\bvs\b|\bversus\b|\bagainst\b|\bcompar(?:e|ed|es|ing)\b|\bvariance\b|\bahead of\b|\bbehind\b|\b(?:over|under|on|to) (?:budget|plan)\b|\bbeat\b|\bmiss(?:ed)?\b|\brelative to\b|\bactuals?\b/;
/** Words that say a company sent its numbers ("reported", "sent us October figures", "KPIs"). */
export const REPORTING = /\b(?:report(?:ed|s|ing)?|sen[dt]|submit(?:ted)?|shared?|numbers?|figures?|metrics?|kpis?|financials?|actuals?)\b/;
/** Words that say a report is due and not in ("still owe us", "overdue", "yet to send"). */
export const REPORT_DUE = /\b(?:owe|owes|owed|overdue|late|outstanding|still waiting|waiting (?:on|for)|yet to|behind on|missed|missing|delinquent)\b/;
/** An LP position's data-quality flags, as said ("stale NAV", "any data quality flags"); "any" is any flag. */
export const FLAG_CUES: [string, RegExp][] = [
  ["stale_nav", /\bstale (?:nav|navs|marks?|valuations?)\b|\b(?:nav|navs|marks?)\b (?:is |are |that s |that are |looks? )?(?:not |n t |isn t |aren t )?(?:stale|old|out of date|outdated)\b|\bout of date (?:nav|navs|marks?)\b|\boutdated (?:nav|navs|marks?)\b/],
  ["cashflows_after_last_mark", /\bcash ?flows? (?:since|after) (?:the |its |their )?last mark\b|\brolled[- ]forward\b|\brolled (?:nav|forward)\b/],
  ["called_above_commitment", /\b(?:called|drawn) (?:more than|above|over) (?:the |its |their )?commit(?:ment|ted)\b|\bover[- ]called\b/],
  ["any", /\b(?:data[- ]quality|dq) (?:flags?|issues?|problems?|warnings?|concerns?)\b|\bflags?\b|\bflagged\b|\bdata quality\b/],
];
/** Words that ask how a figure moved over time, read by the history reader ("how did it develop", "trajectory", "cumulative"). */
export const TREND_WORDS = /\bdevelop\b|\bdeveloped\b|\bdeveloping\b|\bevolve\b|\bevolved\b|\bevolving\b|\btrajectory\b|\bcumulative\b|\bcumulatively\b/;
/** Words that place a record without filtering it ("deals sitting at IC", "currently"): read, and nothing to say back. */
export const PLACING_WORDS = /\bsitting\b|\bsits\b|\bcurrently\b|\bright now\b|\bat the moment\b|\bat present\b|\bthese days\b|\bas (?:of|it stands) (?:now|today)\b/;

/** The relationship a person's strength is labelled with, by its word ("strong relationships", "dormant contacts"). */
export const RELATIONSHIP_CUES: [string, RegExp][] = [
  ["strong", /\bstrong\b/],
  ["moderate", /\bmoderate\b|\bmedium\b/],
  ["weak", /\bweak\b/],
  ["dormant", /\bdormant\b|\bgone cold\b/],
];
/** One's own contacts rather than the firm's pooled network: "my contacts", "have I got", "I haven't spoken to". */
export const OWN_NETWORK = /\b(?:my|i|me|mine|i ve|ive|i m)\b/;
export const POOLED_NETWORK = /\b(?:we|our|us|anyone|anybody|someone|team|colleagues|teammates|partners)\b/;
/** People who work at the firm, and those who do not. */
export const COLLEAGUES = /\b(?:colleagues?|teammates?|internal|inside the (?:firm|team|company)|at the firm|from the firm|in the firm|co-?workers?)\b/;
export const OUTSIDERS = /\b(?:outside (?:the |our |my )?(?:firm|team|company|shop|house)|external|non[ -]?colleagues?|not (?:at|in|from) (?:the|our) firm)\b/;
/** "Haven't been in touch with for over a year", "not spoken to in 6 months": a gap since the last touch, in days. */
export const TOUCH_GAP = /\b(?:not|never|no|without|haven t|hasn t|havent|hasnt|didn t|don t|haven|hasn)\b(?: \w+){0,4}? (?:in touch|touch(?:ed)?|spoken|spoke|talked|heard|contact(?:ed)?|met|emailed|seen|caught up)\b(?: (?:with|to|from|up with))?(?: (?:them|him|her|whom))? (?:for|in|since) (?:over |more than |at least |the (?:last|past) )?(a|an|one|\d+|two|three|four|six|nine|twelve|eighteen) (years?|months?|weeks?|days?)\b/;
