// What several benchmarks share: a temp data dir opened the way `serve` opens one, with the real
// app; deals seeded by direct SQL (CONTRACT.md allows it for benchmarks); timing two sides in turn.
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { rng } from "../../src/demo/rng.ts";
import { silentLog } from "../../src/lib/log.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";

export const ms = (x: number) => x.toFixed(2);
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Each item through both sides, one after the other, so a noisy moment hits both alike. */
export async function timeBoth<T>(items: T[], a: (item: T) => unknown, b: (item: T) => unknown): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (const item of items) {
    let start = performance.now();
    await a(item);
    ta.push(performance.now() - start);
    start = performance.now();
    await b(item);
    tb.push(performance.now() - start);
  }
  return [ta, tb];
}

/** A data dir (a fresh temp one unless `keep` names one), its deps and the app over it. */
export function openBenchDir(prefix: string, keep?: string) {
  const dir = keep ?? mkdtempSync(join(tmpdir(), `dealgraph-bench-${prefix}-`));
  const config = loadConfig({}, { dataDir: dir });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, log: silentLog });
  return {
    dir,
    deps,
    sqlite: db.$client as Database,
    app: createApp(deps),
    close() {
      db.$client.close();
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A data dir opened the way `serve` opens one, with an org and a write key: the deals benches call the real app through it. */
export function openBench(dir: string) {
  const config = loadConfig({}, { dataDir: dir, port: 0, host: "127.0.0.1" });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, log: silentLog });
  const org = orgsService(deps).createOrg("Bench Ventures");
  const user = orgsService(deps).createUser({ orgId: org.id, email: `bench-${Bun.randomUUIDv7()}@bench.vc`, name: "Bench" });
  const key = apiKeysService(deps).create({ userId: user.id, scope: "write", dailyRequests: 10_000_000, dailyActions: 1_000_000 }).secret;
  return { deps, sqlite: db.$client as Database, org, user, key };
}

export const PIPELINE_STAGES = ["new", "screening", "diligence", "ic", "invested", "passed"];

/**
 * `count` deals an hour apart from 2024-01-01, each with a run: nine in ten analysed (a score and
 * the given facts and analysis JSON), the rest failed, queued or running; one in ten a fund; stages
 * spread. Returns their ids, oldest first.
 */
export function seedDeals(sqlite: Database, o: { orgId: string; userId: string; count: number; facts: string; analysis: string }): string[] {
  const seedRand = rng(42);
  const ids: string[] = [];
  sqlite.transaction(() => {
    const deal = sqlite.prepare(
      `INSERT INTO deals (id, org_id, created_by, company_name, domain, website, kind, stage, source, target_key, score, score_confidence, facts, analysis, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'upload', ?, ?, ?, ?, ?, ?, ?)`,
    );
    const run = sqlite.prepare(
      `INSERT INTO action_runs (id, org_id, user_id, key_id, kind, subject_id, status, input, attempts, created_at, started_at, finished_at)
       VALUES (?, ?, ?, NULL, 'deal_analysis', ?, ?, '{}', 1, ?, ?, ?)`,
    );
    const base = Date.UTC(2024, 0, 1);
    for (let i = 0; i < o.count; i++) {
      const id = Bun.randomUUIDv7();
      const name = `Company ${String(i).padStart(5, "0")} ${seedRand.pick(["Labs", "AI", "Pay", "Health", "Grid"])}`;
      const at = new Date(base + i * 3_600_000).toISOString();
      const status = seedRand.chance(0.9) ? "succeeded" : seedRand.pick(["failed", "queued", "running"]);
      const done = status === "succeeded";
      deal.run(id, o.orgId, o.userId, name, `c${i}.io`, `https://c${i}.io`, i % 10 === 0 ? "fund" : "company", seedRand.pick(PIPELINE_STAGES), `name:${name.toLowerCase().replace(/[^a-z0-9]+/g, "")}`,
        done ? seedRand.int(20, 90) : null, done ? 0.75 : null, done ? o.facts : null, done ? o.analysis : null, at, at);
      run.run(Bun.randomUUIDv7(), o.orgId, o.userId, id, status, at, status === "queued" ? null : at, done || status === "failed" ? at : null);
      ids.push(id);
    }
  })();
  return ids;
}
