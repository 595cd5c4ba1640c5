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
import { Child, runJson, startServe } from "../lib/child-process.ts";
import type { LoadResult } from "./load.ts";

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
const CLK_TCK = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

const children = new Set<Child>();
function spawn(cmd: string[], cwd: string): Child {
  const child = new Child(cmd, { cwd });
  children.add(child);
  return child;
}
async function stop(child: Child) {
  await child.stop();
  children.delete(child);
}

const log = (line: string) => console.log(line);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a");
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

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

/** The key paths of a JSON value, to check both servers answer with the same shape. */
function shape(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => shape(v, prefix ? `${prefix}.${k}` : k));
}

// ---------------------------------------------------------------------------------------------
// Load

type Measured = LoadResult & { server_cpu: number; client: string };

async function loadWithBunClient(url: string, secret: string, serverPid: number): Promise<Measured> {
  const client = spawn(
    [
      process.execPath, join(ROOT, "scripts", "bench", "load.ts"),
      "--url", url, "--header", `Authorization: Bearer ${secret}`,
      "--connections", String(CONNECTIONS), "--warmup", String(WARMUP), "--duration", String(DURATION),
    ],
    ROOT,
  );
  try {
    const timeout = (WARMUP + DURATION) * 1000 + 30_000;
    await client.waitForLine(/^measuring$/, timeout, "load generator start");
    const cpu0 = cpuSeconds(serverPid);
    const t0 = performance.now();
    const line = await client.waitForLine(/^result (\{.*\})$/, timeout, "load generator result");
    const serverCpu = (cpuSeconds(serverPid) - cpu0) / ((performance.now() - t0) / 1000);
    return { ...(JSON.parse(line[1]) as LoadResult), server_cpu: serverCpu, client: "scripts/bench/load.ts" };
  } finally {
    await stop(client);
  }
}

/** wrk's duration like "1.23ms", "456.00us", "1.02s" in ms. */
function wrkMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
}

async function loadWithWrk(url: string, secret: string, serverPid: number): Promise<Measured> {
  const args = (seconds: number) => [WRK!, "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-H", `Authorization: Bearer ${secret}`, url];
  if (WARMUP > 0) {
    const warm = spawn(args(Math.max(1, Math.round(WARMUP))), ROOT);
    await warm.proc.exited;
    children.delete(warm);
  }
  const cpu0 = cpuSeconds(serverPid);
  const t0 = performance.now();
  const run = spawn(args(Math.max(1, Math.round(DURATION))), ROOT);
  const code = await run.proc.exited;
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = (cpuSeconds(serverPid) - cpu0) / seconds;
  await Bun.sleep(50); // let the stdout pump finish
  children.delete(run);
  const out = run.out.join("\n");
  if (code !== 0) throw new Error(`wrk exited with ${code}\n${run.describe()}`);
  const pct = (p: string) => wrkMs(new RegExp(`^\\s*${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s*(\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors:.*/.exec(out)?.[0].match(/\d+/g)?.reduce((a, b) => a + Number(b), 0) ?? 0;
  return {
    connections: CONNECTIONS,
    seconds,
    requests,
    rps: Number(/Requests\/sec:\s*([\d.]+)/.exec(out)?.[1] ?? NaN),
    statuses: { "200": requests - non2xx, ...(non2xx ? { "non-2xx": non2xx } : {}) },
    errors: socketErrors,
    p50_ms: pct("50"),
    p90_ms: pct("90"),
    p99_ms: pct("99"),
    max_ms: wrkMs(/^\s*Latency\s+\S+\s+\S+\s+(\S+)/m.exec(out)?.[1] ?? ""),
    client_cpu: NaN,
    server_cpu: serverCpu,
    client: "wrk",
  };
}

async function measure(name: string, server: Child, url: string, secret: string, expectShape: string[] | null) {
  const probe = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
  const body = await probe.json();
  if (probe.status !== 200) throw new Error(`${name}: GET ${url} answered ${probe.status} ${JSON.stringify(body)}`);
  const keys = shape(body).sort();
  if (expectShape && keys.join() !== expectShape.join()) {
    log(`  warning: ${name}'s body differs in shape from Dealgraph's: ${keys.filter((k) => !expectShape.includes(k)).join(", ")} / ${expectShape.filter((k) => !keys.includes(k)).join(", ")}`);
  }
  const result = WRK ? await loadWithWrk(url, secret, server.pid) : await loadWithBunClient(url, secret, server.pid);
  const bad = Object.entries(result.statuses).filter(([s]) => s !== "200");
  if (bad.length || result.errors || result.requests === 0) {
    throw new Error(`${name}: ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}, ${result.errors} errors: not a valid run`);
  }
  log(`  ${name}: ${fmt(result.rps)} req/s, p50 ${fmt(result.p50_ms, 2)} ms, p99 ${fmt(result.p99_ms, 2)} ms, server CPU ${fmt(result.server_cpu * 100)}%`);
  return { result, keys };
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
    type Measured = Awaited<ReturnType<typeof measure>>;
    const measureDealgraph = async (): Promise<Measured> => {
      const dg = await startServe(serveCmd(0), { cwd: dir });
      children.add(dg.child);
      try {
        return await measure(`dealgraph (${opts.dealgraph})`, dg.child, `${dg.url}/api/v1/me`, secret, null);
      } finally {
        await stop(dg.child);
      }
    };
    const measureBare = async (expectShape: string[] | null): Promise<Measured> => {
      const bareChild = spawn([process.execPath, join(ROOT, "scripts", "bench", "bare-server.ts"), "--db", join(dataDir, "dealgraph.db")], dir);
      try {
        const bareUrl = (await bareChild.waitForLine(/^bare listening on (http:\/\/\S+)/, 10_000, "bare server URL"))[1];
        return await measure("bare Bun.serve + bun:sqlite", bareChild, `${bareUrl}/api/v1/me`, secret, expectShape);
      } finally {
        await stop(bareChild);
      }
    };
    const rounds: { dealgraph: Measured; bare: Measured; ratio: number }[] = [];
    let shapeOfDealgraph: string[] | null = null;
    for (let r = 0; r < ROUNDS; r++) {
      let dealgraphRun: Measured;
      let bareRun: Measured;
      if (r % 2 === 0) {
        dealgraphRun = await measureDealgraph();
        shapeOfDealgraph ??= dealgraphRun.keys;
        bareRun = await measureBare(shapeOfDealgraph);
      } else {
        bareRun = await measureBare(shapeOfDealgraph);
        dealgraphRun = await measureDealgraph();
      }
      const roundRatio = dealgraphRun.result.rps / bareRun.result.rps;
      rounds.push({ dealgraph: dealgraphRun, bare: bareRun, ratio: roundRatio });
      log(`  round ${r + 1}: ratio ${fmt(roundRatio, 2)}`);
    }
    const medianRound = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
    const { dealgraph, bare, ratio } = medianRound;

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
    log(`  every round: ${rounds.map((r) => fmt(r.ratio, 2)).join(", ")}`);
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
    await Promise.all([...children].map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${(error as Error).message}`);
  process.exit(1);
}
