// Work the server's event loop must never do itself (parsing an untrusted file, analysing megabytes
// of its text) runs in a child process of the same program: the compiled binary, or `bun
// src/main.ts`, started with a hidden command. The child gets its input as JSON on stdin and
// answers on stdout, one line per progress event and one for the result, each after the job's
// nonce (anything else a library prints is ignored). The parent holds it to:
//   - a CPU time limit (the child and everything it starts, Tesseract included: lib/cpu-time.ts),
//     after which it is killed. Not a wall-clock limit: children run at a lower priority, and on a
//     busy machine a cheap file's reader may wait for a core far longer than it works. A wall-clock
//     ceiling several times the CPU budget (wallCeilingMs) still stops one that hangs;
//   - a memory limit: its resident memory is sampled every few milliseconds (/proc) and it is
//     killed past the limit. (A Worker shares the server's heap and cannot be held to one;
//     RLIMIT_AS/RLIMIT_DATA do not work for a JavaScriptCore process, which reserves gigabytes of
//     address space at start-up.)
//   - an output cap, no network (its own network namespace, where the machine allows), a lower CPU
//     priority than the server, and an environment without the server's settings;
//   - a pool: at most `concurrency` children of one kind at once, the rest wait their turn, shared
//     fairly between tenants (organizations, lib/work-context.ts): a freed slot goes to the tenant
//     with the fewest children running, and one tenant holds at most `concurrency - 1` of them, so
//     another's work never waits behind a long queue of one organization's OCR;
//   - its own work dir (a fresh temp dir, its cwd, HOME and TMPDIR, removed afterwards) and, where
//     the machine allows (`unshare -rnm`), a mount namespace in which every mount is read-only
//     except that dir: a hostile file that subverts a parser (or Tesseract) cannot write anywhere
//     else. Elsewhere it still has no data-dir path in its environment, and runs from its work dir.
// The child holds itself to the same limits, so it ends even when the server is killed (kill -9
// leaves no parent to enforce anything): a watchdog in its process group (a small shell loop,
// independent of the child's event loop) kills the whole group (Tesseract, LibreOffice included)
// when the parent is gone, past the wall-clock ceiling (plus whatever events may add) or far past
// the memory limit. The parent starts and watches its children from a worker thread (child-watcher.ts):
// starting a process holds the starting thread until exec, which on a loaded machine took up to
// 300 ms of the serving thread.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { watchChild } from "./child-watcher.ts";
import { CHILD_NICENESS, idlePrefix } from "./child-priority.ts";
import { wallCeilingMs } from "./cpu-time.ts";
import { sandboxSupport, withoutNetwork, type SandboxSupport } from "./sandbox.ts";
import { currentWork } from "./work-context.ts";

export type ChildLimits = {
  /** CPU time (ms) the child and what it starts may use (not wall-clock time: see above). */
  timeoutMs: number;
  /** The wall-clock ceiling for one that hangs; wallCeilingMs(timeoutMs) when not given. */
  wallMs?: number;
  memoryBytes: number;
  /** Bytes of stdout a child may write; more and it is killed. */
  maxOutputBytes: number;
  /** Children of one pool running at once. */
  concurrency: number;
  /** The most CPU time `onEvent` may add (the child's own watchdog allows for it on the clock). */
  maxExtensionMs?: number;
};

export type StopReason = "time" | "memory" | "output" | "crash" | "failed";

/** The job did not give a result: stopped by a limit, crashed, or failed with its own message. */
export class ChildJobError extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
    /** For a "time" stop: past its CPU budget ("cpu"), or past the wall-clock ceiling without using it ("wall"). */
    readonly limit: "cpu" | "wall" | null = null,
    /** For a "time" stop: the budget it went past (CPU ms, or the wall-clock ceiling in ms). */
    readonly limitMs: number | null = null,
  ) {
    super(message);
  }
}

/** A failure the child's work reports with words meant for the user (not "could not be read (...)"). */
export class ChildRefusal extends Error {}

/** What the child holds itself to when nobody else can (the parent gone): its parent's pid, a deadline, memory. */
type Guard = { parentPid: number; maxMs: number; memoryBytes: number };
type Envelope = { nonce: string; input: unknown; guard?: Guard };
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

type Pool = { running: number; byTenant: Map<string, number>; waiting: { tenant: string; go: () => void }[] };
const pools = new Map<string, Pool>();

/** Whether `tenant` may take a slot now: a free one, and below its share (all but one, unless alone). */
function mayRun(p: Pool, tenant: string, max: number): boolean {
  const share = Math.max(1, max - 1);
  return p.running < max && (p.byTenant.get(tenant) ?? 0) < share;
}

/** Wakes waiters while slots are free: the tenant with the fewest running first, then the longest waiting. */
function wake(p: Pool, max: number) {
  for (;;) {
    let best = -1;
    for (let i = 0; i < p.waiting.length; i++) {
      const w = p.waiting[i];
      if (!mayRun(p, w.tenant, max)) continue;
      if (best < 0 || (p.byTenant.get(w.tenant) ?? 0) < (p.byTenant.get(p.waiting[best].tenant) ?? 0)) best = i;
    }
    if (best < 0) return;
    const [w] = p.waiting.splice(best, 1);
    take(p, w.tenant);
    w.go();
  }
}

function take(p: Pool, tenant: string) {
  p.running++;
  p.byTenant.set(tenant, (p.byTenant.get(tenant) ?? 0) + 1);
}

async function slot(pool: string, max: number, tenant: string): Promise<() => void> {
  const p: Pool = pools.get(pool) ?? { running: 0, byTenant: new Map(), waiting: [] };
  pools.set(pool, p);
  // In line with the others, then whoever may run goes: a tenant below its share takes a free
  // slot at once, even while another tenant's reads wait for theirs.
  await new Promise<void>((go) => {
    p.waiting.push({ tenant, go });
    wake(p, max);
  });
  return () => {
    p.running--;
    const n = (p.byTenant.get(tenant) ?? 1) - 1;
    if (n > 0) p.byTenant.set(tenant, n);
    else p.byTenant.delete(tenant);
    wake(p, max);
  };
}

/** `cmd` with no network and, where mount namespaces work, its own mount namespace (the child confines itself: confineToWorkDir). */
function confined(cmd: string[], support: SandboxSupport): string[] {
  if (!support.mounts) return withoutNetwork(cmd, support);
  return [support.bin.unshare, "-rnm", "--propagation", "private", ...cmd];
}

/** How a child is kept from writing outside its work dir here, in words (README, tests). */
export async function describeChildConfinement(): Promise<string> {
  const support = await sandboxSupport();
  if (support.mounts) return "no network; every mount read-only except its own work dir";
  if (support.network) return "no network; works in its own temp dir (mount namespaces unavailable: the file system is not read-only to it)";
  return "works in its own temp dir, without the server's environment (unshare unavailable)";
}

const SAMPLE_MS = 20;

/**
 * Runs `command` (a hidden command of this program) on `input` in a child and returns its result;
 * `onEvent` receives the child's progress events as they come, and may answer with milliseconds of CPU
 * time to add to the budget (work the child announces, with limits of its own). Throws ChildJobError.
 */
export async function runChildJob<T>(command: string, input: unknown, limits: ChildLimits, onEvent?: (event: unknown) => number | void): Promise<T> {
  const release = await slot(command, limits.concurrency, currentWork()?.tenant ?? "");
  try {
    return (await run(command, input, limits, onEvent)) as T;
  } finally {
    release();
  }
}

async function run(command: string, input: unknown, limits: ChildLimits, onEvent?: (event: unknown) => number | void): Promise<unknown> {
  const nonce = `dealgraph-job-${crypto.randomUUID()}:`;
  const wallMs = limits.wallMs ?? wallCeilingMs(limits.timeoutMs);
  const wallPerCpu = wallMs / Math.max(1, limits.timeoutMs);
  const guard: Guard = { parentPid: process.pid, maxMs: wallMs + Math.ceil((limits.maxExtensionMs ?? 0) * wallPerCpu) + 5_000, memoryBytes: Math.round(limits.memoryBytes * 1.25) };
  const envelope: Envelope = { nonce, input, guard };
  const support = await sandboxSupport();
  let refusal: string | null = null;
  let failure: Error | null = null;
  // Started and watched off this thread (child-watcher.ts); the events come back here, where the
  // caller decides on them (more time for announced work, or a refusal that stops the child).
  const end = await watchChild(
    {
      cmd: [...(await idlePrefix()), ...confined(selfCommand(command), support)],
      // Nothing of the server's environment (its key, an LLM API key, the data dir) is the child's business.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...transpilerCache(support), ...(support.mounts ? { [CONFINE_ENV]: "1" } : {}) },
      stdin: JSON.stringify(envelope),
      nonce,
      cpuMs: limits.timeoutMs,
      timeoutMs: wallMs,
      memoryBytes: limits.memoryBytes,
      maxOutputBytes: limits.maxOutputBytes,
      niceness: CHILD_NICENESS, // the server's requests come first on a busy machine (child-priority.ts)
      sampleMs: SAMPLE_MS,
    },
    (event) => {
      if (refusal !== null || failure) return;
      try {
        return onEvent?.(event);
      } catch (error) {
        // The parent refuses what the child announced (e.g. OCR past the organization's daily bound).
        if (error instanceof ChildRefusal) refusal = error.message;
        else failure = error as Error;
        return "refuse";
      }
    },
  );
  if (end.spawnError !== null) throw new ChildJobError("crash", `the child process could not be started (${end.spawnError})`);
  if (refusal !== null) throw new ChildJobError("failed", refusal);
  if (failure) throw new ChildJobError("crash", `the child process was stopped (${(failure as Error).message})`);
  if (end.stopped === "cpu") {
    const budget = end.allowedCpuMs ?? limits.timeoutMs;
    throw new ChildJobError("time", `stopped after ${formatMs(budget)} of CPU time`, "cpu", budget);
  }
  if (end.stopped === "time") {
    const used = end.cpuUsedMs === null ? "" : `, having used ${formatMs(end.cpuUsedMs)} of CPU time`;
    throw new ChildJobError("time", `stopped after ${formatMs(end.allowedMs)} without finishing${used} (it waited or hung)`, "wall", end.allowedMs);
  }
  if (end.stopped === "memory") throw new ChildJobError("memory", `stopped past ${formatBytes(limits.memoryBytes)} of memory`);
  if (end.stopped === "output") throw new ChildJobError("output", `stopped past ${formatBytes(limits.maxOutputBytes)} of output`);
  const result = end.answer as Answer | null;
  if (!result || end.code !== 0) throw new ChildJobError("crash", `the child process stopped unexpectedly (${end.signal ?? `exit code ${end.code}`})`);
  if (!result.ok) throw new ChildJobError("failed", result.error);
  return result.value;
}

/**
 * From sources (not the compiled binary) Bun transpiles every module at start: the server's own
 * transpiler cache spares the child that, read-only (the child runs confined; unconfined it gets
 * none, so a subverted child cannot plant code for the next one).
 */
function transpilerCache(support: SandboxSupport): Record<string, string> {
  if (import.meta.path.startsWith("/$bunfs/") || !support.mounts) return {};
  const path = process.env.BUN_RUNTIME_TRANSPILER_CACHE_PATH ?? join(process.env.BUN_INSTALL_CACHE_DIR ?? join(homedir(), ".bun", "install", "cache"), "@t@");
  return { BUN_RUNTIME_TRANSPILER_CACHE_PATH: path };
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
  const { nonce, input, guard } = JSON.parse(await Bun.stdin.text()) as Envelope;
  if (guard) startWatchdog(guard);
  const out = Bun.stdout.writer();
  // Before the input is looked at: nothing writable but the work dir (where the parent asks for it).
  const unconfined = process.env[CONFINE_ENV] === "1" ? confineToWorkDir(process.cwd()) : null;
  if (unconfined) {
    out.write(`\n${nonce}R${JSON.stringify({ ok: false, error: `${failurePrefix} (the reader could not confine itself: ${unconfined})` })}\n`);
    await out.end();
    return 0;
  }
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

// The child's own watchdog: a shell loop in the child's process group (so a group kill takes it
// too) that kills the whole group (the child, Tesseract, LibreOffice, itself) when the parent is
// gone (the child's parent pid changed: it was re-parented), past the deadline, or past the memory
// bound. A shell, not a timer of the child's: a parser stuck in a loop never runs its timers.
const WATCHDOG = [
  'child=$1; parent=$2; ticks=$3; maxkb=$4; sleep=$5; n=0',
  "while :; do",
  '  "$sleep" 0.5',
  "  n=$((n + 1))",
  '  [ -r "/proc/$child/stat" ] || exit 0',
  '  read -r _ _ _ ppid _ < "/proc/$child/stat"',
  "  rss=0",
  '  while read -r k v _; do [ "$k" = "VmRSS:" ] && rss=$v; done < "/proc/$child/status"',
  '  if [ "$ppid" != "$parent" ] || [ "$n" -ge "$ticks" ] || [ "$rss" -gt "$maxkb" ]; then kill -KILL -- "-$child" 2>/dev/null; kill -KILL "$child" 2>/dev/null; exit 0; fi',
  "done",
].join("\n");

function startWatchdog(guard: Guard): void {
  if (process.platform !== "linux") return;
  // Half-second ticks (each a little longer in fact: the deadline errs late, never early).
  const ticks = Math.ceil(guard.maxMs / 500);
  const sleep = Bun.which("sleep") ?? ["/usr/bin/sleep", "/bin/sleep"].find((p) => Bun.file(p).size > 0);
  if (!sleep) return;
  try {
    const dog = Bun.spawn(["/bin/sh", "-c", WATCHDOG, "watchdog", String(process.pid), String(guard.parentPid), String(ticks), String(Math.ceil(guard.memoryBytes / 1024)), sleep], {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    dog.unref();
  } catch {
    // no shell: the parent's limits alone (it is there, or it would not have started us)
  }
}

/** Set by the parent when the child runs in its own mount namespace and should confine itself. */
const CONFINE_ENV = "DEALGRAPH_CHILD_CONFINE";

/**
 * In the child's own user and mount namespace (`unshare -rnm`): binds the work dir onto itself
 * (a mount of its own, left writable) and remounts every other mount read-only, keeping the flags
 * a namespace may not drop (nosuid, nodev, noexec, atime). mount(2) straight from libc: util-linux's
 * mount took some 50 ms per mount point. Returns null when confined, else why not.
 */
function confineToWorkDir(work: string): string | null {
  const MS_RDONLY = 1, MS_NOSUID = 2, MS_NODEV = 4, MS_NOEXEC = 8, MS_REMOUNT = 32, MS_NOATIME = 1024, MS_NODIRATIME = 2048, MS_BIND = 4096, MS_RELATIME = 1 << 21, MS_STRICTATIME = 1 << 24;
  const KEPT: [string, number][] = [["nosuid", MS_NOSUID], ["nodev", MS_NODEV], ["noexec", MS_NOEXEC], ["noatime", MS_NOATIME], ["nodiratime", MS_NODIRATIME], ["relatime", MS_RELATIME], ["strictatime", MS_STRICTATIME]];
  try {
    let libc: ReturnType<typeof dlopen<{ mount: { args: [typeof FFIType.ptr, typeof FFIType.ptr, typeof FFIType.ptr, typeof FFIType.u64, typeof FFIType.ptr]; returns: typeof FFIType.i32 } }>> | null = null;
    for (const name of ["libc.so.6", "libc.so"]) {
      try {
        libc = dlopen(name, { mount: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.u64, FFIType.ptr], returns: FFIType.i32 } });
        break;
      } catch {
        // the next name
      }
    }
    if (!libc) return "libc not found";
    const cstr = (text: string) => Buffer.from(`${text}\0`);
    const at = cstr(work);
    if (libc.symbols.mount(ptr(at), ptr(at), null, MS_BIND, null) !== 0) return "binding the work dir failed";
    let failed = 0;
    for (const line of readFileSync("/proc/self/mountinfo", "utf8").trim().split("\n")) {
      const fields = line.split(" ");
      const point = fields[4]?.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
      if (!point || point === work) continue;
      const options = new Set(fields[5]?.split(",") ?? []);
      let flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
      for (const [name, flag] of KEPT) if (options.has(name)) flags |= flag;
      const target = cstr(point);
      if (libc.symbols.mount(null, ptr(target), null, flags, null) !== 0) failed++;
    }
    // The root must be read-only at least; a mount under it that refused stays as it was.
    return failed && !isReadOnlyRoot() ? "the root file system could not be made read-only" : null;
  } catch (error) {
    return (error as Error).message || "unknown error";
  }
}

function isReadOnlyRoot(): boolean {
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const fields = line.split(" ");
    if (fields[4] === "/") return fields[5]?.split(",").includes("ro") ?? false;
  }
  return false;
}
