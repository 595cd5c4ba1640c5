// The round this company is raising now. Every money figure of the material is given a role by
// the grammar of its statement (deal-roles.ts): the current raise, an allocation of it, an earlier
// round, traction, a market, a goal, a burn, a valuation. The amount is taken only from figures
// whose role is the current raise; when the material states two different amounts for it, none
// is recorded and the reason is said. A figure that stands alone (a big number on a slide, a
// table cell) takes its role from the label beside it: the slide's title when that title is the
// ask, a label above or in the cell before it, a caption below it. A figure whose multiplier or
// currency cannot be established ("CHF 4.25" on its own, "4.25 million") is no amount either.
// Stages are read near the raise, with their prefixes ("pre-Series A", "seed+", "bridge"); a
// stage that is the next round ("to reach Series A") or the customers' ("Series B scale-ups") is
// not this one. For a fund, the round is the fund: its target size, never its hard cap.
import { mentionIn, moneyMentions, type MoneyMention } from "./deal-money.ts";
import { moneyRoles, NEXT_ROUND, raiseAnchors, STAGE_WORDS, TIMELINE_ENTRY, type RoledMoney } from "./deal-roles.ts";
import { topicOfHeading, type Unit } from "./deal-text.ts";

const STAGE = new RegExp(String.raw`(?<![\p{L}\d-])(${STAGE_WORDS})(?![\p{L}\d])`, "giu");
// "Series B scale-ups", "customers that raised a Series A": a stage that describes someone else.
const OTHERS_STAGE_BEFORE = /\b(?:customers?|clients?|startups?|companies|scale-?ups?|founders?|teams?|businesses|portfolio)\b[^.]{0,30}$/i;
const OTHERS_STAGE_AFTER = /^[\s-]*(?:(?:to|and|or|-|–)\s*(?:[a-e]|series [a-e]|growth)\b[\s+-]*)?(?:\+\s*)?(?:startups?|companies|scale-?ups?|founders?|teams?|businesses|stage companies|investors?|funds?|vcs?)\b/i;
// A term sheet as label and value: "Amount | €2.5M", "Round" over "Seed".
const AMOUNT_LABEL = /^(?:amount|round size|size|raise|raising|investment|funding|funding need|(?:pre-?seed|seed|series [a-e]|bridge) (?:funding|round|financing|investment)|ticket|target raise|total raise|the ask|ask|financing|investment sought|seeking|betrag|volumen|montant|importe|importo)\s*:?$/i;
const STRONG_AMOUNT_LABEL = /^(?:round size|raise|raising|funding need|target raise|total raise|the ask|ask|investment sought|seeking|current round)\s*:?$/i;
const STAGE_LABEL = /^(?:round|stage|series|financing round|round type|type|current round|instrument)\s*:?$/i;
// A figure stated for the raise without what makes it money: "4.25 million" (no currency), "4.25" (nothing).
const BARE_FIGURE = /(?<![\p{L}\d.,])(\d+(?:[.,]\d+)?)(?:\s?(thousand|millions?|billions?|mio\.?|mrd\.?|mm|mn|bn|[kmb])(?![\p{L}\d]))?/iu;
/** Below this a stated raise is a figure whose multiplier was lost ("CHF 4.25"), not a round. */
const SMALLEST_RAISE = 10_000;
// An earlier round, told in the past.
const PAST = /\b(?:raised|closed|completed|secured|led (?:our|the)|backed by|previous(?:ly)?|prior|to date|last (?:round|year)|so far)\b/i;

/** Whether a money mention can be a round's size: not a bare part of a figure whose multiplier was lost. */
export const plausibleRaise = (m: MoneyMention) => m.amount === null || m.amount >= SMALLEST_RAISE || /\d\s?[kmb]|illion|mio|mrd|tsd|thousand/i.test(m.text);

export type CompanyRound = {
  stage: string | null;
  amount: number | null;
  currency: string | null;
  pre_money_valuation: number | null;
  /** A range stated for the raise ("$2-3M"): reported as said, never collapsed into one amount. */
  range: MoneyMention | null;
  /** Why a raise that is stated has no amount here (no currency, two amounts that disagree), else null. */
  unestablished: string | null;
  /** Why a valuation stated for this round gives no pre-money (not said to be pre- or post-money, two that disagree), else null. */
  pre_money_unestablished: string | null;
};

/** A text that is one money mention and nothing else ("€2.5M", "18 million EUR"). */
const moneyOnly = (text: string) => {
  const all = moneyMentions(text);
  return all.length === 1 && text.replace(all[0].text, "").replace(/[\s.,;:()~*]/g, "") === "" ? all[0] : null;
};
const stageOnly = (text: string) => (new RegExp(String.raw`^(?:${STAGE_WORDS})(?: round| financing)?$`, "i").test(text.trim()) ? stageName(text.trim().replace(/ (?:round|financing)$/i, "")) : null);
// A short line without a figure beside a figure: its label or caption.
const labelLike = (u: Unit | undefined) => !!u && u.text.split(/\s+/).length <= 8 && moneyMentions(u.text).length === 0 && !/[.!?]$/.test(u.text.trim());

/**
 * The roles of the money in unit i. A unit that is one figure and nothing else takes its role
 * from its label: the slide title above it when that title is the ask, a label line above, a
 * caption below. A table row's figure takes it from the row's first cell.
 */
export function unitMoneyRoles(units: Unit[], i: number): RoledMoney[] {
  const u = units[i];
  const samePage = (j: number) => (units[j] && units[j].pageIndex === u.pageIndex ? units[j] : undefined);
  const cells = u.text.split(/\s\|\s/);
  if (cells.length >= 2) {
    const out: RoledMoney[] = [];
    let offset = 0;
    cells.forEach((cell, k) => {
      const alone = moneyOnly(cell);
      const roles = alone && k > 0 ? moneyRoles(cell, { before: asLabel(cells[0], units, i), after: cells[k + 1] }) : moneyRoles(cell);
      for (const r of roles) out.push({ ...r, money: { ...r.money, index: r.money.index + offset, end: r.money.end + offset } });
      offset += cell.length + 3;
    });
    return out;
  }
  // "Investment: $2M for 15%": a term's label before a colon names what the figures after it are.
  const term = /^([^:|$€£\d]{2,30}):\s+(?=\S)/.exec(u.text);
  if (term && AMOUNT_LABEL.test(term[1].trim()) && !raiseAnchors(term[1]).length) {
    const rest = u.text.slice(term[0].length);
    return moneyRoles(rest, { before: asLabel(term[1], units, i) }).map((r) => ({ ...r, money: { ...r.money, index: r.money.index + term[0].length, end: r.money.end + term[0].length } }));
  }
  // The first statement under the round's title reads on from it ("The ask" / "£2 million, priced round.").
  const title = samePage(i - 1);
  if (!moneyOnly(u.text)) return moneyRoles(u.text, title?.heading && topicOfHeading(title.text) === "round" ? { before: `${title.text}:` } : {});
  const above = samePage(i - 1);
  const below = samePage(i + 1);
  // A column of figures under one label ("Amount" over a figure per line) is a table, not one figure.
  if (below && moneyOnly(below.text)) return moneyRoles(u.text);
  if (above && moneyOnly(above.text)) return moneyRoles(u.text);
  const before = above && above.heading && topicOfHeading(above.text) === "round" ? `${above.text}:` : labelLike(above) ? above!.text : "";
  return moneyRoles(u.text, { before: before && asLabel(before, units, i), after: labelLike(below) && !below!.heading ? below!.text : undefined });
}

/** A label as the context of the figure beside it: a term sheet's "Amount" under the round's title names the raise. */
function asLabel(label: string, units: Unit[], i: number): string {
  const bare = label.replace(/:$/, "").trim();
  if (!AMOUNT_LABEL.test(bare)) return `${bare}:`;
  return STRONG_AMOUNT_LABEL.test(bare) || topicAt(units, i) === "round" ? "the ask:" : `${bare}:`;
}

/** The topic of the nearest title above unit i on its page that names one (a label with no topic of its own is passed over). */
function topicAt(units: Unit[], i: number): string | null {
  for (let j = i; j >= 0 && units[j].pageIndex === units[i].pageIndex; j--) {
    const t = units[j].heading ? topicOfHeading(units[j].text) : units[j].topic;
    if (t) return t;
  }
  return null;
}

/** True for a statement about this company's current raise: a figure in the raise's role, or a raise word with a stage. */
export function isRaiseStatement(u: Unit): boolean {
  if (moneyRoles(u.text).some((r) => r.role === "raise")) return true;
  if (PAST.test(u.text)) return false;
  const anchors = raiseAnchors(u.text);
  return anchors.length > 0 && new RegExp(String.raw`\b(?:${STAGE_WORDS}|round|funding|capital|investment|SAFE|convertible|equity)\b`, "i").test(u.text);
}

/** True for a statement about an earlier round or funding so far ("previously raised £500K from angels"). */
export function isPastRound(u: Unit): boolean {
  const roles = moneyRoles(u.text);
  if (roles.some((r) => r.role === "raise")) return false;
  return roles.some((r) => r.role === "past") || (PAST.test(u.text) && /\b(?:round|seed|series|funding|angels?|investors?|backed)\b/i.test(u.text) && !isRaiseStatement(u));
}

function othersStage(text: string, at: number, length: number): boolean {
  return OTHERS_STAGE_BEFORE.test(text.slice(Math.max(0, at - 40), at)) || OTHERS_STAGE_AFTER.test(text.slice(at + length));
}

function stageName(raw: string): string {
  const s = raw.toLowerCase().replace(/[\s-]+/g, " ").replace(/\s?\+$/, "+").replace(/ plus$/, "+");
  const series = /^(pre )?seri(?:es|e) ?([a-e]\d?\+?)$/.exec(s);
  if (series) return `${series[1] ? "pre-" : ""}series ${series[2]}`;
  if (/^pre ?seed/.test(s)) return "pre-seed";
  return s;
}

/** A stage as this reader writes it: "pre-seed", "seed", "pre-series a", "series a", "bridge". */
export const normalStage = (raw: string) => stageName(raw.trim());

/** The stages a unit names for this company's round: not the next round's or someone else's, nearest `near` first. */
function stagesIn(text: string, near: number): string[] {
  const found = [...text.matchAll(STAGE)].filter((m) => !NEXT_ROUND.test(text.slice(Math.max(0, m.index! - 25), m.index!)) && !othersStage(text, m.index!, m[0].length));
  found.sort((a, b) => Math.abs(a.index! - near) - Math.abs(b.index! - near));
  return found.map((m) => stageName(m[1]));
}

/** The stages the material names for this company's round: not an earlier round's, the next one's or customers'. */
export function statedStages(units: Unit[]): Set<string> {
  const out = new Set<string>();
  units.forEach((u, i) => {
    if (u.boilerplate || isPastRound(u)) return;
    const value = labelled(units, i, STAGE_LABEL);
    if (value && stageOnly(value)) out.add(stageOnly(value)!);
    for (const s of stagesIn(u.text, 0)) out.add(s);
  });
  return out;
}

/**
 * The value a term sheet gives a label: "Label | value", "Label: value", or the label alone with
 * its value the next unit on the page. null when unit i is not that label.
 */
function labelled(units: Unit[], i: number, label: RegExp): string | null {
  const text = units[i].text.trim();
  const cells = text.split(/\s\|\s|:\s|\s[—–]\s/);
  if (cells.length === 2 && label.test(cells[0].trim())) return cells[1].trim();
  const next = units[i + 1];
  if (label.test(text)) return next && next.pageIndex === units[i].pageIndex ? next.text.trim() : null;
  // "Round series A": a label and its value run together on one line.
  const words = text.split(/\s+/);
  for (let k = 1; k < Math.min(4, words.length); k++) if (label.test(words.slice(0, k).join(" "))) return words.slice(k).join(" ");
  return null;
}

/** Why a raise statement's figure is no amount: no currency beside it, or no multiplier where one must be. */
function unestablishedIn(text: string, at: number): string | null {
  const m = BARE_FIGURE.exec(text.slice(at));
  if (!m || /^(?:19|20)\d{2}$/.test(m[1]) || /^\s*(?:%|x\b|months?|years?|weeks?|customers|people|engineers|employees)/i.test(text.slice(at + m.index + m[0].length))) return null;
  return m[2]
    ? `the raise is stated as "${m[0]}" with no currency, so no amount is recorded`
    : `the raise is stated as "${m[0]}" with neither a currency nor a multiplier, so no amount is recorded`;
}

/** The stage a figure's label or caption names ("$2.5M" over "Seed round"). */
function stageBeside(units: Unit[], i: number): string | null {
  for (const j of [i + 1, i - 1]) {
    const o = units[j];
    if (o && o.pageIndex === units[i].pageIndex && labelLike(o)) {
      const s = stagesIn(o.text, 0)[0];
      if (s) return s;
    }
  }
  return null;
}

/** "$37M post-money", "Post-money valuation: CHF 37M": a valuation said to be post-money. */
function isPostMoney(text: string, m: MoneyMention): boolean {
  return /^\s*(?:\(|,)?\s*post(?:-?money)?\b/i.test(text.slice(m.end)) || /\bpost-?money\b(?:\s+valuation)?\s*(?:of|:|is|at|=)?\s*(?:a|an|~)?\s*$/i.test(text.slice(0, m.index));
}

type Stated = { money: MoneyMention; unit: Unit };

const sameAmount = (a: MoneyMention, b: MoneyMention) => a.currency === b.currency && a.low === b.low && a.high === b.high;
const within = (point: MoneyMention, range: MoneyMention) => point.currency === range.currency && point.amount! >= range.low && point.amount! <= range.high!;

export function companyRound(units: Unit[]): CompanyRound {
  const raises: Stated[] = [];
  const pres: MoneyMention[] = [];
  // A valuation stated with the raise that does not say whether it is pre- or post-money.
  let unsaid: MoneyMention | null = null;
  const posts: MoneyMention[] = [];
  let stage: string | null = null;
  let kvStage: string | null = null;
  let unestablished: string | null = null;
  let lost: string | null = null;
  units.forEach((u, i) => {
    if (u.boilerplate && !moneyOnly(u.text)) return;
    const stageValue = labelled(units, i, STAGE_LABEL);
    if (stageValue && stageOnly(stageValue)) kvStage ??= stageOnly(stageValue);
    const roles = unitMoneyRoles(units, i);
    const raising = roles.filter((r) => r.role === "raise");
    // A pre-money valuation only where the statement says pre-money (or post-money, from which it
    // follows); "at a $X valuation" does not say which, so it gives none. Never an earlier or a
    // later round's ("2022: Seed round of $4M at $21M post-money", "Series A at $40M pre in 2027").
    const otherRound = roles.some((o) => o.role === "past" || o.role === "future") || TIMELINE_ENTRY(u.text) || (raising.length === 0 && isPastRound(u));
    for (const r of roles) {
      if (r.role !== "valuation" || r.money.amount === null) continue;
      if (otherRound) continue;
      if (isPostMoney(u.text, r.money)) posts.push(r.money);
      else if (r.pre === "explicit") pres.push(r.money);
      else if (r.pre === "generic" && raising.length > 0) unsaid ??= r.money;
    }
    for (const r of raising) {
      if (!plausibleRaise(r.money)) {
        lost ??= `the raise is stated as "${r.money.text}" with no multiplier (million, M, Mio.), so no amount is recorded`;
        stage ??= stagesIn(u.text, r.money.index)[0] ?? null;
        continue;
      }
      raises.push({ money: r.money, unit: u });
      stage ??= stagesIn(u.text, r.money.index)[0] ?? (moneyOnly(u.text) ? stageBeside(units, i) : null);
    }
    if (raising.length === 0 && !PAST.test(u.text) && !TIMELINE_ENTRY(u.text) && !roles.some((r) => r.role === "past" || r.role === "future")) {
      const anchor = raiseAnchors(u.text)[0];
      if (anchor) {
        if (roles.length === 0) unestablished ??= unestablishedIn(u.text, anchor.end);
        if (/\b(?:round|funding|financing|investment|raise|raising|seeking|SAFE|capital)\b/i.test(u.text)) stage ??= stagesIn(u.text, anchor.index)[0] ?? null;
      }
    }
  });
  // One amount, however often stated; a range gives way to a figure inside it.
  const points = raises.filter((r) => r.money.amount !== null);
  const ranges = raises.filter((r) => r.money.amount === null && !points.some((p) => within(p.money, r.money)));
  const distinct = [...points, ...ranges].filter((r, k, all) => all.findIndex((o) => sameAmount(o.money, r.money)) === k);
  let chosen: MoneyMention | null = null;
  let conflict: string | null = null;
  if (distinct.length === 1) chosen = distinct[0].money;
  else if (distinct.length > 1) conflict = `the material states different amounts for this raise (${distinct.slice(0, 3).map((d) => mentionIn(d.money)).join(", ")}), so none is recorded`;
  // Two pre-money valuations that disagree (or in another currency than the raise) give none.
  const preValues = new Set(pres.map((p) => `${p.amount} ${p.currency}`));
  const pre = preValues.size === 1 ? pres[0] : null;
  const currency = chosen?.currency ?? null;
  let preMoney = pre && (chosen === null || pre.currency === chosen.currency) ? pre.amount : null;
  let preMoneyReason: string | null = null;
  if (preValues.size > 1) preMoneyReason = `the material states different pre-money valuations (${pres.slice(0, 3).map(mentionIn).join(", ")}), so none is recorded`;
  // Post-money is pre-money plus the new money: with both stated (same currency), the pre-money is their difference.
  const post = posts.length === 1 || new Set(posts.map((p) => p.amount)).size === 1 ? posts[0] : null;
  if (preMoney === null && pres.length === 0 && post && chosen?.amount && post.currency === chosen.currency && post.amount! > chosen.amount) preMoney = Math.round((post.amount! - chosen.amount) * 100) / 100;
  if (preMoney === null && !preMoneyReason && unsaid && !post)
    preMoneyReason = `the valuation stated with the raise (${mentionIn(unsaid)}) is not said to be pre- or post-money, so no pre-money valuation is recorded`;
  return {
    stage: stage ?? kvStage,
    amount: chosen?.amount ?? null,
    currency: currency ?? (preMoney !== null ? pre!.currency : null),
    pre_money_valuation: preMoney,
    pre_money_unestablished: preMoneyReason,
    range: chosen && chosen.amount === null ? chosen : null,
    unestablished: chosen ? null : (conflict ?? lost ?? unestablished),
  };
}

// ---- funds ----

const TARGET_BEFORE = /\b(?:targets?|targeted|targeting|target fund size|fund size)(?: fund)?(?: size)?\s*(?:of|:|is|=|\|)?\s*(?:~|c\.|approx\.?|approximately|up to)?\s*$/i;
const HARD_CAP_BEFORE = /\bhard[- ]cap\s*(?:of|:|is|at|\|)?\s*$/i;

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
  const valuation = round.pre_money_unestablished ? ` Pre-money: ${round.pre_money_unestablished}.` : "";
  if (round.range) return `Raising ${mentionIn(round.range)}${stage}, a range: no single amount is recorded.${valuation}`;
  if (round.unestablished) return `Raising${stage}: ${round.unestablished}.${valuation}`;
  return valuation.trim();
}
