// The round this company is raising now, read only from statements about that raise: "we are
// raising", "the ask", "seeking", "a seed round of", or a sentence under an "Ask"/"Round" heading.
// Other people's money ("we help merchants raise $2.5M"), earlier rounds ("led our $2M pre-seed
// in 2023"), the next round ("to reach Series A") and stages that describe customers ("our
// customers include Series A startups") are not this round. For a fund, the round is the fund:
// its target size, never its hard cap, a prior fund's size or a check size.
import { mentionIn, moneyMentions, type MoneyMention } from "./deal-money.ts";
import type { Unit } from "./deal-text.ts";

// "raising", "seeking", "the ask": a raise in progress. "raise" alone is checked for its subject.
const RAISE_VERB = /\b(?:raising|seeking|looking to raise|aiming to raise|plan(?:ning)? to raise|intend to raise|raise|the ask|our ask|fundrais(?:e|ing))\b|\bask\s*:/gi;
// "a seed round", "Series A funding", "round of", "funding round".
const ROUND_NOUN = /\b(?:(?:pre-?seed|seed|series [a-e]|bridge|growth)\s+(?:round|funding|financing|extension|investment)|round of|funding round|financing round|investment round)\b/i;
// The raise belongs to someone else: "we help merchants raise", "our customers raise".
const SOMEONE_ELSES =
  /(?:\b(?:help(?:s|ed|ing)?|enabl(?:e|es|ed|ing)|let(?:s|ting)?|allow(?:s|ed|ing)?|assist(?:s|ed|ing)?|empower(?:s|ed|ing)?)\b(?:\s+[\w'’-]+){0,4}\s+(?:to\s+)?|\b(?:customers|clients|merchants|founders|startups|companies|users|sellers|borrowers|businesses|they|who)\s+(?:can\s+|could\s+|to\s+|will\s+|now\s+)?)$/i;
// An earlier round, told in the past.
const PAST = /\b(?:raised|closed|completed|secured|led (?:our|the)|backed by|previous(?:ly)?|prior|to date|last (?:round|year))\b/i;
// Money that is not the raise itself.
const NOT_THE_RAISE_AFTER = /^\s*(?:pre-?money|post-?money|valuation|(?:valuation )?cap\b|arr|mrr|in (?:arr|revenue|sales|working capital)|revenue|gmv|per\b|\/|a (?:year|month)|tam|sam|som|market)/i;
const NOT_THE_RAISE_BEFORE = /(?:valuation|cap|pre-?money|post-?money|at a|arr|revenue|worth|market (?:of|is))\s*(?:of|at|:|is)?\s*(?:a|an)?\s*$/i;
const STAGE = /\b(pre-?seed|seed|series\s+[a-e]|bridge|growth)\b/gi;
// "to reach Series A", "ahead of our Series A": the next round, not this one.
const NEXT_ROUND = /\b(?:to|towards?|before|ahead of|until|into|reach(?:ing)?|next|for the)\s*(?:our|a|the)?\s*$/i;

export type CompanyRound = {
  stage: string | null;
  amount: number | null;
  currency: string | null;
  pre_money_valuation: number | null;
  /** A range stated for the raise ("$2-3M"): reported as said, never collapsed into one amount. */
  range: MoneyMention | null;
};

/**
 * Where the unit speaks of this company's raise in progress, and how far before that point its
 * figure may stand: after a verb ("raising $3M"), just before a round noun ("$4M seed round"),
 * anywhere in a present-tense statement under an "Ask"/"Round" heading. null: not about it.
 */
function raiseAt(u: Unit): { at: number; reach: number } | null {
  // "We are seeking design partners", "raise awareness": no money, no round, no raise.
  const aboutFunding = moneyMentions(u.text).length > 0 || /\b(?:pre-?seed|seed|series [a-e]|round|funding|capital|investment|investors?|equity|SAFE|convertible|valuation)\b/i.test(u.text);
  if (!aboutFunding) return null;
  for (const m of u.text.matchAll(RAISE_VERB)) {
    const before = u.text.slice(Math.max(0, m.index! - 60), m.index!);
    if (SOMEONE_ELSES.test(before)) continue;
    return { at: m.index!, reach: 0 };
  }
  const noun = ROUND_NOUN.exec(u.text);
  if (noun && !PAST.test(u.text)) return { at: noun.index, reach: 30 };
  if (u.topic === "round" && !PAST.test(u.text) && !/\buse of funds\b/i.test(u.text)) return { at: 0, reach: 0 };
  return null;
}

/** True for a statement about this company's current raise. */
export function isRaiseStatement(u: Unit): boolean {
  return raiseAt(u) !== null;
}

function stageName(raw: string): string {
  const s = raw.toLowerCase().replace(/\s+/g, " ");
  return s.startsWith("pre") ? "pre-seed" : s;
}

/** The raise's own figure in a raise statement: the first money after the verb that is not a valuation, revenue or price. */
function raiseMoney(u: Unit, { at, reach }: { at: number; reach: number }): MoneyMention | null {
  for (const m of moneyMentions(u.text)) {
    if (m.index < at && at - m.end > reach) continue;
    if (NOT_THE_RAISE_AFTER.test(u.text.slice(m.end)) || NOT_THE_RAISE_BEFORE.test(u.text.slice(0, m.index))) continue;
    return m;
  }
  return null;
}

function stageIn(u: Unit, near: number): string | null {
  const stages = [...u.text.matchAll(STAGE)].filter((m) => !NEXT_ROUND.test(u.text.slice(Math.max(0, m.index! - 25), m.index!)));
  if (stages.length === 0) return null;
  stages.sort((a, b) => Math.abs(a.index! - near) - Math.abs(b.index! - near));
  return stageName(stages[0][1]);
}

/** "$16M pre-money", "a pre-money valuation of €10M". A post-money figure or a valuation cap is not one. */
function preMoneyIn(units: Unit[]): MoneyMention | null {
  for (const u of units) {
    if (u.boilerplate) continue;
    for (const m of moneyMentions(u.text)) {
      if (m.amount === null) continue;
      const after = u.text.slice(m.end);
      const before = u.text.slice(0, m.index);
      if (/^\s*(?:pre-?money|pre(?![\w-]))/i.test(after) || /\bpre-?money(?: valuation)?\s*(?:of|at|:|is|=)?\s*(?:a|an)?\s*$/i.test(before)) return m;
    }
  }
  return null;
}

export function companyRound(units: Unit[]): CompanyRound {
  let money: MoneyMention | null = null;
  let stage: string | null = null;
  for (const u of units) {
    if (u.boilerplate) continue;
    const raise = raiseAt(u);
    if (raise === null) continue;
    const found: MoneyMention | null = money ? null : raiseMoney(u, raise);
    if (found) {
      money = found;
      // The stage named nearest the amount in the same statement wins over one named elsewhere.
      stage = stageIn(u, found.index) ?? stage;
    } else if (!stage) stage = stageIn(u, raise.at);
  }
  const pre = preMoneyIn(units);
  const amount = money?.amount ?? null;
  const preMoney = pre && (amount === null || pre.currency === money!.currency) ? pre.amount : null;
  return {
    stage,
    amount,
    currency: amount !== null ? money!.currency : preMoney !== null ? pre!.currency : null,
    pre_money_valuation: preMoney,
    range: money && money.amount === null ? money : null,
  };
}

// ---- funds ----

const TARGET_BEFORE = /\b(?:target(?:ed|ing)?(?: fund)?(?: size)?|fund size)\s*(?:of|:|is|=)?\s*(?:~|c\.|approx\.?|approximately|up to)?\s*$/i;
const HARD_CAP_BEFORE = /\bhard[- ]cap\s*(?:of|:|is|at)?\s*$/i;

export type FundSize = { target: MoneyMention | null; hardCap: MoneyMention | null };

/**
 * The fund's target size: a figure called the target or the fund size, else a figure of a fund
 * being raised now ("raising Fund III, a $150M seed fund"). A hard cap is reported as such.
 */
export function fundSize(units: Unit[]): FundSize {
  let target: MoneyMention | null = null;
  let raising: MoneyMention | null = null;
  let hardCap: MoneyMention | null = null;
  for (const u of units) {
    if (u.boilerplate) continue;
    for (const m of moneyMentions(u.text)) {
      const before = u.text.slice(Math.max(0, m.index - 40), m.index);
      const after = u.text.slice(m.end, m.end + 40);
      if (HARD_CAP_BEFORE.test(before) || /^\s*\(?hard[- ]cap/i.test(after)) {
        hardCap ??= m;
        continue;
      }
      if (!target && (TARGET_BEFORE.test(before) || /^\s*\(?(?:fund )?target\b/i.test(after))) target = m;
      else if (!raising && /\b(?:raising|targeting|seeking)\b/i.test(u.text) && !PAST.test(u.text) && /^\s*(?:[\w-]+\s+){0,3}fund\b/i.test(after)) raising = m;
    }
  }
  return { target: target ?? raising, hardCap };
}

/** "Raising $2M–$3M (seed), a range" and the like, for the summary. */
export function describeRaise(round: CompanyRound): string {
  const stage = round.stage ? ` (${round.stage})` : "";
  if (round.range) return `Raising ${mentionIn(round.range)}${stage}, a range: no single amount is recorded.`;
  return "";
}
