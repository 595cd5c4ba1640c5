// Authentication as a named Elysia plugin with one macro: `auth: "read" | "write"` (the REST API:
// API keys only). It runs in the transform phase, i.e. before validation, so a client without a
// valid key learns that (401) before anything about its parameters, and a read key learns it may
// not call an action (403) before its body is judged. `requestAuthenticator` is the judging and
// counting itself, which the MCP door calls with a `Door` that also takes MCP sign-in tokens.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { apiKeysService, type KeyStatus, type Scope, type VerifiedKey } from "./keys.service.ts";
import { budgetsService } from "./budgets.service.ts";
import { dailyLimitReached, rateLimitHeaders } from "./budgets.http.ts";
import { ApiError } from "../../http/errors.ts";
import { holdBody, isHeld, readHeldBody } from "../../http/json-body.ts";
import { refuseMalformedIds, refuseRepeatedQuery } from "../../http/request-guards.ts";
import { signInTokenKind } from "./key-secrets.ts";

/**
 * Who is calling: a valid key (or, at /mcp, an MCP sign-in grant) whose user belongs to an
 * organization. `usageToday` is the budget owner's counters once this request was counted (absent
 * for a web session, which has no request budget).
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

const SIGN_IN_TOKEN_HERE =
  "it is an MCP sign-in token, which works at /mcp only; the REST API takes API keys (create one on the API-key page, /app/keys)";

function unauthorized(status: Exclude<KeyStatus, { status: "VALID" }>, secret: string | null, challenge: string): ApiError {
  const why = {
    MISSING: "no key was sent (use 'Authorization: Bearer <key>' or 'X-API-Key: <key>')",
    MALFORMED: secret && signInTokenKind(secret) ? SIGN_IN_TOKEN_HERE : "the key is not one this server issued",
    NOT_FOUND: "the key is not one this server issued",
    REVOKED: `the key was revoked at ${"at" in status ? status.at : ""}`,
    EXPIRED: `the key expired at ${"at" in status ? status.at : ""}`,
  }[status.status];
  return new ApiError(401, `Invalid or revoked API key: ${why}.`, { "WWW-Authenticate": challenge });
}

/**
 * A door that takes more than API keys (the MCP door: sign-in access tokens) says how to read
 * its other credential, and how its 401s challenge the client.
 */
export type Door = {
  /** The principal another kind of credential stands for, a refusal in words, or null when `secret` is not of that kind (it is then judged as a key). */
  other?: (secret: string) => { status: "VALID"; key: VerifiedKey } | { status: "REFUSED"; detail: string } | null;
  /** The WWW-Authenticate header of a 401; `presented`: a credential came and was refused. */
  challenge?: (presented: boolean) => string;
};

const REST_CHALLENGE = () => 'Bearer realm="dealgraph"';

/**
 * Judges a request's credential (an API key, or what the door takes besides) and counts it against
 * its budget owner's daily request budget: the principal, or the 401/403/429 (with the
 * X-RateLimit-* headers set on `set`).
 */
export function requestAuthenticator(deps: Deps) {
  const keys = apiKeysService(deps);
  const budgets = budgetsService(deps);

  return function authenticate(request: Request, set: { headers: Record<string, unknown> }, needs: Scope, door: Door = {}): Principal {
    const challenge = door.challenge ?? REST_CHALLENGE;
    const secret = readSecret(request.headers);
    const other = secret && door.other ? door.other(secret) : null;
    if (other?.status === "REFUSED") throw new ApiError(401, other.detail, { "WWW-Authenticate": challenge(true) });
    const verified = other ?? keys.verify(secret);
    if (verified.status !== "VALID") throw unauthorized(verified, secret, challenge(secret !== null));
    const key = verified.key;
    const requests = budgets.countRequest(key, key.dailyRequests);
    const headers = rateLimitHeaders(requests);
    Object.assign(set.headers, headers);
    if (!requests.allowed) throw dailyLimitReached("request", requests, headers, key);
    if (!key.orgId) throw new ApiError(403, NO_ORG);
    if (needs === "write" && key.scope !== "write") throw new ApiError(403, READ_ONLY);
    return { ...key, orgId: key.orgId, usageToday: requests.today ?? undefined };
  };
}

// Transform and resolve are separate hooks; the principal found in the first is handed to the
// second through the request object itself.
const principals = new WeakMap<Request, Principal>();

export const SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

/** The REST API's auth: API keys only (an MCP sign-in token is refused with 401, saying so). */
export function authPlugin(deps: Deps) {
  const authenticate = requestAuthenticator(deps);

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
