// The serving connection's checkpoints run in a worker thread (src/db/checkpointer.ts): its own
// automatic checkpoint is off, yet the WAL stays bounded however much is written, every commit is
// in the database file once the worker has checkpointed, and the close leaves no WAL behind.
import { constants, Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCheckpointer, type CheckpointResult } from "../../src/db/checkpointer.ts";
import { openSqlite } from "../../src/db/client.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function freshDb() {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-checkpoint-"));
  dirs.push(dir);
  const path = join(dir, "dealgraph.db");
  const sqlite = openSqlite(path, { busyTimeoutMs: 5000 });
  sqlite.exec("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
  return { sqlite, path, wal: () => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0) };
}

const autocheckpoint = (sqlite: Database) => sqlite.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!.wal_autocheckpoint;
const MB = 1024 * 1024;

test("with the worker checkpointing, 40 MB written in 1 MB commits leave a WAL of a few MB, not 40", async () => {
  const { sqlite, path, wal } = freshDb();
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 5000, everyMs: 20 });
  expect(await checkpoints.ready).toBe("worker");
  // The serving connection never checkpoints inside a commit.
  expect(autocheckpoint(sqlite)).toBe(0);
  const insert = sqlite.prepare("INSERT INTO blobs (body) VALUES (?)");
  let largest = 0;
  for (let i = 0; i < 40; i++) {
    insert.run(new Uint8Array(MB).fill(i));
    // The worker's own timed checkpoint (not one asked for): the WAL is written over from its start again.
    if (i % 4 === 3) {
      const r = await checkpoints.nextCheckpoint();
      expect(r).not.toBeNull();
      largest = Math.max(largest, wal());
    }
  }
  largest = Math.max(largest, wal());
  // Without any checkpoint the WAL would hold all 40 MB (checked below with the worker stopped).
  expect(largest).toBeLessThan(12 * MB);
  // Everything committed is in the database file after a checkpoint: a fresh reader with the WAL ignored sees it.
  const last = await checkpoints.checkpointNow();
  expect(last).not.toBeNull();
  expect(last!.log).toBe(last!.checkpointed);
  const fileOnly = new Database(`file:${encodeURI(path)}?immutable=1`, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  expect(fileOnly.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(40);
  fileOnly.close();
  // Stopped (at shutdown): the WAL is emptied into the file, with the app's prepared statements
  // still alive (close() alone would leave it), and the connection checkpoints itself again.
  await checkpoints.stop();
  expect(wal()).toBe(0);
  expect(autocheckpoint(sqlite)).toBe(1000);
  sqlite.close();
  const reopened = openSqlite(path, { busyTimeoutMs: 5000 });
  expect(reopened.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(40);
  reopened.close();
});

test("below the threshold nothing is copied while writes go on; once they pause, everything is", async () => {
  const { sqlite, path } = freshDb();
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 5000, everyMs: 20, quietMs: 2000 });
  expect(await checkpoints.ready).toBe("worker");
  const insert = sqlite.prepare("INSERT INTO blobs (body) VALUES (?)");
  const seen: (CheckpointResult | null)[] = [];
  const watching = (async () => {
    for (;;) {
      const r = await checkpoints.nextCheckpoint();
      if (!r) return;
      seen.push(r);
    }
  })();
  // A few small commits, each within the quiet time of the one before: no checkpoint meanwhile.
  for (let i = 0; i < 10; i++) {
    insert.run(new Uint8Array(1000).fill(i));
    await Bun.sleep(10);
  }
  const duringWrites = seen.length;
  // Then quiet: the worker copies them.
  while (seen.length === 0) await Bun.sleep(50);
  expect(duringWrites).toBe(0);
  expect(seen[0]!.log).toBeGreaterThan(0);
  expect(seen[0]!.checkpointed).toBe(seen[0]!.log);
  const fileOnly = new Database(`file:${encodeURI(path)}?immutable=1`, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  expect(fileOnly.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(10);
  fileOnly.close();
  await checkpoints.stop();
  await watching;
  sqlite.close();
});

// The calendar bomb's sync (issue 27) left the WAL at its high-water mark, 8-11 MB for 1-2 MB of
// rows, for as long as the server ran: SQLite writes a WAL over from its start but never shrinks it.
test("once writes pause, the WAL file is truncated (the connection still open), and the next commits go on", async () => {
  const { sqlite, path, wal } = freshDb();
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 5000, everyMs: 20, quietMs: 200 });
  expect(await checkpoints.ready).toBe("worker");
  const insert = sqlite.prepare("INSERT INTO blobs (body) VALUES (?)");
  for (let i = 0; i < 8; i++) insert.run(new Uint8Array(MB).fill(i));
  expect(wal()).toBeGreaterThan(4 * MB);
  let truncated: CheckpointResult | null = null;
  while (!truncated?.truncated) truncated = await checkpoints.nextCheckpoint();
  expect(wal()).toBe(0);
  // Nothing was lost, and the connection writes on (a WAL started afresh).
  insert.run(new Uint8Array(10).fill(9));
  expect(sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(9);
  await checkpoints.stop();
  sqlite.close();
  const reopened = openSqlite(path, { busyTimeoutMs: 5000 });
  expect(reopened.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(9);
  reopened.close();
});

// What the first version missed: a commit every 20 ms, each landing while the last second's
// checkpoint was still copying, so no checkpoint ever found the WAL copied through and the WAL
// grew by every byte written. The worker now checkpoints again at once while frames came in.
test("commits 20 ms apart (none waited for) still let the WAL start over: 30 MB written, the WAL well under that", async () => {
  const { sqlite, wal } = freshDb();
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 5000, everyMs: 200 });
  expect(await checkpoints.ready).toBe("worker");
  const insert = sqlite.prepare("INSERT INTO blobs (body) VALUES (?)");
  const body = new Uint8Array(MB / 2).fill(3);
  for (let i = 0; i < 60; i++) {
    insert.run(body);
    await Bun.sleep(20);
  }
  expect(wal()).toBeLessThan(20 * MB);
  await checkpoints.stop();
  sqlite.close();
});

// A writer that never pauses (its own thread, one 1 MB commit after another) leaves no moment in
// which a PASSIVE checkpoint could let the WAL start over: past `restartAboveFrames` the worker's
// checkpoint is RESTART, which waits for the writer between two commits and lets the next one write
// the WAL from its start again.
const WRITER = `
const { Database } = require("bun:sqlite");
let go = true;
self.onmessage = (e) => {
  if (e.data.stop) { go = false; return; }
  const db = new Database(e.data.path);
  db.exec("PRAGMA busy_timeout = 10000");
  db.exec("PRAGMA wal_autocheckpoint = 0"); // as the serving connection: the worker alone checkpoints
  const insert = db.prepare("INSERT INTO blobs (body) VALUES (?)");
  // 256 KB commits: the WAL passes the bound within a few batches, and a RESTART that loses to the
  // writer (on a loaded machine it may, several times) leaves a WAL of tens of MB, not of GB.
  const body = new Uint8Array(256 * 1024).fill(7);
  let n = 0;
  const loop = () => {
    // 10 commits back to back between looks at the stop message.
    for (let i = 0; i < 10; i++) insert.run(body), n++;
    if (go) setTimeout(loop, 0); else { db.close(); postMessage({ n }); }
  };
  loop();
};`;

test("under a writer that never pauses, the WAL is still written from its start again (a RESTART checkpoint past the bound)", async () => {
  const { sqlite, path } = freshDb();
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 10_000, everyMs: 20, restartAboveFrames: 1024 });
  expect(await checkpoints.ready).toBe("worker");
  const writer = new Worker(URL.createObjectURL(new Blob([WRITER], { type: "application/javascript" })));
  const written = new Promise<number>((resolve) => (writer.onmessage = (e: MessageEvent<{ n: number }>) => resolve(e.data.n)));
  writer.postMessage({ path });
  const seen: CheckpointResult[] = [];
  // Until a RESTART has been followed by a smaller WAL (or 60 s of checkpoints: then the assertion
  // below says what was seen). Bounded by time, not by a count: each checkpoint of a WAL the writer
  // keeps growing takes longer on a loaded machine.
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const r = await checkpoints.nextCheckpoint();
    if (r) seen.push(r);
    const restart = seen.findIndex((s) => s.mode === "RESTART" && s.busy === 0);
    if (restart >= 0 && seen.slice(restart + 1).some((s) => s.log < seen[restart].log)) break;
  }
  writer.postMessage({ stop: true });
  const commits = await written;
  if (process.env.CHECKPOINT_DEBUG) console.log(commits, seen.length, seen.map((s) => `${s.mode[0]}${s.log}`).join(" "));
  const restart = seen.findIndex((s) => s.mode === "RESTART" && s.busy === 0);
  expect(restart).toBeGreaterThanOrEqual(0);
  expect(seen.slice(restart + 1).some((s) => s.log < seen[restart].log)).toBe(true);
  expect(commits).toBeGreaterThan(0);
  await checkpoints.stop();
  sqlite.close();
  // (The loop usually ends within a few seconds; its 60 s is a bound, not a timing assertion.)
}, 120_000);

test("the control: with automatic checkpoints off and no worker, the same writes grow the WAL to their full size", () => {
  const { sqlite, wal } = freshDb();
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  const insert = sqlite.prepare("INSERT INTO blobs (body) VALUES (?)");
  for (let i = 0; i < 40; i++) insert.run(new Uint8Array(MB).fill(i));
  expect(wal()).toBeGreaterThan(40 * MB);
  sqlite.close();
});

test("an in-memory database keeps SQLite's own checkpoints (there is no WAL to move)", async () => {
  const sqlite = openSqlite(":memory:", { busyTimeoutMs: 5000 });
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 5000 });
  expect(await checkpoints.ready).toBe("auto");
  expect(await checkpoints.checkpointNow()).toBeNull();
  await checkpoints.stop();
  sqlite.close();
});

test("a database the worker cannot open leaves the connection checkpointing itself", async () => {
  const { sqlite, path } = freshDb();
  // The worker opens the file by its path: gone by then, it cannot (and creates nothing).
  rmSync(join(path, ".."), { recursive: true, force: true });
  const checkpoints = startCheckpointer(sqlite, { busyTimeoutMs: 5000 });
  expect(await checkpoints.ready).toBe("auto");
  expect(autocheckpoint(sqlite)).toBe(1000);
  sqlite.close();
});
