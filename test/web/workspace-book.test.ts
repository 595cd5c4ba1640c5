// The book pages over real HTTP with a signed-in session: the portfolio and a company's metric
// charts, and the LP funds with totals, flags and charts, each figure the same as the API's; filters
// outside their set are 422; another organization's company is 404 and its book invisible.
import { describe, expect, test } from "bun:test";
import { importFundsBook, importPortfolioBook, holdingId, FUNDS_AS_OF } from "../helpers/book.ts";
import { textOf } from "../helpers/web.ts";
import { workspace, type Workspace } from "../helpers/workspace.ts";

/** Every element's data-value inside the element carrying `attr` (a table row, a card). */
function values(html: string, attr: string): string[] {
  const at = html.indexOf(attr);
  if (at < 0) throw new Error(`no ${attr} on the page`);
  const end = html.indexOf("</tr>", at);
  return [...html.slice(at, end < 0 ? undefined : end).matchAll(/data-value="([^"]*)"/g)].map((m) => m[1]);
}

/** The JSON data block of a chart. */
function chartData(html: string, id: string): { x: string[]; series: { label: string; values: (number | null)[] }[] } {
  const m = html.match(new RegExp(`<script type="application/json" id="chart-${id}">([\\s\\S]*?)</script>`));
  if (!m) throw new Error(`no chart ${id}`);
  return JSON.parse(m[1]);
}

async function book(): Promise<Workspace> {
  const w = await workspace();
  importPortfolioBook(w.t.deps, w.f.orgs.acme.id);
  importFundsBook(w.t.deps, w.f.orgs.acme.id);
  return w;
}

describe("the portfolio", () => {
  test("every holding with the API's figures; filters by status, fund and name", async () => {
    const w = await book();
    const api = (await w.t.request("GET", "/api/v1/portfolio/companies?limit=200", { key: w.f.keys.read.secret })).json;
    const page = await w.alice.get("/app/portfolio");
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(`${api.total} holding`);
    for (const c of api.companies) {
      const row = values(page.html, `data-company-id="${c.company_id}"`);
      for (const v of [c.invested, c.current_valuation, c.value_multiple].filter((x) => x !== null)) expect(row, c.name).toContain(String(v));
    }
    const active = (await w.t.request("GET", "/api/v1/portfolio/companies?status=active&limit=200", { key: w.f.keys.read.secret })).json;
    const filtered = await w.alice.get("/app/portfolio?status=active");
    expect([...filtered.html.matchAll(/<tr data-company-id="([^"]+)"/g)].map((m) => m[1])).toEqual(active.companies.map((c: any) => c.company_id));
    const named = await w.alice.get("/app/portfolio?q=acme");
    expect(named.html).toContain("Acme Robotics");
    expect((await w.alice.get("/app/portfolio?status=zombie")).status).toBe(422);
  });

  test("a company page charts each metric's history, actuals and budgets, exactly as the API reads them", async () => {
    const w = await book();
    const id = holdingId(w.t.deps, w.f.orgs.acme.id);
    const page = await w.alice.get(`/app/portfolio/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<script src="/app/assets/uplot.js" defer></script>');
    const history = (await w.t.request("GET", `/api/v1/portfolio/companies/${id}/metrics?metric=arr`, { key: w.f.keys.read.secret })).json;
    const chart = chartData(page.html, "metric-arr");
    const actual = chart.series.find((s) => s.label === "Actual")!;
    for (const p of history.points.filter((p: any) => p.kind === "actual")) expect(actual.values[chart.x.indexOf(p.statement_date.slice(0, 10))]).toBe(p.value);
    const budgets = history.points.filter((p: any) => p.kind === "budget");
    if (budgets.length) {
      const budget = chart.series.find((s) => s.label === "Budget")!;
      for (const p of budgets) expect(budget.values[chart.x.indexOf(p.statement_date.slice(0, 10))]).toBe(p.value);
    }
  });

  test("another org's company is 404 and its holdings never show", async () => {
    const w = await book();
    const id = holdingId(w.t.deps, w.f.orgs.acme.id);
    expect((await w.carol.get(`/app/portfolio/${id}`)).status).toBe(404);
    expect((await w.carol.get("/app/portfolio/12345")).status).toBe(404);
    const theirs = await w.carol.get("/app/portfolio");
    expect(theirs.html).not.toContain("Acme Robotics");
  });
});

describe("the funds", () => {
  test("positions, totals per currency and flags as the API computes them; charts from the marks and the ledger", async () => {
    const w = await book();
    w.t.clock.set(FUNDS_AS_OF);
    const api = (await w.t.request("GET", "/api/v1/funds/positions", { key: w.f.keys.read.secret })).json;
    const page = await w.alice.get("/app/funds");
    expect(page.status).toBe(200);
    for (const p of api.positions) {
      const row = values(page.html, `data-commitment-id="${p.commitment_id}"`);
      for (const key of ["commitment", "called", "distributed", "nav", "unfunded", "tvpi", "dpi", "rvpi", "irr"]) {
        if (p[key] !== null) expect(row, `${p.fund_name} ${key}`).toContain(String(p[key]));
      }
      for (const flag of p.data_quality_flags) expect(page.html).toContain(flag.replace(/_/g, " "));
    }
    for (const t of api.totals_by_currency) {
      if (api.positions.length > 1) expect(values(page.html, `data-totals-currency="${t.currency ?? ""}"`)).toContain(String(t.called));
    }
    const marks = (await w.t.request("GET", "/api/v1/funds/marks", { key: w.f.keys.read.secret })).json.marks;
    const tvpi = chartData(page.html, "tvpi");
    for (const trace of marks) {
      const series = tvpi.series.find((s) => s.label === trace.fund_name)!;
      for (const p of trace.points) if (p.tvpi !== null) expect(series.values[tvpi.x.indexOf(p.mark_date)]).toBe(p.tvpi);
    }
    expect(page.html).toContain('data-testid="chart-flows-0"');
  });

  test("one fund by name; an unknown name is 404; another org sees no commitment", async () => {
    const w = await book();
    const names = (await w.t.request("GET", "/api/v1/funds/positions", { key: w.f.keys.read.secret })).json.positions.map((p: any) => p.fund_name);
    const one = await w.alice.get(`/app/funds?fund=${encodeURIComponent(names[0])}`);
    expect(one.status).toBe(200);
    expect([...one.html.matchAll(/data-commitment-id="/g)].length).toBe(1);
    expect((await w.alice.get("/app/funds?fund=No%20Such%20Fund")).status).toBe(404);
    const theirs = await w.carol.get("/app/funds");
    for (const n of names) expect(theirs.html).not.toContain(n);
  });
});
