import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "./auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { keyView } from "./keys.views.ts";
import { MeModel } from "./me.model.ts";

// GET /api/v1/me: who the key (or token) belongs to, its scope, budgets and today's usage.
export function meRoutes(deps: Deps) {
  return new Elysia({ prefix: "/api/v1" }).use(authPlugin(deps)).get(
    "/me",
    ({ principal }) => {
      // Everything was read when the key was verified and this request counted: no statement here.
      const identity = principal.identity!;
      const today = principal.usageToday!;
      const now = deps.clock.now();
      return {
        user: { user_id: principal.userId, name: principal.userName, email: identity.userEmail, share_network: identity.userShareNetwork },
        org: { org_id: principal.orgId, name: identity.orgName! },
        // This request was the key's last use.
        key: keyView(deps, identity.record, today, today.at, now),
        scope: "key_user" as const,
        as_of: now.toISOString(),
      };
    },
    {
      auth: "read",
      detail: {
        responses: jsonResponses({ 200: MeModel }),
        operationId: "getMe",
        tags: ["Identity"],
        summary: "Who this key belongs to, and its budgets today",
      },
    },
  );
}
