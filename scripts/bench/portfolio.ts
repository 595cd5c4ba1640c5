// Portfolio and funds reads at scale, each against a bare baseline measured in the same run:
//   1. GET /api/v1/portfolio/companies over 10,000 holdings and 1,000,000 metric points: p50/p99
//      of a mix of pages (any offset, filters, name search).            Target: p99 under 20 ms.
//      Baseline: the same three SQL statements (count, page, latest metrics of the page) run
//      alone through bun:sqlite with the same parameters.
//   2. GET /api/v1/funds/positions over 500 commitments and 100,000 cashflows: one call's time.
//                                                                        Target: under 100 ms.
//      Baseline: the bare SQL reads of the same commitments, ledger and marks (bun:sqlite).
// Requests go through the real app (auth, budget counting, validation, JSON) with app.handle, in
// process: the HTTP server's own overhead is measured by `bun run bench:http`. Seeding is direct
// SQL (CONTRACT.md allows it for benchmarks); the database is a WAL file in a temp dir.
//
// On a shared or loaded machine compare each figure with its bare baseline of the same run, not
// with a number from another run.
//
//   bun scripts/bench/portfolio.ts [--requests 2000] [--runs 30] [--keep DIR]
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { rng } from "../../src/demo/rng.ts";

const { values: opts } = parseArgs({ options: { requests: { type: "string", default: "2000" }, runs: { type: "string", default: "30" }, keep: { type: "string" } } });
const REQUESTS = Number(opts.requests);
const RUNS = Number(opts.runs);
const SIZE = { holdings: 10_000, metricPoints: 1_000_000, commitments: 500, cashflows: 100_000 };
const TARGET = { listP99Ms: 20, positionsMs: 100 };

const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-portfolio-"));
const config = loadConfig({}, { dataDir: dir });
const { db } = openDataDir(config);
const sqlite: Database = db.$client;
const deps = createDeps({ db, config, log: silentLog });
const log = (line: string) => console.log(line);
const ms = (x: number) => x.toFixed(2);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

// ---------------------------------------------------------------------------------------------
// Seed

const org = orgsService(deps).createOrg("Bench Ventures");
const user = orgsService(deps).createUser({ orgId: org.id, email: "bench@bench.vc", name: "Bench" });
const key = apiKeysService(deps).create({ userId: user.id, scope: "read", dailyRequests: 10_000_000 }).secret;
const r = rng(42);
const FUNDS = ["Fund I", "Fund II", "Fund III", "Fund IV", "Fund V"];
const STATUSES = ["active", "active", "active", "exited", "written_off"];
const now = new Date().toISOString();

function seedBook() {
  const holding = sqlite.prepare(
    `INSERT INTO portfolio_holdings (id, org_id, name, name_fold, website, company_key, sector, stage, status, fund_name, holding_type,
       investment_date, ownership_percentage, invested, current_valuation, currency, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'Fintech', 'series_a', ?, ?, 'direct_company', '2021-06-01', 5, ?, ?, 'USD', ?, ?)`,
  );
  const point = sqlite.prepare(
    `INSERT INTO portfolio_metric_points (org_id, company_key, metric, kind, statement_date, value, unit, currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const companies: string[] = [];
  const names: string[] = [];
  const held = new Set<string>();
  sqlite.transaction(() => {
    for (let i = 0; holding && held.size < SIZE.holdings; i++) {
      // one holding in twenty is a follow-on, from another fund, in a company already held
      const follow = i > 100 && i % 20 === 0;
      const c = follow ? r.int(0, companies.length - 1) : companies.length;
      if (!follow) {
        companies.push(`company${String(c).padStart(5, "0")}.com`);
        names.push(`Company ${String(c).padStart(5, "0")} ${r.pick(["Labs", "AI", "Pay", "Health"])}`);
      }
      const fund = FUNDS[i % 5];
      if (held.has(`${c}|${fund}`)) continue;
      held.add(`${c}|${fund}`);
      const invested = r.int(5, 100) * 100_000;
      holding.run(Bun.randomUUIDv7(), org.id, names[c], names[c].toLowerCase(), companies[c], companies[c], r.pick(STATUSES), fund, invested, r.chance(0.2) ? null : invested * 2, now, now);
    }
    // about 100 points a company: 5 metrics of monthly actuals, and the rest arr budgets
    const metrics = ["arr", "monthly_burn", "runway_months", "headcount", "gross_margin"];
    const perCompany = Math.ceil(SIZE.metricPoints / companies.length);
    const months = Math.floor((perCompany - 6) / metrics.length);
    let written = 0;
    const put = (company: string, metric: string, kind: string, date: string) => {
      if (written++ < SIZE.metricPoints) point.run(org.id, company, metric, kind, date, r.int(1, 1_000_000), "usd", "USD");
    };
    for (const company of companies) {
      for (let m = 0; m < months; m++) for (const metric of metrics) put(company, metric, "actual", new Date(Date.UTC(2023, m + 1, 0)).toISOString());
      for (let m = 0; m < perCompany - months * metrics.length; m++) put(company, "arr", "budget", new Date(Date.UTC(2025, m + 1, 0)).toISOString());
    }
  })();
}

function seedFunds() {
  const commitment = sqlite.prepare(`INSERT INTO fund_commitments (id, org_id, fund_name, vintage_year, commitment, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'USD', ?, ?)`);
  const cashflow = sqlite.prepare(`INSERT OR IGNORE INTO fund_cashflows (id, org_id, commitment_id, cashflow_date, type, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const mark = sqlite.prepare(`INSERT INTO fund_marks (id, org_id, commitment_id, mark_date, nav, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  sqlite.transaction(() => {
    const perCommitment = SIZE.cashflows / SIZE.commitments;
    for (let i = 0; i < SIZE.commitments; i++) {
      const id = Bun.randomUUIDv7();
      const vintage = 2012 + (i % 10);
      commitment.run(id, org.id, `Manager ${i} Fund ${1 + (i % 7)}`, vintage, 10_000_000, now, now);
      const start = Date.UTC(vintage, 0, 1);
      for (let k = 0; k < perCommitment; k++) {
        const date = new Date(start + Math.floor((k / perCommitment) * 10 * 365 + r.int(0, 10)) * 86_400_000).toISOString().slice(0, 10);
        cashflow.run(Bun.randomUUIDv7(), org.id, id, date, k < perCommitment * 0.6 ? "call" : "distribution", r.int(10, 200) * 1000 + k, now);
      }
      for (let q = 0; q < 40; q++) mark.run(Bun.randomUUIDv7(), org.id, id, new Date(Date.UTC(vintage, 3 * q + 3, 0)).toISOString().slice(0, 10), r.int(1, 20) * 1_000_000, now, now);
    }
  })();
}

let t0 = performance.now();
seedBook();
log(`seeded ${SIZE.holdings.toLocaleString()} holdings and ${SIZE.metricPoints.toLocaleString()} metric points in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
t0 = performance.now();
seedFunds();
const counted = sqlite.query<{ c: number; f: number }, []>("SELECT (SELECT count(*) FROM fund_commitments) AS c, (SELECT count(*) FROM fund_cashflows) AS f").get()!;
log(`seeded ${counted.c} commitments and ${counted.f.toLocaleString()} cashflows (and 40 quarterly marks each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------------------------------------
// Portfolio list

const app = createApp(deps);
const get = async (path: string) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

type ListQuery = { status: string | null; fund: string | null; q: string | null; limit: number; offset: number };
const queries: ListQuery[] = Array.from({ length: REQUESTS }, (_, i) => {
  const kind = i % 4;
  return {
    status: kind === 1 ? "active" : null,
    fund: kind === 2 ? r.pick(FUNDS) : null,
    q: kind === 3 ? String(r.int(0, 999)).padStart(3, "0") : null,
    limit: 50,
    offset: kind === 0 ? r.int(0, 199) * 50 : r.int(0, 9) * 50,
  };
});
const toPath = (q: ListQuery) =>
  `/api/v1/portfolio/companies?limit=${q.limit}&offset=${q.offset}` +
  (q.status ? `&status=${q.status}` : "") + (q.fund ? `&fund_name=${encodeURIComponent(q.fund)}` : "") + (q.q ? `&q=${q.q}` : "");

// The bare baseline: the same three statements, alone.
const where = `org_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR fund_name = ?3) AND (?4 IS NULL OR instr(name_fold, ?4) > 0)`;
const bareCount = sqlite.prepare(`SELECT count(*) AS n FROM portfolio_holdings WHERE ${where}`);
const barePage = sqlite.prepare(
  `SELECT *, (SELECT count(*) FROM portfolio_holdings s WHERE s.org_id = portfolio_holdings.org_id AND s.company_key = portfolio_holdings.company_key) AS position_count
   FROM portfolio_holdings WHERE ${where} ORDER BY name_fold, fund_name LIMIT ?5 OFFSET ?6`,
);
const bareMetrics = sqlite.prepare(
  `SELECT company_key, metric, value, unit, currency, max(statement_date) AS statement_date FROM portfolio_metric_points
   WHERE org_id = ?1 AND company_key IN (SELECT value FROM json_each(?2)) AND kind = 'actual' GROUP BY company_key, metric`,
);
function bareList(q: ListQuery) {
  const total = (bareCount.get(org.id, q.status, q.fund, q.q) as { n: number }).n;
  const rows = barePage.all(org.id, q.status, q.fund, q.q, q.limit, q.offset) as { company_key: string }[];
  const metrics = bareMetrics.all(org.id, JSON.stringify([...new Set(rows.map((x) => x.company_key))]));
  return { total, rows, metrics };
}

async function timeEach<T>(items: T[], run: (item: T) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (const item of items) {
    const start = performance.now();
    await run(item);
    times.push(performance.now() - start);
  }
  return times;
}

// Same answer from both sides, then warm both up.
const probe = await get(toPath(queries[0]));
const bare = bareList(queries[0]);
if (probe.total !== bare.total || probe.companies.length !== bare.rows.length) throw new Error("the app and the bare queries disagree");
await timeEach(queries.slice(0, 200), (q) => get(toPath(q)));
await timeEach(queries.slice(0, 200), bareList);
const appTimes = await timeEach(queries, (q) => get(toPath(q)));
const bareTimes = await timeEach(queries, bareList);
const sample = await get("/api/v1/portfolio/companies?limit=50&offset=5000");
const metricsShown = sample.companies.reduce((n: number, c: any) => n + Object.keys(c.metrics).length, 0);

log("");
log(`GET /api/v1/portfolio/companies, ${REQUESTS} requests (a mix of offsets, status, fund and name filters), ${metricsShown} latest metrics on a page of 50`);
log(`  dealgraph   p50 ${ms(pct(appTimes, 50))} ms   p99 ${ms(pct(appTimes, 99))} ms   max ${ms(Math.max(...appTimes))} ms`);
log(`  bare SQL    p50 ${ms(pct(bareTimes, 50))} ms   p99 ${ms(pct(bareTimes, 99))} ms`);
log(`  ratio       p50 ${(pct(appTimes, 50) / pct(bareTimes, 50)).toFixed(2)}x   p99 ${(pct(appTimes, 99) / pct(bareTimes, 99)).toFixed(2)}x (dealgraph / bare)`);
log(`  target      p99 < ${TARGET.listP99Ms} ms: ${pct(appTimes, 99) < TARGET.listP99Ms ? "met" : "NOT MET"}`);

// ---------------------------------------------------------------------------------------------
// Funds positions

const bareCommitments = sqlite.prepare(`SELECT * FROM fund_commitments WHERE org_id = ? ORDER BY fund_name`);
const bareLedger = sqlite.prepare(`SELECT commitment_id, cashflow_date, type, amount FROM fund_cashflows WHERE org_id = ? ORDER BY commitment_id, cashflow_date`);
const bareMarks = sqlite.prepare(`SELECT commitment_id, mark_date, nav FROM fund_marks WHERE org_id = ? ORDER BY commitment_id, mark_date`);
const bareFunds = () => [bareCommitments.all(org.id), bareLedger.values(org.id), bareMarks.values(org.id)];

const runs = Array.from({ length: RUNS }, (_, i) => i);
await timeEach(runs.slice(0, 3), () => get("/api/v1/funds/positions"));
await timeEach(runs.slice(0, 3), bareFunds);
const posTimes = await timeEach(runs, () => get("/api/v1/funds/positions"));
const bareFundTimes = await timeEach(runs, bareFunds);
// The body is read as bytes: parsing 20 MB of JSON is the client's cost, not the server's.
const cashflowTimes = await timeEach(runs.slice(0, 10), async () => {
  const res = await app.handle(new Request("http://localhost/api/v1/funds/cashflows", { headers: { authorization: `Bearer ${key}` } }));
  if (res.status !== 200) throw new Error(`cashflows: ${res.status}`);
  await res.arrayBuffer();
});
// The ledger's bare read: the same rows and columns in index order, nothing ordered or written.
const bareCashflows = sqlite.prepare(
  `SELECT id, commitment_id, cashflow_date, unixepoch(cashflow_date) / 86400, type, amount FROM fund_cashflows WHERE org_id = ? ORDER BY commitment_id, cashflow_date, type, amount`,
);
const bareCashflowTimes = await timeEach(runs.slice(0, 10), () => bareCashflows.values(org.id));
const positions = await get("/api/v1/funds/positions");

log("");
log(`GET /api/v1/funds/positions, ${positions.positions.length} commitments, ${counted.f.toLocaleString()} cashflows, ${RUNS} runs (totals IRR ${positions.totals.irr})`);
log(`  dealgraph   median ${ms(pct(posTimes, 50))} ms   min ${ms(Math.min(...posTimes))} ms   max ${ms(Math.max(...posTimes))} ms`);
log(`  bare SQL    median ${ms(pct(bareFundTimes, 50))} ms   min ${ms(Math.min(...bareFundTimes))} ms (commitments, ledger and marks read, nothing computed)`);
log(`  ratio       ${(pct(posTimes, 50) / pct(bareFundTimes, 50)).toFixed(2)}x (dealgraph / bare)`);
log(`  target      < ${TARGET.positionsMs} ms: ${pct(posTimes, 50) < TARGET.positionsMs ? "met" : "NOT MET"} (median)`);
log("");
log(`GET /api/v1/funds/cashflows (all ${counted.f.toLocaleString()} rows as JSON, the body read as bytes), 10 runs`);
log(`  dealgraph   median ${ms(pct(cashflowTimes, 50))} ms   min ${ms(Math.min(...cashflowTimes))} ms`);
log(`  bare SQL    median ${ms(pct(bareCashflowTimes, 50))} ms   (the rows read in index order, nothing ordered or written)`);

sqlite.close();
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
