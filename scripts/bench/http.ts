// `bun run bench:http`: Dealgraph's HTTP overhead, cold start and idle memory.
//
// 1. Throughput: an authenticated, budget-counted read (GET /api/v1/me with a read key) on
//    `dealgraph serve`, against scripts/bench/bare-server.ts (bare Bun.serve + bun:sqlite doing
//    the same query on the same database file), one after the other (never both at once), each
//    driven by scripts/bench/load.ts (or wrk, when installed) in its own process, in rounds of
//    alternating order. Prints req/s, p50/p99 and the ratio dealgraph/bare of the median round.
//                                                      Target: ratio >= 0.6.
// 2. Cold start of the compiled binary: spawn `dist/dealgraph serve`, poll GET /healthz every
//    3 ms until 200; median and max of N runs.        Target: under 150 ms (median).
// 3. Idle memory of the compiled binary: VmRSS after start-up, 20 authenticated requests and 2 s
//    of rest.                                          Target: under 80 MB.
//
//   bun scripts/bench/http.ts [--duration S=5] [--warmup S=1] [--connections N=64] [--runs N=10] [--rounds N=3]
//                             [--dealgraph binary|source] [--client auto|bun|wrk]
//
// dist/dealgraph is (re)built first when missing or older than its sources. The data dir is a
// temp dir, populated through the binary's admin CLI; the key's daily request budget is far above
// what the bench can spend, so it never sees a 429. All traffic is on 127.0.0.1; every child
// process is stopped in a finally block.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BINARY, binaryStaleness, buildBinary, ROOT } from "../build.ts";
import { runJson, startServe, type Child } from "../lib/child-process.ts";
import { alternatingRounds, fmt, loadRunner, median, perCpuSecond } from "../lib/load-rounds.ts";

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "64" },
    runs: { type: "string", default: "10" },
    dealgraph: { type: "string", default: "binary" },
    client: { type: "string", default: "auto" },
  },
});
const DURATION = Number(opts.duration);
const ROUNDS = Number(opts.rounds);
const WARMUP = Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
const RUNS = Number(opts.runs);
if (!(DURATION > 0 && WARMUP >= 0 && CONNECTIONS >= 1 && RUNS >= 1 && Number.isInteger(ROUNDS) && ROUNDS >= 1)) {
  throw new Error("--duration, --warmup, --connections, --runs, --rounds must be positive");
}
if (opts.dealgraph !== "binary" && opts.dealgraph !== "source") throw new Error("--dealgraph must be binary or source");
if (!["auto", "bun", "wrk"].includes(opts.client!)) throw new Error("--client must be auto, bun or wrk");
const WRK = opts.client === "bun" ? null : Bun.which("wrk");
if (opts.client === "wrk" && !WRK) throw new Error("--client wrk: wrk is not installed");

const TARGET = { ratio: 0.6, coldStartMs: 150, idleMb: 80 };
const log = (line: string) => console.log(line);
const load = loadRunner({ connections: CONNECTIONS, warmup: WARMUP, duration: DURATION, wrk: WRK }, log);
const { spawn, stop } = load;

function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

// ---------------------------------------------------------------------------------------------
// Cold start and memory

async function untilHealthy(child: Child, port: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: "close" } });
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (child.proc.exitCode !== null) throw new Error(`the server exited (code ${child.proc.exitCode}) before answering\n${child.describe()}`);
    await Bun.sleep(3);
  }
  throw new Error(`no 200 from /healthz within ${timeoutMs} ms\n${child.describe()}`);
}

async function coldStarts(cmd: (port: number) => string[], cwd: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = freePort();
    const t0 = performance.now();
    const child = spawn(cmd(port), cwd);
    try {
      await untilHealthy(child, port, 10_000);
      times.push(performance.now() - t0);
    } finally {
      await stop(child);
    }
  }
  return times;
}

async function idleRss(cmd: (port: number) => string[], cwd: string, secret: string): Promise<number> {
  const port = freePort();
  const child = spawn(cmd(port), cwd);
  try {
    await untilHealthy(child, port, 10_000);
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`idle memory: /api/v1/me answered ${r.status}`);
    }
    await Bun.sleep(2000);
    return rssBytes(child.pid);
  } finally {
    await stop(child);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-"));
  const dataDir = join(dir, "data");
  try {
    log(`Dealgraph HTTP bench: bun ${Bun.version}, ${cpus().length} CPUs, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured, client ${WRK ?? "scripts/bench/load.ts"}`);

    const stale = binaryStaleness();
    if (stale) {
      log(`building ${BINARY} (${stale}) ...`);
      const built = await buildBinary();
      log(`  built: ${fmt(built.bytes / 1024 / 1024, 1)} MiB in ${fmt(built.ms / 1000, 1)} s`);
    }

    // The data: one org, one user, one read key with a budget the bench cannot exhaust.
    const cli = <T>(...args: string[]) => runJson<T>([BINARY, ...args, "--json", "--data-dir", dataDir], { cwd: dir });
    const { org_id } = await cli<{ org_id: string }>("admin", "org", "create", "--name", "Bench Ventures");
    const { user_id } = await cli<{ user_id: string }>("admin", "user", "create", "--org", org_id, "--email", "bench@bench.vc", "--name", "Bench User");
    const { secret } = await cli<{ secret: string }>("admin", "key", "create", "--user", user_id, "--scope", "read", "--daily-requests", "10000000");

    const serveCmd = (port: number) =>
      opts.dealgraph === "binary"
        ? [BINARY, "serve", "--port", String(port), "--data-dir", dataDir]
        : [process.execPath, join(ROOT, "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir];

    // 1. Throughput, one server at a time, in rounds whose order alternates (dealgraph first, then
    // bare first, ...): on a shared machine the load of the moment moves both figures, so the ratio
    // is taken within a round and the median round reported.
    log(`\nthroughput: GET /api/v1/me, authenticated and budget-counted, ${ROUNDS} rounds`);
    type Measured = Awaited<ReturnType<typeof load.measure>>;
    let shapeOfDealgraph: string[] | null = null;
    const measureDealgraph = async (): Promise<Measured> => {
      const dg = await startServe(serveCmd(0), { cwd: dir });
      load.track(dg.child);
      try {
        const measured = await load.measure(`dealgraph (${opts.dealgraph})`, dg.child.pid, `${dg.url}/api/v1/me`, secret, null);
        shapeOfDealgraph ??= measured.keys;
        return measured;
      } finally {
        await stop(dg.child);
      }
    };
    const measureBare = async (): Promise<Measured> => {
      const bareChild = spawn([process.execPath, join(ROOT, "scripts", "bench", "bare-server.ts"), "--db", join(dataDir, "dealgraph.db")], dir);
      try {
        const bareUrl = (await bareChild.waitForLine(/^bare listening on (http:\/\/\S+)/, 10_000, "bare server URL"))[1];
        return await load.measure("bare Bun.serve + bun:sqlite", bareChild.pid, `${bareUrl}/api/v1/me`, secret, shapeOfDealgraph);
      } finally {
        await stop(bareChild);
      }
    };
    const measured = await alternatingRounds(ROUNDS, measureDealgraph, measureBare, (d, b) => d.result.rps / b.result.rps);
    measured.rounds.forEach((r, i) => log(`  round ${i + 1}: ratio ${fmt(r.ratio, 2)} (req/s), ${fmt(perCpuSecond(r.a.result) / perCpuSecond(r.b.result), 2)} (req per CPU-second)`));
    const rounds = measured.rounds.map((r) => ({ dealgraph: r.a, bare: r.b, ratio: r.ratio }));
    const { a: dealgraph, b: bare, ratio } = measured.median;

    // 2. Cold start of the compiled binary (and, for reference, of the sources under bun).
    log(`\ncold start: spawn -> first 200 on /healthz, ${RUNS} runs each`);
    const binaryServe = (port: number) => [BINARY, "serve", "--port", String(port), "--data-dir", dataDir];
    const sourceServe = (port: number) => [process.execPath, join(ROOT, "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir];
    const cold = await coldStarts(binaryServe, dir, RUNS);
    log(`  dist/dealgraph serve: median ${fmt(median(cold), 1)} ms, max ${fmt(Math.max(...cold), 1)} ms  [${cold.map((t) => fmt(t)).join(", ")}]`);
    const coldSource = await coldStarts(sourceServe, dir, RUNS);
    log(`  bun src/main.ts serve (reference): median ${fmt(median(coldSource), 1)} ms, max ${fmt(Math.max(...coldSource), 1)} ms`);

    // 3. Idle memory of the compiled binary.
    log(`\nidle memory: VmRSS after start-up, 20 authenticated requests and 2 s of rest`);
    const rss = await idleRss(binaryServe, dir, secret);
    log(`  dist/dealgraph serve: ${fmt(rss / 1e6, 1)} MB (${fmt(rss / 1024 / 1024, 1)} MiB)`);

    // Summary
    const d = dealgraph.result;
    const b = bare.result;
    const row = (cells: string[], widths: number[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    const w = [38, 10, 9, 9, 11, 11];
    log(`\nsummary (bun ${Bun.version}, ${cpus().length} CPUs, ${CONNECTIONS} connections, ${DURATION} s)`);
    log(row(["", "req/s", "p50 ms", "p99 ms", "server CPU", "client CPU"], w));
    for (const [name, r] of [[`dealgraph (${opts.dealgraph}) GET /api/v1/me`, d], ["bare Bun.serve + bun:sqlite", b]] as const) {
      log(row([name, fmt(r.rps), fmt(r.p50_ms, 2), fmt(r.p99_ms, 2), `${fmt(r.server_cpu * 100)}%`, Number.isNaN(r.client_cpu) ? "n/a" : `${fmt(r.client_cpu * 100)}%`], w));
    }
    log(row(["ratio dealgraph / bare (median round)", fmt(ratio, 2)], w));
    log(`  every round: ${rounds.map((r) => fmt(r.ratio, 2)).join(", ")} (req/s); ${rounds.map((r) => fmt(perCpuSecond(r.dealgraph.result) / perCpuSecond(r.bare.result), 2)).join(", ")} (req per CPU-second)`);
    const coldMedian = median(cold);
    log(`cold start (dist/dealgraph serve): median ${fmt(coldMedian, 1)} ms, max ${fmt(Math.max(...cold), 1)} ms`);
    log(`idle RSS (dist/dealgraph serve):   ${fmt(rss / 1e6, 1)} MB`);

    const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
    log(`\ntargets`);
    const target = (label: string, value: string, ok: boolean) => log(`  ${label.padEnd(30)}${value.padStart(9)}   ${verdict(ok)}`);
    target(`throughput ratio >= ${TARGET.ratio}`, fmt(ratio, 2), ratio >= TARGET.ratio);
    target(`cold start < ${TARGET.coldStartMs} ms (median)`, `${fmt(coldMedian)} ms`, coldMedian < TARGET.coldStartMs);
    target(`idle RSS < ${TARGET.idleMb} MB`, `${fmt(rss / 1e6)} MB`, rss / 1e6 < TARGET.idleMb);
    for (const [name, r] of [["dealgraph", d], ["bare", b]] as const) {
      if (r.client_cpu >= 0.9 && r.server_cpu < 0.9) {
        log(`  note: during the ${name} run the load generator used ${fmt(r.client_cpu * 100)}% of a core and the server only ${fmt(r.server_cpu * 100)}%: the client may be the bottleneck, so that figure is a lower bound.`);
      }
    }
  } finally {
    await load.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${(error as Error).message}`);
  process.exit(1);
}
