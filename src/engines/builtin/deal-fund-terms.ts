// A fund deck's terms and prior funds' performance, as the deck states them: "2/20", "carry 20%",
// "GP commitment of 2%", "Fund I: 3.1x TVPI, 28% net IRR". Figures are reported as written, never
// derived; a term the deck does not state is left out.
import { mentionIn, moneyMentions } from "./deal-money.ts";
import type { FundSize } from "./deal-round.ts";
import type { Unit } from "./deal-text.ts";

const PCT = String.raw`(\d+(?:\.\d+)?)\s?%`;
const term = (label: string) => [new RegExp(String.raw`${PCT}\s*(?:annual\s+)?(?:${label})`, "i"), new RegExp(String.raw`(?:${label})(?:\s+rate)?\s*(?:of|:|is|at|=)?\s*${PCT}`, "i")];

const TERMS: [name: string, patterns: RegExp[]][] = [
  ["management fee", term("management fees?|mgmt\\.? fees?")],
  ["carry", term("carried interest|carry")],
  ["hurdle", term("hurdle|preferred return")],
  ["GP commitment", term("GP commit(?:ment)?s?")],
];
// "2/20" or "2 and 20": the fee and the carry, where the words around it speak of fees or carry. A
// fee is a few percent and a carry 10 to 35; a date ("first close on 3/31", "by 1/15") is neither.
export const SHORTHAND = /(?<![\d\/.])\b([0-3](?:\.\d{1,2})?)\s?(?:\/|and)\s?([1-3]\d)\b(?![\/\d%.-])/;
const TERMS_CONTEXT = /\b(economics|fees?|carry|carried interest|standard terms|fee structure)\b|\bterms\s*[:|]/i;
const DATE_BEFORE = /\b(?:on|by|until|till|due|before|after|from|close[ds]?|closing|deadline|date|dated|as of|since|in|week|day)\s*$/i;

/** The fee and carry a shorthand states, or null when it is no shorthand of terms (a date, a ratio). */
export function feeAndCarry(text: string): [string, string] | null {
  const m = SHORTHAND.exec(text);
  if (!m || DATE_BEFORE.test(text.slice(Math.max(0, m.index - 20), m.index))) return null;
  const [fee, carry] = [Number(m[1]), Number(m[2])];
  if (fee <= 0 || fee > 3.5 || carry < 10 || carry > 35) return null;
  const around = text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60);
  return TERMS_CONTEXT.test(around) ? [m[1], m[2]] : null;
}

export function statedFundTerms(units: Unit[], size: FundSize): string[] {
  const stated = new Map<string, string>();
  if (size.target) stated.set("target size", mentionIn(size.target));
  if (size.hardCap) stated.set("hard cap", mentionIn(size.hardCap));
  for (const u of units) {
    if (u.boilerplate) continue;
    for (const [name, patterns] of TERMS) {
      if (stated.has(name)) continue;
      const m = patterns.map((re) => re.exec(u.text)).find(Boolean);
      if (m) stated.set(name, `${m[1]}%`);
    }
    const short = feeAndCarry(u.text);
    if (short) {
      if (!stated.has("management fee")) stated.set("management fee", `${short[0]}%`);
      if (!stated.has("carry")) stated.set("carry", `${short[1]}%`);
    }
    if (!stated.has("GP commitment")) {
      const gp = /\bGP commit(?:ment)?s?\s*(?:of|:|is|=)?\s*/i.exec(u.text);
      const money = gp ? moneyMentions(u.text).find((m) => m.index === gp.index + gp[0].length) : undefined;
      if (money) stated.set("GP commitment", mentionIn(money));
    }
  }
  const order = ["target size", "hard cap", "management fee", "carry", "hurdle", "GP commitment"];
  return order.filter((k) => stated.has(k)).map((k) => `${k} ${stated.get(k)}`);
}

const FUND_LABEL = /\bFund\s+(?:I{1,3}|IV|VI{0,3}|IX|X|\d{1,2})\b/g;
const MULTIPLE = (name: string) => [new RegExp(String.raw`(\d+(?:\.\d+)?)\s?x\s*(?:(net|gross)\s+)?${name}\b`, "i"), new RegExp(String.raw`(?:(net|gross)\s+)?\b${name}\s*(?:of|:|=|is|at)?\s*(\d+(?:\.\d+)?)\s?x\b`, "i")];
const METRICS: [name: string, patterns: RegExp[], unit: string][] = [
  ["TVPI", MULTIPLE("TVPI"), "x"],
  ["DPI", MULTIPLE("DPI"), "x"],
  ["MOIC", MULTIPLE("MOIC"), "x"],
  ["IRR", [new RegExp(String.raw`${PCT}\s*(?:(net|gross)\s+)?IRR\b`, "i"), new RegExp(String.raw`(?:(net|gross)\s+)?\bIRR\s*(?:of|:|=|is|at)?\s*${PCT}`, "i")], "%"],
];

const cellsOf = (text: string) => text.replace(/\.$/, "").split(/\s+\|\s+/).map((c) => c.trim());
const METRIC_HEADER = /^(?:(net|gross)\s+)?(TVPI|DPI|MOIC|IRR)$/i;

/** A table row under a header row naming the metrics ("Fund | Vintage | TVPI | DPI | Net IRR"). */
function tableRow(header: string[], row: string[]): string | null {
  if (row.length !== header.length) return null;
  const figures = header.flatMap((h, i) => {
    const m = METRIC_HEADER.exec(h);
    return m && /\d/.test(row[i]) ? [`${m[1] ? `${m[1].toLowerCase()} ` : ""}${m[2].toUpperCase()} ${row[i]}`] : [];
  });
  return figures.length ? `${row[0]}: ${figures.join(", ")}` : null;
}

/** Each prior fund's TVPI, DPI, MOIC and IRR as stated ("Fund I: TVPI 3.1x, DPI 1.4x, net IRR 28%"), in prose or in a table. */
export function statedTrackRecord(units: Unit[]): string[] {
  const out: string[] = [];
  let header: { cells: string[]; page: Unit["page"] } | null = null;
  for (const u of units) {
    if (u.boilerplate) continue;
    if (u.text.includes(" | ")) {
      const cells = cellsOf(u.text);
      if (cells.some((c) => METRIC_HEADER.test(c))) {
        header = { cells, page: u.page };
        continue;
      }
      const row = header && header.page === u.page ? tableRow(header.cells, cells) : null;
      if (row) {
        out.push(row);
        continue;
      }
    }
    const labels = [...u.text.matchAll(FUND_LABEL)];
    const cuts = labels.length ? labels.map((l, i) => [l.index!, labels[i + 1]?.index ?? u.text.length] as const) : [[0, u.text.length] as const];
    if (labels.length && labels[0].index! > 0) cuts.unshift([0, labels[0].index!]);
    for (const [from, to] of cuts) {
      const part = u.text.slice(from, to);
      const figures: string[] = [];
      for (const [name, [first, second], unit] of METRICS) {
        const a = first.exec(part);
        const b = a ? null : second.exec(part);
        if (a) figures.push(`${a[2] ? `${a[2].toLowerCase()} ` : ""}${name} ${a[1]}${unit}`);
        else if (b) figures.push(`${b[1] ? `${b[1].toLowerCase()} ` : ""}${name} ${b[2]}${unit}`);
      }
      if (figures.length === 0) continue;
      const label = new RegExp(`^${FUND_LABEL.source}`).exec(part)?.[0];
      out.push(label ? `${label}: ${figures.join(", ")}` : figures.join(", "));
    }
  }
  return out;
}
