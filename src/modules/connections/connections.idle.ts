// Live mail (CONTRACT.md "Live mail and the sync ledger"): under `serve`, one IMAP session per
// connected mailbox whose server offers IDLE, selected on INBOX only (the other folders wait for
// the interval: one more connection per mailbox is all a server is asked for). When the server
// says INBOX grew, the connection is synced at once, so a new message counts within seconds. The
// session holds nothing of the database while it waits (the row and credentials are read when it
// connects). A dropped session is opened again with backoff; a server without IDLE is left to the
// interval job, which stays the fallback for everything. Stopping closes every session and waits
// for the syncs they started.
import { eq } from "drizzle-orm";
import type { ImapFlow } from "imapflow";
import { perDeps, type Deps } from "../../deps.ts";
import { backoffSeconds, ConnectionFailure } from "./connections.failures.ts";
import { closeImap } from "./connections.imap.ts";
import { openMailSession } from "./connections.mail-sync.ts";
import { connectionsService } from "./connections.service.ts";
import { connectionsSync } from "./connections.sync.ts";
import { connections } from "./connections.tables.ts";

/** Tunables (mutable for tests). */
export const IDLE_LIMITS = {
  /** How often the set of mailboxes to watch is read again (new and removed connections). */
  refreshMs: 30_000,
  /** A session is renewed after this long (RFC 2177: re-issue IDLE at least every 29 minutes). */
  sessionMs: 25 * 60_000,
  /** Backoff after a failed or dropped session: first wait, doubling up to the cap. */
  backoffFirstMs: 1_000,
  backoffMaxMs: 5 * 60_000,
  /** A session that lasted this long was healthy: the next drop starts the backoff over. */
  healthyMs: 60_000,
  /** How long an IDLE-triggered sync waits for another sync of the connection to end. */
  syncWaitMs: 120_000,
};

export type WatchState = "connecting" | "idle" | "backoff" | "no_idle" | "no_inbox" | "stopped";

type Watcher = {
  connectionId: string;
  state: WatchState;
  stopped: boolean;
  client: ImapFlow | null;
  /** Wakes a backoff wait early (stop). */
  wake: (() => void) | null;
  loop: Promise<void>;
  /** The sync in flight, and whether another was asked for meanwhile. */
  syncing: Promise<void> | null;
  again: boolean;
  sessions: number;
  lastError: string | null;
};

export const connectionsIdle = perDeps((deps: Deps) => {
  const service = connectionsService(deps);
  const sync = connectionsSync(deps);
  const watchers = new Map<string, Watcher>();
  let refresher: ReturnType<typeof setInterval> | null = null;
  let running = false;
  const mailboxIds = () => deps.db.select({ id: connections.id }).from(connections).where(eq(connections.kind, "mail")).all().map((r) => r.id);

  /** Syncs the connection now; a request while one runs makes one more run after it (nothing delivered meanwhile is left for the interval). */
  function syncNow(w: Watcher): void {
    if (w.stopped) return;
    if (w.syncing) {
      w.again = true;
      return;
    }
    w.syncing = (async () => {
      do {
        w.again = false;
        try {
          await sync.syncOne(w.connectionId, { waitMs: IDLE_LIMITS.syncWaitMs });
        } catch (error) {
          deps.log.warn("idle: sync failed", { connection_id: w.connectionId, error: (error as Error).message });
        }
      } while (w.again && !w.stopped);
      w.syncing = null;
    })();
  }

  function pause(w: Watcher, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        w.wake = null;
        resolve();
      }
      w.wake = done;
    });
  }

  /** One mailbox: connect, select INBOX, IDLE until the session ends, again with backoff. */
  async function watch(w: Watcher): Promise<void> {
    let failures = 0;
    while (!w.stopped) {
      const row = service.get(w.connectionId);
      if (!row || row.kind !== "mail") break;
      // Folders chosen without INBOX: nothing for the session to watch; the interval reads them.
      if (row.folders && !(JSON.parse(row.folders) as string[]).some((f) => f.toUpperCase() === "INBOX")) {
        w.state = "no_inbox";
        break;
      }
      w.state = "connecting";
      const started = Date.now();
      let client: ImapFlow | null = null;
      try {
        ({ client } = await openMailSession(deps, row, IDLE_LIMITS.sessionMs));
        w.client = client;
        if (w.stopped) break;
        if (!client.capabilities.has("IDLE")) {
          // The interval job is this mailbox's only sync.
          w.state = "no_idle";
          deps.log.info("idle: the server does not offer IDLE; the mailbox is synced on the interval", { connection_id: w.connectionId });
          break;
        }
        await client.mailboxOpen("INBOX", { readOnly: true });
        client.on("exists", (e: { count: number; prevCount: number }) => {
          if (e.count > e.prevCount) syncNow(w);
        });
        // Whatever arrived while there was no session (a reconnect) is read now.
        if (w.sessions++ > 0) syncNow(w);
        w.state = "idle";
        // idle() returns when IDLE ends (the socket's keepalive NOOP breaks it every so often; the
        // session's deadline or a drop ends the session): IDLE again while the session lasts.
        while (!w.stopped && client.usable) {
          const began = Date.now();
          if ((await client.idle()) === false && client.usable) throw new ConnectionFailure("protocol", "the server refused IDLE");
          // Never a tight loop, whatever ends IDLE at once.
          if (Date.now() - began < 100) await Bun.sleep(100);
        }
        if (w.stopped) break;
        throw new ConnectionFailure("unreachable", "the IDLE session was closed");
      } catch (error) {
        if (w.stopped) break;
        w.lastError = (error as Error)?.message ?? String(error);
        failures = Date.now() - started >= IDLE_LIMITS.healthyMs ? 1 : failures + 1;
        // A refused login or a bad setting does not fix itself: as slowly as the job retries it (15
        // minutes up to a day), never hammering the provider with a password it refuses.
        const refused = error instanceof ConnectionFailure && (error.kind === "auth" || error.kind === "config");
        const wait = refused
          ? backoffSeconds(error.kind, failures, deps.config.syncIntervalSeconds) * 1000
          : Math.min(IDLE_LIMITS.backoffMaxMs, IDLE_LIMITS.backoffFirstMs * 2 ** (failures - 1));
        deps.log.info("idle: session ended, reconnecting", { connection_id: w.connectionId, after_ms: wait, error: w.lastError });
        w.state = "backoff";
        if (client) await closeImap(client);
        client = null;
        w.client = null;
        await pause(w, wait);
      } finally {
        if (client) await closeImap(client);
        w.client = null;
      }
    }
    if (w.state !== "no_idle" && w.state !== "no_inbox") w.state = "stopped";
  }

  function startWatcher(connectionId: string): void {
    const w: Watcher = { connectionId, state: "connecting", stopped: false, client: null, wake: null, loop: Promise.resolve(), syncing: null, again: false, sessions: 0, lastError: null };
    watchers.set(connectionId, w);
    w.loop = watch(w).catch((error) => deps.log.warn("idle: watcher failed", { connection_id: connectionId, error: (error as Error).message }));
  }

  async function stopWatcher(w: Watcher): Promise<void> {
    w.stopped = true;
    w.wake?.();
    w.client?.close();
    await w.loop;
    await w.syncing;
  }

  /** Watches every mail connection not yet watched; stops watching removed ones. */
  function refresh(): void {
    if (!running) return;
    const mail = new Set(mailboxIds());
    for (const id of mail) if (!watchers.has(id)) startWatcher(id);
    for (const [id, w] of watchers) {
      if (!mail.has(id)) {
        watchers.delete(id);
        void stopWatcher(w);
      }
    }
  }

  function start(): void {
    if (running) return;
    running = true;
    refresh();
    refresher = setInterval(refresh, IDLE_LIMITS.refreshMs);
  }

  /** Closes every session and waits for the syncs they started (the server closes the database next). */
  async function stop(): Promise<void> {
    running = false;
    if (refresher) clearInterval(refresher);
    refresher = null;
    const all = [...watchers.values()];
    watchers.clear();
    // A sync one of them started ends after its current batch (the next start resumes it).
    if (all.some((w) => w.syncing)) sync.stop();
    await Promise.all(all.map(stopWatcher));
  }

  /** Where each watched mailbox is (for tests and the operator). */
  function states(): Record<string, { state: WatchState; sessions: number; last_error: string | null }> {
    return Object.fromEntries([...watchers.values()].map((w) => [w.connectionId, { state: w.state, sessions: w.sessions, last_error: w.lastError }]));
  }

  return { start, stop, refresh, states };
});
