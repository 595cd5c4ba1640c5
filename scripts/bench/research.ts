// Research at scale, against bare baselines measured in the same run:
//   1. A research run (built-in engine) over a corpus of 1,000 documents (12 pages each, 12,000
//      indexed pages) plus 500 portfolio holdings with metrics: POST (plan) to a finished report,
//      through the real app and the real runner.                       Target: under 10 s.
//   2. The run's full-text query of a sub-question (all terms AND; when short of passages, the
//      OR-ed terms with each candidate judged for relevance: per-org term counts, cached per run,
//      and which terms each candidate carries; org-scoped, bm25, snippet): p50/p99. The corpus
//      object (and its term cache) is made anew every 6 queries, as a run of 6 sub-questions would.
//      Baseline: a bare FTS5 MATCH of one term (rowids only) on the same index.
// Seeding is direct SQL (CONTRACT.md allows it for benchmarks): deal_documents rows with page
// texts, indexed by the database's own triggers. The database is a WAL file in a temp dir.
//
//   bun scripts/bench/research.ts [--runs 10] [--queries 500] [--keep DIR]
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
import { runHandlers } from "../../jobs/index.ts";
import { startRunner } from "../../src/modules/actions/runner.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { researchCorpus, searchTerms } from "../../src/modules/research/research.corpus.ts";
import { rng } from "../../src/demo/rng.ts";

const { values: opts } = parseArgs({ options: { runs: { type: "string", default: "10" }, queries: { type: "string", default: "500" }, keep: { type: "string" } } });
const RUNS = Number(opts.runs);
const QUERIES = Number(opts.queries);
const SIZE = { documents: 1_000, pagesPerDocument: 12, holdings: 500 };
const TARGET = { runSeconds: 10 };

const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-research-"));
const config = loadConfig({}, { dataDir: dir });
const { db } = openDataDir(config);
const sqlite: Database = db.$client;
const deps = createDeps({ db, config, log: silentLog });
const app = createApp(deps);
const log = (line: string) => console.log(line);
const ms = (x: number) => x.toFixed(2);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

// ---------------------------------------------------------------------------------------------
// Seed

const org = orgsService(deps).createOrg("Bench Ventures");
const user = orgsService(deps).createUser({ orgId: org.id, email: "bench@bench.vc", name: "Bench" });
const key = apiKeysService(deps).create({ userId: user.id, scope: "write", dailyRequests: 10_000_000, dailyActions: 1_000_000 }).secret;
const r = rng(7);
const SECTORS = ["fintech", "climate", "health", "robotics", "security", "logistics", "insurance", "payments", "biotech", "edtech"];
const WORDS = `revenue growth customers churn retention margin pipeline enterprise platform market competition pricing subscription
  product roadmap hiring engineering sales partnership regulation compliance funding round valuation runway burn cash team founder
  traction pilot contract expansion international launch infrastructure model data automation workflow analytics network supply`.split(/\s+/).filter(Boolean);
const companies = Array.from({ length: SIZE.documents }, (_, i) => `${r.pick(["Nova", "Blue", "Iron", "Quiet", "Bright", "Delta", "Cedar", "Orbit"])}${r.pick(["ly", "works", "labs", "base", "stack", "flow", "grid"])} ${i}`);
const now = new Date().toISOString();

function page(company: string): string {
  const sentences: string[] = [];
  for (let s = 0; s < 8; s++) {
    const words = Array.from({ length: r.int(12, 20) }, () => r.pick(WORDS));
    if (r.chance(0.4)) words.splice(r.int(0, words.length), 0, company);
    if (r.chance(0.3)) words.splice(r.int(0, words.length), 0, r.pick(SECTORS));
    if (r.chance(0.2)) words.push(`${r.int(1, 40)} million ARR`);
    sentences.push(`${words.join(" ")}.`);
  }
  return sentences.join(" ");
}

let t0 = performance.now();
sqlite.transaction(() => {
  const deal = sqlite.prepare(
    `INSERT INTO deals (id, org_id, created_by, company_name, kind, stage, source, target_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'company', 'new', 'upload', ?, ?, ?)`,
  );
  const doc = sqlite.prepare(
    `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, page_count, status, pages, uploaded_at)
     VALUES (?, ?, ?, ?, 'primary_upload', 'application/pdf', 100000, ?, ?, 'extracted', ?, ?)`,
  );
  for (const [i, company] of companies.entries()) {
    const dealId = Bun.randomUUIDv7();
    deal.run(dealId, org.id, user.id, company, `name:bench${i}`, now, now);
    const pages = Array.from({ length: SIZE.pagesPerDocument }, () => page(company));
    doc.run(Bun.randomUUIDv7(), org.id, dealId, `${company.replace(/\s+/g, "-").toLowerCase()}-deck.pdf`, "0".repeat(64), pages.length, JSON.stringify(pages), now);
  }
  const holding = sqlite.prepare(
    `INSERT INTO portfolio_holdings (id, org_id, name, name_fold, website, company_key, sector, stage, status, fund_name, holding_type,
       investment_date, ownership_percentage, invested, current_valuation, currency, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'series_a', 'active', 'Fund I', 'direct_company', '2021-06-01', 5, 1000000, 2000000, 'USD', ?, ?)`,
  );
  const point = sqlite.prepare(
    `INSERT INTO portfolio_metric_points (org_id, company_key, metric, kind, statement_date, value, unit, currency) VALUES (?, ?, ?, 'actual', ?, ?, NULL, 'USD')`,
  );
  for (let i = 0; i < SIZE.holdings; i++) {
    const name = companies[i];
    const site = `company${i}.com`;
    holding.run(Bun.randomUUIDv7(), org.id, name, name.toLowerCase(), site, site, r.pick(SECTORS), now, now);
    for (let m = 1; m <= 12; m++) {
      const date = `2025-${String(m).padStart(2, "0")}-28`;
      point.run(org.id, site, "arr", date, r.int(1, 50) * 100_000);
      point.run(org.id, site, "monthly_burn", date, r.int(1, 20) * 10_000);
    }
  }
})();
const indexed = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_index").get()!.n;
log(`seeded ${SIZE.documents.toLocaleString()} documents (${indexed.toLocaleString()} indexed pages) and ${SIZE.holdings} holdings with metrics in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------------------------------------
// 1. Research runs, POST to finished report

const handlers = runHandlers(deps);
const runTimes: number[] = [];
const planTimes: number[] = [];
let citations = 0;
for (let i = 0; i < RUNS; i++) {
  const a = companies[r.int(0, SIZE.holdings - 1)];
  const b = companies[r.int(0, SIZE.documents - 1)];
  const query = `What are ${a}'s ARR and burn, and how does its ${r.pick(SECTORS)} pipeline compare? What do the decks say about ${b}'s customers and retention? Which companies discuss ${r.pick(WORDS)} ${r.pick(WORDS)} in ${r.pick(SECTORS)}?`;
  const start = performance.now();
  const res = await app.handle(
    new Request("http://localhost/api/v1/research", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query, idempotency_key: `bench-${i}` }),
    }),
  );
  planTimes.push(performance.now() - start);
  const accepted = (await res.json()) as { research_id: string };
  if (res.status !== 202) throw new Error(`POST answered ${res.status}: ${JSON.stringify(accepted)}`);
  // The runner starts after the 202 (a live runner would begin the run inside the POST's await).
  const runner = startRunner(deps, handlers, { pollMs: 60_000 });
  runner.pump();
  await runner.idle();
  await runner.stop();
  runTimes.push(performance.now() - start);
  const read = await app.handle(new Request(`http://localhost/api/v1/research/${accepted.research_id}`, { headers: { authorization: `Bearer ${key}` } }));
  const body = (await read.json()) as { status: string; error: string | null; citations: unknown[] };
  if (body.status !== "succeeded") throw new Error(`run ${body.status}: ${body.error}`);
  citations += body.citations.length;
}
log("");
log(`Research run (built-in engine), ${RUNS} runs of a 5-6 sub-question query over ${SIZE.documents.toLocaleString()} documents: POST (plan) to finished report`);
log(`  run         p50 ${ms(pct(runTimes, 50))} ms   max ${ms(Math.max(...runTimes))} ms   (${(citations / RUNS).toFixed(1)} citations a report)`);
log(`  POST (plan) p50 ${ms(pct(planTimes, 50))} ms   max ${ms(Math.max(...planTimes))} ms`);
log(`  target      run < ${TARGET.runSeconds} s: ${Math.max(...runTimes) < TARGET.runSeconds * 1000 ? "met" : "NOT MET"}`);

// ---------------------------------------------------------------------------------------------
// 2. The full-text query against a bare one-term MATCH

const newCorpus = () => researchCorpus(deps, { orgId: org.id, userId: user.id });
let corpus = newCorpus();
const PER_RUN = 6;
const bare = sqlite.query<{ rowid: number }, [string]>("SELECT rowid FROM search_index WHERE search_index MATCH ? LIMIT 4");
// The same ranked OR query, bare: no org filter, no snippet (where the time of a ranked search goes).
const bareRanked = sqlite.query<{ rowid: number }, [string]>("SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY rank LIMIT 8");
const orOf = (question: string) => searchTerms(question).map((t) => `"${t}"`).join(" OR ");
const questions = Array.from({ length: QUERIES }, () => `What does ${r.pick(companies)} say about ${r.pick(WORDS)} and ${r.pick(WORDS)} in ${r.pick(SECTORS)}?`);
const terms = Array.from({ length: QUERIES }, () => `"${r.pick(WORDS)}"`);
for (let i = 0; i < 20; i++) (corpus.searchText(questions[i]), bare.all(terms[i])); // warm
const ftsTimes: number[] = [];
const bareTimes: number[] = [];
const rankedTimes: number[] = [];
for (let i = 0; i < QUERIES; i++) {
  if (i % PER_RUN === 0) corpus = newCorpus();
  t0 = performance.now();
  corpus.searchText(questions[i]);
  ftsTimes.push(performance.now() - t0);
  t0 = performance.now();
  bare.all(terms[i]);
  bareTimes.push(performance.now() - t0);
  t0 = performance.now();
  bareRanked.all(orOf(questions[i]));
  rankedTimes.push(performance.now() - t0);
}
log("");
log(`Full-text query of a sub-question, ${QUERIES} queries over ${indexed.toLocaleString()} pages (terms AND, then OR with relevance judged; org-scoped; bm25; snippet; term counts cached per ${PER_RUN} queries)`);
log(`  dealgraph   p50 ${ms(pct(ftsTimes, 50))} ms   p99 ${ms(pct(ftsTimes, 99))} ms   max ${ms(Math.max(...ftsTimes))} ms`);
log(`  bare MATCH  p50 ${ms(pct(bareTimes, 50))} ms   p99 ${ms(pct(bareTimes, 99))} ms   (one term, rowids, LIMIT 4)`);
log(`  bare ranked p50 ${ms(pct(rankedTimes, 50))} ms   p99 ${ms(pct(rankedTimes, 99))} ms   (the same terms OR-ed, ORDER BY rank, no org filter or snippet)`);
log(`  ratio       p50 ${(pct(ftsTimes, 50) / pct(bareTimes, 50)).toFixed(2)}x   p99 ${(pct(ftsTimes, 99) / pct(bareTimes, 99)).toFixed(2)}x (dealgraph / bare)`);

sqlite.close();
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
