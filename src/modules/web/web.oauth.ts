// MCP sign-in in the web app: the consent page (the authorization endpoint's page: /oauth/authorize
// leads here, where the session cookie is sent) and Connected apps. The request is judged before
// anyone is asked to sign in; anything wrong with it is told to the person on a page, never
// redirected (oauth.authorize.ts). Signed in, a member who allowed the same app the same scope
// before (an app with this one redirect URI) is sent straight back with a code; otherwise asked. Allow and Deny are forms with the
// session's CSRF token; Deny answers the client `access_denied`.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { publicBase } from "../../http/public-origin.ts";
import { AUTHORIZATION_PARAMS, checkAuthorizationRequest, consentRemembered, redirectWith, type AuthorizationRequest } from "../oauth/oauth.authorize.ts";
import { clientLabel, oauthClientsService } from "../oauth/oauth.clients.ts";
import { mcpResource } from "../oauth/oauth.metadata.ts";
import { oauthService, REVOKED_BECAUSE } from "../oauth/oauth.service.ts";
import type { GrantScope } from "../oauth/oauth.scope.ts";
import { grantViews } from "../oauth/oauth.views.ts";
import { connectedAppsPage } from "./pages/connected-apps.ts";
import { consentPage, continuePage } from "./pages/consent.ts";
import { errorPage } from "./pages/home.ts";
import { guard, type WebCtx } from "./web.guard.ts";
import { formProblem, htmlResponse, redirect, SECURITY_HEADERS } from "./web.http.ts";

const hidden = { detail: { hide: true } };
/** How long a grant that ended stays on the connected-apps page. */
const ENDED_SHOWN_DAYS = 7;

type ElysiaCtx = { request: Request; body?: unknown; params?: Record<string, string>; server: { hostname?: string; port?: number } | null };

/** The page's content security policy, with the client's redirect origin as a place its form may lead (browsers check form-action on redirects). */
function consentHeaders(redirectUri: string): Record<string, string> {
  const origin = new URL(redirectUri).origin;
  return { "content-security-policy": SECURITY_HEADERS["content-security-policy"].replace("form-action 'self'", `form-action 'self' ${origin}`) };
}

export function oauthPages(deps: Deps) {
  const oauth = oauthService(deps);
  const clients = oauthClientsService(deps);
  const findClient = (id: string) => clients.get(id);

  /** Judges the request; a refusal is the response (a page, or back to the client), else the handler runs signed in. */
  const judged =
    (paramsOf: (ctx: ElysiaCtx) => URLSearchParams, handler: (c: WebCtx & { org: NonNullable<WebCtx["org"]> }, request: AuthorizationRequest, base: string) => Response) =>
    (ctx: ElysiaCtx) => {
      const unreadable = ctx.request.method === "POST" ? formProblem(ctx.body) : null;
      if (unreadable) return htmlResponse(errorPage(null, unreadable.status, "This form could not be read", unreadable.message), unreadable.status);
      const base = publicBase(deps.config, ctx.server);
      const check = checkAuthorizationRequest(paramsOf(ctx), findClient, base);
      if (!check.ok && check.redirect === null) return htmlResponse(errorPage(null, 400, check.title, check.message), 400);
      if (!check.ok) return redirect(check.redirect);
      return guard(deps, {}, (c) => handler(c, check.request, base))(ctx);
    };

  const codeUrl = (c: WebCtx & { org: { id: string } }, request: AuthorizationRequest, scope: GrantScope, base: string) =>
    redirectWith(request.redirectUri, { code: oauth.issueCode(request, c.user.id, c.org.id, scope) }, request.state, base);

  const formParams = (ctx: ElysiaCtx) => {
    const fields = (ctx.body ?? {}) as Record<string, unknown>;
    const params = new URLSearchParams();
    for (const name of AUTHORIZATION_PARAMS) if (typeof fields[name] === "string") params.set(name, fields[name] as string);
    return params;
  };

  return new Elysia({ prefix: "/app" })
    .get(
      "/oauth/authorize",
      judged(
        (ctx) => new URL(ctx.request.url).searchParams,
        (c, request, base) => {
          const prior = oauth.activeGrant(c.user.id, request.client.id);
          const target = new URL(request.redirectUri);
          if (consentRemembered(prior, request, c.org.id)) {
            return htmlResponse(continuePage({ clientName: request.client.name, host: target.host, to: codeUrl(c, request, request.scope, base) }));
          }
          const page = consentPage({
            csrf: c.session.csrfToken,
            client: { id: request.client.id, name: request.client.name, registeredAt: request.client.createdAt },
            redirect: { host: target.host, loopback: target.protocol === "http:" },
            asked: request.scope,
            user: { name: c.user.name, email: c.user.email },
            orgName: c.org.name,
            dailyRequests: deps.config.defaultDailyRequests,
            dailyActions: deps.config.defaultDailyActions,
            params: AUTHORIZATION_PARAMS.flatMap((name) => {
              const value = c.url.searchParams.get(name);
              return value === null ? [] : [[name, value] as [string, string]];
            }),
          });
          return htmlResponse(page, 200, consentHeaders(request.redirectUri));
        },
      ),
      hidden,
    )
    .post(
      "/oauth/authorize",
      judged(formParams, (c, request, base) => {
        const decision = c.fields.decision;
        if (decision === "deny") {
          return redirect(redirectWith(request.redirectUri, { error: "access_denied", error_description: "the user did not allow access" }, request.state, base));
        }
        // The radio of a read-and-write request (`grant`); the `scope` field is the request's own.
        const chosen = c.fields.grant ?? request.scope;
        if (decision !== "allow" || (chosen !== "read" && chosen !== "write") || (chosen === "write" && request.scope !== "write")) {
          const shell = c.shell("Not understood");
          return htmlResponse(errorPage(shell, 422, "Not understood", "Choose Allow or Deny on the consent page (and read only, or read and write, where asked). Nothing was allowed."), 422);
        }
        return redirect(codeUrl(c, request, chosen, base));
      }),
      hidden,
    )
    .get(
      "/connected-apps",
      (ctx: ElysiaCtx) =>
        guard(deps, {}, (c) => {
          const mine = grantViews(deps, oauth.list({ userId: c.user.id }, ENDED_SHOWN_DAYS));
          const org = c.user.isAdmin ? grantViews(deps, oauth.list({ orgId: c.org.id }, ENDED_SHOWN_DAYS)) : null;
          const mcpUrl = mcpResource(publicBase(deps.config, ctx.server));
          return htmlResponse(connectedAppsPage(c.shell("Connected apps", "connected-apps"), { mine, org, mcpUrl }));
        })(ctx),
      hidden,
    )
    .post(
      "/connected-apps/:grant_id/revoke",
      guard(deps, {}, (c) => {
        const grant = oauth.get(c.params.grant_id);
        const own = grant?.userId === c.user.id;
        // Another member's app exists for an admin of its organization only; anyone else's is 404.
        if (!grant || (!own && !(c.user.isAdmin && grant.orgId === c.org.id))) throw notFound("No such connected app.");
        oauth.revokeGrant(grant.id, own ? REVOKED_BECAUSE.user : REVOKED_BECAUSE.admin);
        c.flash({ kind: "success", text: `Revoked “${clientLabel({ name: grant.clientName })}”${own ? "" : ` of ${grant.userName}`}. Its next request is refused.` });
        return redirect("/app/connected-apps");
      }),
      hidden,
    );
}
