// Portfolio and funds reads at scale, each against baselines measured in the same run.
//
// 1. page: GET /api/v1/portfolio/companies?limit=50 over 500 holdings with 36 and with 120 months
//    of 5 metrics each (the cost of a page must not grow with the history):
//    - in process (app.handle): p50/p99 of pages at every offset, beside the plan-level baseline,
//      the hand-written best SQL for the same page alone (count, page, latest actuals from the
//      maintained table), and two other ways to read the latest actuals for reference: one index
//      seek per (company, metric) on the points' natural key, and max() over the whole history.
//    - over HTTP: `dealgraph serve` against scripts/bench/bare-server.ts (bare Bun.serve +
//      bun:sqlite doing the same essential work: key lookup by hash, budget upsert, count, page,
//      latest actuals) under scripts/bench/load.ts, rounds of alternating order.
//    Targets: dealgraph >= 0.8 of bare (req/s), and 120 months within 1.2x of 36 months.
// 2. list: a mix of pages (offsets, filters, name search) over 10,000 holdings and 1,000,000 metric
//    points, in process, against the same statements run bare.        Target: p99 under 20 ms.
// 3. funds: GET /api/v1/funds/positions, /cashflows and /marks over 500 commitments and 100,000
//    cashflows (40 marks each), in process, against the hand-written reads of the same rows; the
//    ledger (22 MB of JSON) also against a bare program writing the same body.
//                                                                   Target: within 1.5x of bare.
// Seeding is direct SQL (CONTRACT.md allows it for benchmarks) into migrated WAL databases in temp
// dirs. On a shared machine compare each figure with its baseline of the same run.
//
//   bun scripts/bench/portfolio.ts [--only page|list|funds] [--requests 2000] [--runs 20] [--rounds 3] [--duration 5] [--connections 32]
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { rng } from "../../src/demo/rng.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { ROOT } from "../build.ts";
import { FUNDS, seedBook, seedFunds } from "../lib/bench-seed.ts";
import { money } from "../../src/lib/figures.ts";
import { pct, timeBoth } from "../lib/bench.ts";
import { startServe } from "../lib/child-process.ts";
import { alternatingRounds, fmt, loadRunner, perCpuSecond } from "../lib/load-rounds.ts";

const { values: opts } = parseArgs({
  options: {
    only: { type: "string" },
    requests: { type: "string", default: "2000" },
    runs: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "32" },
  },
});
const SECTIONS = ["page", "list", "funds"] as const;
if (opts.only && !SECTIONS.includes(opts.only as never)) throw new Error(`--only takes one of ${SECTIONS.join(", ")}`);
const runs = (section: (typeof SECTIONS)[number]) => !opts.only || opts.only === section;
const REQUESTS = Number(opts.requests);
const RUNS = Number(opts.runs);
const TARGET = { pageRatio: 0.8, historyGrowth: 1.2, listP99Ms: 20, fundsRatio: 1.5 };

const log = (line: string) => console.log(line);
const ms = (x: number) => x.toFixed(2);
const verdict = (ok: boolean) => (ok ? "met" : "NOT MET");
const dirs: string[] = [];

type Firm = { dir: string; deps: Deps; sqlite: Database; orgId: string; key: string; get: (path: string) => Promise<Response> };

/** A migrated data dir with one org and a read key whose budget the bench cannot spend. */
function openFirm(name: string): Firm {
  const dir = mkdtempSync(join(tmpdir(), `dealgraph-bench-${name}-`));
  dirs.push(dir);
  const config = loadConfig({}, { dataDir: dir });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, log: silentLog });
  const org = orgsService(deps).createOrg("Bench Ventures");
  const user = orgsService(deps).createUser({ orgId: org.id, email: "bench@bench.vc", name: "Bench" });
  const key = apiKeysService(deps).create({ userId: user.id, scope: "read", dailyRequests: 10_000_000 }).secret;
  let app: ReturnType<typeof createApp> | null = null;
  const get = async (path: string) => {
    app ??= createApp(deps);
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  return { dir, deps, sqlite: db.$client, orgId: org.id, key, get };
}

function report(what: string, app: number[], bare: number[], bareWhat: string) {
  log(what);
  log(`  dealgraph   p50 ${ms(pct(app, 50))} ms   p99 ${ms(pct(app, 99))} ms   min ${ms(Math.min(...app))} ms`);
  log(`  bare SQL    p50 ${ms(pct(bare, 50))} ms   p99 ${ms(pct(bare, 99))} ms   min ${ms(Math.min(...bare))} ms (${bareWhat})`);
  log(`  ratio       p50 ${(pct(app, 50) / pct(bare, 50)).toFixed(2)}x   p99 ${(pct(app, 99) / pct(bare, 99)).toFixed(2)}x (dealgraph / bare)`);
}

// ---------------------------------------------------------------------------------------------
// The hand-written baselines of a page: count, page, and the latest actuals three ways.

function pageBaseline(sqlite: Database) {
  const where = (h: string) =>
    `${h}org_id = +$org AND (+$status IS NULL OR ${h}status = +$status) AND (+$fund IS NULL OR ${h}fund_name = +$fund) AND (+$q IS NULL OR instr(${h}name_fold, +$q) > 0)`;
  const count = sqlite.query<{ n: number }, Record<string, string | null>>(`SELECT count(*) AS n FROM portfolio_holdings WHERE ${where("")}`);
  const page = sqlite.query<{ company_key: string }, Record<string, string | number | null>>(
    `SELECT h.*, (SELECT count(*) FROM portfolio_holdings s WHERE s.org_id = h.org_id AND s.company_key = h.company_key) AS position_count
     FROM portfolio_holdings h WHERE ${where("h.")} ORDER BY h.name_fold, h.fund_name LIMIT +$limit OFFSET +$offset`,
  );
  // The maintained table: one row per (company, metric).
  const fromTable = sqlite.query(
    "SELECT j.key, l.metric, l.value, l.unit, l.currency, l.statement_date FROM json_each(+$keys) j CROSS JOIN portfolio_latest_actuals l ON l.org_id = +$org AND l.company_key = j.value",
  );
  // One seek per (company, metric) on the natural key (org, company, kind, metric, date): the
  // metrics found by skipping from one to the next, each one's newest point read from its end.
  const bySeeks = sqlite.query(
    `WITH RECURSIVE m(company_key, metric) AS (
       SELECT k.value, (SELECT min(metric) FROM portfolio_metric_points WHERE org_id = +$org AND company_key = k.value AND kind = 'actual') FROM json_each(+$keys) k
       UNION ALL
       SELECT m.company_key, (SELECT min(metric) FROM portfolio_metric_points WHERE org_id = +$org AND company_key = m.company_key AND kind = 'actual' AND metric > m.metric)
       FROM m WHERE m.metric IS NOT NULL)
     SELECT m.company_key, m.metric, p.value, p.unit, p.currency, p.statement_date FROM m
     JOIN portfolio_metric_points p ON p.id = (SELECT id FROM portfolio_metric_points WHERE org_id = +$org AND company_key = m.company_key AND kind = 'actual' AND metric = m.metric ORDER BY statement_date DESC LIMIT 1)`,
  );
  // max() over every actual point of the page's companies (the read before the maintained table).
  const overHistory = sqlite.query(
    `SELECT company_key, metric, value, unit, currency, max(statement_date) AS statement_date FROM portfolio_metric_points
     WHERE org_id = +$org AND company_key IN (SELECT value FROM json_each(+$keys)) AND kind = 'actual' GROUP BY company_key, metric`,
  );
  return { count, page, latest: { fromTable, bySeeks, overHistory } };
}

type PageQuery = { status: string | null; fund: string | null; q: string | null; limit: number; offset: number };
const toPath = (q: PageQuery) =>
  `/api/v1/portfolio/companies?limit=${q.limit}&offset=${q.offset}` + (q.status ? `&status=${q.status}` : "") + (q.fund ? `&fund_name=${encodeURIComponent(q.fund)}` : "") + (q.q ? `&q=${q.q}` : "");

function barePage(base: ReturnType<typeof pageBaseline>, orgId: string, latest: "fromTable" | "bySeeks" | "overHistory" = "fromTable") {
  return (q: PageQuery) => {
    const params = { org: orgId, status: q.status, fund: q.fund, q: q.q };
    const total = base.count.get(params)!.n;
    const rows = total > q.offset ? base.page.all({ ...params, limit: q.limit, offset: q.offset }) : [];
    const metrics = base.latest[latest].values({ org: orgId, keys: JSON.stringify([...new Set(rows.map((x) => x.company_key))]) });
    return { total, rows, metrics };
  };
}

// ---------------------------------------------------------------------------------------------
// 1. The page at 36 and 120 months of history

async function pageSection() {
  const HOLDINGS = 500;
  const load = loadRunner({ connections: Number(opts.connections), warmup: Number(opts.warmup), duration: Number(opts.duration), wrk: Bun.which("wrk") }, log);
  const byMonths = new Map<number, { p50: number; perCpu: number; ratio: number }>();
  try {
    for (const months of [36, 120]) {
      const firm = openFirm(`page${months}`);
      let t0 = performance.now();
      const { points } = seedBook(firm.sqlite, firm.orgId, { holdings: HOLDINGS, months, budgets: 6 });
      log("");
      log(`page: ${HOLDINGS} holdings, ${months} months of 5 metrics (${points.toLocaleString()} points) seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const base = pageBaseline(firm.sqlite);
      const queries: PageQuery[] = Array.from({ length: REQUESTS }, (_, i) => ({ status: null, fund: null, q: null, limit: 50, offset: (i % 10) * 50 }));
      const bare = barePage(base, firm.orgId);
      const probe = (await (await firm.get(toPath(queries[0]))).json()) as { total: number; companies: { website: string; metrics: object }[] };
      const b = bare(queries[0]);
      // Metrics belong to the company: count them once per company (website) of the page.
      const shown = [...new Map(probe.companies.map((c) => [c.website, Object.keys(c.metrics).length])).values()].reduce((x, y) => x + y, 0);
      if (probe.total !== b.total || probe.companies.length !== b.rows.length || shown !== b.metrics.length) throw new Error("the app and the bare queries disagree");
      const viaApp = (q: PageQuery) => firm.get(toPath(q)).then((r) => r.arrayBuffer());
      await timeBoth(queries.slice(0, 200), viaApp, bare);
      const [app, bareTimes] = await timeBoth(queries, viaApp, bare);
      report(`  in process: GET /api/v1/portfolio/companies?limit=50 at every offset, ${REQUESTS} requests, ${shown} latest actuals a page`, app, bareTimes, "count, page, latest actuals from the maintained table");
      const [seeks, history] = await timeBoth(queries.slice(0, 300), barePage(base, firm.orgId, "bySeeks"), barePage(base, firm.orgId, "overHistory"));
      log(`  the same page, latest actuals read another way: one seek per (company, metric) p50 ${ms(pct(seeks, 50))} ms; max() over the history p50 ${ms(pct(history, 50))} ms`);

      // Over HTTP: the real server against the bare one, on this data dir.
      let shapeOfDealgraph: string[] | null = null;
      const path = "/api/v1/portfolio/companies?limit=50";
      type Measured = Awaited<ReturnType<typeof load.measure>>;
      const dealgraph = async (): Promise<Measured> => {
        const dg = await startServe([process.execPath, join(ROOT, "src", "main.ts"), "serve", "--port", "0", "--data-dir", firm.dir], { cwd: firm.dir });
        load.track(dg.child);
        try {
          const m = await load.measure("dealgraph serve", dg.child.pid, `${dg.url}${path}`, firm.key, null);
          shapeOfDealgraph ??= m.keys;
          return m;
        } finally {
          await load.stop(dg.child);
        }
      };
      const bareServer = async (): Promise<Measured> => {
        const child = load.spawn([process.execPath, join(ROOT, "scripts", "bench", "bare-server.ts"), "--db", join(firm.dir, "dealgraph.db")], firm.dir);
        try {
          const url = (await child.waitForLine(/^bare listening on (http:\/\/\S+)/, 10_000, "bare server URL"))[1];
          return await load.measure("bare Bun.serve + bun:sqlite", child.pid, `${url}${path}`, firm.key, shapeOfDealgraph);
        } finally {
          await load.stop(child);
        }
      };
      log(`  over HTTP: GET ${path}, ${opts.rounds} rounds of alternating order`);
      const rounds = await alternatingRounds(Number(opts.rounds), dealgraph, bareServer, (d, b) => perCpuSecond(d.result) / perCpuSecond(b.result));
      const rps = rounds.rounds.map((r) => r.a.result.rps / r.b.result.rps);
      log(`  ratio dealgraph / bare, every round: req per CPU-second ${rounds.rounds.map((r) => fmt(r.ratio, 2)).join(", ")}; req/s ${rps.map((x) => fmt(x, 2)).join(", ")}`);
      log(`  median round: ${fmt(rounds.median.ratio, 2)} (req per CPU-second), ${fmt(rounds.median.a.result.rps / rounds.median.b.result.rps, 2)} (req/s)`);
      byMonths.set(months, { p50: pct(app, 50), perCpu: perCpuSecond(rounds.median.a.result), ratio: rounds.median.ratio });
      firm.sqlite.close();
    }
  } finally {
    await load.stopAll();
  }
  const m36 = byMonths.get(36)!;
  const m120 = byMonths.get(120)!;
  log("");
  log("page targets");
  log(`  dealgraph >= ${TARGET.pageRatio} of bare (req per CPU-second):  36 months ${fmt(m36.ratio, 2)} ${verdict(m36.ratio >= TARGET.pageRatio)}, 120 months ${fmt(m120.ratio, 2)} ${verdict(m120.ratio >= TARGET.pageRatio)}`);
  const growthP50 = m120.p50 / m36.p50;
  const growthCpu = m36.perCpu / m120.perCpu;
  log(`  120 months within ${TARGET.historyGrowth}x of 36: in-process p50 ${fmt(growthP50, 2)}x ${verdict(growthP50 <= TARGET.historyGrowth)}, CPU per request ${fmt(growthCpu, 2)}x ${verdict(growthCpu <= TARGET.historyGrowth)}`);
}

// ---------------------------------------------------------------------------------------------
// 2. The list mix at 10,000 holdings and 1,000,000 metric points

async function listSection() {
  const firm = openFirm("list");
  const t0 = performance.now();
  const { points } = seedBook(firm.sqlite, firm.orgId, { holdings: 10_000, months: 19, budgets: 5 });
  log("");
  log(`list: seeded 10,000 holdings and ${points.toLocaleString()} metric points in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const r = rng(7);
  const queries: PageQuery[] = Array.from({ length: REQUESTS }, (_, i) => {
    const kind = i % 4;
    return {
      status: kind === 1 ? "active" : null,
      fund: kind === 2 ? r.pick(FUNDS) : null,
      q: kind === 3 ? String(r.int(0, 999)).padStart(3, "0") : null,
      limit: 50,
      offset: kind === 0 ? r.int(0, 199) * 50 : r.int(0, 9) * 50,
    };
  });
  const bare = barePage(pageBaseline(firm.sqlite), firm.orgId);
  const viaApp = (q: PageQuery) => firm.get(toPath(q)).then((res) => res.arrayBuffer());
  await timeBoth(queries.slice(0, 200), viaApp, bare);
  const [app, bareTimes] = await timeBoth(queries, viaApp, bare);
  report(`GET /api/v1/portfolio/companies, ${REQUESTS} requests (offsets, status, fund and name filters)`, app, bareTimes, "count, page, latest actuals, hand-written");
  log(`  target      p99 < ${TARGET.listP99Ms} ms: ${verdict(pct(app, 99) < TARGET.listP99Ms)}`);
  // OFFSET walks the index up to the page: the first and the last page of the book.
  const total = (bare({ status: null, fund: null, q: null, limit: 50, offset: 0 }) as { total: number }).total;
  for (const offset of [0, total - 50]) {
    const q = Array.from({ length: 100 }, () => ({ status: null, fund: null, q: null, limit: 50, offset }));
    const [a, b] = await timeBoth(q, viaApp, bare);
    log(`  offset ${String(offset).padStart(5)}: dealgraph p50 ${ms(pct(a, 50))} ms, bare p50 ${ms(pct(b, 50))} ms`);
  }
  firm.sqlite.close();
}

// ---------------------------------------------------------------------------------------------
// 3. Funds

async function fundsSection() {
  const firm = openFirm("funds");
  const t0 = performance.now();
  seedFunds(firm.sqlite, firm.orgId, { commitments: 500, cashflows: 100_000, marks: 40 });
  const n = firm.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM fund_cashflows").get()!.n;
  log("");
  log(`funds: seeded 500 commitments, ${n.toLocaleString()} cashflows and 40 marks each in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const org = firm.orgId;
  const s = firm.sqlite;
  // Hand-written reads of the rows each endpoint needs, each in the order an index gives for free.
  const commitments = s.query("SELECT * FROM fund_commitments WHERE org_id = +? ORDER BY fund_name");
  const ledger = s.query("SELECT commitment_id, cashflow_date, type, amount FROM fund_cashflows WHERE org_id = +? ORDER BY commitment_id, cashflow_date");
  const latestMarks = s.query(
    "SELECT c.id, m.mark_date, m.nav FROM fund_commitments c JOIN fund_marks m ON m.rowid = (SELECT rowid FROM fund_marks WHERE org_id = c.org_id AND commitment_id = c.id ORDER BY mark_date DESC LIMIT 1) WHERE c.org_id = +?",
  );
  const allMarks = s.query("SELECT commitment_id, mark_date, nav FROM fund_marks WHERE org_id = +? ORDER BY commitment_id, mark_date");
  const cashflowRows = s.query("SELECT id, commitment_id, cashflow_date, type, amount FROM fund_cashflows WHERE org_id = +? ORDER BY commitment_id, cashflow_date, type, amount");
  // SQLite writing the JSON itself (C), in index order: no program reading these rows into JSON does less.
  const sqliteJson = s.query(
    "SELECT json_group_array(json_object('cashflow_id', id, 'commitment_id', commitment_id, 'cashflow_date', cashflow_date, 'type', type, 'amount', amount)) FROM fund_cashflows WHERE org_id = +?",
  );
  // A bare program writing the same body the plain way: the rows joined to their fund in published
  // order by SQL, objects, JSON.stringify, UTF-8. The ledger's essential work is 22 MB of JSON, so
  // its target is measured against this; the read alone is printed as the floor.
  const publishedRows = s.query<Record<string, string | number | null>, [string]>(
    `SELECT f.id AS cashflow_id, f.commitment_id, c.fund_name, f.cashflow_date, f.type, f.amount, c.currency
     FROM fund_cashflows f JOIN fund_commitments c ON c.id = f.commitment_id WHERE f.org_id = +? ORDER BY f.cashflow_date, c.fund_name, f.type, f.amount`,
  );
  const utf8 = new TextEncoder();
  const sameBody = () => {
    const cashflows = publishedRows.all(org);
    for (const row of cashflows) row.amount = money(row.amount as number);
    return utf8.encode(JSON.stringify({ scope: "org", cashflows, as_of: new Date().toISOString() }));
  };
  {
    const withoutAsOf = (body: string) => body.replace(/,"as_of":"[^"]*"}$/, "}");
    const app = await (await firm.get("/api/v1/funds/cashflows")).text();
    if (withoutAsOf(app) !== withoutAsOf(new TextDecoder().decode(sameBody()))) throw new Error("the app's ledger and the bare program's differ");
  }
  const endpoints: [string, string, () => unknown, string][] = [
    ["GET /api/v1/funds/positions", "/api/v1/funds/positions", () => [commitments.all(org), ledger.values(org), latestMarks.values(org)], "commitments, ledger, latest marks read; nothing computed"],
    ["GET /api/v1/funds/cashflows", "/api/v1/funds/cashflows", () => [commitments.all(org), cashflowRows.values(org)], "commitments and every cashflow read in index order; nothing ordered or written"],
    ["GET /api/v1/funds/marks", "/api/v1/funds/marks", () => [commitments.all(org), ledger.values(org), allMarks.values(org)], "commitments, ledger, every mark read; nothing computed"],
  ];
  const ratios: [string, number][] = [];
  for (const [what, path, bare, bareWhat] of endpoints) {
    const items = Array.from({ length: RUNS }, (_, i) => i);
    // The body is read as bytes: parsing megabytes of JSON is the client's cost, not the server's.
    const viaApp = () => firm.get(path).then((res) => res.arrayBuffer());
    await timeBoth(items.slice(0, 3), viaApp, bare);
    const [app, bareTimes] = await timeBoth(items, viaApp, bare);
    report(`${what}, ${RUNS} runs`, app, bareTimes, bareWhat);
    if (path.endsWith("cashflows")) {
      const [, c] = await timeBoth(items.slice(0, Math.min(RUNS, 10)), () => {}, () => sqliteJson.values(org));
      log(`  SQLite's own JSON of the same rows (json_group_array, index order, no fund names or order): p50 ${ms(pct(c, 50))} ms, ${(pct(app, 50) / pct(c, 50)).toFixed(2)}x`);
      const [again, same] = await timeBoth(items, viaApp, sameBody);
      report(`  the same body from a bare program (joined rows in published order, JSON.stringify; checked byte-equal but as_of)`, again, same, "SQL in published order + JSON.stringify");
      log(`  the read alone (above) is the floor; the target is measured against the bare program writing the same body`);
      ratios.push([what, pct(again, 50) / pct(same, 50)]);
      continue;
    }
    ratios.push([what, pct(app, 50) / pct(bareTimes, 50)]);
  }
  log(`funds target: within ${TARGET.fundsRatio}x of bare (p50; the ledger against the bare program writing the same body)`);
  for (const [what, ratio] of ratios) log(`  ${what.padEnd(32)} ${fmt(ratio, 2)}x ${verdict(ratio <= TARGET.fundsRatio)}`);
  firm.sqlite.close();
}

try {
  log(`Dealgraph portfolio bench: bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs`);
  if (runs("page")) await pageSection();
  if (runs("list")) await listSection();
  if (runs("funds")) await fundsSection();
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
