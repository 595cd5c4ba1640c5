// The `ask` tool on the demo firm, against a bare baseline measured in the same run:
//   1. The corpus (test/api/mcp/ask-corpus.ts, 300+ phrasings with their expected operations and
//      figures): the share answered correctly.                      Target: >= 0.95.
//   2. Answer latency, every corpus question asked `--passes` times through the tool's entry point
//      (what /mcp runs for a tool call: conversation, engine, operations): p50/p99.
//                                                                   Target: p99 < 200 ms.
//      Baseline: the bare reads an answer stands on (every holding with its latest actual
//      metrics, every deal, every LP commitment), straight bun:sqlite, nothing interpreted.
//   3. The same questions over the real /mcp endpoint with the official SDK client (one pass):
//      what a partner's assistant waits for, HTTP and JSON-RPC included.
// The demo firm is built by `dealgraph demo`'s own generators at the corpus's fixed clock, in a
// WAL database in a temp dir.
//
//   4. The blind corpus (test/fixtures/ask-corpus), dev and held-out apart, with the count of wrong
//      figures: the run exits 1 when any appears. Held-out questions are never printed.
//
//   bun scripts/bench/ask.ts [--passes 3] [--keep DIR] [--show-dev]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { CORPUS, allRows } from "../../test/api/mcp/ask-corpus.ts";
import { readFacts } from "../../test/api/mcp/ask-corpus-facts.ts";
import { runCorpus } from "../../test/api/mcp/ask-corpus-run.ts";
import { buildDemoFirm, DEMO_NOW } from "../../test/api/mcp/ask-demo.ts";
import { runBlind } from "../../test/api/mcp/ask-blind-run.ts";

const { values: opts } = parseArgs({ options: { passes: { type: "string", default: "3" }, keep: { type: "string" }, "show-dev": { type: "boolean" } } });
const PASSES = Number(opts.passes);
const TARGET = { correct: 0.95, p99Ms: 200 };

const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-ask-"));
const config = loadConfig({}, { dataDir: dir });
const { db } = openDataDir(config);
const sqlite = db.$client;
const deps = createDeps({ db, config, log: silentLog, clock: { now: () => new Date(DEMO_NOW) } });
const log = (line: string) => console.log(line);
const ms = (x: number) => x.toFixed(1);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

let t0 = performance.now();
const firm = await buildDemoFirm(deps);
log(`demo firm built in ${((performance.now() - t0) / 1000).toFixed(1)} s (book, ${sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM deals").get()!.n} analysed deals, network)`);
const app = createApp(deps);
const key = apiKeysService(deps).create({ userId: firm.read.userId, scope: "read", name: "bench", dailyRequests: 10_000_000 }).secret;
const facts = await readFacts(async (path) => (await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }))).json());

// ---------------------------------------------------------------------------------------------
// 1 and 2. Correct share (first pass) and latency (every pass)

const phrasings = allRows().length;
const answerTimes: number[] = [];
let correct = 0;
const failures: string[] = [];
for (let pass = 0; pass < PASSES; pass++) {
  const verdicts = await runCorpus(deps, firm.read, CORPUS, facts);
  answerTimes.push(...verdicts.map((v) => v.ms));
  if (pass === 0) {
    correct = verdicts.filter((v) => v.ok).length;
    for (const v of verdicts.filter((x) => !x.ok)) failures.push(`  [${v.row.cat}] ${v.row.q}: ${v.why}`);
  }
}

// The baseline: the rows an answer reads, bare.
const bare = {
  holdings: sqlite.prepare("SELECT * FROM portfolio_holdings WHERE org_id = ?"),
  metrics: sqlite.prepare("SELECT company_key, metric, value, max(statement_date) FROM portfolio_metric_points WHERE org_id = ? AND kind = 'actual' GROUP BY company_key, metric"),
  deals: sqlite.prepare("SELECT id, company_name, domain, stage, score, created_at FROM deals WHERE org_id = ?"),
  commitments: sqlite.prepare("SELECT * FROM fund_commitments WHERE org_id = ?"),
};
const bareTimes: number[] = [];
for (let i = 0; i < answerTimes.length; i++) {
  t0 = performance.now();
  for (const q of Object.values(bare)) q.all(firm.read.orgId);
  bareTimes.push(performance.now() - t0);
}

log(`\n1. The corpus on the demo firm (${phrasings} phrasings, follow-ups in their conversations)`);
log(`  correct     ${(correct / phrasings).toFixed(3)} (${correct}/${phrasings})`);
if (failures.length) log(failures.join("\n"));
log(`  target      >= ${TARGET.correct}: ${correct / phrasings >= TARGET.correct ? "met" : "NOT MET"}`);

log(`\n2. Answer latency in process (${answerTimes.length.toLocaleString()} answers, ${PASSES} passes)`);
log(`  ask         p50 ${ms(pct(answerTimes, 50))} ms   p99 ${ms(pct(answerTimes, 99))} ms   max ${ms(Math.max(...answerTimes))} ms`);
log(`  bare reads  p50 ${ms(pct(bareTimes, 50))} ms   p99 ${ms(pct(bareTimes, 99))} ms (holdings, latest metrics, deals, commitments)`);
log(`  ratio       p50 ${(pct(answerTimes, 50) / pct(bareTimes, 50)).toFixed(2)}x   p99 ${(pct(answerTimes, 99) / pct(bareTimes, 99)).toFixed(2)}x (ask / bare)`);
log(`  target      p99 < ${TARGET.p99Ms} ms: ${pct(answerTimes, 99) < TARGET.p99Ms ? "met" : "NOT MET"}`);

// ---------------------------------------------------------------------------------------------
// 3. Over /mcp with the SDK client

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => app.handle(r) });
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
const httpTimes: number[] = [];
for (const row of CORPUS) {
  t0 = performance.now();
  await client.callTool({ name: "ask", arguments: { question: row.q } });
  httpTimes.push(performance.now() - t0);
}
await client.close();
server.stop(true);
log(`\n3. Over /mcp with the SDK client (${httpTimes.length} questions: each first question, one tool call each; follow-ups need their conversation)`);
log(`  /mcp        p50 ${ms(pct(httpTimes, 50))} ms   p99 ${ms(pct(httpTimes, 99))} ms   max ${ms(Math.max(...httpTimes))} ms`);

// ---------------------------------------------------------------------------------------------
// 4. The blind corpus (test/fixtures/ask-corpus: written by a helper that never read the ask tool,
// from the demo firm's REST API and what partners ask). Dev and held-out apart; a held-out
// question is never printed (nobody changing the reader looks at them); any wrong figure fails the run.

const blind = [await runBlind(deps, firm.read, "dev"), await runBlind(deps, firm.read, "dev2"), await runBlind(deps, firm.read, "dev3"), await runBlind(deps, firm.read, "dev4"), await runBlind(deps, firm.read, "dev5"), await runBlind(deps, firm.read, "dev6"), await runBlind(deps, firm.read, "heldout")];
log(`\n4. The blind corpus (written without reading the tool; judged by its own judge)`);
for (const b of blind) {
  log(`  ${b.part.padEnd(8)}    ${(b.correct / b.asked).toFixed(3)} (${b.correct}/${b.asked})   wrong figures ${b.wrongFigures}   p99 ${ms(pct(b.verdicts.map((v) => v.ms), 99))} ms`);
  log(`    by class: ${Object.entries(b.byClass).map(([c, x]) => `${c} ${x.correct}/${x.asked}`).join(", ")}`);
}
if (opts["show-dev"]) for (const v of blind[0].verdicts.filter((x) => !x.ok || x.wrongFigure)) log(`  [dev ${v.id} ${v.cls}] ${v.q}: ${v.why}`);
const held = blind[6];
log(`  target      held-out >= 0.95 with 0 wrong figures: ${held.correct / held.asked >= 0.95 && held.wrongFigures === 0 ? "met" : "NOT MET"}`);

sqlite.close();
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
const wrong = blind.reduce((n, b) => n + b.wrongFigures, 0);
if (wrong > 0) {
  console.error(`FAIL: ${wrong} wrong figure(s) in the blind corpus (dev ${blind[0].wrongFigures}, dev2 ${blind[1].wrongFigures}, dev3 ${blind[2].wrongFigures}, dev4 ${blind[3].wrongFigures}, dev5 ${blind[4].wrongFigures}, dev6 ${blind[5].wrongFigures}, held-out ${held.wrongFigures})`);
  process.exit(1);
}
