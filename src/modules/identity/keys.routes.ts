// The key user's own keys over REST (additive to the spec): list, read, revoke, rotate.
// Another user's key, in this org or any other, does not exist for the caller (404).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "./auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { ApiKeyDetailModel, ApiKeyListModel, KeyIdParams, RotateBodyModel, RotatedKeyModel } from "./keys.model.ts";
import { apiKeysService } from "./keys.service.ts";
import { keyViews } from "./keys.views.ts";

const tags = ["API keys"];

export function apiKeyRoutes(deps: Deps) {
  const keys = apiKeysService(deps);
  const asOf = () => deps.clock.now().toISOString();

  return new Elysia({ prefix: "/api/v1/keys" })
    .use(authPlugin(deps))
    .get(
      "",
      ({ principal }) => ({ scope: "key_user" as const, keys: keyViews(deps, keys.listForUser(principal.userId)), as_of: asOf() }),
      {
        auth: "read",
        detail: { responses: jsonResponses({ 200: ApiKeyListModel }), operationId: "listApiKeys", tags, summary: "List the key user's API keys with today's usage" },
      },
    )
    .get(
      "/:key_id",
      ({ principal, params }) => ({
        scope: "key_user" as const,
        key: keyViews(deps, [keys.getOwned(principal.userId, params.key_id)])[0],
        as_of: asOf(),
      }),
      {
        auth: "read",
        params: KeyIdParams,
        detail: { responses: jsonResponses({ 200: ApiKeyDetailModel }), operationId: "getApiKey", tags, summary: "One of the key user's API keys" },
      },
    )
    .delete(
      "/:key_id",
      ({ principal, params, set }) => {
        keys.revoke(keys.getOwned(principal.userId, params.key_id).id);
        set.status = 204;
      },
      {
        auth: "write",
        params: KeyIdParams,
        detail: { responses: jsonResponses({ 204: null }), operationId: "revokeApiKey", tags, summary: "Revoke an API key now (takes effect on the next request)" },
      },
    )
    .post(
      "/:key_id/rotate",
      ({ principal, params, body, set }) => {
        const owned = keys.getOwned(principal.userId, params.key_id);
        const rotated = keys.rotate(owned.id, body?.overlap_hours ?? 24);
        const [key, previous] = keyViews(deps, [rotated.key, rotated.oldKey]);
        set.status = 201;
        return { key, secret: rotated.secret, previous_key: previous, as_of: asOf() };
      },
      {
        auth: "write",
        params: KeyIdParams,
        // Every property is optional, and so is the body itself (no body: the default overlap).
        body: t.Optional(RotateBodyModel),
        detail: {
          responses: jsonResponses({ 201: RotatedKeyModel }),
          operationId: "rotateApiKey",
          tags,
          summary: "Replace an API key; the old one keeps working for the overlap",
        },
      },
    );
}
