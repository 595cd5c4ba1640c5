// WAL checkpoints off the serving thread. SQLite's automatic checkpoint runs inside whichever
// commit pushes the WAL past 1,000 pages: it copies the WAL into the database file and fsyncs both,
// on the thread that committed. On `serve` that is the thread answering every request, and on a
// busy disk one such fsync held it 100 ms and more (the hostile-uploads bench's OCR case). So the
// serving connection's automatic checkpoint is turned off (`wal_autocheckpoint = 0`) and a worker
// thread with a connection of its own checkpoints instead: PASSIVE (it never waits for or blocks
// a reader or a writer), every second, which costs nothing when no frame is new (see below for
// writes that never pause). Durability is unchanged: commits are as durable as `synchronous`
// makes them in the WAL; a checkpoint only moves them into the main file. The last checkpoint is
// at shutdown, on the connection itself.
//
// The worker's code is sent as source text (a Blob URL, as in lib/child-watcher.ts: it works the
// same from the sources and from the compiled binary). Where no worker can be started, the
// automatic checkpoint is left on: the old behaviour, never no checkpoints at all.
import type { Database } from "bun:sqlite";

/** One checkpoint's figures (SQLite's `PRAGMA wal_checkpoint`): frames in the WAL, and of them copied into the database. */
export type CheckpointResult = { busy: number; log: number; checkpointed: number; mode: "PASSIVE" | "RESTART" };

export type Checkpointer = {
  /** Where checkpoints happen once the worker has opened its connection: a worker thread, or SQLite's automatic checkpoint on the connection (no worker). */
  ready: Promise<"worker" | "auto">;
  /** A checkpoint now, in the worker (null where there is none): for tests and for callers that want the file current. */
  checkpointNow(): Promise<CheckpointResult | null>;
  /** Resolves with the first timed checkpoint that starts after this call (null at once where there is none). */
  nextCheckpoint(): Promise<CheckpointResult | null>;
  /**
   * At shutdown: ends the worker, then checkpoints everything into the database file on the
   * connection itself and empties the WAL (TRUNCATE; nothing is served any more). An explicit
   * checkpoint, because bun:sqlite's close() only defers the close (and SQLite's own last
   * checkpoint) while prepared statements are alive, and the app keeps many.
   */
  stop(): Promise<void>;
};

type ToWorker = { t: "start"; path: string; busyTimeoutMs: number; everyMs: number; restartAboveFrames: number } | { t: "now"; id: number } | { t: "stop" };
type FromWorker = { t: "started"; error: string | null } | { t: "checkpointed"; id: number | null; startedAt: number; result: CheckpointResult | null; error: string | null } | { t: "stopped" };

// A timed checkpoint is PASSIVE. It copies what is committed but cannot restart the WAL: SQLite
// writes the WAL from its start again only when a writer begins after a checkpoint has copied
// every frame. Under writes that never pause for as long as a checkpoint takes, that moment never
// comes and the WAL would grow without end; so once it holds more than `restartAboveFrames`, the
// checkpoint is RESTART instead: it waits for the writer (writers wait for it meanwhile, on their
// busy timeout: the one place the serving thread may still wait for a checkpoint, and only past
// that size) and leaves the WAL to be written from its start by the next commit.
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
let db = null, timer = null, restartAbove = 0;
const now = () => performance.timeOrigin + performance.now();
const run = (mode) => {
  const r = db.query("PRAGMA wal_checkpoint(" + mode + ")").get();
  return { busy: r.busy, log: r.log, checkpointed: r.checkpointed, mode };
};
const checkpoint = (id) => {
  const startedAt = now();
  try {
    let result = run("PASSIVE");
    if (id === null && result.log > restartAbove) result = run("RESTART");
    postMessage({ t: "checkpointed", id, startedAt, result, error: null });
  } catch (error) {
    postMessage({ t: "checkpointed", id, startedAt, result: null, error: String(error && error.message || error) });
  }
};
self.onmessage = (e) => {
  const m = e.data;
  if (m.t === "start") {
    try {
      db = new Database(m.path, { readwrite: true, create: false });
      db.exec("PRAGMA busy_timeout = " + m.busyTimeoutMs);
      restartAbove = m.restartAboveFrames;
      timer = setInterval(() => checkpoint(null), m.everyMs);
      postMessage({ t: "started", error: null });
    } catch (error) {
      postMessage({ t: "started", error: String(error && error.message || error) });
    }
  } else if (m.t === "now") checkpoint(m.id);
  else if (m.t === "stop") {
    clearInterval(timer);
    try { db && db.close(); } catch {}
    postMessage({ t: "stopped" });
  }
};`;

/** How often the worker checkpoints (a checkpoint with nothing new to copy does no I/O). */
export const CHECKPOINT_EVERY_MS = 1000;

/** Frames in the WAL past which a timed checkpoint restarts it (64 MB of 4 KB pages). */
export const RESTART_ABOVE_FRAMES = 16_384;

/** SQLite's default automatic checkpoint, in pages: what the connection gets back when there is no worker. */
const AUTO_CHECKPOINT_PAGES = 1000;

/**
 * Moves `sqlite`'s checkpoints to a worker thread (see above). `sqlite` must be a file database in
 * WAL mode; for anything else (in-memory, rollback journal) nothing changes and `where` is "auto".
 */
export function startCheckpointer(sqlite: Database, opts: { busyTimeoutMs: number; everyMs?: number; restartAboveFrames?: number }): Checkpointer {
  const finalCheckpoint = () => {
    try {
      sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // closed already, or busy past the timeout: the WAL stays and is read at the next open
    }
  };
  const auto: Checkpointer = { ready: Promise.resolve("auto"), checkpointNow: async () => null, nextCheckpoint: async () => null, stop: async () => finalCheckpoint() };
  const mode = sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
  if (mode !== "wal" || !sqlite.filename) return auto;
  let worker: Worker;
  let url: string;
  try {
    url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    worker = new Worker(url);
  } catch {
    return auto;
  }
  let nextId = 1;
  const asked = new Map<number, (r: CheckpointResult | null) => void>();
  // Callers of nextCheckpoint: each wants the first timed checkpoint that starts after its call.
  let timed: { since: number; done: (r: CheckpointResult | null) => void }[] = [];
  let started!: (error: string | null) => void;
  let stopped!: () => void;
  const startedP = new Promise<string | null>((r) => (started = r));
  const stoppedP = new Promise<void>((r) => (stopped = r));
  let alive = true;
  const fail = () => {
    // The worker is gone: SQLite's own checkpoint takes over again, so the WAL never grows unchecked.
    if (!alive) return;
    alive = false;
    try {
      sqlite.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    } catch {
      // closed meanwhile
    }
    started("the checkpoint worker failed");
    for (const done of asked.values()) done(null);
    asked.clear();
    for (const w of timed) w.done(null);
    timed = [];
    stopped();
  };
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const m = event.data;
    if (m.t === "started") started(m.error);
    else if (m.t === "stopped") stopped();
    else if (m.id !== null) {
      asked.get(m.id)?.(m.result);
      asked.delete(m.id);
    } else {
      const due = timed.filter((w) => w.since <= m.startedAt);
      timed = timed.filter((w) => w.since > m.startedAt);
      for (const w of due) w.done(m.result);
    }
  };
  worker.onerror = fail;
  const send = (m: ToWorker) => worker.postMessage(m);
  send({ t: "start", path: sqlite.filename, busyTimeoutMs: opts.busyTimeoutMs, everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS, restartAboveFrames: opts.restartAboveFrames ?? RESTART_ABOVE_FRAMES });
  // Off at once (the start is synchronous for the caller); back on if the worker cannot open the
  // database. The few milliseconds in between without a checkpoint cost nothing.
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  const ready = startedP.then((error) => {
    if (error === null) return "worker" as const;
    fail();
    worker.terminate();
    URL.revokeObjectURL(url);
    return "auto" as const;
  });
  // The worker's timer must not keep a process alive that has nothing else to do.
  worker.unref();
  return {
    ready,
    checkpointNow: () =>
      alive
        ? new Promise((done) => {
            const id = nextId++;
            asked.set(id, done);
            send({ t: "now", id });
          })
        : Promise.resolve(null),
    nextCheckpoint: () => (alive ? new Promise((done) => timed.push({ since: performance.timeOrigin + performance.now(), done })) : Promise.resolve(null)),
    async stop() {
      if (!alive) return finalCheckpoint();
      send({ t: "stop" });
      await stoppedP;
      alive = false;
      try {
        sqlite.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`); // should the connection write on
      } catch {
        // closed already
      }
      worker.terminate();
      URL.revokeObjectURL(url);
      for (const done of [...asked.values(), ...timed.map((w) => w.done)]) done(null);
      asked.clear();
      timed = [];
      finalCheckpoint();
    },
  };
}
