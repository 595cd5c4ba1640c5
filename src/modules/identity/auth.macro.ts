// Authentication as a named Elysia plugin with one macro: `auth: "read" | "write"`.
// It runs in the transform phase, i.e. before validation, so a client without a valid key
// learns that (401) before anything about its parameters, and a read key learns it may not
// call an action (403) before its body is judged.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { apiKeysService, type KeyStatus, type Scope, type VerifiedKey } from "./keys.service.ts";
import { budgetsService } from "./budgets.service.ts";
import { dailyLimitReached, rateLimitHeaders } from "./budgets.http.ts";
import { isUuid } from "../../lib/ids.ts";
import { ApiError, invalid, notFound } from "../../http/errors.ts";
import { hasContent, JSON_BODY_MAX_BYTES, MB, readBounded } from "../../http/request-body.ts";

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

// Every JSON route's body is judged after authentication (401/403 before anything about the
// request's content), and read only then: an unauthenticated client cannot make the server
// buffer and parse a body at all. Elysia runs a route's parser before its transform hook (where
// the key is checked), so the parser only holds the body back, and keeps Elysia's own parsers
// away: they would quietly accept a text/plain or urlencoded body, or turn an array or a bare
// string into `{}` for an all-optional schema.
const HELD_BODY = Symbol("held-body");
type HeldBody = { [HELD_BODY]: string };

const badBody = (msg: string, type: string) => new ApiError(422, [{ loc: ["body"], msg, type }]);
const unsupportedMedia = (got: string) =>
  new ApiError(415, `This endpoint expects application/json; the request sent ${got}. Nothing was changed.`);
const tooLarge = () =>
  new ApiError(413, `The request body is larger than ${JSON_BODY_MAX_BYTES / MB} MB, the most a JSON request may carry. Nothing was changed.`);

/** Elysia hands a parser the media type without its parameters, or "" when there is none. */
function holdBody({ request }: { request: Request }, contentType: string): HeldBody | undefined {
  return request.body ? { [HELD_BODY]: contentType.trim().toLowerCase() } : undefined;
}

const isHeld = (body: unknown): body is HeldBody => !!body && typeof body === "object" && HELD_BODY in body;

/**
 * The JSON object a request carries, or undefined for no body. An empty body is no body, whatever
 * its media type says; a non-empty one must be application/json, within JSON_BODY_MAX_BYTES.
 */
async function readJsonBody(request: Request, media: string): Promise<object | undefined> {
  let text: string;
  try {
    if (media !== "application/json") {
      if (!(await hasContent(request))) return undefined;
      throw unsupportedMedia(media || "a body without a Content-Type");
    }
    const read = await readBounded(request, JSON_BODY_MAX_BYTES);
    if ("overLimit" in read) throw tooLarge();
    text = new TextDecoder().decode(read.bytes);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badBody("The request body could not be read", "body_unreadable");
  }
  if (text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = text.trim() === "" ? "the body is only whitespace" : (error as Error).message;
    throw badBody(`Invalid JSON: ${why}`, "json_invalid");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badBody("Input should be a JSON object", "model_attributes_type");
  }
  return value;
}

/**
 * Every path parameter of the API is an id (`key_id`, `deal_id`, ...), and CONTRACT says an id
 * that is not a UUID is 404 like any unknown one: judged here, right after the key, so no route
 * can answer 422 about its body or query (or reach a service) with such an id.
 */
function refuseMalformedIds(params: Record<string, string | undefined> | undefined): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name.endsWith("_id") && !(typeof value === "string" && isUuid(value))) {
      const what = name.slice(0, -3).replace(/_/g, " ");
      throw notFound(`${what[0].toUpperCase()}${what.slice(1)} not found: no such ${name}`);
    }
  }
}

/** No query parameter of the API is a list: a repeated one is a mistake, not a choice to guess at. */
function refuseRepeatedQuery(url: string): void {
  const start = url.indexOf("?");
  if (start < 0) return;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
    if (seen.has(name)) throw invalid(["query", name], `Give ${name} once; it was repeated`, "repeated_parameter");
    seen.add(name);
  }
}

export const SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

export function authPlugin(deps: Deps) {
  const keys = apiKeysService(deps);
  const budgets = budgetsService(deps);

  function authenticate(request: Request, set: { headers: Record<string, unknown> }, needs: Scope): Principal {
    const verified = keys.verify(readSecret(request.headers));
    if (verified.status !== "VALID") throw unauthorized(verified);
    const key = verified.key;
    const requests = budgets.countRequest(key.keyId, key.dailyRequests);
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
        if (isHeld(context.body)) context.body = await readJsonBody(request, context.body[HELD_BODY]);
      },
      resolve: ({ request }) => ({ principal: principals.get(request)! }),
    }),
  });
}
