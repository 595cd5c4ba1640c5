// The LP book: each commitment's called, distributed, NAV, TVPI/DPI/RVPI and net IRR with its
// data-quality flags (explained), totals per currency (never pooled across currencies), and the
// history as charts: TVPI and NAV from the quarterly marks, and calls and distributions by quarter
// with the cumulative net cash flow (the J-curve).
import type { fundsService } from "../../funds/funds.service.ts";
import { html, type Html } from "../html.ts";
import { alignSeries, CALL_COLOR, chart, DISTRIBUTION_COLOR, PALETTE } from "./charts.ts";
import { count, money, multiple, percent } from "./format.ts";
import { badge, layout, pageHead, when, type Shell } from "./layout.ts";

type Positions = ReturnType<ReturnType<typeof fundsService>["positions"]>;
/** The figures every row has: a position's, a currency's totals. */
type Figures = Omit<Positions["totals"], "currency" | "position_count">;
export type PositionRow = Positions["positions"][number];
export type TotalsRow = Positions["totals_by_currency"][number];
export type MarkTrace = ReturnType<ReturnType<typeof fundsService>["marks"]>[number];
/** A row of the ledger as the API publishes it (the funds service gives it as JSON text). */
export type CashflowRow = { cashflow_date: string; type: "call" | "distribution"; amount: number; currency: string | null; fund_name: string };

export type FundsView = {
  fund: string;
  funds: string[];
  positions: PositionRow[];
  totals: Positions["totals"];
  totalsByCurrency: TotalsRow[];
  marks: MarkTrace[];
  cashflows: CashflowRow[];
};

/** What each data-quality flag means for the figures beside it. */
export const FLAG_TEXT: Record<string, string> = {
  no_cashflows: "No calls or distributions are recorded: called, distributed and the ratios are 0 or missing.",
  no_mark: "No NAV mark is recorded: NAV, TVPI, RVPI and IRR cannot be computed.",
  stale_nav: "The latest NAV mark is more than 180 days old: NAV-based figures may be out of date.",
  cashflows_after_last_mark: "Calls or distributions came after the last mark: NAV is the mark rolled forward by them (calls add, distributions subtract).",
  called_above_commitment: "More has been called than was committed: check the ledger.",
  negative_rolled_nav: "Rolling the NAV forward made it negative: the distributions after the mark exceed the mark.",
  irr_not_computable: "The IRR has no solution for these cash flows (for example, nothing called yet).",
  unknown_currency: "The commitment has no currency: it is not pooled with any other in the totals.",
  mixed_currency: "Commitments are in several currencies: totals are given per currency, never summed across them.",
};

function flags(list: string[]): Html {
  if (list.length === 0) return html`<span class="muted small">—</span>`;
  return html`${list.map((f) => html`<span class="flag" title="${FLAG_TEXT[f] ?? f}">${badge(f.replace(/_/g, " "), f === "stale_nav" || f === "cashflows_after_last_mark" ? "warn" : "bad")}</span>`)}`;
}

function figureCells(r: Figures, currency: string | null): Html {
  return html`<td class="num" data-field="commitment">${money(r.commitment, currency, { compact: false })}</td>
  <td class="num" data-field="called">${money(r.called, currency, { compact: false })}</td>
  <td class="num" data-field="distributed">${money(r.distributed, currency, { compact: false })}</td>
  <td class="num" data-field="nav">${money(r.nav, currency, { compact: false, reason: "no NAV mark" })}${r.nav_date ? html`<div class="small muted">${when(r.nav_date, true)}</div>` : ""}</td>
  <td class="num" data-field="unfunded">${money(r.unfunded, currency, { compact: false })}</td>
  <td class="num" data-field="tvpi">${multiple(r.tvpi)}</td>
  <td class="num" data-field="dpi">${multiple(r.dpi)}</td>
  <td class="num" data-field="rvpi">${multiple(r.rvpi)}</td>
  <td class="num" data-field="irr">${percent(r.irr)}</td>`;
}

function positionsTable(v: FundsView): Html {
  if (v.positions.length === 0) return html`<div class="empty">No LP commitments yet: import them with dealgraph import funds.</div>`;
  const totals = v.totalsByCurrency.filter((t) => t.position_count > 0);
  return html`<div class="table-wrap"><table data-testid="positions-table">
<thead><tr><th>Fund</th><th class="num">Commitment</th><th class="num">Called</th><th class="num">Distributed</th><th class="num">NAV</th><th class="num">Unfunded</th>
<th class="num">TVPI</th><th class="num">DPI</th><th class="num">RVPI</th><th class="num">Net IRR</th><th>Data quality</th></tr></thead>
<tbody>
${v.positions.map(
  (p) => html`<tr id="c-${p.commitment_id}" data-commitment-id="${p.commitment_id}">
  <td><a href="/app/funds?fund=${encodeURIComponent(p.fund_name)}"><strong>${p.fund_name}</strong></a><div class="small muted">${p.vintage_year ? `vintage ${p.vintage_year}` : "vintage not stated"} · ${p.currency ?? "currency unknown"}</div></td>
  ${figureCells(p, p.currency)}
  <td>${flags(p.data_quality_flags)}</td>
</tr>`,
)}
${v.positions.length > 1
  ? totals.map(
      (t) => html`<tr class="total" data-totals-currency="${t.currency ?? ""}">
  <td>Total ${t.currency ?? "(currency unknown)"}<div class="small muted">${t.position_count} commitment${t.position_count === 1 ? "" : "s"}</div></td>
  ${figureCells(t, t.currency)}
  <td>${flags(t.data_quality_flags)}</td>
</tr>`,
    )
  : ""}
</tbody></table></div>`;
}

function flagsExplained(v: FundsView): Html {
  const present = [...new Set([...v.positions.flatMap((p) => p.data_quality_flags), ...v.totals.data_quality_flags])].sort();
  if (present.length === 0) return html``;
  return html`<div class="card" data-testid="flags-explained"><h2>Data-quality flags</h2><ul class="flags-explained">
  ${present.map((f) => html`<li><strong>${f.replace(/_/g, " ")}</strong>: ${FLAG_TEXT[f] ?? "see the API reference."}</li>`)}
</ul></div>`;
}

const currencies = (v: FundsView) => [...new Set(v.marks.map((m) => m.currency))].sort((a, b) => (a ?? "~").localeCompare(b ?? "~"));

/** Calendar quarter end of a date: 2024-05-10 -> 2024-06-30. */
export function quarterEnd(date: string): string {
  const y = Number(date.slice(0, 4));
  const q = Math.floor((Number(date.slice(5, 7)) - 1) / 3);
  return new Date(Date.UTC(y, q * 3 + 3, 0)).toISOString().slice(0, 10);
}

function cashflowChart(v: FundsView, currency: string | null, id: string): Html {
  const flows = v.cashflows.filter((c) => c.currency === currency);
  const byQuarter = new Map<string, { calls: number; distributions: number }>();
  for (const c of flows) {
    const q = quarterEnd(c.cashflow_date);
    const entry = byQuarter.get(q) ?? { calls: 0, distributions: 0 };
    if (c.type === "call") entry.calls += c.amount;
    else entry.distributions += c.amount;
    byQuarter.set(q, entry);
  }
  const x = [...byQuarter.keys()].sort();
  let net = 0;
  const cumulative = x.map((q) => (net += byQuarter.get(q)!.distributions - byQuarter.get(q)!.calls));
  const round = (n: number) => Math.round(n * 100) / 100;
  return chart({
    id,
    title: `Calls and distributions${currency ? `, ${currency}` : ""}`,
    caption: "by quarter; calls below zero; the line is the cumulative net cash flow (the J-curve)",
    unit: "money",
    currency,
    x,
    series: [
      { label: "Calls", values: x.map((q) => -round(byQuarter.get(q)!.calls)), bars: true, color: CALL_COLOR },
      { label: "Distributions", values: x.map((q) => round(byQuarter.get(q)!.distributions)), bars: true, color: DISTRIBUTION_COLOR },
      { label: "Cumulative net", values: cumulative.map(round), color: "#1f3a5f" },
    ],
  });
}

function charts(v: FundsView): Html {
  if (v.marks.length === 0 && v.cashflows.length === 0) return html``;
  const tvpi = alignSeries(v.marks.map((m, i) => ({ label: m.fund_name, color: PALETTE[i % PALETTE.length], points: m.points.filter((p) => p.tvpi !== null).map((p) => ({ date: p.mark_date, value: p.tvpi! })) })));
  const navCharts = currencies(v).map((currency, ci) => {
    const traces = v.marks.filter((m) => m.currency === currency);
    const nav = alignSeries(traces.map((m) => ({ label: m.fund_name, color: PALETTE[v.marks.indexOf(m) % PALETTE.length], points: m.points.map((p) => ({ date: p.mark_date, value: p.nav })) })));
    return chart({ id: `nav-${ci}`, title: `NAV${currency ? `, ${currency}` : " (currency unknown)"}`, caption: "at each quarterly mark", unit: "money", currency, x: nav.x, series: nav.series });
  });
  const flowCharts = [...new Set(v.cashflows.map((c) => c.currency))].sort((a, b) => (a ?? "~").localeCompare(b ?? "~")).map((currency, ci) => cashflowChart(v, currency, `flows-${ci}`));
  return html`<div class="card" data-testid="fund-charts">
  <h2>Over time</h2>
  <div class="charts">
    ${chart({ id: "tvpi", title: "TVPI", caption: "(distributed + NAV) / called, at each mark", unit: "multiple", x: tvpi.x, series: tvpi.series })}
    ${navCharts}
    ${flowCharts}
  </div>
</div>`;
}

function totalsCards(v: FundsView): Html {
  const groups = v.totalsByCurrency.filter((t) => t.position_count > 0);
  if (groups.length === 0) return html``;
  return html`<div class="cards-row" data-testid="totals">
${groups.map(
  (t) => html`<div class="card" data-totals-card="${t.currency ?? ""}">
  <div class="stat-label">${t.currency ?? "Currency unknown"} · ${t.position_count} commitment${t.position_count === 1 ? "" : "s"}</div>
  <div class="stat">${multiple(t.tvpi)} <span class="small muted">TVPI</span></div>
  <div class="small">NAV ${money(t.nav, t.currency)} · distributed ${money(t.distributed, t.currency)} of ${money(t.called, t.currency)} called · IRR ${percent(t.irr)}</div>
</div>`,
)}
</div>`;
}

export function fundsPage(shell: Shell, v: FundsView): Html {
  const aside = html`<form method="get" action="/app/funds" class="inline" data-testid="fund-filter">
  <select name="fund" aria-label="Fund" data-autosubmit>
    <option value="">All ${count(v.funds.length)} funds</option>
    ${v.funds.map((f) => html`<option value="${f}"${f === v.fund ? html` selected` : ""}>${f}</option>`)}
  </select>
  <button class="btn small secondary js-hide" type="submit">Show</button>
</form>`;
  return layout(
    shell,
    html`${pageHead(v.fund ? v.fund : "Funds", v.fund ? html`One LP commitment. <a href="/app/funds">All funds</a>` : "The firm's LP commitments: figures as of today, NAV rolled forward from the last mark.", aside)}
${totalsCards(v)}
<div class="card flush">${positionsTable(v)}</div>
${flagsExplained(v)}
${charts(v)}`,
    { charts: v.marks.length > 0 || v.cashflows.length > 0 },
  );
}
