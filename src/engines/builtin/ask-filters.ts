// The filters a question states in its own words: thresholds on a figure ("runway under 12 months",
// "ARR above $2M", "a score of 70 or more", "TVPI over 1.5x", "IRR over 10%"), the sector it names
// (as the records write it, else a canonical one), and the words of names it writes that the
// records do not hold (which name a company, never a sector).
import type { Threshold, YearRange } from "../ask-engine.ts";
import { canon } from "../../lib/name-match.ts";
import { sectorsIn } from "../../lib/sectors.ts";
import type { Directory } from "./ask-directory.ts";
import { LEXICON_WORDS, NUMBER_WORDS, type CueUnit, type FieldCue } from "./ask-lexicon.ts";
import { STOP, type Normalised } from "./ask-text.ts";

const LEXICON = new Set(LEXICON_WORDS);

const COMPARE = String.raw`(north of|upwards of|in excess of|south of|hit|hits|reached|reach|crossed|cross|topped|above|over|more than|greater than|higher than|bigger than|larger than|exceeding|at least|no less than|below|under|less than|lower than|smaller than|fewer than|at most|no more than|>=|<=|>|<)`;
const AMOUNT = String.raw`(\d[\d,]*(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)`;
const SUFFIX = String.raw`(k|m|mm|mn|million|bn|billion|thousand|%|percent|x|months?|years?|employees|people|points)?`;
const CUR_BEFORE = String.raw`(usd |us\$ ?|eur |gbp |chf |\$ ?|€ ?|£ ?)?`;
const CUR_AFTER = String.raw`(?: ?(usd|eur|gbp|chf|dollars?|euros?|pounds?|francs?)\b)?`;
const THRESHOLD = new RegExp(String.raw`${COMPARE} ${CUR_BEFORE}${AMOUNT} ?${SUFFIX}\b${CUR_AFTER}`, "g");
const OR_MORE = new RegExp(String.raw`${CUR_BEFORE}${AMOUNT} ?${SUFFIX}${CUR_AFTER} or (more|higher|above|greater|less|lower|fewer|below)\b`, "g");

/** The currency an amount is said in: "$2M", "EUR 2M", "2M euros"; undefined when none is said. */
function currencySaid(before: string | undefined, after: string | undefined): string | undefined {
  const w = (before ?? after ?? "").trim();
  if (!w) return undefined;
  if (/^(?:\$|us\$|usd|dollars?)/.test(w)) return "USD";
  if (/^(?:€|eur|euros?)/.test(w)) return "EUR";
  if (/^(?:£|gbp|pounds?)/.test(w)) return "GBP";
  if (/^(?:chf|francs?)/.test(w)) return "CHF";
  return undefined;
}

const OP_OF: Record<string, Threshold["op"]> = {
  above: "gt", over: "gt", "more than": "gt", "greater than": "gt", "higher than": "gt", "bigger than": "gt", "larger than": "gt", exceeding: "gt", ">": "gt",
  "at least": "gte", "no less than": "gte", ">=": "gte",
  // (How people say it: "north of 500k", "haven't hit $5M ARR", "crossed 50 people".)
  "north of": "gt", "upwards of": "gt", "in excess of": "gt", "south of": "lt",
  hit: "gte", hits: "gte", reached: "gte", reach: "gte", crossed: "gte", cross: "gte", topped: "gte",
  below: "lt", under: "lt", "less than": "lt", "lower than": "lt", "smaller than": "lt", "fewer than": "lt", "<": "lt",
  "at most": "lte", "no more than": "lte", "<=": "lte",
};

/** A bound negated: "not above" is at most, "not under" at least. */
const NOT_OP: Record<Threshold["op"], Threshold["op"]> = { gt: "lte", gte: "lt", lt: "gte", lte: "gt" };

function amountOf(raw: string, suffix: string | undefined, field: string): number | null {
  const base = /^\d/.test(raw) ? Number(raw.replace(/,/g, "")) : (NUMBER_WORDS[raw] ?? (raw === "a" || raw === "an" ? 1 : NaN));
  if (!Number.isFinite(base)) return null;
  const s = suffix ?? "";
  let v = base;
  if (s === "k" || s === "thousand") v *= 1e3;
  else if (s === "m" || s === "mm" || s === "mn" || s === "million") v *= 1e6;
  else if (s === "bn" || s === "billion") v *= 1e9;
  else if (/^years?$/.test(s)) v *= 12;
  // A percentage of a ratio field (IRR) is the ratio; of a percent field (margin) it stays as written.
  if ((s === "%" || s === "percent") && field === "irr") v /= 100;
  return v;
}

/** Amounts the question writes with a currency ("$2M", "€850k", "EUR 2 million", "2M euros"), by value: the folded text loses the symbols. */
export function amountsWithCurrency(raw: string): { value: number; currency: string }[] {
  const out: { value: number; currency: string }[] = [];
  const re = /(US\$|\$|€|£|\b(?:USD|EUR|GBP|CHF)\b)\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|mm|mn|million|bn|billion|thousand)?\b|(\d[\d,]*(?:\.\d+)?)\s?(k|m|mm|mn|million|bn|billion|thousand)?\s?(USD|EUR|GBP|CHF|dollars?|euros?|pounds?|francs?)\b/gi;
  for (const m of raw.matchAll(re)) {
    const currency = currencySaid((m[1] ?? "").toLowerCase() || undefined, (m[6] ?? "").toLowerCase() || undefined);
    const value = amountOf(m[2] ?? m[4], (m[3] ?? m[5])?.toLowerCase(), "");
    if (currency && value !== null) out.push({ value, currency });
  }
  return out;
}

/** The unit a threshold's suffix or currency writes: "2x", "15%", "$2M", "12 months"; null when it says none. */
function unitWritten(suffix: string | undefined, currency: string | undefined): CueUnit | null {
  if (currency || (suffix && /^(?:k|m|mm|mn|million|bn|billion|thousand)$/.test(suffix))) return "money";
  if (suffix === "x") return "x";
  if (suffix === "%" || suffix === "percent") return "%";
  if (suffix && /^(?:months?|years?)$/.test(suffix)) return "months";
  return null;
}

/** A negation just before a bound, a few words apart at most ("not", "aren't at", "haven't hit"). */
const NEGATED_BOUND = /\b(?:not|isn t|aren t|isnt|arent|is not|are not|never|neither|no|haven t|hasn t|havent|hasnt|don t|doesn t|didn t)(?: (?:yet|even|quite|at|hit|hitting|reached|reaching|got|gotten|get|past|crossed|a|an|the|have|has|had|been|over|run|running|burning|making|doing|with)){0,3}\s*$/;

/**
 * The thresholds a text states, each on the figure named nearest to it whose unit agrees with the
 * threshold's ("marked above 2x" is on the multiple, not the valuation "marked" names); else the
 * kind's figure of that unit (`byUnit`), else `fallback`, the kind's usual figure.
 */
export function thresholdsIn(text: string, cues: FieldCue[], fallback: string | null, byUnit: Partial<Record<CueUnit, string>> = {}): Threshold[] {
  const fieldFor = (at: number, unit: CueUnit | null) => {
    const near = cues
      .filter((c) => !unit || !c.unit || c.unit === unit)
      .flatMap((c) => [...text.matchAll(new RegExp(c.re.source, "g"))].map((m) => ({ c, dist: Math.abs(m.index - at) })))
      .sort((a, b) => a.dist - b.dist);
    return near[0]?.c.field ?? (unit ? byUnit[unit] : undefined) ?? fallback;
  };
  const where: Threshold[] = [];
  for (const m of text.matchAll(THRESHOLD)) {
    const currency = currencySaid(m[2], m[5]);
    const field = fieldFor(m.index, unitWritten(m[4], currency));
    const value = field ? amountOf(m[3], m[4], field) : null;
    // "Isn't above 60%", "not under 12 months": the other side of the bound.
    // ("Aren't at 40+ people yet", "haven't hit $1M": a few words may stand between.)
    const negated = NEGATED_BOUND.test(text.slice(Math.max(0, m.index - 40), m.index));
    const op = negated ? NOT_OP[OP_OF[m[1]]] : OP_OF[m[1]];
    if (field && value !== null) where.push({ field, op, value, ...(currency ? { currency } : {}) });
  }
  for (const m of text.matchAll(OR_MORE)) {
    const currency = currencySaid(m[1], m[4]);
    const field = fieldFor(m.index, unitWritten(m[3], currency));
    const value = field ? amountOf(m[2], m[3], field) : null;
    const negated = NEGATED_BOUND.test(text.slice(Math.max(0, m.index - 40), m.index));
    const op = /more|higher|above|greater/.test(m[5]) ? "gte" : "lte";
    if (field && value !== null) where.push({ field, op: negated ? NOT_OP[op] : op, value, ...(currency ? { currency } : {}) });
  }
  return where;
}

/**
 * Words of names the question writes that the records do not hold ("Acme Robotics" asked of a
 * firm without it): runs of capitalised words with a word the reader does not know. Their words
 * name a company, not a sector.
 */
export function writtenNames(n: Normalised): Set<string> {
  const out = new Set<string>();
  const known = (f: string) => LEXICON.has(f) || STOP.has(f);
  let run: string[] = [];
  const flush = () => {
    if (run.length >= 2 && run.some((w) => !known(w))) run.forEach((w) => out.add(w));
    run = [];
  };
  n.tokens.forEach((t, i) => {
    if (/^\p{Lu}/u.test(t.raw) && (i > 0 || /^\p{Lu}/u.test(n.tokens[1]?.raw ?? ""))) run.push(...canon(t.f).split(" "));
    else flush();
    if (t.end) flush();
  });
  flush();
  return out;
}

/** The sector a question names: as the records write it ("Payments infrastructure"), else a canonical one ("fintech"). */
export function sectorOf(text: string, d: Directory, nameWords: Set<string>, byFirstWord = true): string | null {
  text = text.split(" ").filter((w) => !nameWords.has(w)).join(" ");
  const stored = d.names.sectors();
  const spaced = ` ${text} `;
  const said = stored.filter((s) => spaced.includes(` ${canon(s)} `)).sort((a, b) => b.length - a.length)[0];
  if (said) return said;
  // A sector of several words said shortened, word by word ("payments infra" for Payments infrastructure).
  const words = text.split(" ");
  const shortened = stored.filter((s) => {
    const parts = canon(s).split(" ");
    if (parts.length < 2) return false;
    return words.some((_, i) => parts.every((p, k) => { const w = words[i + k]; return !!w && w.length >= 3 && p.startsWith(w); }));
  });
  if (shortened.length === 1) return shortened[0];
  // A several-word sector said by its first word alone ("payments" for Payments infrastructure), where
  // the records' own labels are such sectors (the portfolio book's; deals carry the reader's one-word sectors).
  const byHead = !byFirstWord ? [] : stored.filter((s) => { const parts = canon(s).split(" "); return parts.length >= 2 && parts[0].length >= 5 && words.includes(parts[0]); });
  if (byHead.length === 1) return byHead[0];
  // Words that name a sector only in company names or questions' grammar are not enough on their own.
  const canonical = sectorsIn(text.replace(/\b(?:platform|infrastructure|cloud|apis?|data science|care|credit|mobility|commerce|retail|media|social|ev|identity|privacy|workflow|productivity|hardware|industrial|property|delivery|shipping|construction|learning platform|schools?)\b/g, " "));
  return canonical[0] ?? null;
}

/** A year as said: "2019", "'19" (a two-digit year is of this century unless that would be in the future). */
function yearOf(said: string, thisYear: number): number {
  const y = Number(said.replace(/^'/, ""));
  if (said.replace(/^'/, "").length === 4) return y;
  return 2000 + y <= thisYear ? 2000 + y : 1900 + y;
}

const YEAR = String.raw`'?(?:19|20)?\d{2}`;
const YEARS = String.raw`${YEAR}(?:(?:,| or| and| &| to| through| thru| -|-) ?${YEAR})*`;
const OPEN_AFTER = /^(?:later|after|newer|since|onwards|on|more recent|younger)$/;

/**
 * The years a question says of a field named by `word` ("founded in 2022 or later", "founded before
 * 2019", "'18 or '19", "2019 or 2021 vintages", "founded between 2015 and 2018"); null when none.
 */
export function yearsSaid(folded: string, word: string, thisYear: number): YearRange | null {
  const list = (said: string): YearRange => {
    const parts = said.split(/,| or | and | & |\s+/).map((p) => p.trim()).filter((p) => /^'?\d{2,4}$/.test(p));
    const ys = parts.map((p) => yearOf(p, thisYear));
    if (/\d (?:to|through|thru|-) ?'?\d|\d-'?\d/.test(said) && ys.length === 2) return { from: Math.min(...ys), to: Math.max(...ys) };
    return ys.length === 1 ? { from: ys[0], to: ys[0] } : { in: [...new Set(ys)].sort() };
  };
  // "The 2010s", "2020s vintages": a decade.
  const decade = new RegExp(String.raw`\b${word} (?:(?:is|isn t|is not|are|aren t|are not|was|wasn t|were|weren t) )?(?:in |from |of )?(?:the )?((?:19|20)\d)0s\b|\b(?:the )?((?:19|20)\d)0s ${word}\b`).exec(folded);
  if (decade) {
    const start = Number(decade[1] ?? decade[2]) * 10;
    return { from: start, to: start + 9 };
  }
  const bound = new RegExp(String.raw`\b${word} (?:in |from )?(?:the )?(?:year )?(after|since|from|before|prior to|pre|post|earlier than|later than|no later than|no earlier than|by) (${YEAR})\b`).exec(folded);
  if (bound) {
    const y = yearOf(bound[2], thisYear);
    const w = bound[1];
    if (/^(?:after|post|later than)$/.test(w)) return { from: y + 1 };
    if (/^(?:since|from|no earlier than)$/.test(w)) return { from: y };
    if (/^(?:before|prior to|pre|earlier than)$/.test(w)) return { to: y - 1 };
    return { to: y };
  }
  const between = new RegExp(String.raw`\b${word} (?:in )?between (${YEAR}) and (${YEAR})\b`).exec(folded);
  if (between) {
    const [a, b] = [yearOf(between[1], thisYear), yearOf(between[2], thisYear)];
    return { from: Math.min(a, b), to: Math.max(a, b) };
  }
  const after = new RegExp(String.raw`\b${word} (?:in |back in |around |during )?(?:the )?(?:years? )?(${YEARS})(?: or (later|after|newer|since|earlier|before|older|prior|sooner)| and (later|after|newer|earlier|before|older|prior|onwards|on)|(?: onwards| on|\+))?\b`).exec(folded);
  // ("A 2021 vintage or newer": the open end said after the field's word.)
  const before = after ? null : new RegExp(String.raw`\b(${YEARS})(?: or (later|newer|earlier|older))? ${word}(?: or (later|newer|earlier|older|after|before))?\b`).exec(folded);
  const m = after ?? before;
  if (!m) return null;
  const open = m[2] ?? m[3] ?? (/(?:onwards| on|\+)$/.test(m[0]) ? "later" : undefined);
  const r = list(m[1]);
  if (!open) return r;
  const years = r.in ?? [r.from!, r.to!];
  return OPEN_AFTER.test(open) ? { from: Math.min(...years) } : { to: Math.max(...years) };
}

/** Words that say when a company was founded, and the words of a range of years (the said-back check reads them). */
export const FOUNDED = String.raw`(?:founded|started|incorporated|established|formed|launched)`;
export const YEAR_RANGE_WORDS = /\b(?:founded|started|incorporated|established|formed|launched|after|since|before|prior|later|newer|earlier|older|onwards|between|through|thru|sooner)\b/;
