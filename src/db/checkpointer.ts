// WAL checkpoints off the serving thread. SQLite's automatic checkpoint runs inside whichever
// commit pushes the WAL past 1,000 pages: it copies the WAL into the database file and fsyncs both,
// on the thread that committed. On `serve` that is the thread answering every request, and on a
// busy disk such a checkpoint held it 100 ms and more (the hostile-uploads bench's OCR case). So
// the serving connection's automatic checkpoint is turned off (`wal_autocheckpoint = 0`) and a
// worker thread with a connection of its own checkpoints instead, PASSIVE (it never waits for or
// blocks a reader or a writer), at the same point SQLite would: 1,000 pages not yet copied. The
// worker reads that count from the WAL index (the -shm file's header: mxFrame and nBackfill, see
// https://sqlite.org/walformat.html) once a second, which costs no lock and no I/O on the database.
//
// What stays on the serving thread: once a checkpoint has copied every frame, the next commit
// writes the WAL from its start again and syncs its 32-byte header (SQLite does so whatever the
// `synchronous` setting but OFF). Checkpointing only at 1,000 pages keeps that to once per ~4 MB
// written, as before; checkpointing every second made it once per second of writes (measured: 14
// such fsyncs on the serving thread in one OCR case, up to 98 ms each on a busy disk).
// Pages left below the threshold are copied once no frame has been added for `quietMs`, and the
// WAL file is then truncated (TRUNCATE, once per quiet spell): what a burst of writes grew it to
// (the calendar bomb's sync: 8-11 MB of WAL for 1-2 MB of rows) is given back once it is over,
// not kept on disk as the WAL's high-water mark.
//
// Durability is unchanged: commits are as durable as `synchronous` makes them in the WAL; a
// checkpoint only moves them into the main file. The last checkpoint is at shutdown, on the
// connection itself. The worker's code is sent as source text (a Blob URL, as in
// lib/child-watcher.ts: it works the same from the sources and from the compiled binary). Where
// no worker can be started, the automatic checkpoint is left on: the old behaviour.
import type { Database } from "bun:sqlite";

/** One checkpoint's figures (SQLite's `PRAGMA wal_checkpoint`): frames in the WAL, and of them copied into the database. */
export type CheckpointResult = { busy: number; log: number; checkpointed: number; mode: "PASSIVE" | "RESTART"; truncated?: boolean };

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

type ToWorker = { t: "start"; path: string; busyTimeoutMs: number; everyMs: number; aboveFrames: number; quietMs: number; restartAboveFrames: number } | { t: "now"; id: number } | { t: "stop" };
type FromWorker = { t: "started"; error: string | null } | { t: "checkpointed"; id: number | null; startedAt: number; result: CheckpointResult | null; error: string | null } | { t: "stopped" };

// A checkpoint copies what is committed but cannot restart the WAL: SQLite writes the WAL from its
// start again only when a writer begins after a checkpoint has copied every frame, and a
// checkpoint that takes longer than the pause between two commits never leaves such a moment
// (measured: 100 KB commits 20 ms apart grew the WAL by all of their 10 MB). So a checkpoint is
// followed by another at once while frames came in meanwhile: each copies less than the one
// before, and the last finds the WAL copied through. Under writes that never pause at all that
// moment still never comes; so once the WAL holds more than `restartAboveFrames`, the checkpoint
// is RESTART instead: it waits for the writer and the readers, at most 200 ms (writers wait for it
// meanwhile, on their busy timeout: the one place the serving thread may still wait for a
// checkpoint, and only past that size), and leaves the WAL to be written from its start by the
// next commit.
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
const fs = require("node:fs"), os = require("node:os");
let db = null, timer = null, shm = null, opts = null;
let lastFrame = -1, changedAt = 0, truncateTriedAt = -1;
const now = () => performance.timeOrigin + performance.now();
const run = (mode) => {
  const r = db.query("PRAGMA wal_checkpoint(" + mode + ")").get();
  return { busy: r.busy, log: r.log, checkpointed: r.checkpointed, mode };
};
const checkpoint = (id, quiet) => {
  const startedAt = now();
  try {
    let result = run("PASSIVE");
    for (let i = 0; i < 8; i++) {
      const again = run("PASSIVE");
      const caughtUp = again.log === result.log && again.checkpointed === again.log;
      result = again;
      if (caughtUp) break;
    }
    if (id === null && result.log > opts.restartAboveFrames) result = run("RESTART");
    else if (quiet && result.checkpointed === result.log) {
      // Quiet and copied through: the WAL file goes back to nothing, once per quiet spell (it
      // waits for readers, at most 200 ms, and writers wait for it meanwhile).
      truncateTriedAt = result.log;
      const t = db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
      if (t.busy === 0) result = { ...result, truncated: true };
    }
    postMessage({ t: "checkpointed", id, startedAt, result, error: null });
  } catch (error) {
    postMessage({ t: "checkpointed", id, startedAt, result: null, error: String(error && error.message || error) });
  }
};
// The WAL index header: frames in the WAL (mxFrame, offset 16) and of them copied (nBackfill,
// offset 96), in the machine's byte order; null when it cannot be read as that (then: checkpoint).
const header = Buffer.alloc(100);
const pending = () => {
  try {
    shm ??= fs.openSync(opts.path + "-shm", "r");
    if (fs.readSync(shm, header, 0, 100, 0) < 100) return null;
    const u32 = (at) => os.endianness() === "LE" ? header.readUInt32LE(at) : header.readUInt32BE(at);
    if (u32(0) !== 3007000) return null;
    return { frames: u32(16), copied: u32(96) };
  } catch {
    return null;
  }
};
const tick = () => {
  const p = pending();
  if (p === null) return checkpoint(null, false);
  const t = now();
  if (p.frames !== lastFrame) (lastFrame = p.frames), (changedAt = t), (truncateTriedAt = -1);
  const left = p.frames - p.copied;
  const quiet = t - changedAt >= opts.quietMs;
  if (left >= opts.aboveFrames) checkpoint(null, false);
  else if (quiet && (left > 0 || (p.frames > 0 && truncateTriedAt === -1))) checkpoint(null, true);
};
self.onmessage = (e) => {
  const m = e.data;
  if (m.t === "start") {
    try {
      opts = m;
      db = new Database(m.path, { readwrite: true, create: false });
      // Only RESTART waits on it: briefly, for writers wait behind it (a reader that stays, such
      // as Litestream's, would otherwise hold them the whole timeout); the next tick tries again.
      db.exec("PRAGMA busy_timeout = " + Math.min(m.busyTimeoutMs, 200));
      timer = setInterval(tick, m.everyMs);
      postMessage({ t: "started", error: null });
    } catch (error) {
      postMessage({ t: "started", error: String(error && error.message || error) });
    }
  } else if (m.t === "now") checkpoint(m.id);
  else if (m.t === "stop") {
    clearInterval(timer);
    try { shm !== null && fs.closeSync(shm); } catch {}
    try { db && db.close(); } catch {}
    postMessage({ t: "stopped" });
  }
};`;

/** How often the worker looks at the WAL. */
export const CHECKPOINT_EVERY_MS = 1000;
/** Pages not yet copied at which the worker checkpoints: SQLite's own automatic point. */
export const CHECKPOINT_ABOVE_FRAMES = 1000;
/** Pages below that are copied once no frame has been added for this long. */
export const CHECKPOINT_QUIET_MS = 10_000;

/** Frames in the WAL past which a timed checkpoint restarts it (64 MB of 4 KB pages). */
export const RESTART_ABOVE_FRAMES = 16_384;

/** SQLite's default automatic checkpoint, in pages: what the connection gets back when there is no worker. */
const AUTO_CHECKPOINT_PAGES = 1000;

/**
 * Moves `sqlite`'s checkpoints to a worker thread (see above). `sqlite` must be a file database in
 * WAL mode; for anything else (in-memory, rollback journal) nothing changes and `where` is "auto".
 */
export function startCheckpointer(
  sqlite: Database,
  opts: { busyTimeoutMs: number; everyMs?: number; aboveFrames?: number; quietMs?: number; restartAboveFrames?: number },
): Checkpointer {
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
  send({
    t: "start",
    path: sqlite.filename,
    busyTimeoutMs: opts.busyTimeoutMs,
    everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS,
    aboveFrames: opts.aboveFrames ?? CHECKPOINT_ABOVE_FRAMES,
    quietMs: opts.quietMs ?? CHECKPOINT_QUIET_MS,
    restartAboveFrames: opts.restartAboveFrames ?? RESTART_ABOVE_FRAMES,
  });
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
