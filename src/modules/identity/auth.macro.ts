// Authentication as a named Elysia plugin with one macro: `auth: "read" | "write"`.
// It runs in the transform phase, i.e. before validation, so a client without a valid key
// learns that (401) before anything about its parameters, and a read key learns it may not
// call an action (403) before its body is judged.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { apiKeysService, type KeyStatus, type Scope, type VerifiedKey } from "./keys.service.ts";
import { budgetsService } from "./budgets.service.ts";
import { dailyLimitReached, rateLimitHeaders } from "./budgets.http.ts";
import { ApiError } from "../../http/errors.ts";
import { holdBody, isHeld, readHeldBody } from "../../http/json-body.ts";
import { refuseMalformedIds, refuseRepeatedQuery } from "../../http/request-guards.ts";

/**
 * Who is calling: a valid key whose user belongs to an organization. `usageToday` is the key's
 * counters once this request was counted (absent for a web session, which has no budget).
 */
export type Principal = VerifiedKey & { orgId: string; usageToday?: { requests: number; actions: number; at: string } };

const KEYS_PAGE_HINT = "create a read-and-write key on the API-key page (/app/keys)";

const NO_ORG =
  "Your user belongs to no organization: ask an administrator to add the user to an org (dealgraph admin user create --org ...).";
const READ_ONLY = `This API key is read-only and cannot call actions: ${KEYS_PAGE_HINT}.`;

function readSecret(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return headers.get("x-api-key")?.trim() || null;
}

function unauthorized(status: Exclude<KeyStatus, { status: "VALID" }>): ApiError {
  const why = {
    MISSING: "no key was sent (use 'Authorization: Bearer <key>' or 'X-API-Key: <key>')",
    MALFORMED: "the key is not one this server issued",
    NOT_FOUND: "the key is not one this server issued",
    REVOKED: `the key was revoked at ${"at" in status ? status.at : ""}`,
    EXPIRED: `the key expired at ${"at" in status ? status.at : ""}`,
  }[status.status];
  return new ApiError(401, `Invalid or revoked API key: ${why}.`, { "WWW-Authenticate": 'Bearer realm="dealgraph"' });
}

// Transform and resolve are separate hooks; the principal found in the first is handed to the
// second through the request object itself.
const principals = new WeakMap<Request, Principal>();

export const SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

export function authPlugin(deps: Deps) {
  const keys = apiKeysService(deps);
  const budgets = budgetsService(deps);

  function authenticate(request: Request, set: { headers: Record<string, unknown> }, needs: Scope): Principal {
    const verified = keys.verify(readSecret(request.headers));
    if (verified.status !== "VALID") throw unauthorized(verified);
    const key = verified.key;
    const requests = budgets.countRequest(key, key.dailyRequests);
    const headers = rateLimitHeaders(requests);
    Object.assign(set.headers, headers);
    if (!requests.allowed) throw dailyLimitReached("request", requests, headers);
    if (!key.orgId) throw new ApiError(403, NO_ORG);
    if (needs === "write" && key.scope !== "write") throw new ApiError(403, READ_ONLY);
    return { ...key, orgId: key.orgId, usageToday: requests.today ?? undefined };
  }

  return new Elysia({ name: "auth" }).macro({
    auth: (needs: Scope) => ({
      detail: { security: SECURITY },
      parse: holdBody,
      async transform(context) {
        const { request, set, params } = context;
        principals.set(request, authenticate(request, set, needs));
        refuseMalformedIds(params);
        refuseRepeatedQuery(request.url);
        // Validation, after this hook, judges what is read here.
        if (isHeld(context.body)) context.body = await readHeldBody(request, context.body);
      },
      resolve: ({ request }) => ({ principal: principals.get(request)! }),
    }),
  });
}
