// The round this company is raising now, read only from statements about that raise, in the ways
// decks write one: a verb ("we are raising", "seeking", "looking for ... to close our Series A"), a
// noun ("the ask", "round size", "funding need", "total required investment", "a seed round of"),
// a stage in brackets after the figure ("CHF 25 million (Series-B)"), a present-tense sentence
// under an "Ask"/"Round" heading, or a term sheet laid out as label and value ("Amount | €2.5M",
// "Round" over "Seed"). Other people's money ("we help merchants raise $2.5M"), earlier rounds
// ("led our $2M pre-seed in 2023"), the next round ("to reach Series A"), valuations, and stages
// that describe customers ("our customers are Series B scale-ups") are not this round. A figure
// whose multiplier or currency cannot be established ("CHF 4.25" on its own, "4.25 million") is
// no amount: it is left null and the reason said. For a fund, the round is the fund: its target
// size, never its hard cap, a prior fund's size or a check size.
import { mentionIn, moneyMentions, type MoneyMention } from "./deal-money.ts";
import type { Unit } from "./deal-text.ts";

// A raise in progress: verbs and nouns. "raise" alone is checked for its subject.
const RAISE_VERB = new RegExp(
  [
    String.raw`\b(?:are |is |we're |currently )?(?:raising|seek(?:ing|s)?|looking for|looking to raise|aiming to raise|plan(?:ning)? to raise|intend to raise|raise|fundrais(?:e|ing))\b`,
    String.raw`\b(?:current|this|our (?:current|ongoing)) round\b|\binvestment sought\b`,
    String.raw`\b(?:the|our) ask\b|^ask\b|\bask\s*:`,
    String.raw`\b(?:total )?round size\b|\b(?:total |target )?raise\s*:|\btarget raise\b`,
    String.raw`\b(?:total )?(?:funding|capital|financing|investment) (?:need(?:ed|s)?|required|requirements?|sought|ask)\b|\b(?:total )?required (?:investment|funding|capital)\b`,
    String.raw`\bto close (?:our|the|a|this)\b.{0,40}?\bround\b`,
    String.raw`\b(?:open(?:ing)?|launch(?:ing)?) (?:a|an|our|the)\b.{0,40}?\bround\b`,
  ].join("|"),
  "gi",
);
// "a seed round", "Series A funding", "round of", "funding round".
const STAGE_WORDS = String.raw`pre-?\s?seed|seed|seri(?:es|e)[\s-]?[a-e]\d?|bridge|growth`;
const ROUND_NOUN = new RegExp(String.raw`\b(?:(?:${STAGE_WORDS})\s+(?:round|funding|financing|extension|investment|raise)|round of|funding round|financing round|investment round)\b`, "i");
// "€2.5M (Seed)": the stage in brackets right after the figure.
const BRACKETED_STAGE = new RegExp(String.raw`^\s*\((?:${STAGE_WORDS})(?: round)?\)`, "i");
// The raise belongs to someone else: "we help merchants raise", "our customers raise".
const SOMEONE_ELSES =
  /(?:\b(?:help(?:s|ed|ing)?|enabl(?:e|es|ed|ing)|let(?:s|ting)?|allow(?:s|ed|ing)?|assist(?:s|ed|ing)?|empower(?:s|ed|ing)?)\b(?:\s+[\w'’-]+){0,4}\s+(?:to\s+)?|\b(?:customers|clients|merchants|founders|startups|companies|users|sellers|borrowers|businesses|they|who|smes)\s+(?:can\s+|could\s+|to\s+|will\s+|now\s+)?)$/i;
// An earlier round, told in the past.
const PAST = /\b(?:raised|closed|completed|secured|led (?:our|the)|backed by|previous(?:ly)?|prior|to date|last (?:round|year)|so far)\b/i;
// Money that is not the raise itself.
const NOT_THE_RAISE_AFTER = /^\s*(?:pre-?money|post-?money|valuation|(?:valuation )?cap\b|arr|mrr|in (?:arr|revenue|sales|working capital)|revenue|gmv|per\b|\/|a (?:year|month)|tam|sam|som|market|(?:is |are )?(?:already )?committed)/i;
const NOT_THE_RAISE_BEFORE = /(?:valuation|cap|pre-?money|post-?money|at a|arr|revenue|worth|market (?:of|is)|of which)\s*(?:of|at|:|is)?\s*(?:a|an)?\s*$/i;
const STAGE = new RegExp(String.raw`\b(${STAGE_WORDS})\b`, "gi");
// "to reach Series A", "ahead of our Series A": the next round, not this one.
const NEXT_ROUND = /\b(?:to|towards?|before|ahead of|until|into|reach(?:ing)?|next|for the)\s*(?:our|a|the)?\s*$/i;
// "Series B scale-ups", "customers that raised a Series A": a stage that describes someone else.
const OTHERS_STAGE_BEFORE = /\b(?:customers?|clients?|startups?|companies|scale-?ups?|founders?|teams?|businesses|portfolio)\b[^.]{0,30}$/i;
const OTHERS_STAGE_AFTER = /^[\s-]*(?:(?:to|and|or|-|–)\s*(?:[a-e]|series [a-e]|growth)\b[\s+-]*)?(?:\+\s*)?(?:startups?|companies|scale-?ups?|founders?|teams?|businesses|stage companies)\b/i;
// A term sheet as label and value: "Amount | €2.5M", "Round" over "Seed".
const AMOUNT_LABEL = /^(?:amount|round size|size|raise|raising|investment|funding|funding need|ticket|target|target raise|total raise|the ask|ask|financing)\s*:?$/i;
const STAGE_LABEL = /^(?:round|stage|series|financing round|round type|type)\s*:?$/i;
// A figure stated for the raise without what makes it money: "4.25 million" (no currency), "4.25" (nothing).
const BARE_FIGURE = /(?<![\p{L}\d.,])(\d+(?:[.,]\d+)?)(?:\s?(thousand|millions?|billions?|mio\.?|mrd\.?|mm|mn|bn|[kmb])(?![\p{L}\d]))?/iu;
/** Below this a stated raise is a figure whose multiplier was lost ("CHF 4.25"), not a round. */
const SMALLEST_RAISE = 10_000;

/** Whether a money mention can be a round's size: not a bare part of a figure whose multiplier was lost. */
export const plausibleRaise = (m: MoneyMention) => m.amount === null || m.amount >= SMALLEST_RAISE || /\d\s?[kmb]|illion|mio|mrd|tsd|thousand/i.test(m.text);

export type CompanyRound = {
  stage: string | null;
  amount: number | null;
  currency: string | null;
  pre_money_valuation: number | null;
  /** A range stated for the raise ("$2-3M"): reported as said, never collapsed into one amount. */
  range: MoneyMention | null;
  /** Why a raise that is stated has no amount here ("4.25 million" without a currency), else null. */
  unestablished: string | null;
};

/**
 * Where the unit speaks of this company's raise in progress, and how far before that point its
 * figure may stand: after a verb ("raising $3M"), just before a round noun ("$4M seed round"),
 * anywhere in a present-tense statement under an "Ask"/"Round" heading. null: not about it.
 */
function raiseAt(u: Unit): { at: number; reach: number } | null {
  // "We are seeking design partners", "raise awareness": no money, no round, no raise.
  const aboutFunding = moneyMentions(u.text).length > 0 || /\b(?:pre-?seed|seed|series|round|funding|capital|investment|investors?|equity|SAFE|convertible|valuation|financing)\b/i.test(u.text);
  if (!aboutFunding) return null;
  for (const m of u.text.matchAll(RAISE_VERB)) {
    const before = u.text.slice(Math.max(0, m.index! - 60), m.index!);
    if (SOMEONE_ELSES.test(before)) continue;
    // "raised", "previously raised": only the verb's present forms start a raise.
    if (/\braise\b/i.test(m[0]) && PAST.test(u.text.slice(Math.max(0, m.index! - 30), m.index!))) continue;
    return { at: m.index!, reach: 0 };
  }
  const noun = ROUND_NOUN.exec(u.text);
  if (noun && !PAST.test(u.text) && !othersStage(u.text, noun.index, noun[0].length)) return { at: noun.index, reach: 30 };
  const bracketed = moneyMentions(u.text).find((m) => BRACKETED_STAGE.test(u.text.slice(m.end)));
  if (bracketed && !PAST.test(u.text)) return { at: bracketed.index, reach: 0 };
  if (u.topic === "round" && !PAST.test(u.text) && !/\buse of funds\b/i.test(u.text)) return { at: 0, reach: 0 };
  return null;
}

/** True for a statement about this company's current raise. */
export function isRaiseStatement(u: Unit): boolean {
  return raiseAt(u) !== null;
}

/** True for a statement about an earlier round or funding so far ("previously raised £500K from angels"). */
export function isPastRound(u: Unit): boolean {
  return PAST.test(u.text) && (moneyMentions(u.text).length > 0 || /\b(?:round|seed|series|funding|angels?|investors?|backed)\b/i.test(u.text)) && !isRaiseStatement(u);
}

function othersStage(text: string, at: number, length: number): boolean {
  return OTHERS_STAGE_BEFORE.test(text.slice(Math.max(0, at - 40), at)) || OTHERS_STAGE_AFTER.test(text.slice(at + length));
}

function stageName(raw: string): string {
  const s = raw.toLowerCase().replace(/[\s-]+/g, " ");
  if (s.startsWith("pre")) return "pre-seed";
  const series = /^seri(?:es|e) ([a-e]\d?)$/.exec(s);
  return series ? `series ${series[1]}` : s;
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
  const stages = [...u.text.matchAll(STAGE)].filter((m) => !NEXT_ROUND.test(u.text.slice(Math.max(0, m.index! - 25), m.index!)) && !othersStage(u.text, m.index!, m[0].length));
  if (stages.length === 0) return null;
  stages.sort((a, b) => Math.abs(a.index! - near) - Math.abs(b.index! - near));
  return stageName(stages[0][1]);
}

/** The stages the material names for this company's round: not an earlier round's, the next one's or customers'. */
export function statedStages(units: Unit[]): Set<string> {
  const out = new Set<string>();
  units.forEach((u, i) => {
    if (u.boilerplate || isPastRound(u)) return;
    const value = labelled(units, i, STAGE_LABEL);
    if (value && stageOnly(value)) out.add(stageOnly(value)!);
    for (const m of u.text.matchAll(STAGE)) {
      if (!NEXT_ROUND.test(u.text.slice(Math.max(0, m.index! - 25), m.index!)) && !othersStage(u.text, m.index!, m[0].length)) out.add(stageName(m[1]));
    }
  });
  return out;
}

/** A stage as this reader writes it: "pre-seed", "seed", "series a", "bridge". */
export const normalStage = (raw: string) => stageName(raw.trim());

/** "$16M pre-money", "a pre-money valuation of €10M". A post-money figure or a valuation cap is not one. */
function preMoneyIn(units: Unit[]): MoneyMention | null {
  for (const [i, u] of units.entries()) {
    if (u.boilerplate) continue;
    const kv = labelled(units, i, /^pre-?money(?: valuation)?\s*:?$/i);
    const fromKv = kv ? moneyOnly(kv) : null;
    if (fromKv && fromKv.amount !== null) return fromKv;
    for (const m of moneyMentions(u.text)) {
      if (m.amount === null) continue;
      const after = u.text.slice(m.end);
      const before = u.text.slice(0, m.index);
      if (/^\s*(?:pre-?money|pre(?![\w-]))/i.test(after) || /\bpre-?money(?: valuation)?\s*(?:of|at|:|is|=)?\s*(?:a|an)?\s*$/i.test(before)) return m;
    }
  }
  return null;
}

/**
 * The value a term sheet gives a label: "Label | value", "Label: value", "Label value", or the
 * label alone with its value the next unit on the page. null when unit i is not that label.
 */
function labelled(units: Unit[], i: number, label: RegExp): string | null {
  const text = units[i].text.trim();
  const cells = text.split(/\s\|\s|:\s/);
  if (cells.length === 2 && label.test(cells[0].trim())) return cells[1].trim();
  const next = units[i + 1];
  if (label.test(text)) return next && next.pageIndex === units[i].pageIndex ? next.text.trim() : null;
  const words = text.split(/\s+/);
  for (let k = 1; k < Math.min(4, words.length); k++) if (label.test(words.slice(0, k).join(" "))) return words.slice(k).join(" ");
  return null;
}

/** A text that is one money mention and nothing else ("€2.5M", "18 million EUR"). */
const moneyOnly = (text: string) => {
  const all = moneyMentions(text);
  return all.length === 1 && text.replace(all[0].text, "").replace(/[\s.,;:()]/g, "") === "" ? all[0] : null;
};
const stageOnly = (text: string) => (new RegExp(String.raw`^(?:${STAGE_WORDS})(?: round)?$`, "i").test(text.trim()) ? stageName(text.trim().replace(/ round$/i, "")) : null);

/** Why a raise statement's figure is no amount: no currency beside it, or no multiplier where one must be. */
function unestablishedIn(u: Unit, at: number): string | null {
  const m = BARE_FIGURE.exec(u.text.slice(at));
  if (!m || /^(?:19|20)\d{2}$/.test(m[1])) return null;
  return m[2]
    ? `the raise is stated as "${m[0]}" with no currency, so no amount is recorded`
    : `the raise is stated as "${m[0]}" with neither a currency nor a multiplier, so no amount is recorded`;
}

export function companyRound(units: Unit[]): CompanyRound {
  let money: MoneyMention | null = null;
  let stage: string | null = null;
  let unestablished: string | null = null;
  const take = (found: MoneyMention, u: Unit) => {
    // "CHF 4.25" for a round: the multiplier was lost on the way, and a bare part is no amount.
    if (!plausibleRaise(found)) {
      unestablished ??= `the raise is stated as "${found.text}" with no multiplier (million, M, Mio.), so no amount is recorded`;
      stage = stageIn(u, found.index) ?? stage;
      return;
    }
    money = found;
    stage = stageIn(u, found.index) ?? stage;
  };
  units.forEach((u, i) => {
    if (u.boilerplate) return;
    // A term sheet: "Amount | €2.5M", "Round | Seed", or the label over its value.
    const amountValue = labelled(units, i, AMOUNT_LABEL);
    const stageValue = labelled(units, i, STAGE_LABEL);
    if (stageValue && !stage && stageOnly(stageValue)) stage = stageOnly(stageValue);
    const kvMoney = amountValue ? moneyOnly(amountValue) : null;
    if (kvMoney && !money) return take(kvMoney, { ...u, text: amountValue! });
    const raise = raiseAt(u);
    if (raise === null) return;
    const found = money ? null : raiseMoney(u, raise);
    if (found) take(found, u);
    else {
      if (!money && !unestablished && raise.reach === 0 && !moneyMentions(u.text).length) unestablished = unestablishedIn(u, raise.at);
      if (!stage) stage = stageIn(u, raise.at);
    }
  });
  const pre = preMoneyIn(units);
  const raised = money as MoneyMention | null;
  const amount = raised?.amount ?? null;
  const preMoney = pre && (raised === null || pre.currency === raised.currency) ? pre.amount : null;
  return {
    stage,
    amount,
    // A range still states its currency.
    currency: raised ? raised.currency : preMoney !== null ? pre!.currency : null,
    pre_money_valuation: preMoney,
    range: raised && raised.amount === null ? raised : null,
    unestablished: raised ? null : unestablished,
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
  if (round.unestablished) return `Raising${stage}: ${round.unestablished}.`;
  return "";
}
