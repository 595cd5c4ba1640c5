// Numbers as founders write them: "$1.2M", "1,2 Mio. €", "€850k", "1.234.567 €", "120K MRR",
// "USD 3.4 million", "72%", "18 months". Each is found with its position in the text, so the
// figure reader can tell which metric word it stands beside and what words introduce it.

export type Amount = {
  value: number;
  /** ISO 4217 code when a symbol or code was written next to the number. */
  currency: string | null;
  /** "%" for a percentage, "months" for a duration in months, null otherwise. */
  unit: "%" | "months" | null;
  /** Whether a scale word or suffix was written (k, M, Mio., million, bn). */
  scaled: boolean;
  /** A sign or an explicit +/-, e.g. "+12%" (a change, as a rule). */
  signed: boolean;
  start: number;
  end: number;
  text: string;
};

const SYMBOLS: Record<string, string> = { $: "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "CHF": "CHF", "C$": "CAD", "A$": "AUD", "S$": "SGD", "kr": "SEK" };
const CODES = ["USD", "EUR", "GBP", "CHF", "CAD", "AUD", "SEK", "NOK", "DKK", "JPY", "INR", "SGD", "PLN", "ILS", "BRL"];
const SCALES: [RegExp, number][] = [
  [/^(?:bn|b|billion|billions|mrd\.?|milliarden?)$/i, 1e9],
  [/^(?:m|mm|mn|mio\.?|million|millions|millionen|mil)$/i, 1e6],
  [/^(?:k|thousand|tsd\.?|tausend|t)$/i, 1e3],
];

const CUR = String.raw`(?:US\$|C\$|A\$|S\$|[$€£¥₹]|(?:USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|JPY|INR|SGD|PLN|ILS|BRL)\b)`;
const NUM = String.raw`\d{1,3}(?:[.,\u00a0\u202f']\d{3})+(?![\d])(?:[.,]\d+)?|\d+(?:[.,]\d+)?`;
// "T€" / "TEUR": thousands of euros, as German reports write them.
const SCALE = String.raw`(?:bn|billion|billions|mrd\.?|milliarden?|mm|mn|mio\.?|million|millions|millionen|mil|k|m|b|thousand|tsd\.?|tausend|t(?=\s?(?:€|EUR|\$|USD|CHF|£)))(?![a-z])`;
// [sign][currency] number [scale] [currency] [% | months]
const AMOUNT = new RegExp(
  String.raw`(?<![\w.,/])(?<sign>[+\-−±])?\s?(?<pre>${CUR})?\s?(?<num>${NUM})(?:\s?(?<scale>${SCALE}))?\.?(?:\s?(?<post>${CUR}|euros?|dollars?|pounds?))?(?:\s?(?<pct>%|percent\b|pct\b|prozent\b|pp\b|points?\b|basis points\b|bps\b)|\s(?<months>months?\b|monate?n?\b|mo\b))?`,
  "gi",
);

/**
 * A written number's value. Separators: when both "." and "," appear the last one is the decimal
 * mark; one kind repeated is thousands; one mark followed by exactly three digits is thousands
 * ("1.234", "1,234"), otherwise a decimal mark ("1,2", "1.25"). A space or apostrophe groups thousands.
 */
export function parseNumber(raw: string): number | null {
  let s = raw.replace(/[\u00a0\u202f']/g, "");
  const dots = (s.match(/\./g) ?? []).length;
  const commas = (s.match(/,/g) ?? []).length;
  if (dots && commas) {
    const decimal = s.lastIndexOf(".") > s.lastIndexOf(",") ? "." : ",";
    const thousands = decimal === "." ? "," : ".";
    s = s.split(thousands).join("").replace(decimal, ".");
  } else if (dots + commas > 1) {
    const mark = dots ? "." : ",";
    const parts = s.split(mark);
    if (parts.slice(1).some((p) => p.length !== 3)) return null;
    s = parts.join("");
  } else if (dots + commas === 1) {
    const mark = dots ? "." : ",";
    const [whole, frac] = s.split(mark);
    s = frac.length === 3 && whole !== "0" ? whole + frac : `${whole}.${frac}`;
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function currencyOf(raw: string | undefined): string | null {
  if (!raw) return null;
  const t = raw.trim();
  if (SYMBOLS[t]) return SYMBOLS[t];
  const upper = t.toUpperCase();
  if (CODES.includes(upper)) return upper;
  if (/^euros?$/i.test(t)) return "EUR";
  if (/^dollars?$/i.test(t)) return "USD";
  if (/^pounds?$/i.test(t)) return "GBP";
  return null;
}

function scaleOf(raw: string | undefined): number {
  if (!raw) return 1;
  for (const [re, factor] of SCALES) if (re.test(raw.trim())) return factor;
  return 1;
}

/** Every amount in a text, left to right. Years (1990-2099 alone) and dates are left out. */
export function amountsIn(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const g = m.groups!;
    const value = parseNumber(g.num);
    if (value === null) continue;
    let start = m.index!;
    const matched = m[0];
    // A leading space captured before the currency or number belongs to neither.
    start += matched.length - matched.trimStart().length;
    const currency = currencyOf(g.pre) ?? currencyOf(g.post);
    // A bare "m" after a number is a scale only for money ("$1.2m"); "18 m" alone is ambiguous.
    let scaleRaw: string | undefined = g.scale;
    if (scaleRaw && /^[mbt]$/i.test(scaleRaw) && !currency && /^t$/i.test(scaleRaw)) scaleRaw = undefined;
    const factor = scaleOf(scaleRaw);
    const pct = !!g.pct && /%|percent|pct|prozent/i.test(g.pct);
    const bare = !currency && !scaleRaw && !g.pct && !g.months;
    // A year or a day of a date is not an amount.
    if (bare && /^(19|20)\d\d$/.test(g.num) && !g.sign) continue;
    const after = text.slice(m.index! + matched.length, m.index! + matched.length + 3);
    const before = text.slice(Math.max(0, start - 1), start);
    if (bare && (/^[\/\-.]\d/.test(after) || /[\/\-]$/.test(before) && /\d/.test(text.slice(Math.max(0, start - 2), start - 1)))) continue;
    // "3x", "10th", "5G": a multiple or a name, not an amount.
    if (bare && /^[A-Za-z]/.test(after)) continue;
    if (g.pct && !pct) continue; // percentage points, basis points: changes, never a value
    const signed = !!g.sign && g.sign !== "-" ? true : !!g.sign;
    out.push({
      // Rounded to cents: 1.1 × 10⁶ is 1100000.0000000002 in floating point.
      // (Unscaled, kept as written: a table's "(in €m)" may scale "0,119" later.)
      value: factor === 1 ? (g.sign === "-" || g.sign === "−" ? -1 : 1) * value : Math.round((g.sign === "-" || g.sign === "−" ? -1 : 1) * value * factor * 100) / 100,
      currency,
      unit: pct ? "%" : g.months ? "months" : null,
      scaled: factor !== 1,
      signed,
      start,
      end: m.index! + matched.length,
      text: matched.trim(),
    });
  }
  return out;
}
