// The web app's actions budget: a member's uploads, research runs and data-room passes started from
// a browser session are charged per member per UTC day, with the same default as a key's daily
// actions budget (config.defaultDailyActions), on the member's one count of actions a day, which
// the member's keys and connected apps spend too (budgets.service.ts: chargeUserAction), so keys
// buy no extra actions. A session's principal
// names its budget owner as `web:<user id>` in place of a key id; chargePrincipalAction sends each
// principal to its own budget, so the action engine needs to know neither.
import { lt } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { secondsUntilUtcMidnight, utcDay } from "../../lib/clock.ts";
import type { Principal } from "./auth.macro.ts";
import { actionHeaders, chargeAction } from "./budgets.http.ts";
import { webActionUsage } from "./web-budgets.tables.ts";

const WEB_OWNER = "web:";

/** The key id a web session's principal carries: no API key has this shape (keys are UUIDs). */
export const webBudgetOwner = (userId: string) => `${WEB_OWNER}${userId}`;

export const isWebPrincipal = (p: Pick<Principal, "keyId">) => p.keyId.startsWith(WEB_OWNER);

export type WebActionsToday = { used: number; limit: number; remaining: number; resetSeconds: number };

export const webBudgets = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const charge = sqlite.query<{ actions: number }, { user: string; day: string; now: string; limit: number }>(
    `INSERT INTO web_action_usage (user_id, day, actions, last_used_at) VALUES ($user, $day, 1, $now)
     ON CONFLICT (user_id, day) DO UPDATE SET actions = actions + 1, last_used_at = excluded.last_used_at
       WHERE actions < $limit
     RETURNING actions`,
  );
  const usedOn = sqlite.query<{ actions: number }, [string, string]>("SELECT actions FROM web_action_usage WHERE user_id = ? AND day = ?");
  const limit = () => deps.config.defaultDailyActions;

  /** The member's web actions today (UTC), for the pages that start one. */
  function today(userId: string): WebActionsToday {
    const now = deps.clock.now();
    const used = usedOn.get(userId, utcDay(now))?.actions ?? 0;
    return { used, limit: limit(), remaining: Math.max(0, limit() - used), resetSeconds: secondsUntilUtcMidnight(now) };
  }

  /**
   * Charges one web action or throws the 429. Call it inside the transaction that dispatches the
   * run, like a key's charge: a refused or rolled-back dispatch costs nothing.
   */
  function chargeOne(userId: string): Record<string, string> {
    const now = deps.clock.now();
    const max = limit();
    const row = max > 0 ? charge.get({ user: userId, day: utcDay(now), now: now.toISOString(), limit: max }) : null;
    const resetSeconds = secondsUntilUtcMidnight(now);
    if (!row) {
      throw new ApiError(429, `Your daily budget of ${max} actions (started from the web app, your API keys and connected apps together) is spent; it resets at 00:00 UTC (in ${resetSeconds} seconds).`, {
        ...actionHeaders({ limit: max, remaining: 0 }),
        "Retry-After": String(resetSeconds),
      });
    }
    return actionHeaders({ limit: max, remaining: Math.max(0, max - row.actions) });
  }

  /** Drops counters older than `keepDays` days (the key-usage-prune job). */
  function prune(keepDays: number): number {
    const cutoff = utcDay(new Date(deps.clock.now().getTime() - keepDays * 86_400_000));
    return deps.db.delete(webActionUsage).where(lt(webActionUsage.day, cutoff)).returning({ u: webActionUsage.userId }).all().length;
  }

  return { today, chargeOne, prune };
});

/** Charges one action to whoever the principal spends from: its key (or MCP sign-in grant, on the same ledger), or its member's web budget. */
export function chargePrincipalAction(deps: Deps, principal: Principal): Record<string, string> {
  return isWebPrincipal(principal) ? webBudgets(deps).chargeOne(principal.userId) : chargeAction(deps, principal);
}
