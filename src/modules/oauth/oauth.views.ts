// A grant as people see it (the web app's connected apps, the CLI's list): the app, its user, the
// scope, when it was allowed and last used, and today's usage of its budgets (its budget owner's,
// shared with the grants it replaced).
import type { Deps } from "../../deps.ts";
import { budgetsService } from "../identity/budgets.service.ts";
import { clientLabel } from "./oauth.clients.ts";
import type { GrantRow } from "./oauth.service.ts";
import { scopeString } from "./oauth.scope.ts";

export type GrantView = ReturnType<typeof grantViews>[number];

export function grantViews(deps: Deps, grants: GrantRow[]) {
  const budgets = budgetsService(deps);
  const today = budgets.usageToday(grants.map((g) => ({ keyId: g.id, budgetOwnerId: g.budgetOwnerId })));
  const lastUsed = budgets.lastUsed(grants.map((g) => g.id));
  return grants.map((g) => ({
    grant_id: g.id,
    client_id: g.clientId,
    client_name: clientLabel({ name: g.clientName }),
    user: { user_id: g.userId, name: g.userName, email: g.userEmail },
    scope: scopeString(g.scope),
    status: g.revokedAt ? ("revoked" as const) : ("active" as const),
    created_at: g.createdAt,
    last_used_at: lastUsed.get(g.id) ?? null,
    revoked_at: g.revokedAt,
    revoked_reason: g.revokedReason,
    usage_today: {
      requests: { used: today.get(g.id)?.requests ?? 0, limit: deps.config.defaultDailyRequests },
      actions: { used: today.get(g.id)?.actions ?? 0, limit: deps.config.defaultDailyActions },
    },
  }));
}
