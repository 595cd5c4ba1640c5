// The web app under /app: its embedded assets, signing in (password or one-time link), signing
// out, the account page, and the signed-in pages (web.pages.ts). Hidden from the OpenAPI document.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { clientAddressResolver } from "../../http/client-address.ts";
import { allowedMethodsIn } from "../../http/error-handler.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { accountPage, type AccountView } from "./pages/account.ts";
import { errorPage } from "./pages/home.ts";
import { linkPage, signInPage, type SignInView } from "./pages/sign-in.ts";
import { JS, UPLOT_FILES } from "./client.ts";
import { CSS, FAVICON_SVG, METER_CSS } from "./style.ts";
import { passwordProblem, webAuth } from "./web.auth.ts";
import { crossOriginRefused, guard, shellFor, type WebCtx } from "./web.guard.ts";
import {
  clearCookie,
  cookie,
  formFields,
  formProblem,
  htmlResponse,
  parseCookies,
  PRE_SESSION_COOKIE,
  readForm,
  redirect,
  safeNext,
  sameOrigin,
  SESSION_COOKIE,
} from "./web.http.ts";
import { bookPages } from "./web.book.ts";
import { updatePages } from "./web.updates.ts";
import { dealPages, dealUploads } from "./web.deals.ts";
import { whoKnowsPages } from "./web.who-knows.ts";
import { pageRoutes } from "./web.pages.ts";
import { researchPages } from "./web.research.ts";
import { settingsPages } from "./web.settings.ts";
import { connectionPageRoutes } from "./web.connections.ts";
import { oauthPages } from "./web.oauth.ts";
import { constantTimeEqual, randomToken, SESSION_ABSOLUTE_MS, webService, type SignInMethod } from "./web.service.ts";

const hidden = { detail: { hide: true } };
const PRE_SESSION_MAX_AGE = 2 * 3600;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

function asset(body: string | Blob, type: string) {
  return () => new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" } });
}

/** The anonymous forms' CSRF token: the pre-session cookie's value, made when missing. */
function preSession(request: Request): { token: string; setCookie: string[] } {
  const existing = parseCookies(request)[PRE_SESSION_COOKIE];
  if (existing && TOKEN_SHAPE.test(existing)) return { token: existing, setCookie: [] };
  const token = randomToken();
  return { token, setCookie: [cookie(request, PRE_SESSION_COOKIE, token, PRE_SESSION_MAX_AGE)] };
}

function preSessionMatches(request: Request, given: string | undefined): boolean {
  const expected = parseCookies(request)[PRE_SESSION_COOKIE];
  return !!expected && !!given && constantTimeEqual(expected, given);
}

function withCookies(response: Response, cookies: string[]): Response {
  for (const c of cookies) response.headers.append("set-cookie", c);
  return response;
}

export function webRoutes(deps: Deps) {
  const web = webService(deps);
  const auth = webAuth(deps);
  const orgs = orgsService(deps);
  const clientOf = clientAddressResolver(deps.config.trustedProxies);

  /** A new session replaces whatever session cookie came in (no fixation), and the pre-session token. */
  function startSession(request: Request, userId: string, method: SignInMethod, next: string): Response {
    const old = web.resolve(parseCookies(request)[SESSION_COOKIE]);
    if (old) web.destroy(old.session.id);
    const { token } = web.createSession(userId, method, request.headers.get("user-agent"));
    return redirect(next, [cookie(request, SESSION_COOKIE, token, SESSION_ABSOLUTE_MS / 1000), clearCookie(request, PRE_SESSION_COOKIE)]);
  }

  function renderSignIn(request: Request, view: Omit<SignInView, "csrf">, status = 200, headers: Record<string, string> = {}): Response {
    const pre = preSession(request);
    return withCookies(htmlResponse(signInPage({ ...view, csrf: pre.token }), status, headers), pre.setCookie);
  }

  async function accountView(c: WebCtx, errors: AccountView["errors"] = {}): Promise<AccountView> {
    return {
      name: c.user.name,
      email: c.user.email,
      orgName: c.org?.name ?? null,
      isAdmin: c.user.isAdmin,
      hasPassword: c.user.passwordHash !== null,
      needsCurrent: c.user.passwordHash !== null && c.session.method === "password",
      sessionStarted: c.session.createdAt,
      sessionExpires: new Date(Date.parse(c.session.createdAt) + SESSION_ABSOLUTE_MS).toISOString(),
      errors,
    };
  }

  const plugin = new Elysia()
    // Forms only; a broken one reaches its handler (an HTML page), never the API's JSON errors.
    .onParse(readForm)
    .get("/app/assets/app.css", asset(CSS + METER_CSS, "text/css; charset=utf-8"), hidden)
    .get("/app/assets/app.js", asset(JS, "text/javascript; charset=utf-8"), hidden)
    .get("/app/assets/favicon.svg", asset(FAVICON_SVG, "image/svg+xml"), hidden)
    .get("/app/assets/uplot.js", asset(Bun.file(UPLOT_FILES.js), "text/javascript; charset=utf-8"), hidden)
    .get("/app/assets/uplot.css", asset(Bun.file(UPLOT_FILES.css), "text/css; charset=utf-8"), hidden)
    // Signing in with a password
    .get(
      "/app/sign-in",
      ({ request }) => {
        const url = new URL(request.url);
        if (web.resolve(parseCookies(request)[SESSION_COOKIE])) return redirect(safeNext(url.searchParams.get("next")));
        const notice = url.searchParams.has("signed_out")
          ? "You are signed out."
          : url.searchParams.has("expired")
            ? "Your session has expired. Sign in again to continue."
            : null;
        const next = url.searchParams.get("next");
        return renderSignIn(request, { notice, next: next ? safeNext(next) : undefined });
      },
      hidden,
    )
    .post(
      "/app/sign-in",
      async ({ request, body, server }) => {
        if (!sameOrigin(request, deps.config)) return crossOriginRefused();
        const unreadable = formProblem(body);
        if (unreadable) return renderSignIn(request, { error: unreadable.message }, unreadable.status);
        const f = formFields(body);
        const email = (f.email ?? "").trim();
        const next = f.next ? safeNext(f.next) : undefined;
        if (!preSessionMatches(request, f.csrf)) {
          return renderSignIn(request, { email, next, error: "The sign-in form expired (or cookies are blocked). Please try again." }, 403);
        }
        // Behind a trusted proxy, the client X-Forwarded-For names; else the connection's address.
        const clientAddress = clientOf(request, server?.requestIP(request)?.address ?? null);
        const result = await auth.signInWithPassword(email, f.password ?? "", clientAddress);
        if (result.ok) return startSession(request, result.user.id, "password", next ?? "/app");
        if (result.reason === "rate_limited") {
          const from = result.by === "email" ? "for this email address" : "from your network address";
          const error = `Too many failed sign-ins ${from}. Try again in ${result.retryAfterSeconds} seconds.`;
          return renderSignIn(request, { email, next, error }, 429, { "retry-after": String(result.retryAfterSeconds) });
        }
        return renderSignIn(request, { email, next, error: "The email address or password is not right." }, 401);
      },
      hidden,
    )
    // Signing in with a one-time link: the GET only shows the link (mail scanners and link
    // previews follow GETs); the button's POST uses it up.
    .get(
      "/app/sign-in/link",
      ({ request }) => {
        const token = new URL(request.url).searchParams.get("token") ?? "";
        const state = auth.peekLink(token);
        if (state.status !== "valid") return htmlResponse(linkPage({ state: state.status }), state.status === "unknown" ? 404 : 410);
        const pre = preSession(request);
        return withCookies(htmlResponse(linkPage({ state: "valid", token, csrf: pre.token, name: state.user.name, email: state.user.email })), pre.setCookie);
      },
      hidden,
    )
    .post(
      "/app/sign-in/link",
      ({ request, body }) => {
        if (!sameOrigin(request, deps.config)) return crossOriginRefused();
        const unreadable = formProblem(body);
        if (unreadable) return htmlResponse(errorPage(null, unreadable.status, "This form could not be read", unreadable.message), unreadable.status);
        const f = formFields(body);
        if (!preSessionMatches(request, f.csrf)) {
          return htmlResponse(errorPage(null, 403, "This form has expired", "Open the sign-in link again and press the button."), 403);
        }
        const state = auth.consumeLink(f.token ?? "");
        if (state.status !== "valid") return htmlResponse(linkPage({ state: state.status }), state.status === "unknown" ? 404 : 410);
        // A first sign-in goes on to set a password; the demo's reusable link goes straight in.
        return startSession(request, state.user.id, "link", state.user.passwordHash || state.reusable ? "/app" : "/app/account");
      },
      hidden,
    )
    .post(
      "/app/sign-out",
      ({ request, body }) => {
        if (!sameOrigin(request, deps.config)) return crossOriginRefused();
        const found = web.resolve(parseCookies(request)[SESSION_COOKIE]);
        if (found) {
          const unreadable = formProblem(body);
          if (unreadable) {
            const shell = shellFor(deps, found.session, found.user, null, "Form not readable");
            return htmlResponse(errorPage(shell, unreadable.status, "This form could not be read", unreadable.message), unreadable.status);
          }
          if (!web.csrfMatches(found.session, formFields(body).csrf)) {
            const shell = shellFor(deps, found.session, found.user, null, "Form expired");
            return htmlResponse(errorPage(shell, 403, "This form has expired", "Reload the page and sign out again."), 403);
          }
          web.destroy(found.session.id);
        }
        return redirect("/app/sign-in?signed_out=1", [clearCookie(request, SESSION_COOKIE)]);
      },
      hidden,
    )
    // The account page works for a user in no organization too.
    .get("/app/account", guard(deps, { org: false }, async (c) => htmlResponse(accountPage(c.shell("Account", "account"), await accountView(c)))), hidden)
    .post(
      "/app/account/password",
      guard(deps, { org: false }, async (c) => {
        const { current = "", password = "", confirm = "" } = c.fields;
        const errors: AccountView["errors"] = {};
        const view = await accountView(c);
        if (view.needsCurrent && !(await auth.verifyPassword(c.user, current))) errors.current = "That is not your current password.";
        const problem = passwordProblem(password);
        if (problem) errors.password = problem;
        else if (password !== confirm) errors.confirm = "The two passwords are not the same.";
        if (Object.keys(errors).length) return htmlResponse(accountPage(c.shell("Account", "account"), { ...view, errors }), 422);
        await auth.setPassword(c.user.id, password);
        web.destroyOthers(c.user.id, c.session.id);
        c.flash({ kind: "success", text: "Your password is saved. Other sessions of yours were signed out." });
        return redirect("/app/account");
      }),
      hidden,
    )
    .use(pageRoutes(deps))
    // the firm's workspace
    .use(dealPages(deps))
    .use(whoKnowsPages(deps))
    .use(updatePages(deps))
    .use(bookPages(deps))
    .use(researchPages(deps))
    .use(settingsPages(deps))
    .use(connectionPageRoutes(deps))
    // MCP sign-in: the consent page and connected apps
    .use(oauthPages(deps));

  // Anything else under /app: HTML 404 and 405 pages, not the API's JSON ones.
  const allowedMethods = allowedMethodsIn(() => plugin.routes);
  const elsewhere = ({ request }: { request: Request }) => {
    const path = new URL(request.url).pathname;
    const allowed = allowedMethods(path);
    const wrongMethod = allowed.length > 0 && !allowed.includes(request.method.toUpperCase());
    const title = wrongMethod ? "Not possible here" : "Page not found";
    // Signed in, the page keeps the app's frame (navigation, sign-out).
    const found = web.resolve(parseCookies(request)[SESSION_COOKIE]);
    const org = found?.user.orgId ? (orgs.getOrg(found.user.orgId) ?? null) : null;
    const shell = found ? shellFor(deps, found.session, found.user, org, title) : null;
    if (wrongMethod) {
      const page = errorPage(shell, 405, title, `This page does not take a ${request.method} request.`);
      return htmlResponse(page, 405, { allow: allowed.join(", ") });
    }
    return htmlResponse(errorPage(shell, 404, title, "There is no page at this address."), 404);
  };
  // File uploads stream their multipart bodies to disk (web.guard.ts), so they sit outside the
  // forms' parser, which would refuse them.
  return new Elysia().use(dealUploads(deps)).use(plugin.all("/app", elsewhere, hidden).all("/app/*", elsewhere, hidden));
}
