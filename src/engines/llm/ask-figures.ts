// A model's answer checked against what the operations returned: every figure it writes (an amount
// with its currency sign or suffix, a percentage, a multiple, a count, a date) must be one that an
// operation's text or data holds, or the question itself said; a figure that none holds is removed
// from the text and counted. Written figures are rounded ("1.2M" for 1,185,000), so a figure
// matches within half a unit of its last written digit.

/** A written figure: "$1.2M", "1,200,000", "14.6%", "1.15x", "18", "2024-02-29". */
const FIGURE = /\d{4}-\d{2}-\d{2}|(?:[$€£]\s?)?\b\d[\d,]*(?:\.\d+)?(?:\s?(?:%|x\b|(?:k|m|mm|bn|b|million|billion|thousand)\b))?/gi;

const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };

type Written = { value: number; tolerance: number; percent: boolean };

function read(token: string): Written | null {
  const m = /(\d[\d,]*(?:\.(\d+))?)\s?(%|x|k|mm|m|bn|b|million|billion|thousand)?$/i.exec(token.trim());
  if (!m) return null;
  const digits = Number(m[1].replace(/,/g, ""));
  if (!Number.isFinite(digits)) return null;
  const suffix = (m[3] ?? "").toLowerCase();
  const scale = SCALE[suffix] ?? 1;
  const decimals = m[2]?.length ?? 0;
  return { value: digits * scale, tolerance: 0.5 * 10 ** -decimals * scale, percent: suffix === "%" };
}

// Identifiers are not figures: the digits inside a UUID ("…-42ab-…") or a word ("Series2") hold
// no number an answer could quote, and reading them would let an invented figure pass.
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const NUMBER = /(?<![\p{L}\d.])\d+(?:\.\d+)?/gu;

const numbersIn = (text: string) => text.replace(UUID, " ").replace(/(\d),(?=\d{3})/g, "$1").match(NUMBER) ?? [];

/** Every number an operation's words or data hold (and the question's), as plain values. */
export function figuresHeld(texts: string[], data: unknown[]): number[] {
  const out: number[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "number" && Number.isFinite(v)) out.push(v);
    else if (typeof v === "string") for (const n of numbersIn(v)) out.push(Number(n));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  for (const t of texts) for (const n of numbersIn(t)) out.push(Number(n));
  data.forEach(walk);
  return out;
}

function held(w: Written, values: number[]): boolean {
  return values.some((v) => {
    const candidates = w.percent ? [v, v * 100] : [v];
    return candidates.some((c) => Math.abs(c - w.value) <= w.tolerance + 1e-9);
  });
}

/** The text with every figure no operation returned removed, and how many were. */
export function checkFigures(text: string, texts: string[], data: unknown[]): { text: string; removed: number } {
  const values = figuresHeld(texts, data);
  const dates = new Set(texts.join(" ").match(/\d{4}-\d{2}-\d{2}/g) ?? []);
  for (const d of data) for (const x of JSON.stringify(d ?? null).match(/\d{4}-\d{2}-\d{2}/g) ?? []) dates.add(x);
  let removed = 0;
  const checked = text.replace(FIGURE, (token) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(token)) {
      if (dates.has(token)) return token;
      removed++;
      return "[removed]";
    }
    const w = read(token.replace(/^[$€£]\s?/, ""));
    if (!w || held(w, values)) return token;
    removed++;
    return "[removed]";
  });
  return { text: checked, removed };
}
