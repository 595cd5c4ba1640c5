// Figures out of an update's prose. A statement is read clause by clause: a clause that forecasts,
// targets or plans is never an actual; in the others, each amount goes to the metric named beside
// it ("120K MRR", "42 employees") or the nearest one before it ("ARR grew 12% to $1.2M"), when
// its kind fits (money, percent, months, count). An amount introduced as an earlier figure ("up
// from $1.0M") or as a change ("+12% MoM", "added 5") is nobody's value.
import { amountsIn, type Amount } from "./updates.numbers.ts";
import { CHANGE_AFTER, CHANGE_BEFORE, EARLIER_AFTER, EARLIER_BEFORE, isElsewhere, isForecast, KIND, metricsIn, type Metric, type MetricMention } from "./updates.metrics.ts";
import { periodsIn, type Period } from "./updates.periods.ts";

/** A figure as read, before the update's context (currency, period, existing actuals) decides its status. */
export type ReadFigure = {
  metric: Metric;
  value: number;
  currency: string | null;
  /** The statement's own period (null: the update's). */
  period: Period | null;
  /** Why it must be reviewed whatever the context, or null. */
  review: string | null;
  quote: string;
  documentId: string | null;
  page: number | null;
  /** Scale and currency written in a table's header or label apply to its bare cells. */
  fromTable?: boolean;
};

export type Where = { sent: Date; documentId: string | null; page: number | null };

const MAX_QUOTE = 400;

export const quoteOf = (s: string) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > MAX_QUOTE ? `${one.slice(0, MAX_QUOTE - 1)}…` : one;
};

/** Sentences of a prose block: split at sentence ends, line breaks and bullets. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*(?:[-*•·▪–]|\d+[.)])\s)|(?<=[.!?])\s+(?=[A-Z"“(])|\n|\s\|\s/)
    .map((s) => s.replace(/^\s*(?:[-*•·▪–]|\d+[.)])\s+/, "").trim())
    .filter((s) => s.length > 0);
}

/** Clauses of a sentence: where another statement begins (";", ", and", " but ", " while ", a dash). */
function clausesOf(sentence: string): string[] {
  return sentence
    .split(/;|\s[–—-]\s|,\s*(?:and|but|while|whereas|although|though|however|und|aber|mais)\s|\s(?:but|while|whereas|although|however|aber|mais)\s|\s\((?=[^)]*\b(?:expect|plan|target|forecast|budget|goal)\w*)/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

/** Whether an amount's kind fits a metric's. */
export function fits(metric: Metric, a: Amount, bareOk = false): boolean {
  switch (KIND[metric]) {
    case "money":
      return a.unit === null && (a.currency !== null || a.scaled || Math.abs(a.value) >= 1000);
    case "percent":
      return a.unit === "%" || (bareOk && a.unit === null && !a.currency && !a.scaled && a.value > 0 && a.value <= 300);
    case "months":
      return (a.unit === "months" || (bareOk && a.unit === null && !a.currency && !a.scaled)) && a.value >= 0 && a.value <= 120;
    case "count":
      return a.unit === null && !a.currency && a.value >= 0 && Number.isInteger(a.value);
  }
}

/** An amount that is an earlier figure or a change: nobody's value. */
function isEarlierOrChange(clause: string, a: Amount): boolean {
  const before = clause.slice(Math.max(0, a.start - 40), a.start);
  const after = clause.slice(a.end, a.end + 40);
  if (EARLIER_BEFORE.test(before) || EARLIER_AFTER.test(after)) return true;
  if (a.signed) return true;
  return CHANGE_BEFORE.test(before) || CHANGE_AFTER.test(after);
}

const CONNECTOR = /^(?:and|or|in|at|as|of|for|to|this|last|per|a|an|the|on|by|with|vs|versus|from|so|now|total|net|which|that|mo|month|months|%|\+|–|-|—)$/i;

/** A bare count followed by a word of its own that is no metric: "3 countries", "2 developers". */
function countsOtherNoun(clause: string, a: Amount, mentions: MetricMention[]): boolean {
  if (a.currency || a.scaled || a.unit) return false;
  // "Team: 20 humans": a label right before the number names what it counts.
  if (mentions.some((m) => m.metric && m.end <= a.start && /^[\s:=–-]*$/.test(clause.slice(m.end, a.start)))) return false;
  const next = /^\s+([A-Za-zÀ-ÿ][\wÀ-ÿ'-]*)/.exec(clause.slice(a.end));
  if (!next) return false;
  const at = a.end + next[0].length - next[1].length;
  if (mentions.some((m) => m.start === at || (m.start <= at && m.end > at))) return false;
  return !CONNECTOR.test(next[1]);
}

/** The metric an amount belongs to: the one named right after it, else the nearest before it in the clause. */
function metricFor(clause: string, a: Amount, mentions: MetricMention[], used: Set<MetricMention>): MetricMention | null {
  const right = mentions.find((m) => m.start >= a.end && /^\s*(?:\/\s?mo(?:nth)?\.?\s*|per month\s+|a month\s+|pro Monat\s+)?(?:(?:of|in|total|net|paying|active|monthly|the)\s+)*$/i.test(clause.slice(a.end, m.start)));
  if (right && !used.has(right)) return right;
  const left = mentions.filter((m) => m.end <= a.start && !used.has(m));
  return left.length ? left[left.length - 1] : null;
}

/** The periods of a text that date its own statement, not an earlier figure ("up from $1.0M in September"). */
function datingPeriods(text: string, periods: Period[], earlier: Amount[]): Period[] {
  return periods.filter((p) => !earlier.some((a) => p.start >= a.end && p.start - a.end <= 12 && /^[\s,)]*(?:in|at|for|as of|of)?\s*$/i.test(text.slice(a.end, p.start))));
}

/** The figures of one clause. */
function readClause(clause: string, sentence: string, sentencePeriods: Period[], where: Where): ReadFigure[] {
  if (isForecast(clause) || isElsewhere(clause)) return [];
  const mentions = metricsIn(clause);
  if (!mentions.some((m) => m.metric)) return [];
  const periods = periodsIn(clause, where.sent);
  const amounts = amountsIn(clause).filter((a) => !periods.some((p) => a.start < p.stop && a.end > p.start) && !mentions.some((m) => a.start < m.end && a.end > m.start));
  const used = new Set<MetricMention>();
  const out: ReadFigure[] = [];
  // A period written right after an earlier figure ("up from $1.0M in September") dates that figure only.
  const earlier = amounts.filter((a) => isEarlierOrChange(clause, a));
  const ownPeriods = datingPeriods(clause, periods, earlier);
  for (const a of amounts) {
    if (earlier.includes(a)) continue;
    // A bare number counting another noun ("across 3 countries", "12 people" of an intro aside) is nobody's figure.
    if (countsOtherNoun(clause, a, mentions)) continue;
    const mention = metricFor(clause, a, mentions, used);
    if (!mention) continue;
    if (!mention.metric) {
      used.add(mention);
      continue;
    }
    if (!fits(mention.metric, a)) continue;
    used.add(mention);
    // The clause's own period (not one that dates an earlier amount), else the sentence's.
    const distinct = [...new Map(ownPeriods.map((p) => [p.end, p])).values()];
    const sentenceDistinct = [...new Map(sentencePeriods.map((p) => [p.end, p])).values()];
    const period = distinct.length === 1 ? distinct[0] : distinct.length === 0 && sentenceDistinct.length === 1 ? sentenceDistinct[0] : null;
    let review: string | null = null;
    if (distinct.length > 1 || (distinct.length === 0 && sentenceDistinct.length > 1)) review = "the statement names several periods";
    // A burn over a quarter or a year, or a quarter's average: not the period-end month's burn.
    if (mention.metric === "monthly_burn" && /\b(?:quarter|quarterly|Q[1-4]|per quarter|year|annual|YTD|in total|H[12])\b/i.test(clause) && (!/\b(?:monthly|per month|a month|\/mo|\/month)\b/i.test(clause) || /\b(?:average|avg)\b/i.test(clause))) {
      review = "the burn may be over more than a month, or an average of several";
    }
    out.push({ metric: mention.metric, value: a.value, currency: a.currency, period, review, quote: quoteOf(sentence), documentId: where.documentId, page: where.page });
  }
  return out;
}

/** The figures of a block of prose (a body, or an attachment's page without tables). */
export function readProse(text: string, where: Where): ReadFigure[] {
  const out: ReadFigure[] = [];
  for (const sentence of sentencesOf(text)) {
    const amounts = amountsIn(sentence);
    const sentencePeriods = datingPeriods(sentence, periodsIn(sentence, where.sent), amounts.filter((a) => isEarlierOrChange(sentence, a)));
    for (const clause of clausesOf(sentence)) out.push(...readClause(clause, sentence, sentencePeriods, where));
  }
  return out;
}
