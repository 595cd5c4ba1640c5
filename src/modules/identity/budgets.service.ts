// Daily budgets: requests and actions, per UTC day by the clock, per budget owner: the first key of
// a rotation chain, so every key a rotation made spends the same day's budget (rotating a key never
// resets it), or an MCP sign-in grant, counted the same way (its `keyId` is the grant's id). Each count is one conditional upsert of the owner's row, which SQLite serialises, so
// a budget of N admits exactly N, whether the requests race in one process, come from several
// processes on one database file, or come with the old and the new key of a rotation at once. A
// key made by rotation also stamps its own row's last use (a second statement, for such keys only).
// Actions are counted per user as well (chargeUserAction): a user's keys, connected apps and web
// sessions share one count of actions a day (web_action_usage, one row per user per day), so making
// more keys buys no more actions; each principal's own limit applies to that shared count, and the
// key's row keeps what the key itself started (its usage_today).
import { eq, lt, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { secondsUntilUtcMidnight, utcDay } from "../../lib/clock.ts";
import { keyUsage } from "./budgets.tables.ts";

export type BudgetKind = "requests" | "actions";

export type BudgetDecision = {
  allowed: boolean;
  limit: number;
  /** What is left after this charge (0 when refused). */
  remaining: number;
  /** Whole seconds until the budget resets at the next UTC midnight. */
  resetSeconds: number;
  /** The budget owner's counters today after this charge, and when (null when refused). */
  today: { requests: number; actions: number; at: string } | null;
};

export type UsageToday = { requests: number; actions: number };

/**
 * Whose budget a key (or grant) spends: its budget owner (a key from before owners existed:
 * itself). With `userId`, usageToday reports the user's actions (shared by all their keys).
 */
export type BudgetKey = { keyId: string; budgetOwnerId?: string | null; userId?: string };
const ownerOf = (k: BudgetKey) => k.budgetOwnerId ?? k.keyId;

export const budgetsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;

  // Every authenticated request runs one of these: bun:sqlite directly, prepared once. The owner's
  // row keeps its last use for the owner key's own requests only (`$ownUse` is null otherwise).
  const charge = (column: BudgetKind) =>
    db.$client.query<{ used: number; requests: number; actions: number }, { owner: string; day: string; ownUse: string | null; limit: number; n: number }>(
      `INSERT INTO key_usage (key_id, day, ${column}, last_used_at) VALUES ($owner, $day, $n, $ownUse)
       ON CONFLICT (key_id, day) DO UPDATE SET ${column} = ${column} + $n, last_used_at = COALESCE(excluded.last_used_at, last_used_at)
         WHERE ${column} + $n <= $limit
       RETURNING ${column} AS used, requests, actions`,
    );
  const touch = db.$client.query<unknown, { keyId: string; day: string; now: string }>(
    `INSERT INTO key_usage (key_id, day, last_used_at) VALUES ($keyId, $day, $now)
     ON CONFLICT (key_id, day) DO UPDATE SET last_used_at = excluded.last_used_at`,
  );

  const chargeRequests = charge("requests");
  const chargeActionStmt = charge("actions");
  // The user's actions today, whatever started them (web-budgets.service.ts charges the same row).
  const chargeUser = db.$client.query<{ actions: number }, { user: string; day: string; now: string; limit: number }>(
    `INSERT INTO web_action_usage (user_id, day, actions, last_used_at) VALUES ($user, $day, 1, $now)
     ON CONFLICT (user_id, day) DO UPDATE SET actions = actions + 1, last_used_at = excluded.last_used_at
       WHERE actions < $limit
     RETURNING actions`,
  );
  const userActionsOn = db.$client.query<{ actions: number }, { user: string; day: string }>("SELECT actions FROM web_action_usage WHERE user_id = $user AND day = $day");

  function decide(stmt: typeof chargeRequests, key: BudgetKey, limit: number, n: number): BudgetDecision {
    const now = clock.now();
    const resetSeconds = secondsUntilUtcMidnight(now);
    // A charge over the whole limit (a limit of 0 among them) is refused: the insert path of the
    // upsert (the day's first charge) would otherwise admit it.
    if (n > limit) return { allowed: false, limit, remaining: 0, resetSeconds, today: null };
    const at = now.toISOString();
    const owner = ownerOf(key);
    const day = utcDay(now);
    const row = stmt.get({ owner, day, ownUse: owner === key.keyId ? at : null, limit, n });
    if (!row) return { allowed: false, limit, remaining: 0, resetSeconds, today: null };
    if (owner !== key.keyId) touch.run({ keyId: key.keyId, day, now: at });
    return { allowed: true, limit, remaining: Math.max(0, limit - row.used), resetSeconds, today: { requests: row.requests, actions: row.actions, at } };
  }

  /**
   * Counts `n` requests (one HTTP request is one; each message of an MCP JSON-RPC batch is one)
   * against the owner's daily request budget: all of them or, when they do not fit, none.
   */
  function countRequest(key: BudgetKey, limit: number, n = 1): BudgetDecision {
    return decide(chargeRequests, key, limit, n);
  }

  /**
   * Charges one action. Call it inside the transaction that dispatches the run, so a refused or
   * rolled-back dispatch costs nothing.
   */
  function chargeAction(key: BudgetKey, limit: number): BudgetDecision {
    return decide(chargeActionStmt, key, limit, 1);
  }

  /**
   * Charges one action to the user's shared daily count (within `limit`, the principal's own),
   * and, when allowed, to the key's own row (its usage_today). Call it inside the transaction
   * that dispatches the run.
   */
  function chargeUserAction(key: BudgetKey & { userId: string }, limit: number): BudgetDecision {
    const now = clock.now();
    const resetSeconds = secondsUntilUtcMidnight(now);
    const refused = { allowed: false, limit, remaining: 0, resetSeconds, today: null };
    if (limit < 1) return refused;
    const at = now.toISOString();
    const day = utcDay(now);
    const row = chargeUser.get({ user: key.userId, day, now: at, limit });
    if (!row) return refused;
    const owner = ownerOf(key);
    const own = chargeActionStmt.get({ owner, day, ownUse: owner === key.keyId ? at : null, limit: Number.MAX_SAFE_INTEGER, n: 1 });
    if (owner !== key.keyId) touch.run({ keyId: key.keyId, day, now: at });
    return { allowed: true, limit, remaining: Math.max(0, limit - row.actions), resetSeconds, today: own ? { requests: own.requests, actions: own.actions, at } : null };
  }

  // Key pages show a handful of keys: one prepared lookup per key beats building an IN list.
  const usageOfOwner = db.$client.query<UsageToday, { owner: string; day: string }>("SELECT requests, actions FROM key_usage WHERE key_id = $owner AND day = $day");
  const lastUsedOf = db
    .select({ at: sql<string | null>`max(${keyUsage.lastUsedAt})` })
    .from(keyUsage)
    .where(eq(keyUsage.keyId, sql.placeholder("keyId")))
    .prepare();

  /**
   * Today's usage of each key's budget (its owner's: shared by a rotation chain), by key id; for a
   * key given with its `userId`, `actions` is the user's (what the user's actions limit counts).
   */
  function usageToday(keys: BudgetKey[]): Map<string, UsageToday> {
    const out = new Map<string, UsageToday>();
    const day = utcDay(clock.now());
    for (const k of keys) {
      const usage = usageOfOwner.get({ owner: ownerOf(k), day }) ?? { requests: 0, actions: 0 };
      out.set(k.keyId, k.userId ? { requests: usage.requests, actions: userActionsOn.get({ user: k.userId, day })?.actions ?? 0 } : usage);
    }
    return out;
  }

  /** The last time each key itself was used, over all days kept. */
  function lastUsed(keyIds: string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const keyId of keyIds) {
      const at = lastUsedOf.get({ keyId })?.at;
      if (at) out.set(keyId, at);
    }
    return out;
  }

  /** Drops usage rows older than `keepDays` days; today's counters are never touched. */
  function pruneUsage(keepDays: number): number {
    const cutoff = utcDay(new Date(clock.now().getTime() - keepDays * 86_400_000));
    return db.delete(keyUsage).where(lt(keyUsage.day, cutoff)).returning({ k: keyUsage.keyId }).all().length;
  }

  return { countRequest, chargeAction, chargeUserAction, usageToday, lastUsed, pruneUsage };
});
