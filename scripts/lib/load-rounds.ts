// Throughput of a server under load, measured the way scripts/bench/http.ts and portfolio.ts do it:
// scripts/bench/load.ts (or wrk, when installed) in its own process against one server at a time,
// the server's CPU read from /proc, and rounds of alternating order (on a shared machine the load
// of the moment moves both figures, so a ratio is taken within a round and the median reported).
// Every child process it starts is tracked, for a finally block to stop.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../build.ts";
import type { LoadResult } from "../bench/load.ts";
import { Child } from "./child-process.ts";

export type Measured = LoadResult & { server_cpu: number; client: string };
export type LoadOptions = { connections: number; warmup: number; duration: number; /** wrk's path, or null for scripts/bench/load.ts. */ wrk: string | null };

const CLK_TCK = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/** CPU seconds a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/**
 * Requests served per second of the server's CPU: on a machine shared with other work a server
 * often gets less than a core, and its req/s then says more about the machine than about it.
 */
export const perCpuSecond = (m: Measured) => m.rps / m.server_cpu;

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a");

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The key paths of a JSON value, to check two servers answer with the same shape. */
export function shape(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => shape(v, prefix ? `${prefix}.${k}` : k));
}

/** wrk's duration like "1.23ms", "456.00us", "1.02s" in ms. */
function wrkMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
}

export function loadRunner(opts: LoadOptions, log: (line: string) => void = (line) => console.log(line)) {
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
  /** Adopts a child started elsewhere, so stopAll stops it too. */
  const track = (child: Child) => void children.add(child);

  async function withBunClient(url: string, secret: string, serverPid: number): Promise<Measured> {
    const client = spawn(
      [
        process.execPath, join(ROOT, "scripts", "bench", "load.ts"),
        "--url", url, "--header", `Authorization: Bearer ${secret}`,
        "--connections", String(opts.connections), "--warmup", String(opts.warmup), "--duration", String(opts.duration),
      ],
      ROOT,
    );
    try {
      const timeout = (opts.warmup + opts.duration) * 1000 + 30_000;
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

  async function withWrk(url: string, secret: string, serverPid: number): Promise<Measured> {
    const args = (seconds: number) => [opts.wrk!, "-t1", `-c${opts.connections}`, `-d${seconds}s`, "--latency", "-H", `Authorization: Bearer ${secret}`, url];
    if (opts.warmup > 0) {
      const warm = spawn(args(Math.max(1, Math.round(opts.warmup))), ROOT);
      await warm.proc.exited;
      children.delete(warm);
    }
    const cpu0 = cpuSeconds(serverPid);
    const t0 = performance.now();
    const run = spawn(args(Math.max(1, Math.round(opts.duration))), ROOT);
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
      connections: opts.connections,
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

  /**
   * One server under load at `url` with the key. The body of one request is checked first (200,
   * and the same key paths as `expectShape` when given: a warning, not an error, when they differ).
   */
  async function measure(name: string, serverPid: number, url: string, secret: string, expectShape: string[] | null) {
    const probe = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
    const body = await probe.json();
    if (probe.status !== 200) throw new Error(`${name}: GET ${url} answered ${probe.status} ${JSON.stringify(body)}`);
    const keys = shape(body).sort();
    if (expectShape && keys.join() !== expectShape.join()) {
      log(`  warning: ${name}'s body differs in shape from Dealgraph's: ${keys.filter((k) => !expectShape.includes(k)).join(", ")} / ${expectShape.filter((k) => !keys.includes(k)).join(", ")}`);
    }
    const result = opts.wrk ? await withWrk(url, secret, serverPid) : await withBunClient(url, secret, serverPid);
    const bad = Object.entries(result.statuses).filter(([s]) => s !== "200");
    if (bad.length || result.errors || result.requests === 0) {
      throw new Error(`${name}: ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}, ${result.errors} errors: not a valid run`);
    }
    log(`  ${name}: ${fmt(result.rps)} req/s, p50 ${fmt(result.p50_ms, 2)} ms, p99 ${fmt(result.p99_ms, 2)} ms, server CPU ${fmt(result.server_cpu * 100)}% (${fmt(perCpuSecond(result))} req per CPU-second)`);
    return { result, keys };
  }

  async function stopAll() {
    await Promise.all([...children].map((c) => c.stop()));
    children.clear();
  }

  return { spawn, stop, track, measure, stopAll };
}

/**
 * `rounds` rounds of a then b, the order alternating (a first, then b first, ...); the ratio
 * a/b of each round, and the median round by that ratio.
 */
export async function alternatingRounds<T>(rounds: number, a: () => Promise<T>, b: () => Promise<T>, ratio: (a: T, b: T) => number) {
  const all: { a: T; b: T; ratio: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    let ra: T;
    let rb: T;
    if (r % 2 === 0) {
      ra = await a();
      rb = await b();
    } else {
      rb = await b();
      ra = await a();
    }
    all.push({ a: ra, b: rb, ratio: ratio(ra, rb) });
  }
  const middle = [...all].sort((x, y) => x.ratio - y.ratio)[Math.floor(all.length / 2)];
  return { rounds: all, median: middle };
}
