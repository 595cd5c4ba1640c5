// portfolio_latest_actuals (kept by triggers on portfolio_metric_points, migration 0022_reads_at_scale) must hold
// exactly what the list used to compute from the whole history: per company and metric, the
// actual point with the latest statement date. Checked against that computation after each kind
// of write: imports of new, later, earlier and changed points, budgets, and direct SQL that moves
// or deletes points; and the page and the research leaders read it.
import { afterEach, expect, test } from "bun:test";
import { portfolioImporter } from "../../../src/modules/portfolio/portfolio.import.ts";
import { portfolioService } from "../../../src/modules/portfolio/portfolio.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { importPortfolioBook } from "../../helpers/book.ts";
import { seedIdentity, type Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
afterEach(() => t?.close());

const sqlite = () => t.deps.db.$client;

/** What the list computed before the table: max(statement_date) over every actual point. */
const fromHistory = () =>
  sqlite()
    .query(
      `SELECT org_id, company_key, metric, id AS point_id, max(statement_date) AS statement_date, value, unit, currency
       FROM portfolio_metric_points WHERE kind = 'actual' GROUP BY org_id, company_key, metric ORDER BY org_id, company_key, metric`,
    )
    .all();
const maintained = () =>
  sqlite().query("SELECT org_id, company_key, metric, point_id, statement_date, value, unit, currency FROM portfolio_latest_actuals ORDER BY org_id, company_key, metric").all();

const importMetrics = (orgId: string, rows: string) =>
  portfolioImporter(t.deps).importMetrics(orgId, { name: "metrics.csv", text: `company,metric,value,unit,currency,statement_date,kind\n${rows}` });

test("the maintained latest actuals equal the history's after every kind of write", () => {
  t = createTestApp();
  f = seedIdentity(t.deps);
  importPortfolioBook(t.deps, f.orgs.acme.id);
  importPortfolioBook(t.deps, f.orgs.globex.id);
  const steps: [string, () => unknown][] = [
    ["the standard books of two orgs", () => {}],
    ["a later actual", () => importMetrics(f.orgs.acme.id, "acme.com,arr,1400000,,USD,2024-04-30,actual")],
    ["an earlier actual", () => importMetrics(f.orgs.acme.id, "acme.com,arr,900000,,USD,2023-12-31,actual")],
    ["budgets, earlier and later", () => importMetrics(f.orgs.acme.id, "acme.com,arr,9,,USD,2030-01-31,budget\nacme.com,headcount,30,people,,2031-01-31,budget")],
    ["a re-import changing the latest point's figures", () => importMetrics(f.orgs.acme.id, "acme.com,arr,1450000,usd,EUR,2024-04-30,actual")],
    ["a re-import changing an older point", () => importMetrics(f.orgs.acme.id, "acme.com,arr,1,,USD,2024-01-31,actual")],
    ["a new metric", () => importMetrics(f.orgs.acme.id, "Bolt Payments,gross_margin,0.7,ratio,,2024-02-29,")],
    ["the latest point deleted", () => sqlite().run("DELETE FROM portfolio_metric_points WHERE company_key = 'acme.com' AND metric = 'arr' AND statement_date LIKE '2024-04-30%' AND kind = 'actual'")],
    ["an older point deleted", () => sqlite().run("DELETE FROM portfolio_metric_points WHERE company_key = 'acme.com' AND metric = 'arr' AND statement_date LIKE '2023-12-31%'")],
    ["a metric's only point deleted", () => sqlite().run("DELETE FROM portfolio_metric_points WHERE metric = 'gross_margin'")],
    ["a point moved later", () => sqlite().run("UPDATE portfolio_metric_points SET statement_date = '2025-01-31T00:00:00.000Z' WHERE metric = 'monthly_burn'")],
    ["an actual turned budget", () => sqlite().run("UPDATE portfolio_metric_points SET kind = 'budget' WHERE metric = 'runway_months'")],
    ["a point moved to another company", () => sqlite().run("UPDATE portfolio_metric_points SET company_key = 'boltpay.io' WHERE company_key = 'acme.com' AND metric = 'arr' AND kind = 'actual' AND statement_date LIKE '2024-02-29%'")],
    ["every point of an org deleted", () => sqlite().run("DELETE FROM portfolio_metric_points WHERE org_id = ?", [f.orgs.globex.id])],
  ];
  for (const [what, write] of steps) {
    write();
    expect({ what, rows: maintained() }).toEqual({ what, rows: fromHistory() });
  }
  expect(maintained().length).toBeGreaterThan(2);
});

test("the page shows the maintained latest actuals, and research's leaders rank them", async () => {
  t = createTestApp();
  f = seedIdentity(t.deps);
  importPortfolioBook(t.deps, f.orgs.acme.id);
  importMetrics(f.orgs.acme.id, "acme.com,arr,1700000,,USD,2024-05-31,actual\nBolt Payments,arr,2000000,,USD,2023-06-30,actual");
  const page = (await t.request("GET", "/api/v1/portfolio/companies?q=acme", { key: f.keys.read.secret })).json;
  expect(page.companies.map((c: any) => c.metrics.arr)).toEqual([
    { value: 1_700_000, unit: "usd", currency: "USD", statement_date: "2024-05-31T00:00:00.000Z" },
    { value: 1_700_000, unit: "usd", currency: "USD", statement_date: "2024-05-31T00:00:00.000Z" },
  ]);
  // Bolt's 2,000,000 is older than its 450,000 of 2024-01-31: the latest, not the largest, counts.
  const leaders = portfolioService(t.deps).metricLeaders(f.orgs.acme.id, "arr", 5);
  expect(leaders.map((l) => [l.name, l.value, l.statement_date.slice(0, 10)])).toEqual([
    ["Acme Robotics", 1_700_000, "2024-05-31"],
    ["Bolt Payments", 450_000, "2024-01-31"],
  ]);
  expect(leaders[0].id).toBe(portfolioService(t.deps).actualPointId(f.orgs.acme.id, "acme.com", "arr", "2024-05-31T00:00:00.000Z")!);
});
