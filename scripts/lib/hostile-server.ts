// A real `dealgraph serve` process on a temp data dir, watched from outside while it is fed hostile
// files: a /healthz probe that records every answer's latency, and a sampler of the server's
// resident memory (and of its children's: the document readers and LibreOffice). Shared by the
// abuse suite (test/e2e/hostile-uploads.test.ts) and its benchmark (scripts/bench/hostile-uploads.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { residentBytes } from "../../src/lib/child-job.ts";
import { cleanEnv, runJson, startServe, type Child } from "./child-process.ts";

export const ROOT = resolve(import.meta.dir, "..", "..");

export type Served = { child: Child; url: string; dataDir: string; key: { id: string; secret: string }; userId: string; cli: <T>(...args: string[]) => Promise<T> };

/**
 * `dealgraph serve` on `dataDir` (from the sources, or `binary`), with an org, a user and a write
 * key made by the CLI first (budgets large enough for a suite; callers make their own keys for
 * budget checks).
 */
export async function serveOnDataDir(dataDir: string, opts: { binary?: string; env?: Record<string, string> } = {}): Promise<Served> {
  const program = opts.binary ? [resolve(opts.binary)] : [process.execPath, join(ROOT, "src", "main.ts")];
  const env = cleanEnv(opts.env ?? {});
  const cli = <T>(...args: string[]) => runJson<T>([...program, ...args, "--data-dir", dataDir], { cwd: dataDir, env });
  const { org_id } = await cli<{ org_id: string }>("admin", "org", "create", "--name", "Hostile Test Capital", "--json");
  const { user_id } = await cli<{ user_id: string }>("admin", "user", "create", "--org", org_id, "--email", "ops@hostile.test", "--name", "Ops", "--json");
  const created = await cli<{ key_id: string; secret: string }>("admin", "key", "create", "--user", user_id, "--scope", "write", "--daily-requests", "1000000", "--daily-actions", "10000", "--json");
  const { child, url } = await startServe([...program, "serve", "--port", "0", "--data-dir", dataDir], { cwd: dataDir, env, detached: true });
  return { child, url, dataDir, key: { id: created.key_id, secret: created.secret }, userId: user_id, cli };
}

/** SIGTERM to the server's whole group (its readers and LibreOffice too), SIGKILL after a grace period. */
export async function stopServed(served: Served): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-served.child.pid, name);
    } catch {
      // gone already
    }
  };
  signal("SIGTERM");
  const exited = await Promise.race([served.child.proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
  signal("SIGKILL");
  if (!exited) await served.child.proc.exited;
}

export type ProbeResult = { samples: number; failures: number; maxMs: number; p50Ms: number; p99Ms: number };

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] : 0);

/** GET /healthz back to back (a pause of `gapMs` between), from outside, until stopped. */
export function probeHealth(url: string, gapMs = 25) {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/healthz`);
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - started);
      await Bun.sleep(gapMs);
    }
  })();
  return {
    async stop(): Promise<ProbeResult> {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { samples: latencies.length, failures, maxMs: sorted.at(-1) ?? 0, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
    },
  };
}

/** Resident memory of one process (bytes), 0 when it is gone. */
const rss = (pid: number) => residentBytes(pid) ?? 0;

/** Every live descendant of `pid` (by /proc's parent links). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      parent.set(Number(p), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const current = queue.shift()!;
    for (const [child, of] of parent) if (of === current) (out.push(child), queue.push(child));
  }
  return out;
}

export type RssResult = { serverPeakBytes: number; childrenPeakBytes: number };

/** Samples the server's RSS and the sum of its descendants' every `everyMs`, keeping the peaks. */
export function sampleRss(pid: number, everyMs = 50) {
  let serverPeakBytes = rss(pid);
  let childrenPeakBytes = 0;
  const timer = setInterval(() => {
    serverPeakBytes = Math.max(serverPeakBytes, rss(pid));
    childrenPeakBytes = Math.max(childrenPeakBytes, descendants(pid).reduce((n, c) => n + rss(c), 0));
  }, everyMs);
  return {
    stop(): RssResult {
      clearInterval(timer);
      return { serverPeakBytes, childrenPeakBytes };
    },
  };
}

export const serverRss = rss;

export type RunStatus = { status: string; error: string | null };

/** Polls a deal's analysis until it succeeds or fails. */
export async function waitForAnalysis(served: Served, dealId: string, secret = served.key.secret, timeoutMs = 180_000): Promise<RunStatus> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${served.url}/api/v1/deals/${dealId}/analysis`, { headers: { authorization: `Bearer ${secret}` } });
    const body = (await res.json()) as RunStatus;
    if (body.status === "succeeded" || body.status === "failed") return body;
    await Bun.sleep(100);
  }
  throw new Error(`deal ${dealId}: the analysis did not finish within ${timeoutMs} ms`);
}

/** POST /api/v1/deals/analyze/upload of one file. */
export function uploadDeck(served: Served, bytes: Uint8Array, filename: string, companyName: string, secret = served.key.secret) {
  const form = new FormData();
  form.append("file", new Blob([bytes]), filename);
  form.append("company_name", companyName);
  return fetch(`${served.url}/api/v1/deals/analyze/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${secret}` } });
}

/** POST /api/v1/deals/{id}/documents with files. */
export function addToDataRoom(served: Served, dealId: string, files: [Uint8Array, string][], secret = served.key.secret) {
  const form = new FormData();
  for (const [bytes, name] of files) form.append("files", new Blob([bytes]), name);
  return fetch(`${served.url}/api/v1/deals/${dealId}/documents`, { method: "POST", body: form, headers: { authorization: `Bearer ${secret}` } });
}
