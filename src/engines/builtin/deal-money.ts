// Money as decks write it: "$12,500,000", "$2.5M", "USD 2.5m", "2,5 Mio. €", "£1.2bn", "3 million
// euros", "CHF 1'500'000", "1 500 000 €", "4,25 M€", "750 Tsd. €", "2,5 millions d'euros", and
// ranges ("$2-3M", "€1M to €1.5M", "2,5 bis 3,8 Mio. EUR", "1 à 2 M€"); other currencies by code or sign ("KES 10M", "₹2 crore", "S$1.5M").
// A figure with no currency beside it is not money.

export type MoneyMention = {
  /** null for a range: a range states two bounds, not one figure, and none is picked for it. */
  amount: number | null;
  low: number;
  high: number | null;
  currency: string;
  /** Where the mention starts and ends in the text it was found in. */
  index: number;
  end: number;
  text: string;
};

const CURRENCY: Record<string, string> = {
  $: "USD", us$: "USD", usd: "USD", dollar: "USD", dollars: "USD",
  "€": "EUR", eur: "EUR", euro: "EUR", euros: "EUR", "d'euros": "EUR", "d’euros": "EUR",
  "£": "GBP", gbp: "GBP", pound: "GBP", pounds: "GBP",
  chf: "CHF", "sfr.": "CHF", "c$": "CAD", cad: "CAD", "a$": "AUD", aud: "AUD",
  // Decks from Africa, Asia and Latin America price in their own money, by code or by sign.
  kes: "KES", ksh: "KES", "ksh.": "KES", ngn: "NGN", "₦": "NGN", zar: "ZAR", inr: "INR", "₹": "INR", "rs.": "INR",
  sgd: "SGD", "s$": "SGD", hkd: "HKD", "hk$": "HKD", "nz$": "NZD", nzd: "NZD", jpy: "JPY", "¥": "JPY", cny: "CNY", rmb: "CNY",
  brl: "BRL", "r$": "BRL", mxn: "MXN", sek: "SEK", nok: "NOK", dkk: "DKK", pln: "PLN", aed: "AED",
};
const SCALE: Record<string, number> = {
  k: 1e3, thousand: 1e3, tsd: 1e3,
  m: 1e6, mm: 1e6, mn: 1e6, mio: 1e6, million: 1e6, millions: 1e6,
  b: 1e9, bn: 1e9, mrd: 1e9, md: 1e9, mds: 1e9, billion: 1e9, billions: 1e9, milliard: 1e9, milliards: 1e9,
  t: 1e12, tn: 1e12, trillion: 1e12,
  // South Asian figures: a lakh is a hundred thousand, a crore ten million.
  lakh: 1e5, lakhs: 1e5, lac: 1e5, lacs: 1e5, crore: 1e7, crores: 1e7, cr: 1e7,
  // Portuguese and Spanish: "R$ 3 milhões", "MXN 20 millones" ("mil" is a thousand there and a million in
  // English slang: no scale is read from it).
  "milhões": 1e6, "milhão": 1e6, millones: 1e6, "millón": 1e6,
};

const PRE = String.raw`US\$|HK\$|NZ\$|[ACSR]\$|\$|€|£|₹|₦|¥|\b(?:USD|EUR|GBP|CHF|CAD|AUD|KES|NGN|ZAR|INR|SGD|HKD|NZD|JPY|CNY|RMB|BRL|MXN|SEK|NOK|DKK|PLN|AED)\b|\bKSh\.?|\bRs\.|\bSFr\.`;
// Thousands grouped by ",", ".", "'" (Swiss), a space or a no-break space (French); a year never starts a group.
const NUM = String.raw`\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?![\d])(?:[.,]\d+)?|\d+(?:[.,]\d+)?`;
const SCL = String.raw`thousand|tsd\.?|millions?|milliards?|billions?|trillion|lakhs?|lacs?|crores?|cr|milh(?:ões|ão)|millones|millón|mio\.?|mrd\.?|mds|md|mm|mn|bn|tn|[kmbt]`;
const SUF = String.raw`€|\$|£|₹|\b(?:USD|EUR|GBP|CHF|CAD|AUD|KES|NGN|ZAR|INR|SGD|HKD|NZD|JPY|CNY|RMB|BRL|MXN|SEK|NOK|DKK|PLN|AED|euros?|dollars?|pounds?)\b|d['’]euros\b`;
const ONE = (n: number) => String.raw`(?<pre${n}>${PRE})?\s?(?<num${n}>${NUM})(?:\s?(?<scale${n}>${SCL})(?![\p{L}\d]))?`;
const MONEY = new RegExp(String.raw`(?<![\p{L}\d.,])${ONE(1)}(?:\s?(?:-|–|—|to|bis|à)\s?${ONE(2)})?(?:\s?(?<suf>${SUF}))?`, "giud");

/**
 * "12,500,000" and "1.500.000" are thousands; "2,5" and "2.5" decimals. With both separators the
 * last one is the decimal point. A single separator before exactly three digits is a thousands
 * separator, except "." before an English scale word ("$1.250M" is 1.25 million).
 */
function parseNumber(raw: string, scaleWord: string | undefined): number {
  const s = raw.replace(/['\u00a0\u202f ]/g, "");
  const seps = s.replace(/\d/g, "");
  if (!seps) return Number(s);
  const lastSep = Math.max(s.lastIndexOf("."), s.lastIndexOf(","));
  const decimals = s.length - lastSep - 1;
  let decimalSep: string | null;
  if (seps.includes(".") && seps.includes(",")) decimalSep = s[lastSep];
  else if (seps.length > 1) decimalSep = null;
  else if (decimals !== 3) decimalSep = seps;
  else decimalSep = seps === "." && scaleWord && !/^(mio|mrd)/i.test(scaleWord) ? "." : null;
  const [int, frac] = decimalSep ? [s.slice(0, lastSep), s.slice(lastSep + 1)] : [s, ""];
  return Number(`${int.replace(/[.,]/g, "")}${frac ? `.${frac}` : ""}`);
}

const scaleOf = (word: string | undefined) => (word ? SCALE[word.toLowerCase().replace(/\.$/, "")] : 1);
const currencyOf = (word: string | undefined) => (word ? (CURRENCY[word.toLowerCase()] ?? null) : null);

/** Every money mention in the text, in order. */
export function moneyMentions(text: string): MoneyMention[] {
  const out: MoneyMention[] = [];
  for (const m of text.matchAll(MONEY)) {
    const g = m.groups!;
    const currency = currencyOf(g.pre1) ?? currencyOf(g.pre2) ?? currencyOf(g.suf);
    if (!currency) continue;
    // "$2-3M": the scale written once, after the upper bound, applies to both.
    const lowScale = g.scale1 ?? (g.num2 ? g.scale2 : undefined);
    // "700 T€", "829,4 T EUR": a T set before the euro is thousands (Tausend), as German and French
    // tables write it; a trillion is written "$1.2T" or "€1.2tn".
    const thousands = (scale: string | undefined) => scale === "T" && !g.pre1 && !g.pre2 && /^(?:€|EUR)$/i.test(g.suf ?? "");
    const scaleBy = (scale: string | undefined) => (thousands(scale) ? 1e3 : scaleOf(scale));
    const low = parseNumber(g.num1, lowScale) * scaleBy(lowScale);
    const high = g.num2 ? parseNumber(g.num2, g.scale2) * scaleBy(g.scale2) : null;
    if (!Number.isFinite(low)) continue;
    const round = (n: number) => Math.round(n * 100) / 100;
    // "from $1M to $3M" is a change between two figures, not a range.
    const change = g.num2 && /\b(?:from|von|de)\s*$/i.test(text.slice(Math.max(0, m.index! - 6), m.index!));
    if (high !== null && Number.isFinite(high) && high > low && !change) {
      const text0 = m[0].replace(/\s+$/, "");
      out.push({ amount: null, low: round(low), high: round(high), currency, index: m.index!, end: m.index! + text0.length, text: text0 });
      continue;
    }
    // Not a range after all ("$12M to 2026"): the first figure alone, with its own scale.
    const own = g.scale1 ? m.indices!.groups!.scale1! : m.indices!.groups!.num1!;
    const single = parseNumber(g.num1, g.scale1) * scaleBy(g.scale1);
    const end = g.num2 ? own[1] : m.index! + m[0].replace(/\s+$/, "").length;
    out.push({ amount: round(single), low: round(single), high: null, currency: currencyOf(g.pre1) ?? currency, index: m.index!, end, text: text.slice(m.index!, end) });
    if (change && high !== null && Number.isFinite(high)) {
      const start = (m.indices!.groups!.pre2 ?? m.indices!.groups!.num2!)[0];
      const stop = m.index! + m[0].replace(/\s+$/, "").length;
      out.push({ amount: round(high), low: round(high), high: null, currency: currencyOf(g.pre2) ?? currency, index: start, end: stop, text: text.slice(start, stop) });
    }
  }
  // "between $20M and $30M": two figures that bound one amount are a range, not two amounts.
  for (let i = out.length - 2; i >= 0; i--) {
    const [a, b] = [out[i], out[i + 1]];
    if (a.amount === null || b.amount === null || a.currency !== b.currency || b.amount <= a.amount) continue;
    if (!/\bbetween\s*$/i.test(text.slice(Math.max(0, a.index - 10), a.index)) || !/^\s*and\s*$/i.test(text.slice(a.end, b.index))) continue;
    out.splice(i, 2, { amount: null, low: a.amount, high: b.amount, currency: a.currency, index: a.index, end: b.end, text: text.slice(a.index, b.end) });
  }
  return out;
}

const FIGURE = new RegExp(String.raw`(?<![\p{L}\d.,])(?<num>${NUM})(?:\s?(?<scale>${SCL})(?![\p{L}\d]))?`, "giu");

/**
 * Every figure the text states, with or without a currency ("2.5M", "12,500,000", "4 million"): what
 * a figure reported from the material (by a model, say) must be one of.
 */
export function statedFigures(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(FIGURE)) {
    const { num, scale } = m.groups!;
    const n = parseNumber(num, scale) * scaleOf(scale);
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

/** The first single figure in the text: "$3.5M" -> { amount: 3500000, currency: "USD" }; a range gives null. */
export function parseMoney(text: string): { amount: number; currency: string } | null {
  const first = moneyMentions(text)[0];
  return first && first.amount !== null ? { amount: first.amount, currency: first.currency } : null;
}

const SYMBOL: Record<string, string> = { USD: "$", EUR: "€", GBP: "£" };

/** 12500000 USD -> "$12.5M". Decimals only when the figure has them (two at most): 1500 is "$1.5K", never "$2K". */
export function moneyIn(amount: number, currency: string | null): string {
  const sym = (currency && SYMBOL[currency]) ?? `${currency ?? ""} `;
  const [div, unit] = amount >= 1e9 ? [1e9, "B"] : amount >= 1e6 ? [1e6, "M"] : amount >= 1e3 ? [1e3, "K"] : [1, ""];
  const n = amount / div;
  const shown = Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100).replace(/(\.\d)0$/, "$1");
  return `${sym}${shown}${unit}`;
}

/** "$2M–$3M" for a range, "$2.5M" for a figure. */
export function mentionIn(m: MoneyMention): string {
  return m.amount !== null ? moneyIn(m.amount, m.currency) : `${moneyIn(m.low, m.currency)}–${moneyIn(m.high!, m.currency)}`;
}
