// Deals at work, each figure against a bare baseline measured in the same run (no assertions):
//   1. Analysis of a 30-page deck (scripts/gen-deals.ts, PDF) with the built-in engine, excluding
//      conversion: upload -> runner -> stored analysis, as the run's own started/finished times
//      and as wall time around the runner. Target: under 3 s.
//      Baseline: bare unpdf text extraction (getDocumentProxy + extractText) of the same bytes.
//   2. Conversion of a 30-slide PPTX to PDF by LibreOffice (own profile, as the upload path does),
//      if installed. Baseline: `soffice --version` (the program's start-up alone).
//   3. Peak RSS of the server while it receives a 50 MB upload over real HTTP (POST
//      /analyze/upload, multipart, until the 202). The server is this script in a child process
//      (`--serve-child`: createApp + listen, as `serve` does, without the runner, so the analysis
//      that follows the 202 is not counted). Target: growth under 2x the file.
//      Baseline: the same server's RSS before the upload (after a small warm-up upload).
//   4. GET /api/v1/deals (a mix of offsets and filters) and GET /api/v1/deals/{id}?view=full over
//      10,000 deals (seeded by direct SQL, with a run each and a real analysis' JSON): p50/p99.
//      Baseline: the same SQL statements run alone through bun:sqlite.
//
//   bun scripts/bench/deals.ts [--runs 5] [--requests 2000] [--keep DIR] [--only analysis|convert|upload|list]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { extractText, getDocumentProxy } from "unpdf";
import { createApp } from "../../src/app.ts";
import { MB } from "../../src/http/multipart.ts";
import { runHandlers } from "../../jobs/index.ts";
import { startRunner } from "../../src/modules/actions/runner.ts";
import { convertToPdf } from "../../src/documents/convert.ts";
import { findLibreOffice } from "../../src/modules/health/health.routes.ts";
import { rng } from "../../src/demo/rng.ts";
import { deckPdf, deckPptx, generateDeals, longDeck } from "../../src/demo/decks.ts";
import { ROOT } from "../build.ts";
import { openBench, pct, seedDeals, timeBoth } from "../lib/bench.ts";
import { Child, cleanEnv, startServe } from "../lib/child-process.ts";
import { alternatingRounds, fmt, loadRunner, perCpuSecond } from "../lib/load-rounds.ts";

const { values: opts } = parseArgs({
  options: {
    only: { type: "string" },
    runs: { type: "string", default: "5" },
    requests: { type: "string", default: "2000" },
    keep: { type: "string" },
    "serve-child": { type: "boolean" },
    "data-dir": { type: "string" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
  },
});

// The child: the real app on a real port, no runner, printing where it listens and its key.
if (opts["serve-child"]) {
  const { deps, key } = openBench(opts["data-dir"]!);
  const app = createApp(deps);
  app.listen({ hostname: "127.0.0.1", port: 0 });
  console.log(`listening on ${app.server!.url.toString().replace(/\/$/, "")} key ${key}`);
  await new Promise(() => {}); // until killed
}

const SECTIONS = ["analysis", "convert", "upload", "list"] as const;
if (opts.only && !SECTIONS.includes(opts.only as never)) throw new Error(`--only takes one of ${SECTIONS.join(", ")}`);
const runs = (section: (typeof SECTIONS)[number]) => !opts.only || opts.only === section;
const RUNS = Number(opts.runs);
const REQUESTS = Number(opts.requests);
const DEALS = 10_000;
const TARGET = { analysisMs: 3000, uploadGrowthX: 2 };
const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-deals-"));
const log = (line: string) => console.log(line);
const ms = (x: number) => x.toFixed(2);
const median = (xs: number[]) => pct(xs, 50);
const mb = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

const { deps, sqlite, org, user, key } = openBench(join(dir, "main"));
const app = createApp(deps);
const call = async (method: string, path: string, body?: FormData) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { method, body, headers: { authorization: `Bearer ${key}` } }));
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

// ---------------------------------------------------------------------------------------------
// 1. A 30-page deck through the built-in engine

const rich = generateDeals({ seed: 7 }).find((d) => d.richness === "rich" && d.kind === "company")!;
const deck30 = longDeck(rich, 30);
const pdf30 = await deckPdf(deck30);

async function bareExtract() {
  const pdf = await getDocumentProxy(new Uint8Array(pdf30));
  return (await extractText(pdf, { mergePages: false })).text as string[];
}

if (runs("analysis")) {
  const runTimes: number[] = [];
  const wallTimes: number[] = [];
  let sample: any = null;
  for (let i = 0; i < RUNS + 1; i++) {
    const form = new FormData();
    form.append("file", new Blob([pdf30]), "deck-30.pdf");
    form.append("company_name", `${rich.name} ${i}`);
    const { deal_id } = await call("POST", "/api/v1/deals/analyze/upload", form);
    const runner = startRunner(deps, runHandlers(deps), { pollMs: 60_000 });
    const start = performance.now();
    runner.pump();
    await runner.idle();
    const wall = performance.now() - start;
    await runner.stop();
    const run = sqlite.query<{ status: string; started_at: string; finished_at: string }, [string]>("SELECT status, started_at, finished_at FROM action_runs WHERE subject_id = ?").get(deal_id)!;
    if (run.status !== "succeeded") throw new Error(`the analysis ${run.status}`);
    if (i === 0) continue; // warm-up
    runTimes.push(Date.parse(run.finished_at) - Date.parse(run.started_at));
    wallTimes.push(wall);
    sample = await call("GET", `/api/v1/deals/${deal_id}?view=full`);
  }
  const pagesRead = (await bareExtract()).length;
  const bareTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await bareExtract();
    bareTimes.push(performance.now() - start);
  }
  log(`Analysis of a ${pagesRead}-page deck (${mb(pdf30.byteLength)}), built-in engine, ${RUNS} runs (score ${sample.score}, ${sample.analysis.sections.filter((s: any) => s.score !== null).length}/${sample.analysis.sections.length} sections scored)`);
  log(`  dealgraph   run median ${ms(median(runTimes))} ms   max ${ms(Math.max(...runTimes))} ms   (wall around the runner: median ${ms(median(wallTimes))} ms)`);
  log(`  bare unpdf  median ${ms(median(bareTimes))} ms (text extraction alone)`);
  log(`  ratio       ${(median(runTimes) / median(bareTimes)).toFixed(2)}x (dealgraph / bare)`);
  log(`  target      < ${TARGET.analysisMs} ms: ${Math.max(...runTimes) < TARGET.analysisMs ? "met" : "NOT MET"} (slowest run)`);
}

// ---------------------------------------------------------------------------------------------
// 2. PPTX conversion by LibreOffice

log("");
const soffice = findLibreOffice();
if (!runs("convert")) {
  // skipped by --only
} else if (!soffice) log("PPTX conversion: skipped, LibreOffice is not installed (soffice/libreoffice not on PATH)");
else {
  const pptxPath = join(dir, "deck-30.pptx");
  writeFileSync(pptxPath, deckPptx(deck30));
  const convert: number[] = [];
  const startup: number[] = [];
  let pdfPagesOut = 0;
  for (let i = 0; i < Math.max(3, Math.min(RUNS, 5)); i++) {
    let start = performance.now();
    const pdf = await convertToPdf(pptxPath, "pptx");
    convert.push(performance.now() - start);
    pdfPagesOut = (await getDocumentProxy(pdf)).numPages;
    start = performance.now();
    const version = Bun.spawn([soffice, "--version"], { stdout: "ignore", stderr: "ignore", env: { ...process.env, HOME: dir } });
    await version.exited;
    startup.push(performance.now() - start);
  }
  log(`PPTX conversion by LibreOffice, ${deck30.slides.length} slides (${mb(readFileSync(pptxPath).byteLength)}) -> ${pdfPagesOut} PDF pages, ${convert.length} runs`);
  log(`  dealgraph   median ${ms(median(convert))} ms   max ${ms(Math.max(...convert))} ms (own profile each time, as uploads are converted)`);
  log(`  bare        median ${ms(median(startup))} ms (soffice --version: start-up alone)`);
  log(`  ratio       ${(median(convert) / median(startup)).toFixed(2)}x (dealgraph / bare)`);
}

// ---------------------------------------------------------------------------------------------
// 3. Server memory while a 50 MB upload arrives over HTTP

const procStatus = (pid: number, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) * 1024;

if (runs("upload")) {
  const child = new Child(["bun", import.meta.path, "--serve-child", "--data-dir", join(dir, "child")], { env: cleanEnv({ PATH: `${join(import.meta.dir, "../../node_modules/.bin")}:${process.env.PATH}` }) });
  try {
    const [, url, childKey] = await child.waitForLine(/^listening on (\S+) key (\S+)$/, 30_000, "the bench server");
    const upload = async (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.append("file", new Blob([bytes]), name);
      form.append("company_name", name);
      const res = await fetch(`${url}/api/v1/deals/analyze/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${childKey}` } });
      const text = await res.text();
      if (res.status !== 202) throw new Error(`upload: ${res.status} ${text}`);
    };
    // A real PDF, padded with incompressible bytes after %%EOF to just under the 50 MB cap.
    const size = 50 * MB - 64 * 1024;
    const big = new Uint8Array(size);
    big.set(pdf30);
    big.set(new TextEncoder().encode("\n%"), pdf30.byteLength);
    const r = rng(9);
    for (let i = pdf30.byteLength + 2; i + 4 <= size; i += 4) new DataView(big.buffer).setUint32(i, Math.floor(r.next() * 2 ** 32), true);
    await upload(pdf30, "warm-up.pdf");
    Bun.gc(true);
    await Bun.sleep(300);
    const before = procStatus(child.pid, "VmRSS");
    let clearedPeak = true;
    try {
      writeFileSync(`/proc/${child.pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
    } catch {
      clearedPeak = false;
    }
    let sampled = before;
    const sampler = setInterval(() => (sampled = Math.max(sampled, procStatus(child.pid, "VmRSS"))), 2);
    const start = performance.now();
    await upload(big, "big-deck.pdf");
    const took = performance.now() - start;
    clearInterval(sampler);
    const peak = Math.max(sampled, clearedPeak ? procStatus(child.pid, "VmHWM") : 0);
    const growth = peak - before;
    log("");
    log(`50 MB upload (${mb(size)}) over real HTTP to the server (a child process), until the 202: ${ms(took)} ms`);
    log(`  baseline    RSS before ${mb(before)}`);
    log(`  dealgraph   peak RSS ${mb(peak)} (${clearedPeak ? "VmHWM reset before the upload, and" : ""} VmRSS sampled every 2 ms), growth ${mb(growth)}`);
    log(`  ratio       growth / file ${(growth / size).toFixed(2)}x`);
    log(`  target      growth < ${TARGET.uploadGrowthX}x the file: ${growth < TARGET.uploadGrowthX * size ? "met" : "NOT MET"}`);
  } finally {
    child.proc.kill();
    await child.proc.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// 4. List and detail over 10,000 deals

if (runs("list")) {
  const STAGES = ["new", "screening", "diligence", "ic", "invested", "passed"];
  if (!sqlite.query("SELECT 1 FROM deals WHERE analysis IS NOT NULL LIMIT 1").get()) {
    // --only list: one real analysis, so the seeded deals carry realistic JSON.
    const form = new FormData();
    form.append("file", new Blob([pdf30]), "deck-30.pdf");
    await call("POST", "/api/v1/deals/analyze/upload", form);
    const runner = startRunner(deps, runHandlers(deps), { pollMs: 60_000 });
    runner.pump();
    await runner.idle();
    await runner.stop();
  }
  const facts = sqlite.query<{ facts: string; analysis: string }, []>("SELECT facts, analysis FROM deals WHERE analysis IS NOT NULL LIMIT 1").get()!;
  let t0 = performance.now();
  const ids = seedDeals(sqlite, { orgId: org.id, userId: user.id, count: DEALS, facts: facts.facts, analysis: facts.analysis });
  log("");
  log(`seeded ${DEALS.toLocaleString()} deals with a run each (analysis JSON ${mb(facts.analysis.length + facts.facts.length)} per deal) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  type ListQuery = { stage?: string; kind?: string; status?: string; q?: string; limit: number; offset: number };
  const lr = rng(7);
  const queries: ListQuery[] = Array.from({ length: REQUESTS }, (_, i) => {
    const k = i % 5;
    return {
      ...(k === 1 ? { stage: lr.pick(STAGES) } : {}),
      ...(k === 2 ? { kind: lr.pick(["company", "fund"]) } : {}),
      ...(k === 3 ? { status: lr.pick(["succeeded", "failed"]) } : {}),
      ...(k === 4 ? { q: String(lr.int(0, 999)).padStart(3, "0") } : {}),
      limit: 50,
      offset: k === 0 ? lr.int(0, 199) * 50 : lr.int(0, 9) * 50,
    };
  });
  const toPath = (q: ListQuery) => `/api/v1/deals?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

  // The bare baseline: the statements of the list and of a deal, hand-written for the best plan
  // (parameters as `+$name`, so SQLite does not recompile them on each execution), alone.
  const LIST_COLUMNS = "d.id, d.company_name, d.domain, d.website, d.kind, d.stage, d.source, d.score, d.analysis_status, d.created_at, d.updated_at";
  function bareList(q: ListQuery) {
    const where = ["d.org_id = +$org"];
    const params: Record<string, string | number> = { org: org.id };
    if (q.status) (where.push("d.analysis_status = +$status"), (params.status = q.status));
    if (q.stage) (where.push("d.stage = +$stage"), (params.stage = q.stage));
    if (q.kind) (where.push("d.kind = +$kind"), (params.kind = q.kind));
    if (q.q) (where.push("lower(d.company_name) LIKE +$q ESCAPE '\\'"), (params.q = `%${q.q}%`));
    const cond = where.join(" AND ");
    const total = sqlite.query<{ n: number }, Record<string, string | number>>(`SELECT COUNT(*) AS n FROM deals d WHERE ${cond}`).get(params)!.n;
    const rows = sqlite
      .query(
        `SELECT ${LIST_COLUMNS} FROM (SELECT d.id FROM deals d WHERE ${cond} ORDER BY d.created_at DESC, d.id DESC LIMIT $limit OFFSET $offset) page
         JOIN deals d ON d.id = page.id ORDER BY d.created_at DESC, d.id DESC`,
      )
      .all({ ...params, limit: q.limit, offset: q.offset });
    return { total, rows };
  }
  const bareDetail = sqlite.query<Record<string, string | number | null> & { facts: string; analysis: string }, { org: string; id: string }>(`SELECT d.* FROM deals d WHERE d.id = +$id AND d.org_id = +$org`);
  // The least a program does to answer with the same body: the row, its facts parsed for the
  // record's fields, the analysis written as stored, the body as one string.
  const bareDetailBody = (id: string) => {
    const d = bareDetail.get({ org: org.id, id })!;
    const facts = JSON.parse(d.facts ?? "null");
    const head = JSON.stringify({
      deal_id: d.id, company_name: d.company_name, domain: d.domain, website: d.website, kind: d.kind, stage: d.stage, source: d.source,
      analysis_status: d.analysis_status, score: d.score, created_at: d.created_at, updated_at: d.updated_at,
      company: facts?.company ?? null, round: facts?.round ?? null, team: facts?.team ?? null, score_confidence: d.score_confidence,
    });
    return `${head.slice(0, -1)},"analysis":${d.analysis ?? "null"},"scope":"org_workspace","as_of":"${new Date().toISOString()}"}`;
  };
  // What the issue compared with: the row and both of its JSON columns parsed.
  const bareDetailParsed = (id: string) => {
    const row = bareDetail.get({ org: org.id, id })!;
    return [row.facts && JSON.parse(row.facts), row.analysis && JSON.parse(row.analysis)];
  };

  async function timeEach<T>(items: T[], run: (item: T) => unknown): Promise<number[]> {
    return (await timeBoth(items, run, () => {}))[0];
  }

  for (const q of queries.slice(0, 50)) {
    const probe = await call("GET", toPath(q));
    const bare = bareList(q);
    if (probe.total !== bare.total || probe.deals.map((d: any) => d.deal_id).join() !== bare.rows.map((r: any) => r.id).join()) throw new Error(`the app and the bare queries disagree on ${toPath(q)}`);
  }
  await timeEach(queries.slice(0, 200), (q) => call("GET", toPath(q)));
  await timeEach(queries.slice(0, 200), bareList);
  const [listApp, listBare] = await timeBoth(queries, (q) => call("GET", toPath(q)), bareList);
  const detailIds = Array.from({ length: REQUESTS }, () => ids[lr.int(0, ids.length - 1)]);
  await timeEach(detailIds.slice(0, 200), (id) => call("GET", `/api/v1/deals/${id}?view=full`));
  // The body is read as text: parsing it is the client's cost.
  const detailText = async (id: string) => {
    const res = await app.handle(new Request(`http://localhost/api/v1/deals/${id}?view=full`, { headers: { authorization: `Bearer ${key}` } }));
    if (res.status !== 200) throw new Error(`deal ${id}: ${res.status}`);
    return res.text();
  };
  const [detailApp, detailBare] = await timeBoth(detailIds, detailText, bareDetailBody);
  const [, detailParsed] = await timeBoth(detailIds.slice(0, 500), () => {}, bareDetailParsed);

  const report = (what: string, app: number[], bare: number[], bareWhat: string) => {
    log(what);
    log(`  dealgraph   p50 ${ms(pct(app, 50))} ms   p99 ${ms(pct(app, 99))} ms   max ${ms(Math.max(...app))} ms`);
    log(`  bare SQL    p50 ${ms(pct(bare, 50))} ms   p99 ${ms(pct(bare, 99))} ms (${bareWhat})`);
    log(`  ratio       p50 ${(pct(app, 50) / pct(bare, 50)).toFixed(2)}x   p99 ${(pct(app, 99) / pct(bare, 99)).toFixed(2)}x (dealgraph / bare)`);
  };
  report(`GET /api/v1/deals over ${DEALS.toLocaleString()} deals, ${REQUESTS} requests (offsets, stage, kind, status and name filters; pages of 50)`, listApp, listBare, "count and page");
  const byFilter = (k: number) => listApp.filter((_, i) => i % 5 === k);
  log(`  by filter   p50 none ${ms(pct(byFilter(0), 50))}, stage ${ms(pct(byFilter(1), 50))}, kind ${ms(pct(byFilter(2), 50))}, status ${ms(pct(byFilter(3), 50))}, q ${ms(pct(byFilter(4), 50))} ms`);
  // OFFSET walks the index up to the page: the newest and the oldest page.
  for (const offset of [0, DEALS - 50]) {
    const [a, b] = await timeBoth(Array.from({ length: 100 }, () => ({ limit: 50, offset })), (q) => call("GET", toPath(q)), bareList);
    log(`  offset ${String(offset).padStart(5)}: dealgraph p50 ${ms(pct(a, 50))} ms, bare p50 ${ms(pct(b, 50))} ms`);
  }
  report(`GET /api/v1/deals/{id}?view=full, ${REQUESTS} requests`, detailApp, detailBare, "the row read and the same body written");
  log(`  the row read and both JSON columns parsed (what earlier runs compared with): p50 ${ms(pct(detailParsed, 50))} ms; dealgraph / that ${(pct(detailApp, 50) / pct(detailParsed, 50)).toFixed(2)}x`);
  log(`  (in process the app also finds the key, counts the request in its daily budget (a write) and runs the framework; the bare body does none of it)`);

  // Over HTTP: the real server against the bare one doing the same essential work for the deal
  // (key lookup by hash, budget upsert, the row, the body), by requests per CPU-second.
  const load = loadRunner({ connections: 32, warmup: 1, duration: Number(opts.duration), wrk: Bun.which("wrk") }, log);
  const detailPath = `/api/v1/deals/${ids[0]}?view=full`;
  type Measured = Awaited<ReturnType<typeof load.measure>>;
  let shapeOfDealgraph: string[] | null = null;
  const mainDir = join(dir, "main");
  try {
    log(`GET ${detailPath.replace(ids[0], "{id}")} over HTTP, ${opts.rounds} rounds of alternating order`);
    const rounds = await alternatingRounds(
      Number(opts.rounds),
      async (): Promise<Measured> => {
        const dg = await startServe([process.execPath, join(ROOT, "src", "main.ts"), "serve", "--port", "0", "--data-dir", mainDir], { cwd: mainDir });
        load.track(dg.child);
        try {
          const m = await load.measure("dealgraph serve", dg.child.pid, `${dg.url}${detailPath}`, key, null);
          shapeOfDealgraph ??= m.keys;
          return m;
        } finally {
          await load.stop(dg.child);
        }
      },
      async (): Promise<Measured> => {
        const child = load.spawn([process.execPath, join(ROOT, "scripts", "bench", "bare-server.ts"), "--db", join(mainDir, "dealgraph.db")], mainDir);
        try {
          const url = (await child.waitForLine(/^bare listening on (http:\/\/\S+)/, 10_000, "bare server URL"))[1];
          return await load.measure("bare Bun.serve + bun:sqlite", child.pid, `${url}${detailPath}`, key, shapeOfDealgraph);
        } finally {
          await load.stop(child);
        }
      },
      (d, b) => perCpuSecond(b.result) / perCpuSecond(d.result),
    );
    log(`  dealgraph / bare, CPU per request, every round: ${rounds.rounds.map((r) => fmt(r.ratio, 2)).join(", ")}; median ${fmt(rounds.median.ratio, 2)}x`);
    log(`  target      dealgraph <= 1.5x the bare server's CPU per request: ${rounds.median.ratio <= 1.5 ? "met" : "NOT MET"}`);
  } finally {
    await load.stopAll();
  }
}

sqlite.close();
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
