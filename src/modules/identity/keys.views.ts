// The API shape of a key, with today's usage against both budgets. Used by the REST routes and
// (later) the web app's API-key page, so both show the same figures.
import type { Deps } from "../../deps.ts";
import { budgetsService } from "./budgets.service.ts";
import { keyState, type KeyRecord } from "./keys.service.ts";

export type ApiKeyView = ReturnType<typeof keyView>;

export function keyViews(deps: Deps, keys: KeyRecord[]) {
  const budgets = budgetsService(deps);
  const ids = keys.map((k) => k.id);
  const today = budgets.usageToday(keys.map((k) => ({ keyId: k.id, budgetOwnerId: k.budgetOwnerId })));
  const lastUsed = budgets.lastUsed(ids);
  const now = deps.clock.now();
  return keys.map((k) => keyView(deps, k, today.get(k.id), lastUsed.get(k.id) ?? null, now));
}

/** One key's view from figures already read (GET /me reads them with the key in one query). */
export function keyView(deps: Deps, k: KeyRecord, today: { requests: number; actions: number } | undefined, lastUsedAt: string | null, now: Date) {
  return {
    key_id: k.id,
    name: k.name,
    scope: k.scope,
    prefix: k.prefix,
    status: keyState(k, now),
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
    last_used_at: lastUsedAt,
    rotated_from_key_id: k.rotatedFromId,
    usage_today: {
      requests: { used: today?.requests ?? 0, limit: k.dailyRequests ?? deps.config.defaultDailyRequests },
      actions: { used: today?.actions ?? 0, limit: k.dailyActions ?? deps.config.defaultDailyActions },
    },
  };
}
