// Work the server's event loop must never do itself (parsing an untrusted file, analysing megabytes
// of its text) runs in a child process of the same program: the compiled binary, or `bun
// src/main.ts`, started with a hidden command. The child gets its input as JSON on stdin and
// answers on stdout, one line per progress event and one for the result, each after the job's
// nonce (anything else a library prints is ignored). The parent holds it to:
//   - a time limit, after which it is killed;
//   - a memory limit: its resident memory is sampled every few milliseconds (/proc) and it is
//     killed past the limit. (A Worker shares the server's heap and cannot be held to one;
//     RLIMIT_AS/RLIMIT_DATA do not work for a JavaScriptCore process, which reserves gigabytes of
//     address space at start-up.)
//   - an output cap, no network (its own network namespace, where the machine allows), a lower CPU
//     priority than the server, and an environment without the server's settings;
//   - a pool: at most `concurrency` children of one kind at once, the rest wait their turn.
import { readFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { resolve } from "node:path";
import { sandboxSupport, withoutNetwork } from "./sandbox.ts";

export type ChildLimits = {
  timeoutMs: number;
  memoryBytes: number;
  /** Bytes of stdout a child may write; more and it is killed. */
  maxOutputBytes: number;
  /** Children of one pool running at once. */
  concurrency: number;
};

export type StopReason = "time" | "memory" | "output" | "crash" | "failed";

/** The job did not give a result: stopped by a limit, crashed, or failed with its own message. */
export class ChildJobError extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
  ) {
    super(message);
  }
}

/** A failure the child's work reports with words meant for the user (not "could not be read (...)"). */
export class ChildRefusal extends Error {}

type Envelope = { nonce: string; input: unknown };
type Answer = { ok: true; value: unknown } | { ok: false; error: string };

/** This program again, with `command`: the compiled binary runs its embedded entry, `bun` the sources'. */
function selfCommand(command: string): string[] {
  const compiled = import.meta.path.startsWith("/$bunfs/");
  return compiled ? [process.execPath, command] : [process.execPath, resolve(import.meta.dir, "..", "main.ts"), command];
}

/** Resident memory of a process in bytes, or null when it is gone (or there is no /proc). */
export function residentBytes(pid: number): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

const pools = new Map<string, { running: number; waiting: (() => void)[] }>();
async function slot(pool: string, max: number): Promise<() => void> {
  const p = pools.get(pool) ?? { running: 0, waiting: [] };
  pools.set(pool, p);
  if (p.running >= max) await new Promise<void>((r) => p.waiting.push(r));
  p.running++;
  return () => {
    p.running--;
    p.waiting.shift()?.();
  };
}

const SAMPLE_MS = 20;

/**
 * Runs `command` (a hidden command of this program) on `input` in a child and returns its result;
 * `onEvent` receives the child's progress events as they come, and may answer with milliseconds to
 * add to the time limit (work the child announces, with limits of its own). Throws ChildJobError.
 */
export async function runChildJob<T>(command: string, input: unknown, limits: ChildLimits, onEvent?: (event: unknown) => number | void): Promise<T> {
  const release = await slot(command, limits.concurrency);
  try {
    return (await run(command, input, limits, onEvent)) as T;
  } finally {
    release();
  }
}

async function run(command: string, input: unknown, limits: ChildLimits, onEvent?: (event: unknown) => number | void): Promise<unknown> {
  const nonce = `dealgraph-job-${crypto.randomUUID()}:`;
  const envelope: Envelope = { nonce, input };
  let proc: Bun.Subprocess<Uint8Array, "pipe", "ignore">;
  try {
    proc = Bun.spawn(withoutNetwork(selfCommand(command), await sandboxSupport()), {
      cwd: tmpdir(),
      // Nothing of the server's environment (its key, an LLM API key) is the child's business.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), TMPDIR: tmpdir(), LANG: "C.UTF-8" },
      stdin: new TextEncoder().encode(JSON.stringify(envelope)),
      stdout: "pipe",
      stderr: "ignore",
      // Its own process group, so a kill reaches what it starts (Tesseract for OCR) too.
      detached: true,
    });
  } catch (error) {
    throw new ChildJobError("crash", `the child process could not be started (${(error as Error).message})`);
  }
  try {
    setPriority(proc.pid, 10); // the server's requests come first on a busy machine
  } catch {
    // not permitted here: the child runs at the server's priority
  }
  let stopped: "time" | "memory" | "output" | null = null;
  const kill = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      proc.kill("SIGKILL");
    }
  };
  const stop = (why: "time" | "memory" | "output") => {
    stopped ??= why;
    kill();
  };
  let allowedMs = limits.timeoutMs;
  const started = performance.now();
  let timer = setTimeout(() => stop("time"), allowedMs);
  const extend = (ms: number) => {
    allowedMs += ms;
    clearTimeout(timer);
    timer = setTimeout(() => stop("time"), Math.max(0, started + allowedMs - performance.now()));
  };
  const sampler = setInterval(() => {
    const rss = residentBytes(proc.pid);
    if (rss !== null && rss > limits.memoryBytes) stop("memory");
  }, SAMPLE_MS);

  let answer: Answer | null = null;
  const read = (async () => {
    const decoder = new TextDecoder();
    let size = 0;
    // Bytes of the line not yet ended. Each chunk is searched once for its newlines, so a 50 MB
    // answer costs one pass, not one pass per chunk over everything before it.
    let pending: Uint8Array[] = [];
    const line = (parts: Uint8Array[]) => {
      const text = decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
      if (!text.startsWith(nonce)) return; // a library's stray output
      const kind = text[nonce.length];
      const body = text.slice(nonce.length + 1);
      if (kind === "E") {
        const more = onEvent?.(JSON.parse(body));
        if (typeof more === "number" && more > 0) extend(more);
      }
      else if (kind === "R") answer = JSON.parse(body) as Answer;
    };
    for await (const chunk of proc.stdout) {
      size += chunk.byteLength;
      if (size > limits.maxOutputBytes) return stop("output");
      let from = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
        line([...pending, chunk.subarray(from, nl)]);
        pending = [];
        from = nl + 1;
      }
      if (from < chunk.byteLength) pending.push(chunk.subarray(from));
    }
    if (pending.length) line(pending);
  })();
  const [code] = await Promise.all([proc.exited, read.catch(() => {})]);
  clearTimeout(timer);
  clearInterval(sampler);
  kill(); // anything it started and left behind
  if (stopped === "time") throw new ChildJobError("time", `stopped after ${formatMs(allowedMs)}`);
  if (stopped === "memory") throw new ChildJobError("memory", `stopped past ${formatBytes(limits.memoryBytes)} of memory`);
  if (stopped === "output") throw new ChildJobError("output", `stopped past ${formatBytes(limits.maxOutputBytes)} of output`);
  const result = answer as Answer | null;
  if (!result || code !== 0) throw new ChildJobError("crash", `the child process stopped unexpectedly (${proc.signalCode ?? `exit code ${code}`})`);
  if (!result.ok) throw new ChildJobError("failed", result.error);
  return result.value;
}

export const formatMs = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
export const formatBytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/**
 * The child's side: silence the console (only the answer may reach stdout), read the envelope, run
 * `work`, print its events and its result. A ChildRefusal's message is passed on as it is; any
 * other failure as "<prefix> (<message>)". Returns the exit code.
 */
export async function serveChildJob(work: (input: unknown, emit: (event: unknown) => void) => Promise<unknown>, failurePrefix: string): Promise<number> {
  const quiet = () => {};
  for (const name of ["log", "info", "warn", "error", "debug", "trace"] as const) console[name] = quiet;
  const { nonce, input } = JSON.parse(await Bun.stdin.text()) as Envelope;
  const out = Bun.stdout.writer();
  const write = (kind: "E" | "R", body: unknown) => {
    out.write(`\n${nonce}${kind}${JSON.stringify(body)}\n`);
  };
  let answer: Answer;
  try {
    answer = { ok: true, value: await work(input, (event) => (write("E", event), void out.flush())) };
  } catch (error) {
    answer = { ok: false, error: error instanceof ChildRefusal ? error.message : `${failurePrefix} (${(error as Error)?.message || String(error)})` };
  }
  write("R", answer);
  await out.end();
  return 0;
}
