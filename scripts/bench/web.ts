// The web workspace's server-side rendering at scale, each page against the equivalent API calls
// measured in the same run, alternating one request of each (no assertions):
//   1. The pipeline, GET /app/deals, over 10,000 deals (seeded by direct SQL with a real analysis'
//      JSON each): the board (6 stages x 25 cards with their rounds and stage totals), with and
//      without filters, and a stage's list (50 rows).                     Target: p99 under 50 ms.
//      Equivalent API: the same deals as JSON, GET /api/v1/deals?stage=S&limit=25 for the 6 stages
//      (one board), or GET /api/v1/deals?stage=S&limit=50 (one list page).
//   2. A portfolio company page, GET /app/portfolio/{id}, with 5 years of monthly metrics (5 metrics
//      of actuals, ARR and burn budgets: 420 points) and three positions of the company, charts and
//      tables included.                                                    Target: p99 under 50 ms.
//      Equivalent API: GET /api/v1/portfolio/companies/{id}/metrics?metric=M for its 5 metrics.
// Both sides go through the real app with app.handle, in process (a signed-in session cookie for the
// pages, an API key for the API: each side's own auth), and read the whole body.
//
//   bun scripts/bench/web.ts [--requests 500] [--keep DIR]
import { parseArgs } from "node:util";
import { runHandlers } from "../../jobs/index.ts";
import { deckPdf, generateDeals } from "../../src/demo/decks.ts";
import { rng } from "../../src/demo/rng.ts";
import { startRunner } from "../../src/modules/actions/runner.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { webService } from "../../src/modules/web/web.service.ts";
import { ms, openBenchDir, pct, PIPELINE_STAGES as STAGES, seedDeals, timeBoth } from "../lib/bench.ts";

const { values: opts } = parseArgs({ options: { requests: { type: "string", default: "500" }, keep: { type: "string" } } });
const REQUESTS = Number(opts.requests);
const DEALS = 10_000;
const MONTHS = 60;
const TARGET_MS = 50;

const bench = openBenchDir("web", opts.keep);
const { deps, sqlite, app } = bench;
const log = (line: string) => console.log(line);

const org = orgsService(deps).createOrg("Bench Ventures");
const user = orgsService(deps).createUser({ orgId: org.id, email: "bench@bench.vc", name: "Bench Partner" });
const key = apiKeysService(deps).create({ userId: user.id, scope: "write", dailyRequests: 10_000_000, dailyActions: 1_000 }).secret;
const cookie = `dg_session=${encodeURIComponent(webService(deps).createSession(user.id, "password", "bench").token)}`;

async function page(path: string): Promise<number> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { cookie } }));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
  return body.length;
}
async function api(path: string): Promise<number> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
  return body.length;
}

/** Both sides in turn (scripts/lib/bench.ts), after a warm-up of 30 items. */
async function timed<T>(items: T[], a: (item: T) => Promise<unknown>, b: (item: T) => Promise<unknown>): Promise<[number[], number[]]> {
  await timeBoth(items.slice(0, 30), a, b);
  return timeBoth(items, a, b);
}

function report(name: string, pageMs: number[], apiMs: number[], apiWhat: string, bytes: number) {
  const [p50, p99, a50, a99] = [pct(pageMs, 50), pct(pageMs, 99), pct(apiMs, 50), pct(apiMs, 99)];
  log(`${name}: page p50 ${ms(p50)} ms, p99 ${ms(p99)} ms (${Math.round(bytes / 1024)} KB of HTML)  |  ${apiWhat}: p50 ${ms(a50)} ms, p99 ${ms(a99)} ms  |  ratio p50 ${(p50 / a50).toFixed(2)}x, p99 ${(p99 / a99).toFixed(2)}x  |  target p99 < ${TARGET_MS} ms: ${p99 < TARGET_MS ? "met" : "NOT met"}`);
}

// ---------------------------------------------------------------------------------------------
// 1. The pipeline over 10,000 deals

// One real analysis, so the seeded deals carry realistic facts and analysis JSON.
{
  const deck = generateDeals({ seed: 7 })[0];
  const form = new FormData();
  form.append("file", new Blob([await deckPdf(deck)]), "deck.pdf");
  form.append("company_name", deck.name);
  const res = await app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: form, headers: { authorization: `Bearer ${key}` } }));
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const runner = startRunner(deps, runHandlers(deps), { pollMs: 60_000 });
  runner.pump();
  await runner.idle();
  await runner.stop();
}
const real = sqlite.query<{ facts: string; analysis: string }, []>("SELECT facts, analysis FROM deals WHERE analysis IS NOT NULL LIMIT 1").get()!;
let t0 = performance.now();
seedDeals(sqlite, { orgId: org.id, userId: user.id, count: DEALS, facts: real.facts, analysis: real.analysis });
const r = rng(42);
log(`seeded ${DEALS.toLocaleString("en-US")} deals (analysis JSON ${Math.round((real.facts.length + real.analysis.length) / 1024)} KB each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

type Board = { page: string; api: string[] };
const boards: Board[] = Array.from({ length: REQUESTS }, (_, i) => {
  const k = i % 4;
  if (k === 3) {
    const stage = r.pick(STAGES);
    return { page: `/app/deals?stage=${stage}&page=${r.int(1, 20)}`, api: [`/api/v1/deals?stage=${stage}&limit=50`] };
  }
  const filter = k === 1 ? "kind=company" : k === 2 ? `q=${String(r.int(0, 99)).padStart(2, "0")}` : "";
  return { page: `/app/deals${filter ? `?${filter}` : ""}`, api: STAGES.map((s) => `/api/v1/deals?stage=${s}&limit=25${filter ? `&${filter}` : ""}`) };
});
let bytes = await page("/app/deals");
let [pageMs, apiMs] = await timed(boards, (b) => page(b.page), async (b) => {
  for (const path of b.api) await api(path);
});
report("pipeline (10,000 deals: boards, filtered boards, stage lists)", pageMs, apiMs, "the same deals from the API (6 stage lists per board)", bytes);
const plain = boards.filter((b) => b.page === "/app/deals");
[pageMs, apiMs] = await timed(plain, (b) => page(b.page), async () => api("/api/v1/deals?limit=50"));
report("pipeline board alone", pageMs, apiMs, "one GET /api/v1/deals?limit=50", bytes);

// ---------------------------------------------------------------------------------------------
// 2. A portfolio company with 5 years of monthly metrics

const company = "bench-company.io";
const holdingIds: string[] = [];
t0 = performance.now();
sqlite.transaction(() => {
  const holding = sqlite.prepare(
    `INSERT INTO portfolio_holdings (id, org_id, name, name_fold, website, company_key, sector, stage, status, fund_name, holding_type,
       investment_date, ownership_percentage, invested, current_valuation, currency, created_at, updated_at)
     VALUES (?, ?, 'Bench Company', 'bench company', ?, ?, 'Fintech', 'series_b', 'active', ?, 'direct_company', '2021-06-01', 5, ?, ?, 'USD', ?, ?)`,
  );
  const now = new Date().toISOString();
  for (const [i, fund] of ["Fund I", "Fund II", "Fund III"].entries()) {
    const id = Bun.randomUUIDv7();
    holding.run(id, org.id, company, company, fund, 2_000_000 * (i + 1), 3_000_000 * (i + 1), now, now);
    holdingIds.push(id);
  }
  const point = sqlite.prepare(`INSERT INTO portfolio_metric_points (org_id, company_key, metric, kind, statement_date, value, unit, currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const metrics: [string, string | null, string | null][] = [["arr", null, "USD"], ["monthly_burn", null, "USD"], ["runway_months", "months", null], ["headcount", "people", null], ["gross_margin", "percent", null]];
  for (let m = 0; m < MONTHS; m++) {
    const date = new Date(Date.UTC(2021, m + 1, 0)).toISOString().slice(0, 10);
    for (const [metric, unit, currency] of metrics) point.run(org.id, company, metric, "actual", date, r.int(1, 1_000_000), unit, currency);
    for (const metric of ["arr", "monthly_burn"]) point.run(org.id, company, metric, "budget", date, r.int(1, 1_000_000), null, "USD");
  }
})();
log(`seeded a company with ${MONTHS} months of 5 metrics and 2 budgets (${MONTHS * 7} points) and 3 positions in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
const companyPath = `/app/portfolio/${holdingIds[0]}`;
const metricPaths = ["arr", "monthly_burn", "runway_months", "headcount", "gross_margin"].map((m) => `/api/v1/portfolio/companies/${holdingIds[0]}/metrics?metric=${m}`);
bytes = await page(companyPath);
[pageMs, apiMs] = await timed(Array.from({ length: REQUESTS }, () => 0), () => page(companyPath), async () => {
  for (const path of metricPaths) await api(path);
});
report("portfolio company (5 years of monthly metrics)", pageMs, apiMs, "its 5 metric histories from the API", bytes);
[pageMs, apiMs] = await timed(Array.from({ length: REQUESTS }, () => 0), () => page(companyPath), () => api(metricPaths[0]));
report("portfolio company, against one metric's history", pageMs, apiMs, "GET .../metrics?metric=arr", bytes);

bench.close();
