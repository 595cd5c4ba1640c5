// MCP sign-in for tests: an OAuth client provider for the MCP SDK's own client auth (kept in
// memory; "redirecting" the user is noting the URL), the consent dance through the web app as a
// browser does it (the Browser helper: cookies, CSRF, same-origin forms), and the raw requests
// for the refusal tests (registration, token endpoint forms, PKCE pairs).
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect } from "bun:test";
import { randomToken, sha256Base64url } from "../../src/lib/tokens.ts";
import type { TestApp } from "./app.ts";
import { PASSWORD, textOf, type Browser, type Page } from "./web.ts";

/** A loopback redirect URI nothing listens on: the tests read the code from the consent page's redirect. */
export const REDIRECT_URI = "http://127.0.0.1:47999/callback";

export class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  /** Where the SDK sent the user last (the authorization URL). */
  authorizationUrl: URL | null = null;
  readonly stateValue = `st-${randomToken(12)}`;

  constructor(readonly clientMetadata: OAuthClientMetadata = { client_name: "Test Assistant", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }) {}

  get redirectUrl() {
    return this.clientMetadata.redirect_uris[0];
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce() {
  const verifier = randomToken(32);
  return { verifier, challenge: sha256Base64url(verifier) };
}

/** The path and query of a URL (the Browser helper talks to the app by path). */
const pathOf = (url: URL | string) => {
  const u = new URL(url, "http://localhost");
  return u.pathname + u.search;
};

const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#96;/g, "`").replace(/&amp;/g, "&");

export type ConsentOutcome = { page: Page; location: URL | null };

/**
 * From an authorization URL to where the consent sends the browser: follows the app's own
 * redirects (signing in on the way when `signIn` is given), answers the consent page with
 * `decision` (and `scope`), and returns the redirect back to the client (also when a page that
 * moves on by itself leads there: an app allowed before), or null when a page was the answer (an
 * error page, or the consent page when `decision` is null).
 */
export async function throughConsent(
  browser: Browser,
  authorizationUrl: URL | string,
  opts: { decision?: "allow" | "deny" | null; scope?: "read" | "write"; signIn?: string } = {},
): Promise<ConsentOutcome> {
  let page = await browser.get(pathOf(authorizationUrl));
  for (let hops = 0; page.status === 303 && hops < 5; hops++) {
    const to = new URL(page.location!, "http://localhost");
    if (to.host !== "localhost") return { page, location: to };
    if (to.pathname === "/app/sign-in") {
      if (!opts.signIn) throw new Error("the consent asked to sign in, and the test gave no user");
      await browser.get(pathOf(to));
      page = await browser.post("/app/sign-in", { email: opts.signIn, password: PASSWORD, next: to.searchParams.get("next") ?? "" });
      continue;
    }
    page = await browser.get(pathOf(to));
  }
  // Allowed before: a page that moves on to the app by itself.
  const onward = /<a class="btn block" href="([^"]+)" data-testid="continue-link">/.exec(page.html);
  if (page.status === 200 && onward) return { page, location: new URL(unescapeHtml(onward[1])) };
  if (page.status !== 200 || !page.html.includes('data-testid="consent"') || opts.decision === null) return { page, location: null };
  const fields: Record<string, string> = { decision: opts.decision ?? "allow" };
  if (opts.scope) fields.grant = opts.scope;
  for (const m of page.html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
    if (m[1] in fields) continue;
    if (m[1] !== "csrf") fields[m[1]] = unescapeHtml(m[2]);
  }
  const answered = await browser.post("/app/oauth/authorize", fields);
  if (answered.status !== 303) return { page: answered, location: null };
  return { page: answered, location: new URL(answered.location!) };
}

/** The code of a consent that went through (fails the test, showing the page, otherwise). */
export function codeOf(outcome: ConsentOutcome): string {
  const code = outcome.location?.searchParams.get("code");
  expect(code, `no code: ${outcome.page.status} ${outcome.location ?? textOf(outcome.page.html).slice(0, 400)}`).toBeString();
  return code!;
}

/** POSTs a form to the token or revocation endpoint through app.handle. */
export function oauthForm(t: TestApp, path: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const value of Array.isArray(v) ? v : [v]) body.append(k, value);
  return t.request("POST", path, { rawBody: body.toString(), contentType: "application/x-www-form-urlencoded", headers });
}

/** Registers a public client through the endpoint; its client_id. */
export async function registerClient(t: TestApp, metadata: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request("POST", "/oauth/register", { body: { client_name: "Test Assistant", redirect_uris: [REDIRECT_URI], ...metadata } });
  expect(res.status, res.text).toBe(201);
  return res.json.client_id;
}

/** The base URL the fast tests give the app (DEALGRAPH_PUBLIC_URL), so app.handle's requests and the token audience agree. */
export const BASE = "http://localhost";
export const RESOURCE = `${BASE}/mcp`;
export const OAUTH_ENV = { DEALGRAPH_PUBLIC_URL: BASE };

export type Tokens = { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string };

/** An authorization request's query, valid unless `over` says otherwise (null: leave the parameter out). */
export function authorizeQuery(clientId: string, challenge: string, over: Record<string, string | null> = {}): string {
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "the-state",
    scope: "read",
    resource: RESOURCE,
    ...over,
  };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null) query.set(k, v);
  return `/oauth/authorize?${query}`;
}

/**
 * A whole sign-in through the endpoints, for a member already signed in to `browser`: registers a
 * client (unless given), consents (`grant`: narrow a read-and-write request to read), exchanges the
 * code. The tokens, with the client id, code and verifier used.
 */
export async function signInGrant(t: TestApp, browser: Browser, o: { clientId?: string; scope?: "read" | "write"; grant?: "read" | "write" } = {}) {
  const clientId = o.clientId ?? (await registerClient(t));
  const { verifier, challenge } = pkce();
  const outcome = await throughConsent(browser, authorizeQuery(clientId, challenge, { scope: o.scope === "write" ? "read write" : "read" }), { decision: "allow", scope: o.grant });
  const code = codeOf(outcome);
  const res = await oauthForm(t, "/oauth/token", { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI, resource: RESOURCE });
  expect(res.status, res.text).toBe(200);
  return { clientId, code, verifier, tokens: res.json as Tokens };
}

/** A JSON-RPC message to /mcp through app.handle with a bearer credential. */
export function mcpCall(t: TestApp, bearer: string | null, message: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" }) {
  return t.request("POST", "/mcp", { key: bearer, body: message, headers: { accept: "application/json, text/event-stream" } });
}
