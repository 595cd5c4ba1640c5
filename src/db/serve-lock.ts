// One server per data dir. Two servers on one database would each recover the other's running
// action runs at start and execute them twice, and run every job twice. A server holds an
// exclusive SQLite lock on `<data-dir>/serve.lock` for as long as it lives: the operating system
// drops the lock when the process ends however it ends (kill -9 included), so a lock is never
// stale. `serve.pid` beside it names the holder, so a second server can say whom it found.
// CLI commands that write (admin, import, backup, ...) take no lock: they work beside a server.
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

export const LOCK_FILE = "serve.lock";
export const HOLDER_FILE = "serve.pid";

export type LockHolder = { pid: number; command: string; started_at: string; host: string };

/** Another live process serves this data dir. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder
      ? `pid ${holder.pid} (dealgraph ${holder.command}, started ${holder.started_at} on ${holder.host})`
      : "another process (it has not yet written its pid to serve.pid)";
    super(`${dataDir} is already being served by ${who}; stop that server first, or give this one another --data-dir`);
  }
}

export type ServeLock = { holder: LockHolder; release(): void };

function readHolder(dataDir: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), "utf8")) as LockHolder;
  } catch {
    return null;
  }
}

/**
 * The live server of this data dir, as its serve.pid names it: a holder on this host whose process
 * is alive (a file left by a server killed with -9 names a dead pid). Read only: unlike trying the
 * lock, it never makes a server starting at that moment find the lock taken.
 */
export function liveServer(dataDir: string): LockHolder | null {
  const holder = readHolder(dataDir);
  if (!holder || holder.host !== hostname() || !Number.isInteger(holder.pid) || holder.pid <= 0) return null;
  try {
    process.kill(holder.pid, 0);
    return holder;
  } catch (error) {
    // EPERM: alive, another user's process.
    return (error as { code?: string }).code === "EPERM" ? holder : null;
  }
}

export function acquireServeLock(dataDir: string, command: string, now: Date = new Date()): ServeLock {
  const lock = new Database(join(dataDir, LOCK_FILE), { create: true });
  try {
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") throw new DataDirInUse(dataDir, readHolder(dataDir));
    throw error;
  }
  const holder: LockHolder = { pid: process.pid, command, started_at: now.toISOString(), host: hostname() };
  const path = join(dataDir, HOLDER_FILE);
  writeFileSync(`${path}.${process.pid}`, JSON.stringify(holder) + "\n");
  renameSync(`${path}.${process.pid}`, path);
  let held = true;
  return {
    holder,
    release() {
      if (!held) return;
      held = false;
      if (readHolder(dataDir)?.pid === process.pid && existsSync(path)) rmSync(path, { force: true });
      lock.exec("ROLLBACK");
      lock.close();
    },
  };
}
