// How figures of several records combine, by each field's declared rule (FieldSpec.combine): a
// sum adds up within one currency (never across: each currency is its own total); a pooled figure
// is recomputed from the fields it is made of (TVPI = (distributed + NAV) / called) within one
// currency; a figure with no total (a runway, a margin, a score) has none, and the answer says so
// with each record's own figure. Also the currency groups that rankings and thresholds keep apart.
import { count, listing } from "../../lib/prose.ts";
import { POOLED, written, type FieldSpec, type Rec, type Value } from "./ask.query.fields.ts";

/** `named`: how many distinct records by name (a company two funds hold is one company, two positions). */
export type Total = { currency: string | null; value: number; records: number; named: number; written: string };

const valueOf = (r: Rec, field: string): Value | undefined => r.values[field];

/** The currency a record's figure is in ("" when the figure has none: a count, a percentage). */
export const currencyOf = (r: Rec, field: string) => valueOf(r, field)?.currency ?? "";

/** Records by the currency of a field's figure, in a stable order (most records first). */
export function byCurrency(rows: Rec[], field: string): [string, Rec[]][] {
  const groups = new Map<string, Rec[]>();
  for (const r of rows) groups.set(currencyOf(r, field), [...(groups.get(currencyOf(r, field)) ?? []), r]);
  return [...groups].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
}

/** Decimals a figure is written with (at most 2): an average is said no finer than what it averages. */
const decimalsOf = (v: number) => Math.min(2, (String(v).split(".")[1] ?? "").length);

const round = (value: number, spec: FieldSpec, currency: string, decimals = 2) =>
  spec.unit === "money" || (spec.unit === "metric" && currency) ? Math.round(value) : Math.round(value * 10 ** decimals) / 10 ** decimals;

/** Sums or means per currency, with the records that lacked the figure. */
export function totals(rows: Rec[], field: string, spec: FieldSpec, how: "sum" | "avg" | "median"): { figures: Total[]; lacking: string[] } {
  const lacking = rows.filter((r) => valueOf(r, field)?.value == null).map((r) => r.name);
  const figures = byCurrency(rows.filter((r) => valueOf(r, field)?.value != null), field).map(([currency, group]) => {
    const sum = group.reduce((s, r) => s + valueOf(r, field)!.value!, 0);
    const decimals = Math.max(...group.map((r) => decimalsOf(valueOf(r, field)!.value!)));
    // (A median is the middle record's own figure, or halfway between the two middle ones.)
    const sorted = group.map((r) => valueOf(r, field)!.value!).sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    const value = round(how === "sum" ? sum : how === "median" ? median : sum / group.length, spec, currency, how === "sum" ? 2 : Math.max(1, decimals));
    return { currency: currency || null, value, records: group.length, named: new Set(group.map((r) => r.name)).size, written: written(spec, { value, currency: currency || null, unit: valueOf(group[0], field)!.unit ?? null })! };
  });
  return { figures, lacking };
}

/** A pooled ratio per currency from the fields it is made of, over the records that have all of them. */
export function pooled(rows: Rec[], field: string, spec: FieldSpec): { figures: Total[]; lacking: string[] } | null {
  const recipe = POOLED[field];
  if (!recipe) return null;
  const parts = [...recipe.over, recipe.under];
  const complete = rows.filter((r) => parts.every((p) => valueOf(r, p)?.value != null));
  const lacking = rows.filter((r) => !complete.includes(r)).map((r) => r.name);
  const figures = byCurrency(complete, recipe.under).flatMap(([currency, group]) => {
    const under = group.reduce((s, r) => s + valueOf(r, recipe.under)!.value!, 0);
    if (!under) return [];
    const over = group.reduce((s, r) => s + recipe.over.reduce((t, p) => t + valueOf(r, p)!.value!, 0), 0);
    const value = Math.round((over / under) * 100) / 100;
    return [{ currency: currency || null, value, records: group.length, named: new Set(group.map((r) => r.name)).size, written: `${written(spec, { value })}${currency ? ` in ${currency}` : ""}` }];
  });
  return { figures, lacking };
}

/** How a pooled figure is made, said with it. */
export const pooledHow = (field: string, labelOf: (f: string) => string) => {
  const recipe = POOLED[field];
  return recipe ? `(${recipe.over.map(labelOf).join(" + ")}) / ${labelOf(recipe.under)}` : "";
};

/** The answer for a total of a figure that has none: said plainly, with each record's figure. */
export function noTotal(spec: FieldSpec, many: string): string {
  return `${capital(spec.label)} does not add up across ${many}: there is no total ${spec.label} to give. Each one's own figure:`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "2 currencies (USD, EUR): each ranked on its own, never converted." */
export function mixedCurrencies(groups: [string, Rec[]][], one: string, many: string): string {
  const named = groups.map(([c, g]) => `${count(g.length, one, many)} in ${c || "no currency"}`);
  return `These figures are in ${groups.length} currencies (${listing(named)}): each currency is ranked on its own, never converted.`;
}

/**
 * The totals line a list of a kind with a natural total ends with ("Total: distributions 4,812,000
 * USD (3)"): per the reader's group (a call is never netted against a distribution) and currency.
 */
export function listTotals(rows: Rec[], field: string, spec: FieldSpec, by: string | undefined, label: (group: string, n: number) => string): string {
  if (rows.length < 2) return "";
  const groups = new Map<string, Rec[]>();
  for (const r of rows) {
    const g = by ? (r.groups?.[by] ?? "") : "";
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  const parts = [...groups].flatMap(([g, list]) => totals(list, field, spec, "sum").figures.map((t) => `${g ? `${label(g, t.records)} ` : ""}${t.written} (${t.records})`));
  return parts.length ? `\nTotal ${spec.label}: ${parts.join("; ")}${parts.length > 1 ? " (each apart, never netted or converted)" : ""}.` : "";
}
