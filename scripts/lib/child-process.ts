// Child processes whose stdout is read line by line (to learn a port, keys, ...), shared by the
// build smoke test, the end-to-end tests and the benchmarks.
import type { Subprocess } from "bun";


/** Resolves to true when `p` settles within `ms`, false otherwise; the timer never outlives it. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: Timer | undefined;
  try {
    return await Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export type SpawnOptions = { cwd?: string; env?: Record<string, string | undefined>; /** Its own process group (kill it with the group). */ detached?: boolean };

/** The environment without DEALGRAPH_* settings, so a caller's own config cannot leak in. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("DEALGRAPH_")) env[k] = v;
  return { ...env, ...extra };
}

export class Child {
  readonly proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Every stdout line so far (the first 2,000). */
  readonly out: string[] = [];
  /** The last 200 stderr lines. */
  readonly errTail: string[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly stdoutDone: Promise<void>;

  constructor(
    readonly cmd: string[],
    opts: SpawnOptions = {},
  ) {
    this.proc = Bun.spawn(cmd, { cwd: opts.cwd, env: opts.env ?? cleanEnv(), detached: opts.detached, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    this.stdoutDone = pumpLines(this.proc.stdout, (line) => {
      if (this.out.length < 2000) this.out.push(line);
      this.notify();
    });
    void pumpLines(this.proc.stderr, (line) => {
      this.errTail.push(line);
      if (this.errTail.length > 200) this.errTail.shift();
    });
    void this.proc.exited.then(() => this.notify());
  }

  get pid(): number {
    return this.proc.pid;
  }

  private notify() {
    for (const w of this.waiters) w();
    this.waiters.clear();
  }

  /** Waits for a stdout line matching `re`; a clear error on timeout or early exit. */
  async waitForLine(re: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (const line of this.out) {
        const m = line.match(re);
        if (m) return m;
      }
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
        await this.stdoutDone;
        for (const line of this.out) {
          const m = line.match(re);
          if (m) return m;
        }
        throw new Error(`${what}: the process exited (code ${this.proc.exitCode ?? this.proc.signalCode}) before printing it\n${this.describe()}`);
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`${what}: no stdout line matched ${re} within ${timeoutMs} ms\n${this.describe()}`);
      await within(new Promise<void>((resolve) => this.waiters.add(resolve)), Math.min(left, 250));
    }
  }

  describe(): string {
    return [
      `command: ${this.cmd.join(" ")}`,
      `stdout:\n${this.out.map((l) => `  | ${l}`).join("\n") || "  (nothing)"}`,
      `stderr (last lines):\n${this.errTail.map((l) => `  | ${l}`).join("\n") || "  (nothing)"}`,
    ].join("\n");
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  async stop(graceMs = 3000): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill("SIGTERM");
    if (!(await within(this.proc.exited, graceMs))) {
      this.proc.kill("SIGKILL");
      await within(this.proc.exited, graceMs);
    }
  }
}

async function pumpLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let partial = "";
  try {
    for await (const chunk of stream) {
      partial += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = partial.indexOf("\n")) >= 0) {
        onLine(partial.slice(0, nl).replace(/\r$/, ""));
        partial = partial.slice(nl + 1);
      }
    }
  } catch {
    // the stream ends when the process dies; nothing to report
  }
  if (partial) onLine(partial);
}

/** Runs a command to completion (killed after `timeoutMs`). */
export async function run(cmd: string[], opts: SpawnOptions & { timeoutMs?: number } = {}) {
  const proc = Bun.spawn(cmd, { cwd: opts.cwd, env: opts.env ?? cleanEnv(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Runs a command that must succeed and print one JSON object (the CLI's `--json`). */
export async function runJson<T>(cmd: string[], opts: SpawnOptions = {}): Promise<T> {
  const r = await run(cmd, opts);
  if (r.code !== 0) throw new Error(`${cmd.join(" ")} exited with ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`${cmd.join(" ")} did not print JSON\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
}

/** Starts `dealgraph demo` and reads its URL and keys off stdout. */
export async function startDemo(cmd: string[], opts: SpawnOptions, timeoutMs = 30_000) {
  const child = new Child(cmd, opts);
  const url = (await child.waitForLine(/^Dealgraph demo listening on (http:\/\/\S+)/, timeoutMs, "demo URL"))[1];
  const readKey = (await child.waitForLine(/^read key:\s+(ak_\S+)/, 5000, "demo read key"))[1];
  const writeKey = (await child.waitForLine(/^write key:\s+(ak_\S+)/, 5000, "demo write key"))[1];
  return { child, url, readKey, writeKey };
}

/** Starts `dealgraph serve` and reads its URL off stdout. */
export async function startServe(cmd: string[], opts: SpawnOptions, timeoutMs = 30_000) {
  const child = new Child(cmd, opts);
  const url = (await child.waitForLine(/^Dealgraph listening on (http:\/\/\S+)/, timeoutMs, "server URL"))[1];
  return { child, url };
}

