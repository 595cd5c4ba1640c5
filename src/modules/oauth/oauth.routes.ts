// MCP sign-in's machine endpoints (the consent page is the web app's): discovery (RFC 9728, RFC
// 8414), dynamic client registration (RFC 7591), the authorization endpoint (which leads to the
// consent page under /app, where the session cookie is sent), the token endpoint (authorization
// code with PKCE S256, refresh with rotation) and revocation (RFC 7009). Registration and the
// token and revocation endpoints are limited per client address (DEALGRAPH_TRUSTED_PROXIES as
// for sign-in; registrations to DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR). Answers are OAuth's JSON (`error`, `error_description`, and `detail`), never cached.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { clientAddressResolver } from "../../http/client-address.ts";
import { publicBase } from "../../http/public-origin.ts";
import { windowLimiter } from "../../http/rate-limit.ts";
import { readBounded } from "../../http/request-body.ts";
import { oauthClientsService } from "./oauth.clients.ts";
import { OAuthError, oauthErrorResponse, oauthJson } from "./oauth.errors.ts";
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  authorizationServerMetadata,
  CONSENT_PATH,
  MCP_RESOURCE_PATH,
  OAUTH_PATHS,
  PROTECTED_RESOURCE_METADATA_PATH,
  protectedResourceMetadata,
} from "./oauth.metadata.ts";
import { oauthService } from "./oauth.service.ts";
import { OAUTH_OPENAPI } from "./oauth.openapi.ts";

/** Token and revocation requests per client address per minute. */
export const TOKEN_REQUESTS_PER_MINUTE = 60;
const BODY_MAX_BYTES = 64 * 1024;
const FORM_TYPE = "application/x-www-form-urlencoded";

const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

/** The body of a token or revocation request: a form, each parameter at most once (RFC 6749 section 3.2). */
async function readForm(request: Request): Promise<URLSearchParams> {
  if (mediaType(request) !== FORM_TYPE) throw new OAuthError("invalid_request", `send the parameters as ${FORM_TYPE}`);
  const body = await readBounded(request, BODY_MAX_BYTES).catch(() => null);
  if (!body) throw new OAuthError("invalid_request", "the request body broke off");
  if ("overLimit" in body) throw new OAuthError("invalid_request", `the body may be at most ${BODY_MAX_BYTES / 1024} KB`);
  const form = new URLSearchParams(new TextDecoder().decode(body.bytes));
  const repeated = [...new Set([...form.keys()])].filter((k) => k !== "resource" && form.getAll(k).length > 1);
  if (repeated.length) throw new OAuthError("invalid_request", `${repeated.join(", ")} may be given only once`);
  return form;
}

/** Public clients identify themselves with client_id in the body; there are no secrets to send. */
function clientOf(deps: Deps, request: Request, form: URLSearchParams) {
  if (/^basic\s/i.test(request.headers.get("authorization") ?? "")) {
    throw new OAuthError("invalid_client", "this server registers public clients only: send client_id in the body, with no secret", 401, { "WWW-Authenticate": 'Basic realm="dealgraph"' });
  }
  const clientId = form.get("client_id");
  if (!clientId) throw new OAuthError("invalid_client", "client_id is required", 401);
  const client = oauthClientsService(deps).get(clientId);
  if (!client) throw new OAuthError("invalid_client", "client_id is not a client registered here: register again", 401);
  return client;
}

/** The one `resource` of a token request, or null (RFC 8707 allows several; this server has one). */
function resourceOf(form: URLSearchParams): string | null {
  const all = [...new Set(form.getAll("resource"))];
  if (all.length > 1) throw new OAuthError("invalid_target", "one resource only: this server's /mcp");
  return all[0] ?? null;
}

function required(form: URLSearchParams, name: string, why = ""): string {
  const value = form.get(name);
  if (!value) throw new OAuthError("invalid_request", `${name} is required${why}`);
  return value;
}

export function oauthRoutes(deps: Deps) {
  const service = oauthService(deps);
  const clients = oauthClientsService(deps);
  const addressOf = clientAddressResolver(deps.config.trustedProxies);
  const now = () => deps.clock.now().getTime();
  const registrations = windowLimiter({ limit: deps.config.oauthRegistrationsPerHour, windowMs: 3600_000, now });
  const tokenRequests = windowLimiter({ limit: TOKEN_REQUESTS_PER_MINUTE, windowMs: 60_000, now });

  type Ctx = { request: Request; server: { requestIP(r: Request): { address: string } | null; hostname?: string; port?: number } | null };
  const clientAddress = ({ request, server }: Ctx) => addressOf(request, server?.requestIP(request)?.address ?? null);

  function limited(limiter: ReturnType<typeof windowLimiter>, ctx: Ctx, what: string) {
    const decision = limiter.take(clientAddress(ctx) ?? "unknown");
    if (decision.allowed) return;
    throw new OAuthError("too_many_requests", `too many ${what} from your address; try again in ${decision.retryAfterSeconds} seconds`, 429, {
      "Retry-After": String(decision.retryAfterSeconds),
    });
  }

  /** Runs an endpoint; its OAuth refusals become OAuth's JSON answers. */
  const answer = (run: (ctx: Ctx) => Promise<Response> | Response) => async (ctx: Ctx) => {
    try {
      return await run(ctx);
    } catch (error) {
      if (error instanceof OAuthError) return oauthErrorResponse(error);
      throw error;
    }
  };

  const metadata = (document: (base: string) => unknown) => (ctx: Ctx) =>
    new Response(JSON.stringify(document(publicBase(deps.config, ctx.server))), {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
    });

  return new Elysia({ detail: { tags: ["MCP sign-in (OAuth)"], security: [] } })
    .get(PROTECTED_RESOURCE_METADATA_PATH, metadata(protectedResourceMetadata), { detail: OAUTH_OPENAPI.resourceMetadata })
    .get(`${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}`, metadata(protectedResourceMetadata), { detail: OAUTH_OPENAPI.mcpResourceMetadata })
    .get(AUTHORIZATION_SERVER_METADATA_PATH, metadata(authorizationServerMetadata), { detail: OAUTH_OPENAPI.serverMetadata })
    .post(
      OAUTH_PATHS.register,
      answer(async (ctx) => {
        limited(registrations, ctx, "registrations");
        if (mediaType(ctx.request) !== "application/json") throw new OAuthError("invalid_client_metadata", "send the client metadata as application/json");
        const body = await readBounded(ctx.request, BODY_MAX_BYTES).catch(() => null);
        if (!body || "overLimit" in body) throw new OAuthError("invalid_client_metadata", `the body must be a JSON object of at most ${BODY_MAX_BYTES / 1024} KB`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(new TextDecoder().decode(body.bytes));
        } catch {
          throw new OAuthError("invalid_client_metadata", "the body is not valid JSON");
        }
        return oauthJson(201, clients.register(parsed, clientAddress(ctx)).response);
      }),
      { parse: "none", detail: OAUTH_OPENAPI.register },
    )
    // The consent page lives under /app (where the session cookie is sent); it judges the request.
    .get(OAUTH_PATHS.authorize, ({ request }) => new Response(null, { status: 303, headers: { location: CONSENT_PATH + new URL(request.url).search, "cache-control": "no-store" } }), {
      detail: OAUTH_OPENAPI.authorize,
    })
    .post(
      OAUTH_PATHS.token,
      answer(async (ctx) => {
        limited(tokenRequests, ctx, "token requests");
        const form = await readForm(ctx.request);
        const grantType = required(form, "grant_type");
        if (grantType !== "authorization_code" && grantType !== "refresh_token") {
          throw new OAuthError("unsupported_grant_type", `grant_type ${JSON.stringify(grantType.slice(0, 40))} is not supported: use authorization_code or refresh_token`);
        }
        const client = clientOf(deps, ctx.request, form);
        const resource = resourceOf(form);
        const tokens =
          grantType === "authorization_code"
            ? service.exchangeCode({
                clientId: client.id,
                code: required(form, "code"),
                codeVerifier: required(form, "code_verifier", " (PKCE, RFC 7636)"),
                redirectUri: form.get("redirect_uri"),
                resource,
              })
            : service.refresh({ clientId: client.id, refreshToken: required(form, "refresh_token"), scope: form.get("scope"), resource });
        return oauthJson(200, tokens);
      }),
      { parse: "none", detail: OAUTH_OPENAPI.token },
    )
    .post(
      OAUTH_PATHS.revoke,
      answer(async (ctx) => {
        limited(tokenRequests, ctx, "token requests");
        const form = await readForm(ctx.request);
        const client = clientOf(deps, ctx.request, form);
        service.revokeToken(required(form, "token"), client.id);
        return oauthJson(200, {});
      }),
      { parse: "none", detail: OAUTH_OPENAPI.revoke },
    );
}
