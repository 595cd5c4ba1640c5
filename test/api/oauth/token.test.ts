// The token and revocation endpoints, each rule a scenario: the code exchange (single use, 60
// seconds, bound to its client, redirect URI, PKCE verifier and resource; a reused code revokes
// what it gave), refresh (rotating; a reused refresh token revokes the grant; no wider scope),
// client identification (public clients: client_id, no secret), forms only, per-address limits,
// and RFC 7009 revocation.
import { describe, expect, test } from "bun:test";
import { TOKEN_REQUESTS_PER_MINUTE } from "../../../src/modules/oauth/oauth.routes.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { authorizeQuery, codeOf, mcpCall, OAUTH_ENV, pkce, oauthForm, REDIRECT_URI, registerClient, RESOURCE, signInGrant, throughConsent } from "../../helpers/oauth.ts";
import { webApp, type Browser } from "../../helpers/web.ts";
import type { TestApp } from "../../helpers/app.ts";

/** A fresh code for alice (signed in to `b`), with its client and verifier. */
async function freshCode(t: TestApp, b: Browser, clientId?: string) {
  const client = clientId ?? (await registerClient(t));
  const { verifier, challenge } = pkce();
  const code = codeOf(await throughConsent(b, authorizeQuery(client, challenge), { decision: "allow" }));
  return { clientId: client, verifier, code };
}

const exchange = (t: TestApp, c: { clientId: string; verifier: string; code: string }, over: Record<string, string | null> = {}) => {
  const form: Record<string, string> = {};
  const all = { grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: c.clientId, redirect_uri: REDIRECT_URI, resource: RESOURCE, ...over };
  for (const [k, v] of Object.entries(all)) if (v !== null) form[k] = v;
  return oauthForm(t, "/oauth/token", form);
};

const grants = (t: TestApp) => t.deps.db.$client.query<{ id: string; revoked_reason: string | null }, []>("SELECT id, revoked_reason FROM oauth_grants ORDER BY created_at").all();

describe("authorization_code", () => {
  test("the exchange: tokens, never cached; the access token works at /mcp", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    const res = await exchange(t, c);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.json).toEqual({ access_token: expect.stringMatching(/^mcp_at_/), token_type: "Bearer", expires_in: 3600, refresh_token: expect.stringMatching(/^mcp_rt_/), scope: "read" });
    expect((await mcpCall(t, res.json.access_token)).status).toBe(200);
  });

  test("the resource may be given with a trailing slash, or left out (the code names it)", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    expect((await exchange(t, await freshCode(t, b), { resource: `${RESOURCE}/` })).status).toBe(200);
    expect((await exchange(t, await freshCode(t, b), { resource: null, redirect_uri: null })).status).toBe(200);
  });

  const refusals: [string, Record<string, string | null>, number, string, RegExp][] = [
    ["a wrong verifier", { code_verifier: pkce().verifier }, 400, "invalid_grant", /code_verifier does not match/],
    ["no verifier", { code_verifier: null }, 400, "invalid_request", /code_verifier is required/],
    ["a verifier too short for RFC 7636", { code_verifier: "abc" }, 400, "invalid_request", /43 to 128 characters/],
    ["another redirect URI", { redirect_uri: "http://127.0.0.1:47999/other" }, 400, "invalid_grant", /redirect_uri is not the one/],
    ["another resource", { resource: "https://other.example/mcp" }, 400, "invalid_target", /for http:\/\/localhost\/mcp only/],
    ["an unknown code", { code: "x".repeat(43) }, 400, "invalid_grant", /not one this server issued/],
    ["no code", { code: null }, 400, "invalid_request", /code is required/],
    ["no client_id", { client_id: null }, 401, "invalid_client", /client_id is required/],
    ["an unknown client", { client_id: "0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9d" }, 401, "invalid_client", /register again/],
    ["an unknown grant type", { grant_type: "password" }, 400, "unsupported_grant_type", /authorization_code or refresh_token/],
    ["client credentials", { grant_type: "client_credentials" }, 400, "unsupported_grant_type", /not supported/],
    ["no grant type", { grant_type: null }, 400, "invalid_request", /grant_type is required/],
  ];
  for (const [name, over, status, error, words] of refusals) {
    test(`${name}: ${status} ${error}, no grant`, async () => {
      const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
      const c = await freshCode(t, b);
      const res = await exchange(t, c, over);
      expect(res.status).toBe(status);
      expect(res.json).toEqual({ error, error_description: expect.stringMatching(words), detail: res.json.error_description });
      expect(grants(t)).toEqual([]);
    });
  }

  test("a code is tried once: after a wrong verifier the right one is refused too", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    expect((await exchange(t, c, { code_verifier: pkce().verifier })).status).toBe(400);
    const again = await exchange(t, c);
    expect(again.json.error).toBe("invalid_grant");
    expect(again.json.error_description).toMatch(/already used/);
  });

  test("a code used twice: refused, and the tokens the first use gave are revoked", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    const first = await exchange(t, c);
    expect((await mcpCall(t, first.json.access_token)).status).toBe(200);
    const second = await exchange(t, c);
    expect(second.status).toBe(400);
    expect(second.json.error).toBe("invalid_grant");
    expect(grants(t)[0].revoked_reason).toMatch(/authorization code was used twice/);
    expect((await mcpCall(t, first.json.access_token)).status).toBe(401);
    expect((await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: first.json.refresh_token, client_id: c.clientId })).json.error).toBe("invalid_grant");
  });

  test("a code lives 60 seconds", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    t.clock.advance(60_001);
    const res = await exchange(t, c);
    expect(res.json).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired.*60 seconds/) });
  });

  test("a code is bound to the client it was issued to", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    const other = await registerClient(t);
    const res = await exchange(t, { ...c, clientId: other });
    expect(res.json).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/another client/) });
    // Not spent by the wrong client: its own client still gets its tokens.
    expect((await exchange(t, c)).status).toBe(200);
  });

  test("a member who left the organization between consent and exchange gets nothing", async () => {
    const { t, f, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    t.deps.db.$client.run(`UPDATE users SET org_id = '${f.orgs.globex.id}' WHERE id = '${f.users.alice.id}'`);
    expect(orgsService(t.deps).getUser(f.users.alice.id)?.orgId).toBe(f.orgs.globex.id);
    expect((await exchange(t, c)).json).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/no longer a member/) });
  });
});

describe("the token endpoint's form", () => {
  test("JSON instead of a form: invalid_request", async () => {
    const { t } = await webApp({ env: OAUTH_ENV });
    const res = await t.request("POST", "/oauth/token", { body: { grant_type: "authorization_code" } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(/application\/x-www-form-urlencoded/) });
  });

  test("a parameter given twice: invalid_request (RFC 6749 section 3.2)", async () => {
    const { t } = await webApp({ env: OAUTH_ENV });
    const res = await oauthForm(t, "/oauth/token", { grant_type: ["authorization_code", "refresh_token"], client_id: "x" });
    expect(res.json).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(/grant_type may be given only once/) });
  });

  test("a client secret by HTTP Basic: invalid_client 401 (public clients only)", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const c = await freshCode(t, b);
    const res = await oauthForm(t, "/oauth/token", { grant_type: "authorization_code", code: c.code, code_verifier: c.verifier }, { authorization: `Basic ${btoa(`${c.clientId}:secret`)}` });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe("invalid_client");
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="dealgraph"');
  });

  test(`at most ${TOKEN_REQUESTS_PER_MINUTE} token and revocation requests per client address per minute`, async () => {
    const { t } = await webApp({ env: OAUTH_ENV });
    for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i++) expect((await oauthForm(t, "/oauth/token", { grant_type: "password" })).status).toBe(400);
    const refused = await oauthForm(t, "/oauth/revoke", { token: "x", client_id: "y" });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe("too_many_requests");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    t.clock.advance(60_000);
    expect((await oauthForm(t, "/oauth/token", { grant_type: "password" })).status).toBe(400);
  });
});

describe("refresh_token", () => {
  test("rotates: a new access and refresh token; the old refresh token is spent", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId, tokens } = await signInGrant(t, b);
    const res = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId, resource: RESOURCE });
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).not.toBe(tokens.refresh_token);
    expect(res.json.access_token).not.toBe(tokens.access_token);
    // The earlier access token lives out its hour.
    expect((await mcpCall(t, tokens.access_token)).status).toBe(200);
    expect((await mcpCall(t, res.json.access_token)).status).toBe(200);
  });

  test("a refresh token used twice revokes the grant: every token of it stops working", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId, tokens } = await signInGrant(t, b);
    const refresh = () => oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    const next = (await refresh()).json;
    const reuse = await refresh();
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe("invalid_grant");
    expect(grants(t)[0].revoked_reason).toMatch(/refresh token was used twice/);
    expect((await mcpCall(t, next.access_token)).status).toBe(401);
    expect((await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: clientId })).json.error_description).toMatch(/revoked/);
  });

  test("a narrower scope is granted for the access token; a wider one is invalid_scope", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId, tokens } = await signInGrant(t, b, { scope: "write" });
    const narrow = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId, scope: "read" });
    expect(narrow.json.scope).toBe("read");
    // The new refresh token keeps the grant's scope (RFC 6749 section 6).
    const back = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: narrow.json.refresh_token, client_id: clientId, scope: "read write" });
    expect(back.json.scope).toBe("read write");

    const { clientId: readClient, tokens: readTokens } = await signInGrant(t, b, { scope: "read" });
    const wider = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: readTokens.refresh_token, client_id: readClient, scope: "write" });
    expect(wider.json).toMatchObject({ error: "invalid_scope", error_description: expect.stringMatching(/allows read only/) });
    // A refusal of the request's shape spends nothing.
    expect((await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: readTokens.refresh_token, client_id: readClient })).status).toBe(200);
  });

  const refusals: [string, (c: { clientId: string; tokens: { refresh_token: string; access_token: string } }, other: string) => Record<string, string>, string, RegExp][] = [
    ["another client's refresh token", (c, other) => ({ refresh_token: c.tokens.refresh_token, client_id: other }), "invalid_grant", /another client/],
    ["an access token as refresh token", (c) => ({ refresh_token: c.tokens.access_token, client_id: c.clientId }), "invalid_grant", /not a refresh token/],
    ["another resource", (c) => ({ refresh_token: c.tokens.refresh_token, client_id: c.clientId, resource: "https://other.example/mcp" }), "invalid_target", /only/],
    ["an unknown scope", (c) => ({ refresh_token: c.tokens.refresh_token, client_id: c.clientId, scope: "admin" }), "invalid_scope", /unknown scope/],
    ["no refresh token", (c) => ({ client_id: c.clientId }), "invalid_request", /refresh_token is required/],
  ];
  for (const [name, form, error, words] of refusals) {
    test(`${name}: ${error}`, async () => {
      const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
      const c = await signInGrant(t, b);
      const other = await registerClient(t);
      const res = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", ...form(c, other) });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error, error_description: expect.stringMatching(words) });
      expect(grants(t)[0].revoked_reason).toBeNull();
    });
  }

  test("a refresh token lives 30 days", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId, tokens } = await signInGrant(t, b);
    t.clock.advance(30 * 86_400_000 + 1000);
    const res = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(res.json).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired/) });
  });
});

describe("revocation (RFC 7009)", () => {
  test("revoking the refresh token revokes the grant: its access token is refused at the next request", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId, tokens } = await signInGrant(t, b);
    const res = await oauthForm(t, "/oauth/revoke", { token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: clientId });
    expect(res.status).toBe(200);
    expect(grants(t)[0].revoked_reason).toMatch(/by the app itself/);
    expect((await mcpCall(t, tokens.access_token)).status).toBe(401);
  });

  test("revoking the access token does the same", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId, tokens } = await signInGrant(t, b);
    expect((await oauthForm(t, "/oauth/revoke", { token: tokens.access_token, client_id: clientId })).status).toBe(200);
    expect((await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId })).json.error).toBe("invalid_grant");
  });

  test("a token this server does not know: 200 (RFC 7009 section 2.2); another client's token: refused, not revoked", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    const other = await registerClient(t);
    expect((await oauthForm(t, "/oauth/revoke", { token: "mcp_rt_" + "A".repeat(43), client_id: other })).status).toBe(200);
    expect((await oauthForm(t, "/oauth/revoke", { token: "nonsense", client_id: other })).status).toBe(200);
    const foreign = await oauthForm(t, "/oauth/revoke", { token: tokens.refresh_token, client_id: other });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toBe("unauthorized_client");
    expect(grants(t)[0].revoked_reason).toBeNull();
  });

  test("no client_id: invalid_client; no token: invalid_request", async () => {
    const { t } = await webApp({ env: OAUTH_ENV });
    expect((await oauthForm(t, "/oauth/revoke", { token: "x" })).status).toBe(401);
    const client = await registerClient(t);
    expect((await oauthForm(t, "/oauth/revoke", { client_id: client })).json.error).toBe("invalid_request");
  });
});
