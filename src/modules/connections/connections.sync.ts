// Running syncs: one connection (claimed first, so no two syncs read the same account at once),
// one user's connections now (`dealgraph sync`, the web app), or every connection that is due
// (the `mail-sync` job: bounded concurrency, failing connections in backoff left alone until
// their time). One connection's failure is recorded on it (status error, the reason, when it is
// tried again) and never stops the others, the job or the server.
import type { Deps } from "../../deps.ts";
import { perDeps } from "../../deps.ts";
import { syncCalendar } from "./connections.calendar-sync.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { IMAP_LIMITS } from "./connections.imap.ts";
import { syncMailbox } from "./connections.mail-sync.ts";
import { connectionsService, figures, type SyncFigures, type SyncResult } from "./connections.service.ts";
import { connectionsState, LostLease, SyncStopped, type SyncRun } from "./connections.state.ts";

/** Connections synced at once by the job (each is one IMAP session or a few HTTP requests at a time). */
export const SYNC_CONCURRENCY = 4;

export type SyncEntry = SyncFigures & { connection_id: string; status: "ok" | "error"; error: string | null };

const emptyResult = (): SyncResult => ({ messages_new: 0, meetings_new: 0, duplicates: 0, skipped: 0, refused: 0, refusals: [] });

/** Anything that is not a ConnectionFailure (a bug, the database) is still the connection's failure, not the job's. */
function asFailure(error: unknown): ConnectionFailure {
  if (error instanceof ConnectionFailure) return error;
  const code = (error as { code?: string })?.code;
  return new ConnectionFailure("unreachable", `the sync stopped: ${code ? `${code}: ` : ""}${(error as Error)?.message ?? String(error)}`);
}

/**
 * At most IMAP_LIMITS.concurrentSyncs syncs at once in this process (the job, the web app and
 * `sync` alike), and at most IMAP_LIMITS.concurrentSyncsPerOrg of one organization's connections:
 * a slot freed goes to the first waiter whose organization is under its share, so syncs of one
 * org waiting on its hostile or slow server never stand in front of another org's.
 */
const slots = { running: 0, byOrg: new Map<string, number>(), waiting: [] as { org: string; wake: () => void }[] };
const fits = (org: string) => slots.running < IMAP_LIMITS.concurrentSyncs && (slots.byOrg.get(org) ?? 0) < IMAP_LIMITS.concurrentSyncsPerOrg;
function take(org: string): void {
  slots.running++;
  slots.byOrg.set(org, (slots.byOrg.get(org) ?? 0) + 1);
}
function give(org: string): void {
  slots.running--;
  const left = (slots.byOrg.get(org) ?? 1) - 1;
  if (left > 0) slots.byOrg.set(org, left);
  else slots.byOrg.delete(org);
  for (let i = 0; i < slots.waiting.length; ) {
    const w = slots.waiting[i];
    if (!fits(w.org)) {
      i++;
      continue;
    }
    slots.waiting.splice(i, 1);
    take(w.org);
    w.wake();
  }
}
async function syncSlot(org: string): Promise<() => void> {
  if (fits(org)) take(org);
  else await new Promise<void>((wake) => slots.waiting.push({ org, wake }));
  let released = false;
  return () => {
    if (!released) give(org);
    released = true;
  };
}

/** `ids` taken in turn from each organization (first come, first taken within one), so a pool of lanes reaches every org early. */
function byOrgInTurn(ids: string[], orgOf: (id: string) => string): string[] {
  const queues = new Map<string, string[]>();
  for (const id of ids) {
    const org = orgOf(id);
    const q = queues.get(org);
    if (q) q.push(id);
    else queues.set(org, [id]);
  }
  const out: string[] = [];
  for (let round = 0; out.length < ids.length; round++) for (const q of queues.values()) if (round < q.length) out.push(q[round]);
  return out;
}

/** Runs `work` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}

export const connectionsSync = perDeps((deps: Deps) => {
  const state = connectionsState(deps);
  const service = connectionsService(deps);
  let stopping = false;

  /**
   * One sync of one connection. `wait`: when another sync holds it, wait for that one to end
   * (up to `waitMs`) instead of leaving it; null when it was not synced (held, or removed).
   */
  async function syncOne(connectionId: string, opts: { waitMs?: number } = {}): Promise<SyncEntry | null> {
    const org = service.get(connectionId)?.orgId;
    if (!org) return null;
    const release = await syncSlot(org);
    try {
      return await syncClaimed(connectionId, opts);
    } finally {
      release();
    }
  }

  async function syncClaimed(connectionId: string, opts: { waitMs?: number }): Promise<SyncEntry | null> {
    let claimed = state.claim(connectionId);
    const until = Date.now() + (opts.waitMs ?? 0);
    while (!claimed && Date.now() < until && service.get(connectionId)) {
      await Bun.sleep(250);
      claimed = state.claim(connectionId);
    }
    if (!claimed) return null;
    const { row, token } = claimed;
    const result = emptyResult();
    const run: SyncRun = { token, result, stopping: () => stopping };
    try {
      if (row.kind === "mail") await syncMailbox(deps, row, run);
      else await syncCalendar(deps, row, run);
      state.finish(row.id, token, { result: figures(result) });
      return { connection_id: row.id, ...figures(result), status: "ok", error: null };
    } catch (error) {
      if (error instanceof LostLease) return null;
      if (error instanceof SyncStopped) {
        state.release(row.id, token);
        return null;
      }
      const failure = asFailure(error);
      state.finish(row.id, token, { failure, result: figures(result) });
      deps.log.warn("connection sync failed", { connection_id: row.id, kind: row.kind, reason: failure.kind, error: failure.message });
      return { connection_id: row.id, ...figures(result), status: "error", error: failure.message };
    }
  }

  /** Every connection of a user, now (backoff or not). A connection another sync holds is waited for. */
  async function syncUser(userId: string, opts: { waitMs?: number } = {}): Promise<{ connections: SyncEntry[] }> {
    const rows = service.rowsFor(userId);
    const entries = await pool(rows, 2, async (r) => {
      const entry = await syncOne(r.id, { waitMs: opts.waitMs ?? 120_000 });
      return entry ?? { connection_id: r.id, ...figures(emptyResult()), status: "error" as const, error: "another sync of this connection is still running; try again when it ends" };
    });
    return { connections: entries };
  }

  /** What the `mail-sync` job runs: every connection that is due, SYNC_CONCURRENCY at a time. */
  async function syncDue() {
    const ids = byOrgInTurn(state.due(), (id) => service.get(id)?.orgId ?? "");
    const entries = (await pool(ids, SYNC_CONCURRENCY, (id) => syncOne(id))).filter((e): e is SyncEntry => e !== null);
    const sum = (k: "messages_new" | "meetings_new" | "duplicates") => entries.reduce((n, e) => n + e[k], 0);
    return {
      connections: entries.length,
      failed: entries.filter((e) => e.status === "error").length,
      messages_new: sum("messages_new"),
      meetings_new: sum("meetings_new"),
      duplicates: sum("duplicates"),
    };
  }

  /** The server is stopping: syncs in flight end after their current batch (the next start resumes them). */
  function stop(): void {
    stopping = true;
  }

  return { syncOne, syncUser, syncDue, stop };
});
