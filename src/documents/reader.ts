// Reading an untrusted file without risking the server: each read runs in its own child process
// (reader-child.ts) of the same program, so a file that makes a parser spin for a minute or ask
// for gigabytes costs that child, never the event loop that answers requests. The child is given:
//   - a time limit (READ_LIMITS.timeoutMs), after which it is killed;
//   - a memory limit: its resident memory is sampled every few milliseconds (/proc) and it is
//     killed once past READ_LIMITS.memoryBytes. (A Worker would share the server's heap and could
//     not be held to one; RLIMIT_AS/RLIMIT_DATA do not work for a JavaScriptCore process, which
//     reserves gigabytes of address space at start-up.)
//   - a page cap and a text cap, enforced inside it, so an oversized file is refused with a reason
//     instead of being silently cut;
//   - no network (its own network namespace, where the machine allows), a lower CPU priority than
//     the server, and an environment without the server's settings.
// At most READ_LIMITS.concurrency children run at once; further reads wait their turn.
import { readFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { resolve } from "node:path";
import { READ_COMMAND, type ReadAnswer, type ReadLimits, type ReadOp, type ReadRequest } from "./reader-child.ts";
import { sandboxSupport, withoutNetwork } from "./sandbox.ts";
import { ZIP_LIMITS } from "./zip.ts";

export class ReadError extends Error {}

export type ReaderLimits = ReadLimits & { timeoutMs: number; memoryBytes: number; concurrency: number };

export const READ_LIMITS: ReaderLimits = {
  timeoutMs: 60_000,
  memoryBytes: 512 * 1024 * 1024,
  maxPages: 500,
  maxTextBytes: 16 * 1024 * 1024,
  zip: ZIP_LIMITS,
  concurrency: 2,
};


/** This program again: the compiled binary runs its embedded entry, `bun` the source's. */
function childCommand(): string[] {
  const compiled = import.meta.path.startsWith("/$bunfs/");
  return compiled ? [process.execPath, READ_COMMAND] : [process.execPath, resolve(import.meta.dir, "..", "main.ts"), READ_COMMAND];
}

/** Resident memory of a process in bytes, or null when it is gone (or there is no /proc). */
function residentBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

// One queue for the whole process: a burst of uploads waits instead of starting a child each.
let running = 0;
const waiting: (() => void)[] = [];
async function slot(max: number): Promise<() => void> {
  if (running >= max) await new Promise<void>((r) => waiting.push(r));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

const SAMPLE_MS = 20;
const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/** Reads stdout up to `max` bytes; more than that is a misbehaving child. */
async function readCapped(stream: ReadableStream<Uint8Array>, max: number): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs one read in a child and returns its pages, or throws ReadError with words for the user
 * (the run's or the document's error).
 */
export async function readInChild(op: ReadOp, limits: ReaderLimits = READ_LIMITS): Promise<string[]> {
  const release = await slot(limits.concurrency);
  try {
    return await runChild(op, limits);
  } finally {
    release();
  }
}

function spawnChild(cmd: string[], request: ReadRequest) {
  return Bun.spawn(cmd, {
    cwd: tmpdir(),
    // Nothing of the server's environment (its key, an LLM API key) is the child's business.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), TMPDIR: tmpdir(), LANG: "C.UTF-8" },
    stdin: new TextEncoder().encode(JSON.stringify(request)),
    stdout: "pipe",
    stderr: "ignore",
  });
}

async function runChild(op: ReadOp, limits: ReaderLimits): Promise<string[]> {
  const nonce = `dealgraph-read-${crypto.randomUUID()}:`;
  const request: ReadRequest = { ...op, nonce, limits: { maxPages: limits.maxPages, maxTextBytes: limits.maxTextBytes, zip: limits.zip } };
  let proc: ReturnType<typeof spawnChild>;
  try {
    proc = spawnChild(withoutNetwork(childCommand(), await sandboxSupport()), request);
  } catch (error) {
    throw new ReadError(`The file could not be read (the reader could not be started: ${(error as Error).message})`);
  }
  try {
    setPriority(proc.pid, 10); // the server's requests come first on a busy machine
  } catch {
    // not permitted here: the child runs at the server's priority
  }
  let stopped: "time" | "memory" | "output" | null = null;
  const stop = (why: "time" | "memory" | "output") => {
    stopped ??= why;
    proc.kill("SIGKILL");
  };
  const timer = setTimeout(() => stop("time"), limits.timeoutMs);
  const sampler = setInterval(() => {
    const rss = residentBytes(proc.pid);
    if (rss !== null && rss > limits.memoryBytes) stop("memory");
  }, SAMPLE_MS);
  // JSON escaping can make text up to six times longer (control characters as \u00XX).
  const output = readCapped(proc.stdout, limits.maxTextBytes * 6 + 1024 * 1024).then((text) => {
    if (text === null) stop("output");
    return text;
  });
  const [code, text] = await Promise.all([proc.exited, output]);
  clearTimeout(timer);
  clearInterval(sampler);
  if (stopped === "time") throw new ReadError(`Reading the file took longer than ${seconds(limits.timeoutMs)}, so it was stopped (such a file is refused)`);
  if (stopped === "memory") throw new ReadError(`Reading the file needed more than ${Math.round(limits.memoryBytes / 1024 / 1024)} MB of memory, so it was stopped (such a file is refused)`);
  if (stopped === "output") throw new ReadError(`The file's text is larger than ${Math.floor(limits.maxTextBytes / 1024 / 1024)} MB, so it was refused`);
  const at = text?.lastIndexOf(nonce) ?? -1;
  if (code !== 0 || at < 0) {
    throw new ReadError(`The file could not be read (the reader stopped unexpectedly${proc.signalCode ? `: ${proc.signalCode}` : `, exit code ${code}`})`);
  }
  let answer: ReadAnswer;
  try {
    answer = JSON.parse(text!.slice(at + nonce.length));
  } catch {
    throw new ReadError("The file could not be read (the reader's answer was cut off)");
  }
  if (!answer.ok) throw new ReadError(answer.error);
  return answer.pages;
}
