// Charts: the page carries each chart's figures as a JSON data block (never executed, so the
// content security policy stays script-src 'self'), and app.js draws them with uPlot, served from
// the binary (/app/assets/uplot.js). Every chart also has its figures as a table underneath, for
// reading exact values, printing, and browsers without JavaScript.
import { html, raw, type Html } from "../html.ts";
import { figure, missing, money, multiple, percent } from "./format.ts";

export type ChartUnit = "money" | "multiple" | "number" | "percent";

export type ChartSeries = {
  label: string;
  /** One value per x; null where the series has no point (lines span the gap). */
  values: (number | null)[];
  /** Bars for flows (calls, distributions); lines otherwise. */
  bars?: boolean;
  /** Dashed: a plan (budget) next to what happened. */
  dash?: boolean;
  color?: string;
};

export type ChartSpec = {
  /** Unique on the page; also the data block's element id. */
  id: string;
  title: string;
  /** ISO dates (YYYY-MM-DD or timestamps), ascending. */
  x: string[];
  unit: ChartUnit;
  currency?: string | null;
  /** After a plain number: " months", "%". */
  suffix?: string;
  series: ChartSeries[];
  caption?: string | Html;
};

export const PALETTE = ["#2f6fde", "#e07b39", "#1c9c6b", "#8e5bd6", "#d64562", "#2aa3b8", "#9a7b0a", "#5b6675"];
export const ACTUAL_COLOR = "#2f6fde";
export const BUDGET_COLOR = "#8a94a3";
export const CALL_COLOR = "#d64562";
export const DISTRIBUTION_COLOR = "#1c9c6b";

/** JSON inside <script type="application/json">: `<` escaped, so no value can close the element. */
export function jsonBlock(id: string, value: unknown): Html {
  const text = JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return html`<script type="application/json" id="${id}">${raw(text)}</script>`;
}

function cell(spec: ChartSpec, value: number | null): Html {
  if (value === null) return missing("no figure at this date");
  if (spec.unit === "money") return money(value, spec.currency ?? null, { compact: false });
  if (spec.unit === "multiple") return multiple(value);
  if (spec.unit === "percent") return percent(value);
  return html`${figure(value)}${spec.suffix ?? ""}`;
}

function dataTable(spec: ChartSpec): Html {
  return html`<details class="chart-data"><summary>Figures</summary><div class="table-wrap"><table class="compact" data-testid="chart-table-${spec.id}">
<thead><tr><th>Date</th>${spec.series.map((s) => html`<th class="num">${s.label}</th>`)}</tr></thead>
<tbody>${spec.x.map(
    (x, i) => html`<tr><td class="nw">${x.slice(0, 10)}</td>${spec.series.map((s) => html`<td class="num">${cell(spec, s.values[i] ?? null)}</td>`)}</tr>`,
  )}</tbody></table></div></details>`;
}

export function chart(spec: ChartSpec): Html {
  const series = spec.series.map((s, i) => ({ ...s, color: s.color ?? PALETTE[i % PALETTE.length] }));
  const empty = spec.x.length === 0 || series.every((s) => s.values.every((v) => v === null));
  return html`<figure class="chart" data-testid="chart-${spec.id}">
  <figcaption><strong>${spec.title}</strong>${spec.caption ? html` <span class="muted small">${spec.caption}</span>` : ""}</figcaption>
  ${empty
    ? html`<div class="empty small">No figures to chart yet.</div>`
    : html`<div class="chart-canvas" data-chart="${spec.id}" role="img" aria-label="${spec.title}"></div>
  ${jsonBlock(`chart-${spec.id}`, { unit: spec.unit, currency: spec.currency ?? null, suffix: spec.suffix ?? "", x: spec.x, series })}
  ${dataTable({ ...spec, series })}`}
</figure>`;
}

/**
 * Series keyed by date, as one shared x axis: each series gets its value at every date of the
 * union (null where it has none), which is what uPlot draws from.
 */
export function alignSeries(byKey: { label: string; points: { date: string; value: number }[]; bars?: boolean; dash?: boolean; color?: string }[]): { x: string[]; series: ChartSeries[] } {
  const dates = [...new Set(byKey.flatMap((s) => s.points.map((p) => p.date)))].sort();
  const index = new Map(dates.map((d, i) => [d, i]));
  const series = byKey.map((s) => {
    const values: (number | null)[] = dates.map(() => null);
    for (const p of s.points) values[index.get(p.date)!] = p.value;
    return { label: s.label, values, bars: s.bars, dash: s.dash, color: s.color };
  });
  return { x: dates, series };
}
