// Daily budgets per key: requests and actions, per UTC day by the clock. Each count is one
// conditional upsert that SQLite serialises, so a budget of N admits exactly N, whether the
// requests race in one process or come from several processes on one database file.
import { and, eq, lt, sql } from "drizzle-orm";
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
  /** The key's counters today after this charge, and when (null when refused). */
  today: { requests: number; actions: number; at: string } | null;
};

export type UsageToday = { requests: number; actions: number; lastUsedAt: string | null };

export const budgetsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;

  // Every authenticated request runs one of these: bun:sqlite directly, prepared once.
  const charge = (column: BudgetKind) =>
    db.$client.query<{ used: number; requests: number; actions: number }, { keyId: string; day: string; now: string; limit: number }>(
      `INSERT INTO key_usage (key_id, day, ${column}, last_used_at) VALUES ($keyId, $day, 1, $now)
       ON CONFLICT (key_id, day) DO UPDATE SET ${column} = ${column} + 1, last_used_at = excluded.last_used_at
         WHERE ${column} < $limit
       RETURNING ${column} AS used, requests, actions`,
    );

  const chargeRequest = charge("requests");
  const chargeActionStmt = charge("actions");

  function decide(stmt: typeof chargeRequest, keyId: string, limit: number): BudgetDecision {
    const now = clock.now();
    const resetSeconds = secondsUntilUtcMidnight(now);
    // A limit of 0 refuses everything; the insert path would otherwise admit the first one.
    if (limit <= 0) return { allowed: false, limit, remaining: 0, resetSeconds, today: null };
    const at = now.toISOString();
    const row = stmt.get({ keyId, day: utcDay(now), now: at, limit });
    if (!row) return { allowed: false, limit, remaining: 0, resetSeconds, today: null };
    return { allowed: true, limit, remaining: Math.max(0, limit - row.used), resetSeconds, today: { requests: row.requests, actions: row.actions, at } };
  }

  /** Counts one request against the key's daily request budget. */
  function countRequest(keyId: string, limit: number): BudgetDecision {
    return decide(chargeRequest, keyId, limit);
  }

  /**
   * Charges one action. Call it inside the transaction that dispatches the run, so a refused or
   * rolled-back dispatch costs nothing.
   */
  function chargeAction(keyId: string, limit: number): BudgetDecision {
    return decide(chargeActionStmt, keyId, limit);
  }

  // Key pages show a handful of keys: one prepared lookup per key beats building an IN list.
  const usageOfDay = db
    .select()
    .from(keyUsage)
    .where(and(eq(keyUsage.keyId, sql.placeholder("keyId")), eq(keyUsage.day, sql.placeholder("day"))))
    .prepare();
  const lastUsedOf = db
    .select({ at: sql<string | null>`max(${keyUsage.lastUsedAt})` })
    .from(keyUsage)
    .where(eq(keyUsage.keyId, sql.placeholder("keyId")))
    .prepare();

  function usageToday(keyIds: string[]): Map<string, UsageToday> {
    const out = new Map<string, UsageToday>();
    const day = utcDay(clock.now());
    const rows = keyIds.map((keyId) => usageOfDay.get({ keyId, day })).filter((r) => r !== undefined);
    for (const r of rows) out.set(r.keyId, { requests: r.requests, actions: r.actions, lastUsedAt: r.lastUsedAt });
    return out;
  }

  /** The last time each key was used, over all days kept. */
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

  return { countRequest, chargeAction, usageToday, lastUsed, pruneUsage };
});
