// Every statement the hot reads run, timed one by one: as the code writes it, and as the app's
// connection prepares it (src/db/stable-statements.ts: each parameter bound as `+param`), with the
// evidence of whether SQLite recompiles it on every execution.
//
// Bun exposes no sqlite3_stmt_status (SQLITE_STMTSTATUS_REPREPARE), so recompilation is measured:
// the same statement is also prepared behind a long comment (1 MB). Parsing that comment costs
// nothing at run time unless the statement is parsed again on each execution; the extra time per
// execution, divided by the extra time per execution of a statement known to recompile every time
// (a bound LIMIT, as written), is the share of executions that recompiled: ~1 every execution, ~0 never.
//
// The statements and their parameters are recorded (scripts/lib/statement-recorder.ts) while a
// workload of real requests runs against a seeded firm: GET /me, the portfolio page and a metric
// history, the funds reads, the deals list and a deal, who-knows, warmth lookup, the contacts
// export. Writes among them (the budget charge) run inside a transaction that is rolled back.
//
//   bun scripts/bench/statements.ts [--runs 400]
import { Database, type Statement } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { stableParameters } from "../../src/db/stable-statements.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { dealsService, nameTarget } from "../../src/modules/deals/deals.service.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { seedBook, seedFunds, seedNetwork } from "../lib/bench-seed.ts";
import { recordStatements } from "../lib/statement-recorder.ts";

const { values: opts } = parseArgs({ options: { runs: { type: "string", default: "400" } } });
const RUNS = Number(opts.runs);
const log = (line: string) => console.log(line);

const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-statements-"));
const config = loadConfig({}, { dataDir: dir });
const { db } = openDataDir(config);
const sqlite = db.$client;
// Recorded on the connection the app has wrapped: the SQL as the code wrote it.
const recorder = recordStatements({ on: sqlite, keepArgs: 50 });
const deps = createDeps({ db, config, log: silentLog });

// --- a firm and a workload ------------------------------------------------------------------------
const orgs = orgsService(deps);
const org = orgs.createOrg("Bench Ventures");
const users = Array.from({ length: 10 }, (_, i) => orgs.createUser({ orgId: org.id, email: `partner${i}@bench.vc`, name: `Partner ${i}`, shareNetwork: true }));
const write = apiKeysService(deps).create({ userId: users[0].id, scope: "write", dailyRequests: 10_000_000, dailyActions: 1_000_000 });
seedBook(sqlite, org.id, { holdings: 500, months: 36, budgets: 6 });
seedFunds(sqlite, org.id, { commitments: 50, cashflows: 5_000, marks: 40 });
const { domains } = seedNetwork(sqlite, org.id, users.map((u) => u.id), { persons: 5_000, interactions: 50_000, relationshipsPerUser: [500, 1000] });
const principal = { ...(apiKeysService(deps).verify(write.secret) as { key: { keyId: string } & Record<string, unknown> }).key, orgId: org.id } as never;
const dealIds = Array.from({ length: 100 }, (_, i) => dealsService(deps).submit(principal, { companyName: `Deal ${i}`, kind: "company", source: "upload", targetKey: nameTarget(`Deal ${i}`) }, () => {}, {}).dealId);
const companyId = sqlite.query<{ id: string }, []>("SELECT id FROM portfolio_holdings ORDER BY name_fold LIMIT 1").get()!.id;
recorder.reset(); // the seeding is not the workload

const app = createApp(deps);
const request = async (path: string, init: RequestInit = {}) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { ...init, headers: { authorization: `Bearer ${write.secret}`, "content-type": "application/json" } }));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.text();
};
const workload: (() => Promise<unknown>)[] = [
  () => request("/api/v1/me"),
  () => request(`/api/v1/portfolio/companies?limit=50&offset=${50 * Math.floor(Math.random() * 10)}`),
  () => request(`/api/v1/portfolio/companies/${companyId}/metrics?metric=arr`),
  () => request("/api/v1/funds/positions"),
  () => request("/api/v1/funds/cashflows"),
  () => request("/api/v1/funds/marks"),
  () => request(`/api/v1/deals?limit=50&offset=${10 * Math.floor(Math.random() * 5)}`),
  () => request(`/api/v1/deals/${dealIds[Math.floor(Math.random() * dealIds.length)]}?view=full`),
  () => request(`/api/v1/network/who-knows?domain=${domains[Math.floor(Math.random() * 50)]}`),
  () => request(`/api/v1/network/who-knows?person=${encodeURIComponent(`Person ${Math.floor(Math.random() * 5000)}`)}`),
  () => request("/api/v1/network/warmth/lookup", { method: "POST", body: JSON.stringify({ contacts: ["person1@company1.com", "Person 2"] }) }),
  async () => {
    let cursor: string | null = null;
    do cursor = JSON.parse(await request(`/api/v1/network/contacts?limit=200${cursor ? `&cursor=${cursor}` : ""}`)).next_cursor;
    while (cursor);
  },
];
for (let i = 0; i < 20; i++) for (const w of workload) await w();

// --- each statement, timed --------------------------------------------------------------------------
const PAD = `/*${"x".repeat(1_000_000)}*/ `;
const prepare = (text: string): Statement => Database.prototype.prepare.call(sqlite, text) as Statement;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * µs per execution of `text` over the recorded argument sets: the best of 5 rounds of at least
 * 30 ms (the statement's own cost; a noisy moment only adds). Writes are rolled back.
 */
function perExecution(text: string, args: unknown[][], writes: boolean): number {
  const statement = prepare(text);
  try {
    let runs = 1;
    const best: number[] = [];
    for (let round = 0; round < 6; round++) {
      if (writes) sqlite.exec("BEGIN");
      try {
        const t = performance.now();
        for (let i = 0; i < runs; i++) statement.all(...(args[i % args.length] as never[]));
        const took = performance.now() - t;
        if (round > 0) best.push((took / runs) * 1000);
        else runs = Math.max(5, Math.min(RUNS, Math.ceil(30 / Math.max(took, 0.001))));
      } finally {
        if (writes) sqlite.exec("ROLLBACK");
      }
    }
    return Math.min(...best);
  } finally {
    statement.finalize();
  }
}

/** Extra µs per execution behind the comment. */
const padCost = (text: string, args: unknown[][], writes: boolean) => perExecution(PAD + text, args, writes) - perExecution(text, args, writes);

// A statement that recompiles on every execution: a bound LIMIT, as written.
const calibration = "SELECT id FROM orgs LIMIT ?";
const perRecompile = median([0, 1, 2].map(() => padCost(calibration, [[1], [2]], false)));
log(`Dealgraph statements bench: bun ${Bun.version}, SQLite ${sqlite.query<{ v: string }, []>("SELECT sqlite_version() AS v").get()!.v}; a recompilation behind 1 MB of comment costs ${perRecompile.toFixed(0)} us`);
log("");
log("calls  as written: us  recompiles   as run: us  recompiles   written/run   statement");

type Row = { calls: number; written: number; run: number; writtenShare: number; runShare: number; sql: string };
const rows: Row[] = [];
for (const s of recorder.executed()) {
  if (!/^\s*(SELECT|WITH|INSERT)/i.test(s.sql) || s.args.length === 0) continue;
  const writes = !/^\s*(SELECT|WITH)/i.test(s.sql);
  const stable = stableParameters(s.sql);
  try {
    rows.push({
      calls: s.calls,
      sql: s.sql.replace(/\s+/g, " ").trim(),
      written: perExecution(s.sql, s.args, writes),
      writtenShare: padCost(s.sql, s.args, writes) / perRecompile,
      run: perExecution(stable, s.args, writes),
      runShare: padCost(stable, s.args, writes) / perRecompile,
    });
  } catch (error) {
    log(`  (not replayed: ${(error as Error).message}: ${s.sql.replace(/\s+/g, " ").slice(0, 80)})`);
  }
}
// A statement that takes longer than two recompilations cannot show one above its own noise (and
// one would not matter to it): its share is not judged.
const heavy = (r: Row) => r.written > 2 * perRecompile;
const share = (r: Row, x: number) => (heavy(r) ? "(heavy)" : x > 0.5 ? "every time" : x > 0.15 ? "sometimes" : "never").padStart(10);
for (const r of rows) {
  log(
    `${String(r.calls).padStart(5)}  ${r.written.toFixed(1).padStart(13)}  ${share(r, r.writtenShare)}   ${r.run.toFixed(1).padStart(10)}  ${share(r, r.runShare)}   ${(r.written / r.run).toFixed(2).padStart(10)}x   ${r.sql.slice(0, 110)}`,
  );
}
const judged = rows.filter((r) => !heavy(r));
const recompiledBefore = judged.filter((r) => r.writtenShare > 0.5);
const recompiledNow = judged.filter((r) => r.runShare > 0.5);
log("");
log(`${rows.length} statements, ${judged.length} light enough to judge: ${recompiledBefore.length} recompiled on every execution as written, ${recompiledNow.length} as the app runs them`);
log(`  recompile shares (1 = every execution) as written: ${recompiledBefore.map((r) => r.writtenShare.toFixed(2)).join(", ")}; as run, the largest: ${Math.max(...judged.map((r) => r.runShare)).toFixed(2)}`);
log(`  the recompiling ones, as written -> as run: ${recompiledBefore.map((r) => `${r.written.toFixed(0)} -> ${r.run.toFixed(0)} us`).join(", ")}`);

recorder.stop();
sqlite.close();
rmSync(dir, { recursive: true, force: true });
