// `bun scripts/bench/webhooks.ts`: webhook delivery throughput and the delay from a run finishing
// to its first delivery attempt.
//
// The receiver (scripts/bench/webhook-receiver.ts) runs in its own process on 127.0.0.1 and answers
// 204; DEALGRAPH_ALLOW_PRIVATE_NETWORK is on so a loopback URL may be registered. Nothing leaves
// 127.0.0.1. Measured, one after the other, in this run:
//
// 1. Throughput (target >= 500 deliveries/s). N outbox events (written straight into the outbox,
//    one transaction) fanned out and delivered by the dispatcher (`createDispatcher().drain()`, what
//    the webhook-delivery job runs): signing, safe-fetch, ledger row and attempt row per delivery.
//    Baselines with the same body and the same number in flight: bare `fetch` POSTs, and safe-fetch
//    POSTs with signing (no database). Ratios dealgraph / each baseline.
// 2. Latency (target p99 < 1 s). `startServer()` (the real serve wiring, fast path included); runs
//    of a bench action kind finished through the action engine at random moments, the outbox event
//    in the same transaction; the delay from each `succeed()` returning to the receiver seeing the
//    POST. Baseline: a bare fetch POST sent at once, finish-to-arrival the same way. Also shown: the
//    poll fallback, for events written to the outbox without a notice on this process's bus.
//
//   bun scripts/bench/webhooks.ts [--deliveries N=5000] [--concurrency N=32] [--latency-runs N=300]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "../../src/cli/serve.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { safeFetch } from "../../src/lib/safe-fetch.ts";
import { newId } from "../../src/lib/ids.ts";
import { silentLog } from "../../src/lib/log.ts";
import { actionsService } from "../../src/modules/actions/actions.service.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { createDispatcher } from "../../src/modules/webhooks/webhooks.delivery.ts";
import { newWebhookSecret, signatureHeader } from "../../src/modules/webhooks/webhooks.secrets.ts";
import { webhooksService } from "../../src/modules/webhooks/webhooks.service.ts";
import { Child, cleanEnv } from "../lib/child-process.ts";

const { values: opts } = parseArgs({
  options: {
    deliveries: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "32" },
    "latency-runs": { type: "string", default: "300" },
  },
});
const N = Number(opts.deliveries);
const CONCURRENCY = Number(opts.concurrency);
const RUNS = Number(opts["latency-runs"]);
if (!(N >= 1 && CONCURRENCY >= 1 && RUNS >= 1)) throw new Error("--deliveries, --concurrency, --latency-runs must be positive");
const TARGET = { perSecond: 500, p99Ms: 1000 };

const log = (line: string) => console.log(line);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a");
const nowMs = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** `count` tasks, `width` at a time; resolves with the elapsed seconds. */

const BENCH_KIND = { kind: "bench_analysis", eventPrefix: "deal.analysis", resultUrl: (id: string) => `/api/v1/deals/${id}` };

async function pool(count: number, width: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-webhooks-"));
  const receiver = new Child([process.execPath, join(import.meta.dir, "webhook-receiver.ts")], { env: cleanEnv() });
  try {
    const port = Number((await receiver.waitForLine(/^receiver listening on (\d+)/, 10_000, "receiver port"))[1]);
    const base = `http://127.0.0.1:${port}`;
    const stats = async () => (await (await fetch(`${base}/stats`)).json()) as { count: number; arrivals: Record<string, number>; now: number };
    // The receiver's clock minus ours, from the tightest of 50 round trips (NTP-style).
    let offset = 0;
    let tightest = Infinity;
    for (let i = 0; i < 50; i++) {
      const t0 = nowMs();
      const { now } = await stats();
      const t1 = nowMs();
      if (t1 - t0 < tightest) [tightest, offset] = [t1 - t0, now - (t0 + t1) / 2];
    }
    const arrivalsNow = async () => Object.fromEntries(Object.entries((await stats()).arrivals).map(([k, v]) => [k, v - offset]));

    const config = loadConfig({ DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" }, { dataDir: dir, port: 0 });
    const { db } = openDataDir(config);
    const deps = createDeps({ db, config, log: silentLog });
    const org = orgsService(deps).createOrg("Bench Ventures");
    const user = orgsService(deps).createUser({ orgId: org.id, email: "bench@bench.vc", name: "Bench" });
    const key = apiKeysService(deps).create({ userId: user.id, scope: "write", dailyActions: 10_000_000 });
    const webhooks = webhooksService(deps);

    log(`webhook delivery bench (bun ${Bun.version}, ${cpus().length} CPUs): ${N} deliveries, ${CONCURRENCY} in flight; ${RUNS} runs for latency`);
    const sample = JSON.stringify({ event: "deal.analysis.completed", id: newId(), created_at: new Date().toISOString(), data: { entity_id: newId(), result_url: `/api/v1/deals/${newId()}` } });

    // 1a. Bare fetch.
    const warm = await pool(200, CONCURRENCY, async () => void (await fetch(`${base}/bare`, { method: "POST", body: sample, headers: { "content-type": "application/json" } })).arrayBuffer());
    void warm;
    const bareSeconds = await pool(N, CONCURRENCY, async () => {
      const res = await fetch(`${base}/bare`, { method: "POST", body: sample, headers: { "content-type": "application/json" } });
      await res.arrayBuffer();
    });
    const bareRate = N / bareSeconds;
    log(`\n1. throughput`);
    log(`  bare fetch POST:                 ${fmt(bareRate).padStart(7)} /s  (${fmt(bareSeconds, 2)} s)`);

    // 1b. Signed safe-fetch, no database.
    const secret = newWebhookSecret();
    const safeSeconds = await pool(N, CONCURRENCY, async (i) => {
      const id = `msg_${i}`;
      const ts = Math.floor(Date.now() / 1000);
      await safeFetch(`${base}/safe`, {
        method: "POST",
        body: sample,
        allowPrivate: true,
        maxBytes: 1024,
        headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": signatureHeader([secret], id, ts, sample) },
      });
    });
    const safeRate = N / safeSeconds;
    log(`  signed safe-fetch POST:          ${fmt(safeRate).padStart(7)} /s  (${fmt(safeSeconds, 2)} s)`);

    // 1c. The dispatcher: fan-out, lease, sign, safe-fetch, ledger + attempt rows.
    const throughputHook = await webhooks.register(org.id, { url: `${base}/throughput` });
    const insert = db.$client.query("INSERT INTO outbox_events (id, org_id, event, entity_id, result_url, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    const at = new Date(Date.now() + 1000).toISOString();
    db.$client.transaction(() => {
      for (let i = 0; i < N; i++) {
        const entity = newId();
        insert.run(newId(), org.id, "deal.analysis.completed", entity, `/api/v1/deals/${entity}`, newId(), at);
      }
    })();
    const before = (await stats()).count;
    const started = performance.now();
    const result = await createDispatcher(deps, { concurrency: CONCURRENCY, perEndpoint: CONCURRENCY }).drain();
    const dgSeconds = (performance.now() - started) / 1000;
    const received = (await stats()).count - before;
    if (result.succeeded !== N || received !== N) throw new Error(`expected ${N} deliveries, got ${result.succeeded} succeeded and ${received} received`);
    const dgRate = N / dgSeconds;
    log(`  dealgraph dispatcher (drain):    ${fmt(dgRate).padStart(7)} /s  (${fmt(dgSeconds, 2)} s, fan-out included)`);
    webhooks.remove(org.id, throughputHook.endpoint.id);

    // 2a. Latency baseline: a bare POST sent the moment the "run" finishes.
    const bareLatency: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 200); i++) {
      const entity = `bare-${i}`;
      const finished = nowMs();
      await (await fetch(`${base}/latency`, { method: "POST", body: JSON.stringify({ data: { entity_id: entity } }) })).arrayBuffer();
      bareLatency.push((await arrivalsNow())[entity] - finished);
    }

    // 2b. The server's fast path.
    await webhooks.register(org.id, { url: `${base}/latency` });
    const actions = actionsService(deps);
    const verified = apiKeysService(deps).verify(key.secret);
    if (verified.status !== "VALID") throw new Error("bench key invalid");
    const principal = { ...verified.key, orgId: org.id, requests: { allowed: true, limit: 1, remaining: 1, resetSeconds: 1 } };
    const server = startServer(deps);
    const finishedAt = new Map<string, number>();
    try {
      for (let i = 0; i < RUNS; i++) {
        await Bun.sleep(Math.random() * 30); // finish at random moments relative to the poll
        const subject = newId();
        const { run } = db.transaction(() => actions.dispatch(principal, BENCH_KIND, subject, {}));
        await Bun.sleep(1 + Math.random() * 5); // the run's work
        actions.start(run.id);
        actions.succeed(run.id);
        finishedAt.set(subject, nowMs());
      }
      const deadline = Date.now() + 10_000;
      let arrivals: Record<string, number> = {};
      while (Date.now() < deadline) {
        arrivals = await arrivalsNow();
        if ([...finishedAt.keys()].every((s) => arrivals[s] !== undefined)) break;
        await Bun.sleep(50);
      }
      const missing = [...finishedAt.keys()].filter((s) => arrivals[s] === undefined).length;
      const latency = [...finishedAt].filter(([s]) => arrivals[s] !== undefined).map(([s, t]) => arrivals[s] - t);
      // 2c. Without a bus notice (an event written by another process): the 200 ms poll finds it.
      const polledAt = new Map<string, number>();
      for (let i = 0; i < Math.min(RUNS, 100); i++) {
        await Bun.sleep(Math.random() * 30);
        const entity = newId();
        insert.run(newId(), org.id, "deal.analysis.completed", entity, `/api/v1/deals/${entity}`, newId(), new Date().toISOString());
        polledAt.set(entity, nowMs());
      }
      const pollDeadline = Date.now() + 5000;
      let polledArrivals: Record<string, number> = {};
      while (Date.now() < pollDeadline) {
        polledArrivals = await arrivalsNow();
        if ([...polledAt.keys()].every((s) => polledArrivals[s] !== undefined)) break;
        await Bun.sleep(50);
      }
      const polled = [...polledAt].filter(([s]) => polledArrivals[s] !== undefined).map(([s, t]) => polledArrivals[s] - t);
      const p = (xs: number[]) => ({ p50: pct(xs, 50), p99: pct(xs, 99), max: Math.max(...xs) });
      const poll = p(polled);
      const dg = p(latency);
      const bare = p(bareLatency);
      log(`\n2. run finished -> first delivery attempt at the receiver (clocks aligned to +-${fmt(tightest / 2, 3)} ms)`);
      log(`  bare fetch POST at once:         p50 ${fmt(bare.p50, 2)} ms, p99 ${fmt(bare.p99, 2)} ms, max ${fmt(bare.max, 2)} ms (${bareLatency.length} POSTs)`);
      log(`  dealgraph serve (fast path):     p50 ${fmt(dg.p50, 1)} ms, p99 ${fmt(dg.p99, 1)} ms, max ${fmt(dg.max, 1)} ms (${latency.length} runs${missing ? `, ${missing} never arrived` : ""})`);
      log(`  dealgraph serve, poll fallback:  p50 ${fmt(poll.p50, 1)} ms, p99 ${fmt(poll.p99, 1)} ms, max ${fmt(poll.max, 1)} ms (${polled.length} events written without a bus notice)`);

      log(`\nsummary`);
      log(`  deliveries/s: dealgraph ${fmt(dgRate)}, bare fetch ${fmt(bareRate)}, signed safe-fetch ${fmt(safeRate)}`);
      log(`  ratios: dealgraph / bare fetch ${fmt(dgRate / bareRate, 2)}, dealgraph / signed safe-fetch ${fmt(dgRate / safeRate, 2)}, safe-fetch / bare ${fmt(safeRate / bareRate, 2)}`);
      log(`  first-attempt delay p99: dealgraph ${fmt(dg.p99, 1)} ms vs bare ${fmt(bare.p99, 2)} ms (ratio ${fmt(dg.p99 / bare.p99, 0)}x)`);
      const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
      log(`\ntargets`);
      log(`  deliveries/s >= ${TARGET.perSecond}`.padEnd(34) + `${fmt(dgRate).padStart(8)}   ${verdict(dgRate >= TARGET.perSecond)}`);
      log(`  first-attempt p99 < ${TARGET.p99Ms} ms`.padEnd(34) + `${fmt(dg.p99).padStart(5)} ms   ${verdict(dg.p99 < TARGET.p99Ms && missing === 0)}`);
    } finally {
      await server.stop(); // also closes the database
    }
  } finally {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
  process.exit(0);
} catch (error) {
  console.error(`bench failed: ${(error as Error).stack ?? error}`);
  process.exit(1);
}
