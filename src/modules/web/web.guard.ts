// What stands in front of every signed-in page: the same-origin check and the CSRF token for
// POSTs, the session cookie (expired sessions go back to sign-in), the organization and admin
// requirements, and turning a service's ApiError into an HTML page instead of JSON.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { ApiError, asDependencyFailure } from "../../http/errors.ts";
import { discard, readMultipart, type UploadedFile } from "../../http/multipart.ts";
import { tempDir } from "../../lib/blobs.ts";
import { orgsService, type Org, type User } from "../identity/orgs.service.ts";
import { webBudgetOwner } from "../identity/web-budgets.service.ts";
import { html } from "./html.ts";
import { errorPage, noOrgPage } from "./pages/home.ts";
import type { NavKey, Shell } from "./pages/layout.ts";
import { clearCookie, formFields, formProblem, htmlResponse, parseCookies, redirect, sameOrigin, SESSION_COOKIE } from "./web.http.ts";
import { webService, type Flash, type SessionRecord } from "./web.service.ts";

export type WebCtx = {
  deps: Deps;
  request: Request;
  url: URL;
  session: SessionRecord;
  user: User;
  org: Org | null;
  fields: Record<string, string>;
  /** The files of an upload form (temp files, removed after the handler unless it adopted them). */
  files: UploadedFile[];
  params: Record<string, string>;
  /** The frame of a page, with the flash messages waiting for this session (each shown once). */
  shell(title: string, active?: NavKey): Shell;
  flash(flash: Flash): void;
};

/**
 * Signed-in org pages need the user's organization; admin pages an org admin. `upload`: the POST is
 * a multipart form with files (streamed to disk within these limits), its CSRF token a field of it.
 */
export type GuardOptions = { org?: boolean; admin?: boolean; upload?: { maxFileBytes: number; maxFiles: number; preservePath?: boolean } };

export type Handler = (c: WebCtx & { org: Org }) => Response | Promise<Response>;

type ElysiaCtx = { request: Request; body?: unknown; params?: Record<string, string> };

/**
 * A browser session acts as its member: reads see what the member's keys would see, and every
 * member of an organization may act (upload, start research, move a deal's stage, redeliver a
 * webhook), as with a write key. Actions are charged to the member's web budget (`web:<user id>`
 * in place of a key id: identity/web-budgets.service.ts), a key's default per UTC day, apart from
 * the member's keys; the same id caps the member's open event streams.
 */
export function sessionPrincipal(deps: Deps, user: User, org: Org): Principal {
  return {
    keyId: webBudgetOwner(user.id),
    budgetOwnerId: null,
    scope: "write",
    userId: user.id,
    userName: user.name,
    orgId: org.id,
    dailyRequests: deps.config.defaultDailyRequests,
    dailyActions: deps.config.defaultDailyActions,
  };
}

export function shellFor(deps: Deps, session: SessionRecord | null, user: User | null, org: Org | null, title: string, active?: NavKey): Shell {
  return {
    title,
    active,
    user: user ? { name: user.name, email: user.email, isAdmin: user.isAdmin } : null,
    orgName: org?.name ?? null,
    csrf: session?.csrfToken ?? null,
    flashes: session ? webService(deps).takeFlashes(session.id) : [],
  };
}

export function crossOriginRefused(): Response {
  return htmlResponse(
    errorPage(null, 403, "Request refused", "This form was sent from another site. For your safety it was not processed."),
    403,
  );
}

/** A service's refusal as a message for a flash; anything else is thrown on. */
export function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  return typeof error.detail === "string" ? error.detail : error.detail.map((d) => d.msg).join(" ");
}

export function errorResponse(deps: Deps, error: unknown, shell: Shell | null): Response {
  if (error instanceof ApiError) {
    const title = error.status === 404 ? "Not found" : error.status === 409 ? "Not possible" : error.status === 403 ? "Not allowed" : "Something is wrong";
    return htmlResponse(errorPage(shell, error.status, title, refusalText(error)), error.status, error.headers);
  }
  const down = asDependencyFailure(error);
  if (down) return htmlResponse(errorPage(shell, 503, "Temporarily unavailable", "The database is busy. Try again in a moment."), 503, down.headers);
  deps.log.error("web app: unhandled error", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return htmlResponse(errorPage(shell, 500, "Something went wrong", "The error was logged. Try again, or tell your administrator."), 500);
}

export function guard(deps: Deps, opts: GuardOptions, handler: Handler) {
  const web = webService(deps);
  const orgs = orgsService(deps);
  const requireOrg = opts.org !== false;

  return async (ctx: ElysiaCtx): Promise<Response> => {
    const { request } = ctx;
    const url = new URL(request.url);
    const isPost = request.method === "POST";
    if (isPost && !sameOrigin(request, deps.config)) return crossOriginRefused();

    const token = parseCookies(request)[SESSION_COOKIE];
    const found = web.resolve(token);
    if (!found) {
      const next = isPost ? "/app" : url.pathname + url.search;
      const query = new URLSearchParams({ next, ...(token ? { expired: "1" } : {}) });
      return redirect(`/app/sign-in?${query}`, token ? [clearCookie(request, SESSION_COOKIE)] : []);
    }
    const { session, user } = found;
    const org = user.orgId ? (orgs.getOrg(user.orgId) ?? null) : null;
    const shell = (title: string, active?: NavKey) => shellFor(deps, session, user, org, title, active);
    const expired = () =>
      htmlResponse(
        errorPage(shell("Form expired"), 403, "This form has expired", html`The form's security token is missing or does not match your session, so nothing was changed.
          <a href="${url.pathname}">Reload the page</a> and try again.`),
        403,
      );
    const noOrg = () => htmlResponse(noOrgPage(shell("No organization")), url.pathname === "/app" ? 200 : 403);

    let fields: Record<string, string>;
    let files: UploadedFile[] = [];
    if (opts.upload && isPost) {
      // A file upload is read (streamed to temp files) only for a member of an organization.
      if (requireOrg && !org) return noOrg();
      try {
        ({ fields, files } = await readMultipart(request, { dir: tempDir(deps.config.dataDir), ...opts.upload }));
      } catch (error) {
        return errorResponse(deps, error, shell("Upload refused"));
      }
      if (!web.csrfMatches(session, fields.csrf)) {
        discard(files);
        return expired();
      }
    } else {
      const unreadable = isPost ? formProblem(ctx.body) : null;
      if (unreadable) return htmlResponse(errorPage(shell("Form not readable"), unreadable.status, "This form could not be read", unreadable.message), unreadable.status);
      fields = formFields(ctx.body);
      if (isPost && !web.csrfMatches(session, fields.csrf)) return expired();
      if (requireOrg && !org) return noOrg();
    }
    if (opts.admin && !user.isAdmin) {
      discard(files);
      return htmlResponse(errorPage(shell("Admins only", "admin"), 403, "Admins only", "This page is for your organization's administrators."), 403);
    }
    const c = { deps, request, url, session, user, org, fields, files, params: ctx.params ?? {}, shell, flash: (f: Flash) => web.pushFlash(session.id, f) };
    try {
      return await handler(c as WebCtx & { org: Org });
    } catch (error) {
      return errorResponse(deps, error, shell("Error"));
    } finally {
      discard(files); // accepted files have moved into the store; this removes only what was refused
    }
  };
}
