import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../../http/auth.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { apiKeysService } from "../api-keys/api-keys.service.ts";
import { keyViews } from "../api-keys/api-keys.views.ts";
import { MeModel } from "./orgs.model.ts";
import { orgsService } from "./orgs.service.ts";

export function orgRoutes(deps: Deps) {
  const orgs = orgsService(deps);
  const keys = apiKeysService(deps);

  return new Elysia({ prefix: "/api/v1" }).use(authPlugin(deps)).get(
    "/me",
    ({ principal }) => {
      const user = orgs.mustGetUser(principal.userId);
      const org = orgs.getOrg(principal.orgId)!;
      return {
        user: { user_id: user.id, name: user.name, email: user.email, share_network: user.shareNetwork },
        org: { org_id: org.id, name: org.name },
        key: keyViews(deps, [keys.get(principal.keyId)!])[0],
        scope: "key_user" as const,
        as_of: deps.clock.now().toISOString(),
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
