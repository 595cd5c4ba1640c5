// The portfolio: every holding with its fund, status, figures and latest actual metrics, filtered by
// status, fund and name; and a company page with its positions and each metric's whole history as a
// chart, actuals against budget where there is one.
import { html, type Html } from "../html.ts";
import { alignSeries, ACTUAL_COLOR, BUDGET_COLOR, chart, type ChartUnit } from "./charts.ts";
import { count, figure, money, multiple, outLink, percentOf100, words } from "./format.ts";
import { badge, layout, pageHead, pager, when, type Shell } from "./layout.ts";

type MetricValue = { value: number; unit: string | null; currency: string | null; statement_date: string };

export type HoldingRow = {
  company_id: string;
  name: string;
  website: string;
  sector: string;
  stage: string;
  status: string;
  fund_name: string;
  holding_type: string;
  investment_date: string;
  ownership_percentage: number | null;
  invested: number | null;
  current_valuation: number | null;
  currency: string | null;
  value_multiple: number | null;
  position_count: number;
  metrics: Record<string, MetricValue>;
};

export type PortfolioFilters = { status: string; fund: string; q: string };

export type PortfolioView = {
  filters: PortfolioFilters;
  funds: string[];
  companies: HoldingRow[];
  total: number;
  page: number;
  pageSize: number;
};

/** The metrics shown as columns, in this order, when any holding on the page has them. */
const KEY_METRICS = ["arr", "monthly_burn", "runway_months", "headcount", "gross_margin"];
const METRIC_LABELS: Record<string, string> = { arr: "ARR", mrr: "MRR", monthly_burn: "Burn / month", runway_months: "Runway", headcount: "Headcount", gross_margin: "Gross margin" };
export const metricLabel = (key: string) => METRIC_LABELS[key] ?? words(key);
/** A unit after a plain number: "%" for percent, " months" (" mo" where space is short), nothing for people. */
const unitSuffix = (unit: string | null, short = false) =>
  unit === "percent" ? "%" : unit === "months" ? (short ? " mo" : " months") : unit && unit !== "people" ? ` ${unit}` : "";

export function statusBadge(status: string): Html {
  return status === "active" ? badge("active", "ok") : status === "exited" ? badge("exited", "info") : badge(words(status).toLowerCase(), "bad");
}

/** A metric value with its unit: money when it has a currency, else the number and its unit. */
export function metricValue(m: MetricValue | undefined): Html {
  if (!m) return html`<span class="muted">—</span>`;
  if (m.currency) return html`<span title="as of ${m.statement_date.slice(0, 10)}">${money(m.value, m.currency)}</span>`;
  return html`<span title="as of ${m.statement_date.slice(0, 10)}">${figure(m.value)}${unitSuffix(m.unit, true)}</span>`;
}

const query = (f: PortfolioFilters & { page?: number }) => {
  const q = new URLSearchParams();
  if (f.status) q.set("status", f.status);
  if (f.fund) q.set("fund", f.fund);
  if (f.q) q.set("q", f.q);
  if (f.page && f.page > 1) q.set("page", String(f.page));
  const s = q.toString();
  return s ? `?${s}` : "";
};

function filters(v: PortfolioView): Html {
  const f = v.filters;
  return html`<form method="get" action="/app/portfolio" class="filters" role="search" data-testid="portfolio-filters">
  <div class="field grow"><label for="f-q">Company</label><input id="f-q" type="search" name="q" value="${f.q}" placeholder="Search by name" maxlength="200"></div>
  <div class="field"><label for="f-status">Status</label><select id="f-status" name="status">
    ${[["", "Any"], ["active", "Active"], ["exited", "Exited"], ["written_off", "Written off"]].map(([value, text]) => html`<option value="${value}"${value === f.status ? html` selected` : ""}>${text}</option>`)}
  </select></div>
  <div class="field"><label for="f-fund">Fund</label><select id="f-fund" name="fund">
    <option value="">Every fund</option>
    ${v.funds.map((name) => html`<option value="${name}"${name === f.fund ? html` selected` : ""}>${name}</option>`)}
  </select></div>
  <button class="btn secondary" type="submit">Apply</button>
  ${f.q || f.status || f.fund ? html`<a class="btn secondary" href="/app/portfolio">Clear</a>` : ""}
</form>`;
}

export function portfolioPage(shell: Shell, v: PortfolioView): Html {
  const shown = KEY_METRICS.filter((k) => v.companies.some((c) => c.metrics[k]));
  const pages = Math.max(1, Math.ceil(v.total / v.pageSize));
  const table = v.companies.length
    ? html`<div class="table-wrap"><table data-testid="holdings-table">
<thead><tr><th>Company</th><th>Fund</th><th>Status</th><th class="num">Invested</th><th class="num">Valuation</th><th class="num">Multiple</th><th class="num">Ownership</th>
${shown.map((k) => html`<th class="num">${metricLabel(k)}</th>`)}</tr></thead>
<tbody>${v.companies.map(
        (c) => html`<tr data-company-id="${c.company_id}">
  <td><a href="/app/portfolio/${c.company_id}"><strong>${c.name}</strong></a><div class="small muted">${words(c.sector)} · ${words(c.stage)}${c.position_count > 1 ? ` · ${c.position_count} positions` : ""}</div></td>
  <td class="small">${c.fund_name}</td>
  <td>${statusBadge(c.status)}</td>
  <td class="num" data-field="invested">${money(c.invested, c.currency)}</td>
  <td class="num" data-field="current_valuation">${money(c.current_valuation, c.currency)}</td>
  <td class="num" data-field="value_multiple">${multiple(c.value_multiple, "needs both the amount invested and a valuation")}</td>
  <td class="num">${percentOf100(c.ownership_percentage)}</td>
  ${shown.map((k) => html`<td class="num" data-field="metric-${k}">${metricValue(c.metrics[k])}</td>`)}
</tr>`,
      )}</tbody></table></div>
${pager(v.page, pages, (p) => `/app/portfolio${query({ ...v.filters, page: p })}`)}`
    : html`<div class="empty">${v.filters.q || v.filters.status || v.filters.fund ? "No holding matches these filters." : "No holdings yet: import the book with dealgraph import portfolio."}</div>`;
  return layout(
    shell,
    html`${pageHead("Portfolio", `${count(v.total)} holding${v.total === 1 ? "" : "s"}${v.filters.q || v.filters.status || v.filters.fund ? " matching" : ""}. Metrics are the latest actuals; a company's page has their history.`)}
<div class="card">${filters(v)}</div>
<div class="card flush">${table}</div>`,
  );
}

export type MetricPoint = {
  value: number;
  unit: string | null;
  currency: string | null;
  statement_date: string;
  kind: "actual" | "budget";
  source?: "import" | "investor_update";
  evidence?: { update_id: string; quote: string } | null;
};

/** The points read from founders' updates, each beside the sentence it came from. */
function fromUpdates(metrics: Map<string, MetricPoint[]>): Html {
  const rows = [...metrics.entries()].flatMap(([metric, points]) => points.filter((p) => p.evidence).map((p) => ({ metric, ...p }))).sort((a, b) => b.statement_date.localeCompare(a.statement_date));
  if (rows.length === 0) return html``;
  return html`<div class="card flush"><div class="card-head"><h2>From founders' updates</h2><span class="small muted">${rows.length} point${rows.length === 1 ? "" : "s"} read from mail · <a href="/app/portfolio/updates">review queue</a></span></div>
  <div class="table-wrap"><table class="compact" data-testid="update-points"><thead><tr><th>Metric</th><th>Period</th><th class="num">Value</th><th>Quote</th></tr></thead>
  <tbody>${rows.slice(0, 60).map(
    (r) => html`<tr data-metric="${r.metric}" data-source="${r.source ?? "import"}"><td>${metricLabel(r.metric)}</td><td class="small">${when(r.statement_date, true)}</td><td class="num">${metricValue(r)}</td><td class="small"><q>${r.evidence!.quote}</q></td></tr>`,
  )}</tbody></table></div></div>`;
}

export type CompanyView = {
  holding: HoldingRow;
  positions: HoldingRow[];
  metrics: Map<string, MetricPoint[]>;
};

function unitOf(points: MetricPoint[]): { unit: ChartUnit; currency: string | null; suffix: string } {
  const currency = points.find((p) => p.currency)?.currency ?? null;
  if (currency) return { unit: "money", currency, suffix: "" };
  const unit = points.find((p) => p.unit)?.unit ?? null;
  return { unit: "number", currency: null, suffix: unitSuffix(unit) };
}

/** The latest actual and, where a budget exists for that same date, the variance against it. */
function latestAgainstBudget(points: MetricPoint[]): Html {
  const actuals = points.filter((p) => p.kind === "actual");
  const last = actuals[actuals.length - 1];
  if (!last) return html`<span class="muted small">budget only, no actuals yet</span>`;
  const budget = points.find((p) => p.kind === "budget" && p.statement_date === last.statement_date);
  const variance = budget && budget.value !== 0 ? (last.value - budget.value) / Math.abs(budget.value) : null;
  return html`<span class="small">latest ${metricValue(last)} (${when(last.statement_date, true)})${budget
    ? html` · budget ${metricValue(budget)}${variance !== null ? html` · <strong data-testid="variance">${Math.abs(variance * 100).toFixed(1)}% ${variance >= 0 ? "above" : "below"} budget</strong>` : ""}`
    : ""}</span>`;
}

function metricChart(key: string, points: MetricPoint[]): Html {
  const { unit, currency, suffix } = unitOf(points);
  const actual = points.filter((p) => p.kind === "actual").map((p) => ({ date: p.statement_date.slice(0, 10), value: p.value }));
  const budget = points.filter((p) => p.kind === "budget").map((p) => ({ date: p.statement_date.slice(0, 10), value: p.value }));
  const aligned = alignSeries([
    { label: "Actual", points: actual, color: ACTUAL_COLOR },
    ...(budget.length ? [{ label: "Budget", points: budget, dash: true, color: BUDGET_COLOR }] : []),
  ]);
  return html`<div data-metric="${key}">${chart({ id: `metric-${key}`, title: metricLabel(key), unit, currency, suffix, x: aligned.x, series: aligned.series, caption: latestAgainstBudget(points) })}</div>`;
}

export function companyPage(shell: Shell, v: CompanyView): Html {
  const h = v.holding;
  const metrics = [...v.metrics.keys()].sort((a, b) => {
    const ia = KEY_METRICS.indexOf(a);
    const ib = KEY_METRICS.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  return layout(
    shell,
    html`<p class="small"><a href="/app/portfolio">← Portfolio</a></p>
${pageHead(h.name, html`${words(h.sector)} · ${words(h.stage)} · ${outLink(h.website ? `https://${h.website.replace(/^https?:\/\//, "")}` : null, h.website)}`, statusBadge(h.status))}
<div class="cards-row" data-testid="holding-figures">
  <div class="kpi"><div class="v" data-field="invested">${money(h.invested, h.currency)}</div><div class="l">invested (${h.fund_name})</div></div>
  <div class="kpi"><div class="v" data-field="current_valuation">${money(h.current_valuation, h.currency)}</div><div class="l">current valuation</div></div>
  <div class="kpi"><div class="v" data-field="value_multiple">${multiple(h.value_multiple, "needs both the amount invested and a valuation")}</div><div class="l">value multiple</div></div>
  <div class="kpi"><div class="v">${percentOf100(h.ownership_percentage)}</div><div class="l">ownership</div></div>
  <div class="kpi"><div class="v">${when(h.investment_date, true)}</div><div class="l">invested on · ${words(h.holding_type).toLowerCase()}</div></div>
</div>
${v.positions.length > 1
  ? html`<div class="card flush"><div class="card-head"><h2>Positions</h2><span class="small muted">this company is held by ${v.positions.length} funds</span></div>
  <div class="table-wrap"><table class="compact" data-testid="positions-table"><thead><tr><th>Fund</th><th>Status</th><th>Type</th><th>Invested on</th><th class="num">Invested</th><th class="num">Valuation</th><th class="num">Multiple</th></tr></thead>
  <tbody>${v.positions.map(
    (p) => html`<tr${p.company_id === h.company_id ? html` class="total"` : ""}><td><a href="/app/portfolio/${p.company_id}">${p.fund_name}</a></td><td>${statusBadge(p.status)}</td><td class="small">${words(p.holding_type)}</td>
      <td class="small">${when(p.investment_date, true)}</td><td class="num">${money(p.invested, p.currency)}</td><td class="num">${money(p.current_valuation, p.currency)}</td><td class="num">${multiple(p.value_multiple)}</td></tr>`,
  )}</tbody></table></div></div>`
  : ""}
${fromUpdates(v.metrics)}
<div class="card">
  <div class="card-head"><h2>Metrics</h2><span class="small muted">${metrics.length} metric${metrics.length === 1 ? "" : "s"}, actuals solid, budgets dashed</span></div>
  ${metrics.length
    ? html`<div class="charts">${metrics.map((k) => metricChart(k, v.metrics.get(k)!))}</div>`
    : html`<div class="empty">No metrics reported yet: import them with dealgraph import metrics.</div>`}
</div>`,
    { charts: metrics.length > 0 },
  );
}
