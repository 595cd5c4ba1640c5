// A sync's bookkeeping: who is syncing a connection now (a lease, so the server's job, the web
// app and a `dealgraph sync` beside the server never read the same account at once, and a sync
// killed with -9 frees it: its process is gone), how far each IMAP folder and calendar object got
// (written by the callbacks that run inside the network's transaction, with the rows), and the
// outcome: ok, or the error, the failure count and when the job tries again.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { backoffSeconds, type ConnectionFailure } from "./connections.failures.ts";
import type { ConnectionRow, SyncFigures, SyncResult } from "./connections.service.ts";
import { connectionFolders, connectionItems, connections } from "./connections.tables.ts";

/** A claim without a heartbeat for this long is free to take (its holder is gone or stuck). */
export const LEASE_MS = 120_000;

export type FolderState = { uidValidity: string; lastUid: number; highestModseq: string | null; backfilled: boolean };

export type Progress = { folder: string; done: number; total: number };

/** The connection was removed, or another sync took it over: this one stops, writing nothing more. */
export class LostLease extends Error {
  constructor(readonly connectionId: string) {
    super(`connection ${connectionId} was removed or is synced elsewhere`);
    this.name = "LostLease";
  }
}

/** The server is stopping: the sync ends between two batches (what it committed stays; the next one resumes). */
export class SyncStopped extends Error {
  constructor() {
    super("the server is stopping");
    this.name = "SyncStopped";
  }
}

/** One sync in flight: its claim, its figures so far, and whether it should stop early. */
export type SyncRun = { token: string; result: SyncResult; stopping: () => boolean };

/** Between batches: ends the sync when the server is stopping. */
export function checkStop(run: SyncRun): void {
  if (run.stopping()) throw new SyncStopped();
}

/** Whether a process of this machine is running (a lease's holder). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

export const connectionsState = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const now = () => clock.now();
  const leaseUntil = () => new Date(now().getTime() + LEASE_MS).toISOString();

  const rowById = db.select().from(connections).where(eq(connections.id, sql.placeholder("id"))).prepare();
  const takeLease = db.$client.query<unknown, [string, string, string, string | null]>(
    "UPDATE connections SET lease_token = ?, lease_until = ?, progress = NULL WHERE id = ? AND lease_token IS ?",
  );
  const touch = db.$client.query<unknown, { $until: string; $progress: string | null; $items: number; $id: string; $token: string }>(
    "UPDATE connections SET lease_until = $until, progress = COALESCE($progress, progress), items_synced = items_synced + $items WHERE id = $id AND lease_token = $token",
  );
  const folderRow = db.select().from(connectionFolders).where(sql`${connectionFolders.connectionId} = ${sql.placeholder("id")} AND ${connectionFolders.name} = ${sql.placeholder("name")}`).prepare();
  const dueRows = db.$client.query<{ id: string }, { $now: string }>(
    // Held ones are listed too: claim() tells a live holder from a dead one.
    "SELECT id FROM connections WHERE next_attempt_at IS NULL OR next_attempt_at <= $now ORDER BY COALESCE(last_synced_at, ''), created_at",
  );

  /** Claims the connection for one sync; null when another sync holds it (its process alive, its lease fresh). */
  function claim(connectionId: string): { row: ConnectionRow; token: string } | null {
    const row = rowById.get({ id: connectionId });
    if (!row) return null;
    if (row.leaseToken && row.leaseUntil && row.leaseUntil > now().toISOString()) {
      const pid = Number(row.leaseToken.split(":")[0]);
      if (pid === process.pid || alive(pid)) return null;
    }
    const token = `${process.pid}:${randomUUID()}`;
    const taken = takeLease.run(token, leaseUntil(), row.id, row.leaseToken);
    return taken.changes === 1 ? { row, token } : null;
  }

  /**
   * Inside a batch's transaction: renews the claim, counts what the batch added and says where
   * the sync is. Throws LostLease (the transaction rolls back) when the claim is no longer ours.
   */
  function heartbeat(connectionId: string, token: string, added: number, progress: Progress | null): void {
    const r = touch.run({ $until: leaseUntil(), $progress: progress ? JSON.stringify(progress) : null, $items: added, $id: connectionId, $token: token });
    if (r.changes !== 1) throw new LostLease(connectionId);
  }

  function folder(connectionId: string, name: string): FolderState | null {
    const row = folderRow.get({ id: connectionId, name });
    return row ? { uidValidity: row.uidValidity, lastUid: row.lastUid, highestModseq: row.highestModseq, backfilled: row.backfilled } : null;
  }

  /** Inside a transaction: how far a folder got (a changed UIDVALIDITY starts it over). */
  function setFolder(connectionId: string, name: string, state: FolderState): void {
    const values = { ...state, updatedAt: now().toISOString() };
    db.insert(connectionFolders)
      .values({ connectionId, name, ...values })
      .onConflictDoUpdate({ target: [connectionFolders.connectionId, connectionFolders.name], set: values })
      .run();
  }

  /** The calendar objects known (href -> ETag). */
  function items(connectionId: string): Map<string, string | null> {
    const rows = db.select({ href: connectionItems.href, etag: connectionItems.etag }).from(connectionItems).where(eq(connectionItems.connectionId, connectionId)).all();
    return new Map(rows.map((r) => [r.href, r.etag]));
  }

  /** Objects to read again: an occurrence of theirs has happened since. */
  function dueItems(connectionId: string): { href: string; etag: string | null }[] {
    return db
      .select({ href: connectionItems.href, etag: connectionItems.etag })
      .from(connectionItems)
      .where(sql`${connectionItems.connectionId} = ${connectionId} AND ${connectionItems.dueAt} IS NOT NULL AND ${connectionItems.dueAt} <= ${now().toISOString()}`)
      .all();
  }

  /** Inside a transaction: an object read (its ETag, when to read it again, and a subscription's kept body when given). */
  function putItem(connectionId: string, href: string, etag: string | null, dueAt: string | null, kept?: string | null): void {
    const set = kept === undefined ? { etag, dueAt } : { etag, dueAt, kept };
    db.insert(connectionItems)
      .values({ connectionId, href, ...set })
      .onConflictDoUpdate({ target: [connectionItems.connectionId, connectionItems.href], set })
      .run();
  }

  /** A subscription's kept body (sealed), if any. */
  function keptOf(connectionId: string, href: string): string | null {
    return db.select({ kept: connectionItems.kept }).from(connectionItems).where(sql`${connectionItems.connectionId} = ${connectionId} AND ${connectionItems.href} = ${href}`).get()?.kept ?? null;
  }

  function removeItems(connectionId: string, hrefs: string[]): void {
    for (const href of hrefs) db.delete(connectionItems).where(sql`${connectionItems.connectionId} = ${connectionId} AND ${connectionItems.href} = ${href}`).run();
  }

  /** Inside a transaction: the CalDAV sync-token or a subscription's validators, kept once every change is recorded. */
  function setCursor(connectionId: string, token: string, cursor: string | null): void {
    const r = db.$client.query("UPDATE connections SET cursor = ? WHERE id = ? AND lease_token = ?").run(cursor, connectionId, token);
    if (r.changes !== 1) throw new LostLease(connectionId);
  }

  /** Ends the claim with the outcome: ok (the job takes it again at its next run), or failed (backoff). */
  function finish(connectionId: string, token: string, outcome: { result: SyncFigures } | { failure: ConnectionFailure; result: SyncFigures }): void {
    const at = now();
    const result = JSON.stringify(outcome.result);
    if ("failure" in outcome) {
      const row = rowById.get({ id: connectionId });
      if (!row || row.leaseToken !== token) return;
      const failures = row.failures + 1;
      const next = new Date(at.getTime() + backoffSeconds(outcome.failure.kind, failures, deps.config.syncIntervalSeconds) * 1000).toISOString();
      db.update(connections)
        .set({ leaseToken: null, leaseUntil: null, progress: null, lastError: outcome.failure.message, lastResult: result, failures, nextAttemptAt: next, updatedAt: at.toISOString() })
        .where(sql`${connections.id} = ${connectionId} AND ${connections.leaseToken} = ${token}`)
        .run();
      return;
    }
    db.update(connections)
      .set({ leaseToken: null, leaseUntil: null, progress: null, lastError: null, lastResult: result, failures: 0, nextAttemptAt: null, lastSyncedAt: at.toISOString(), updatedAt: at.toISOString() })
      .where(sql`${connections.id} = ${connectionId} AND ${connections.leaseToken} = ${token}`)
      .run();
  }

  /** Ends the claim of a sync that stopped early, recording nothing about its outcome. */
  function release(connectionId: string, token: string): void {
    db.$client.query("UPDATE connections SET lease_token = NULL, lease_until = NULL, progress = NULL WHERE id = ? AND lease_token = ?").run(connectionId, token);
  }

  /** Connections the job should sync now: never failed or past their backoff, not held by a live sync. */
  function due(): string[] {
    return dueRows.all({ $now: now().toISOString() }).map((r) => r.id);
  }

  return { claim, heartbeat, folder, setFolder, items, dueItems, putItem, keptOf, removeItems, setCursor, finish, release, due };
});
