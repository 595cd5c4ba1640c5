// Judging an authorization request (RFC 6749 section 4.1.1, OAuth 2.1): the client and its redirect
// URI first; while either is in doubt nothing is sent anywhere (the person is told, RFC 6749 section
// 4.1.2.1). Every other refusal is a page too, never a redirect (RFC 9700 section 4.11.2: a server
// redirects automatically only to a URI it trusts, and a self-registered client's URI is not one,
// least of all before anyone signed in): a response type other than `code`, a missing PKCE challenge
// or one not S256 (RFC 7636), an unknown scope or more than the client registered for, a `resource`
// other than this server's /mcp (RFC 8707). The page names the error code and why, so the app's
// developer can fix the request. Pure: the consent page calls it on every GET and POST.
import { clientLabel, redirectUriMatches, type Client } from "./oauth.clients.ts";
import type { OAuthErrorCode } from "./oauth.errors.ts";
import { mcpResource } from "./oauth.metadata.ts";
import { parseScope, scopeWithin, type GrantScope } from "./oauth.scope.ts";

export type AuthorizationRequest = {
  client: Client;
  redirectUri: string;
  scope: GrantScope;
  state: string | null;
  codeChallenge: string;
  resource: string;
};

export type AuthorizationCheck =
  | { ok: true; request: AuthorizationRequest }
  /** Shown to the person, never redirected: the client, its redirect URI or the request is wrong. */
  | { ok: false; redirect: null; title: string; message: string; error?: OAuthErrorCode }
  /** Kept for callers that still branch on it: checkAuthorizationRequest no longer returns it. */
  | { ok: false; redirect: string };

/** The parameters an authorization request is made of (also the consent form's hidden fields). */
export const AUTHORIZATION_PARAMS = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "resource"] as const;

const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_CHARS = 2048;

/** Whether a resource indicator (RFC 8707) names `ours`: the same origin and path (a trailing slash aside), no query or fragment. */
export function sameResource(given: string, ours: string): boolean {
  try {
    const a = new URL(given);
    const b = new URL(ours);
    const path = (u: URL) => u.pathname.replace(/\/+$/, "");
    return !a.hash && !a.search && a.origin === b.origin && path(a) === path(b);
  } catch {
    return false;
  }
}

/** Where an answer to an authorization request goes: the redirect URI with `params`, `state` and `iss` (RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string>, state: string | null, issuer: string): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (state !== null) url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer);
  return url.href;
}

/**
 * @param params the request's parameters (a query string, or the consent form's fields)
 * @param findClient the registered client of an id
 * @param base this server's public base URL (the issuer; the resource is its /mcp)
 */
export function checkAuthorizationRequest(params: URLSearchParams, findClient: (id: string) => Client | null, base: string): AuthorizationCheck {
  const one = (name: string) => params.get(name);
  const clientId = one("client_id");
  const client = clientId ? findClient(clientId) : null;
  if (!client) {
    return {
      ok: false,
      redirect: null,
      title: "Unknown app",
      message: clientId
        ? "The app that sent you here is not registered with this Dealgraph server (or its registration was removed). Start the connection again from the app."
        : "The app that sent you here did not say which app it is (no client_id). Start the connection again from the app.",
    };
  }
  const askedRedirect = one("redirect_uri");
  let redirectUri: string;
  if (askedRedirect === null) {
    if (client.redirectUris.length !== 1) {
      return { ok: false, redirect: null, title: "Which way back?", message: `${clientLabel(client)} registered several redirect URIs but did not say which one to use, so it cannot be answered.` };
    }
    redirectUri = client.redirectUris[0];
  } else if (params.getAll("redirect_uri").length === 1 && client.redirectUris.some((r) => redirectUriMatches(askedRedirect, r))) {
    redirectUri = askedRedirect;
  } else {
    return {
      ok: false,
      redirect: null,
      title: "Unexpected address",
      message: `This request wants the answer sent to an address that ${clientLabel(client)} did not register. Nothing was sent there. If you did not start this, close this page.`,
    };
  }

  const rawState = one("state");
  const state = rawState !== null && rawState.length <= MAX_STATE_CHARS ? rawState : null;
  const refuse = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({
    ok: false,
    redirect: null,
    error,
    title: "This sign-in request cannot be answered",
    message: `${clientLabel(client)} sent a request this server cannot answer: ${description} (${error}). Nothing was sent back to ${new URL(redirectUri).host}. If you did not start this, close this page; otherwise start the connection again from the app.`,
  });

  const repeated = AUTHORIZATION_PARAMS.filter((p) => p !== "resource" && params.getAll(p).length > 1);
  if (repeated.length) return refuse("invalid_request", `${repeated.join(", ")} may be given only once`);
  if (rawState !== null && rawState.length > MAX_STATE_CHARS) return refuse("invalid_request", `state may be at most ${MAX_STATE_CHARS} characters`);
  const responseType = one("response_type");
  if (responseType === null) return refuse("invalid_request", "response_type is required (code)");
  if (responseType !== "code") return refuse("unsupported_response_type", "only response_type=code (the authorization code flow) is supported");
  const challenge = one("code_challenge");
  if (challenge === null) return refuse("invalid_request", "code_challenge is required: PKCE with S256 (RFC 7636)");
  const method = one("code_challenge_method");
  if (method !== "S256") {
    return refuse("invalid_request", method === null || method === "plain" ? "code_challenge_method must be S256 (plain is not accepted)" : `code_challenge_method ${JSON.stringify(method.slice(0, 40))} is not supported: use S256`);
  }
  if (!CHALLENGE_SHAPE.test(challenge)) return refuse("invalid_request", "code_challenge must be the base64url SHA-256 of the code verifier (43 characters)");
  const scope = parseScope(one("scope"));
  if (!scope.ok) return refuse("invalid_scope", scope.problem);
  if (client.scope && !scopeWithin(scope.scope, client.scope)) return refuse("invalid_scope", `this app registered for ${client.scope} only`);
  const ours = mcpResource(base);
  const resources = [...new Set(params.getAll("resource"))];
  if (resources.length > 1) return refuse("invalid_target", `one resource only: this server's ${ours}`);
  if (resources.length === 1 && !sameResource(resources[0], ours)) return refuse("invalid_target", `this server issues tokens for ${ours} only, not ${resources[0].slice(0, 200)}`);

  return { ok: true, request: { client, redirectUri, scope: scope.scope, state, codeChallenge: challenge, resource: ours } };
}

/**
 * Whether a grant the member gave before answers this request without asking again (a code issued
 * without a click): the same scope, organization and resource, and a client with this one
 * redirect URI only. A grant does not record the address it was given for, so a client that
 * registered several is asked every time: a code never goes without a click to an address the
 * member did not approve before.
 */
export function consentRemembered(prior: { scope: string; orgId: string; resource: string } | null, request: AuthorizationRequest, orgId: string): boolean {
  if (!prior || prior.scope !== request.scope || prior.orgId !== orgId || prior.resource !== request.resource) return false;
  return request.client.redirectUris.length === 1 && redirectUriMatches(request.redirectUri, request.client.redirectUris[0]);
}
