// Child processes are started and watched from a worker thread, never the server's event loop.
// Starting a process holds the thread that starts it until the child has called exec (vfork): on a
// loaded machine that held the server's thread 90-315 ms per document child (measured with
// /proc/<pid>/task/<pid>/syscall during the hostile-uploads bench's OCR case), answering nothing
// meanwhile. Watching a child is synchronous work too: its memory read from /proc every 20 ms, its
// work dir made and removed, its output split into lines, its answer's JSON parsed (up to tens of
// MB of text). The worker does all of it; the server's thread gets the events and the answer as
// values. child-job.ts holds the policy (pools, limits, what a stop means); this file the mechanics.
//
// The worker's code is `watcher` below, sent as source text (a Blob URL: it works the same from the
// sources and from the compiled binary), so it must stay self-contained: globals and its arguments
// only. Where a worker cannot be started, the same function runs on this thread.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { treeCpuMs } from "./cpu-time.ts";
import { noteChild } from "./event-loop-lag.ts";

/** One child to start and watch. */
export type WatchRequest = {
  cmd: string[];
  /** The child's environment; the worker adds HOME and TMPDIR (its work dir). */
  env: Record<string, string>;
  /**
   * The work dir to run in, made and removed by the caller (LibreOffice's, under the data dir, where
   * a crashed server's leftovers are found); a fresh temp dir, removed afterwards, when not given.
   */
  workDir?: string;
  /** Written to the child's stdin. */
  stdin: string;
  /** Lines of stdout that start with it are the child's (`E` event, `R` answer); others are ignored. */
  nonce: string;
  /**
   * CPU time (ms) the child and every process it starts may use; past it the whole group is killed.
   * Null: none (a program that holds itself to its own, or a quick probe).
   */
  cpuMs: number | null;
  /**
   * The wall-clock ceiling (ms). Children run at the lowest priority and may wait for a core most of
   * the time on a busy machine: this is only for one that hangs, several times its CPU budget.
   */
  timeoutMs: number;
  /** Past this resident memory it is killed; null: not sampled (a program that holds itself to its own). */
  memoryBytes: number | null;
  maxOutputBytes: number;
  /** The last this many bytes of its stderr are kept for the caller (0 or none: stderr is dropped). */
  stderrTailBytes?: number;
  /** The child's CPU priority (nice). */
  niceness: number;
  /** How often its resident memory and CPU time are read. */
  sampleMs: number;
};

/** How a watched child ended. `answer` is the parsed `R` line (null when there was none). */
export type WatchEnd = {
  /** "cpu": past its CPU budget; "time": past the wall-clock ceiling (it waited or hung). */
  stopped: "cpu" | "time" | "memory" | "output" | "refused" | null;
  /** The wall-clock ceiling in the end (with extensions). */
  allowedMs: number;
  /** The CPU budget in the end (with extensions); null when there was none. */
  allowedCpuMs: number | null;
  /** The CPU time it was last seen to have used (null: never measured). */
  cpuUsedMs: number | null;
  code: number | null;
  signal: string | null;
  answer: unknown;
  /** The child could not be started (why). */
  spawnError: string | null;
  /** The end of its stderr, when asked for (stderrTailBytes). */
  stderrTail: string;
};

type ToWatcher = { t: "start"; id: number; req: WatchRequest } | { t: "extend"; id: number; cpuMs: number; wallMs: number } | { t: "refuse"; id: number };
type FromWatcher = { t: "started"; id: number; pid: number } | { t: "event"; id: number; body: unknown } | { t: "end"; id: number; end: WatchEnd };

/**
 * The watcher: starts each requested child in a fresh work dir, holds it to its CPU time (the
 * clock only as a ceiling for one that hangs), memory and output limits (killing its whole process
 * group), passes on its events and, at the end, how it ended. Self-contained (it runs as a
 * worker's source text; treeCpuMs is passed in as `cpuOf`).
 */
function watcher(post: (m: FromWatcher) => void, listen: (h: (m: ToWatcher) => void) => void, fsm: typeof fs, osm: typeof os, pathm: typeof path, cpuOf: typeof treeCpuMs) {
  const live = new Map<number, { extend(cpuMs: number, wallMs: number): void; refuse(): void }>();
  const rss = (pid: number): number | null => {
    try {
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(fsm.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      return kb ? Number(kb) * 1024 : null;
    } catch {
      return null;
    }
  };

  async function watch(id: number, req: WatchRequest): Promise<WatchEnd> {
    const work = req.workDir ?? fsm.mkdtempSync(pathm.join(osm.tmpdir(), "dealgraph-child-"));
    try {
      let proc: Bun.Subprocess<Uint8Array, "pipe", "pipe" | "ignore">;
      try {
        proc = Bun.spawn(req.cmd, {
          cwd: work,
          env: { ...req.env, HOME: work, TMPDIR: work },
          stdin: new TextEncoder().encode(req.stdin),
          stdout: "pipe",
          stderr: req.stderrTailBytes ? "pipe" : "ignore",
          // Its own session and process group (setsid), so a kill reaches what it starts (Tesseract
          // for OCR, LibreOffice's helpers) too.
          detached: true,
        });
      } catch (error) {
        return { stopped: null, allowedMs: req.timeoutMs, allowedCpuMs: req.cpuMs, cpuUsedMs: null, code: null, signal: null, answer: null, spawnError: (error as Error).message, stderrTail: "" };
      }
      post({ t: "started", id, pid: proc.pid });
      // The end of its stderr only (a chatty program's megabytes are not kept).
      let stderrTail = "";
      const stderrRead = (async () => {
        if (!req.stderrTailBytes || typeof proc.stderr !== "object") return;
        const decoder = new TextDecoder();
        for await (const chunk of proc.stderr) stderrTail = (stderrTail + decoder.decode(chunk, { stream: true })).slice(-req.stderrTailBytes);
      })();
      try {
        osm.setPriority(proc.pid, req.niceness);
      } catch {
        // not permitted here: the child runs at the server's priority
      }
      // Not done: with the kernel's autogroups on (most distributions), the child's session (setsid)
      // is a scheduling group of its own, so its nice counts only inside it and the group weighs
      // as much as the whole server's. Setting the group's nice too (/proc/<pid>/autogroup) starves
      // the children on a machine busy with other sessions: at a load of 10-18 on 2 cores, with
      // the group at nice 19, reader children and LibreOffice got no CPU time at all in 30-100 s
      // (issue 27; the limits count CPU time now, so they would not fail, only never finish).
      // SCHED_IDLE (child-priority.ts) gives the server the core at once where it wakes instead.
      let stopped: WatchEnd["stopped"] = null;
      const kill = () => {
        try {
          process.kill(-proc.pid, "SIGKILL");
        } catch {
          proc.kill("SIGKILL");
        }
      };
      const stop = (why: NonNullable<WatchEnd["stopped"]>) => {
        stopped ??= why;
        kill();
      };
      let allowedMs = req.timeoutMs;
      let allowedCpuMs = req.cpuMs;
      const started = performance.now();
      let timer = setTimeout(() => stop("time"), allowedMs);
      live.set(id, {
        extend(cpuMs, wallMs) {
          if (allowedCpuMs !== null) allowedCpuMs += cpuMs;
          allowedMs += wallMs;
          clearTimeout(timer);
          timer = setTimeout(() => stop("time"), Math.max(0, started + allowedMs - performance.now()));
        },
        refuse: () => stop("refused"),
      });
      const limit = req.memoryBytes;
      // CPU time of the whole tree (Tesseract, LibreOffice's helpers): a walk of /proc, so some
      // 10 times a second at most; memory at every sample.
      let cpuUsedMs: number | null = null;
      const cpuEvery = Math.max(1, Math.round(100 / req.sampleMs));
      let tick = 0;
      const sampler =
        limit === null && allowedCpuMs === null
          ? undefined
          : setInterval(() => {
              if (stopped !== null) return;
              if (limit !== null) {
                const bytes = rss(proc.pid);
                if (bytes !== null && bytes > limit) return stop("memory");
              }
              // The first sample too: a child past a tiny budget is stopped at once.
              if (allowedCpuMs !== null && tick++ % cpuEvery === 0) {
                cpuUsedMs = cpuOf(fsm, proc.pid) ?? cpuUsedMs;
                if (cpuUsedMs !== null && cpuUsedMs > allowedCpuMs) stop("cpu");
              }
            }, req.sampleMs);

      let answer: unknown = null;
      const read = (async () => {
        const decoder = new TextDecoder();
        let size = 0;
        // Bytes of the line not yet ended. Each chunk is searched once for its newlines, so a 50 MB
        // answer costs one pass, not one pass per chunk over everything before it.
        let pending: Uint8Array[] = [];
        const line = (parts: Uint8Array[]) => {
          const text = decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
          if (!text.startsWith(req.nonce)) return; // a library's stray output
          const kind = text[req.nonce.length];
          const body = text.slice(req.nonce.length + 1);
          if (kind === "E" && stopped === null) post({ t: "event", id, body: JSON.parse(body) });
          else if (kind === "R") answer = JSON.parse(body);
        };
        for await (const chunk of proc.stdout) {
          size += chunk.byteLength;
          if (size > req.maxOutputBytes) return stop("output");
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
      const [code] = await Promise.all([proc.exited, read.catch(() => {}), stderrRead.catch(() => {})]);
      clearTimeout(timer);
      clearInterval(sampler);
      live.delete(id);
      kill(); // anything it started and left behind
      // What it used in the end, where Bun can say (its reaped children's time included).
      const usage = proc.resourceUsage();
      // (A group killed at once leaves a grandchild unreaped: then the last sample says more.)
      if (usage) cpuUsedMs = Math.max(cpuUsedMs ?? 0, Math.round(Number(usage.cpuTime.user + usage.cpuTime.system) / 1000));
      return { stopped, allowedMs, allowedCpuMs, cpuUsedMs, code, signal: proc.signalCode ? String(proc.signalCode) : null, answer, spawnError: null, stderrTail };
    } finally {
      if (!req.workDir) fsm.rmSync(work, { recursive: true, force: true });
    }
  }

  listen((m) => {
    if (m.t === "extend") live.get(m.id)?.extend(m.cpuMs, m.wallMs);
    else if (m.t === "refuse") live.get(m.id)?.refuse();
    else
      watch(m.id, m.req).then(
        (end) => post({ t: "end", id: m.id, end }),
        (error) => post({ t: "end", id: m.id, end: { stopped: null, allowedMs: m.req.timeoutMs, allowedCpuMs: m.req.cpuMs, cpuUsedMs: null, code: null, signal: null, answer: null, spawnError: String((error as Error)?.message ?? error), stderrTail: "" } }),
      );
  });
}

type Job = { onStarted(pid: number): void; onEvent(body: unknown): void; done(end: WatchEnd): void };
type Channel = { send(m: ToWatcher): void; busy(on: boolean): void; where: "worker" | "thread" };

const jobs = new Map<number, Job>();
let nextId = 1;
let channel: Channel | null = null;
let preferThread = false;

function receive(m: FromWatcher) {
  const job = jobs.get(m.id);
  if (!job) return;
  if (m.t === "started") job.onStarted(m.pid);
  else if (m.t === "event") job.onEvent(m.body);
  else {
    jobs.delete(m.id);
    if (jobs.size === 0) channel?.busy(false);
    job.done(m.end);
  }
}

/** The watcher on this thread (no worker: slower to answer requests meanwhile, never skipped). */
function threadChannel(): Channel {
  let handler: ((m: ToWatcher) => void) | null = null;
  // Messages both ways go through the task queue, as they would between threads.
  watcher((m) => queueMicrotask(() => receive(m)), (h) => (handler = h), fs, os, path, treeCpuMs);
  return { send: (m) => queueMicrotask(() => handler!(m)), busy: () => {}, where: "thread" };
}

const WORKER_SOURCE = `(${watcher.toString()})(postMessage, (h) => { self.onmessage = (e) => h(e.data); }, require("node:fs"), require("node:os"), require("node:path"), (${treeCpuMs.toString()}));`;

function workerChannel(): Channel | null {
  try {
    // The URL stays valid: the worker loads it after this returns (one per process).
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    const worker = new Worker(url);
    worker.onmessage = (event: MessageEvent<FromWatcher>) => receive(event.data);
    worker.onerror = () => {
      // The worker died: what it watched is lost (each gets a clear failure); the next child is
      // watched on this thread.
      worker.terminate();
      channel = threadChannel();
      for (const [id, job] of [...jobs]) {
        jobs.delete(id);
        job.done({ stopped: null, allowedMs: 0, allowedCpuMs: null, cpuUsedMs: null, code: null, signal: null, answer: null, spawnError: "the thread watching child processes failed", stderrTail: "" });
      }
    };
    // Idle, it does not keep the process alive; while it watches a child, it does.
    worker.unref();
    return {
      send: (m) => worker.postMessage(m),
      busy: (on) => (on ? worker.ref() : worker.unref()),
      where: "worker",
    };
  } catch {
    return null;
  }
}

function channelNow(): Channel {
  channel ??= (!preferThread && workerChannel()) || threadChannel();
  return channel;
}

/** Where children are watched: a worker thread, or this thread where no worker could be started. */
export function childWatcherThread(): "worker" | "thread" {
  return channelNow().where;
}

/** For tests: watch children on this thread (true) or in the worker (false) from now on. */
export function watchChildrenOnThisThread(on: boolean): void {
  preferThread = on;
  if (jobs.size === 0) channel = null;
}

/**
 * Starts `req`'s child and resolves with how it ended. `onEvent` gets each event the child sends;
 * its answer is a number of milliseconds of CPU time to add to the budget (the wall-clock ceiling
 * grows in proportion), or "refuse" to stop the child.
 * `onStarted` gets its pid (also its process group and session) once it runs.
 */
export function watchChild(req: WatchRequest, onEvent: (body: unknown) => number | "refuse" | void, onStarted: (pid: number) => void = () => {}): Promise<WatchEnd> {
  const ch = channelNow();
  const id = nextId++;
  return new Promise<WatchEnd>((done) => {
    jobs.set(id, {
      onStarted,
      onEvent(body) {
        const reply = onEvent(body);
        if (reply === "refuse") ch.send({ t: "refuse", id });
        else if (typeof reply === "number" && reply > 0) ch.send({ t: "extend", id, cpuMs: reply, wallMs: req.cpuMs ? Math.ceil((reply * req.timeoutMs) / req.cpuMs) : reply });
      },
      done: (end) => (noteChild(-1), done(end)),
    });
    if (jobs.size === 1) ch.busy(true);
    noteChild(1);
    ch.send({ t: "start", id, req });
  });
}
