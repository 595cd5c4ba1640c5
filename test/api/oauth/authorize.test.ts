// The authorization endpoint and the consent page (RFC 6749 section 4.1, RFC 7636, RFC 8707, RFC
// 8252, RFC 9700 section 4.11.2): the request is judged before anyone signs in; every refusal
// (an unknown client, a redirect URI it did not register, a bad request) is told to the person on
// a page and nothing is sent anywhere, signed in or not: a self-registered client's redirect URI
// is no place to send anyone automatically (it made /oauth/authorize an open redirect). Signing in
// leads back to the consent page; Deny answers access_denied; Allow a single-use 60-second code;
// the same app allowed the same scope before skips the question only when it has this one
// redirect URI.
import { describe, expect, test } from "bun:test";
import { authorizeQuery, pkce, REDIRECT_URI, RESOURCE, OAUTH_ENV, registerClient, signInGrant, throughConsent } from "../../helpers/oauth.ts";
import { textOf, webApp } from "../../helpers/web.ts";

const CHALLENGE = pkce().challenge;

describe("refused before anyone is asked: told to the person, never redirected", () => {
  const cases: [string, (clientId: string) => string, RegExp][] = [
    ["no client_id", (id) => authorizeQuery(id, CHALLENGE, { client_id: null }), /did not say which app/],
    ["an unknown client_id", () => authorizeQuery("0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9d", CHALLENGE), /not registered/],
    ["a client_id that is not one", () => authorizeQuery("../../etc", CHALLENGE), /not registered/],
    ["a foreign redirect URI", (id) => authorizeQuery(id, CHALLENGE, { redirect_uri: "https://attacker.example/cb" }), /did not register/],
    ["another path on the loopback host", (id) => authorizeQuery(id, CHALLENGE, { redirect_uri: "http://127.0.0.1:47999/other" }), /did not register/],
    ["another loopback host", (id) => authorizeQuery(id, CHALLENGE, { redirect_uri: "http://localhost:47999/callback" }), /did not register/],
  ];
  for (const [name, url, words] of cases) {
    test(`${name}: a 400 page, no redirect, no sign-in asked`, async () => {
      const { t, b } = await webApp({ env: OAUTH_ENV });
      const clientId = await registerClient(t);
      const { page, location } = await throughConsent(b, url(clientId));
      expect(location).toBeNull();
      expect(page.status).toBe(400);
      expect(textOf(page.html)).toMatch(words);
      expect(page.html).not.toContain("attacker.example/cb?");
    });
  }

  test("two redirect URIs registered and none named: told, not guessed", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t, { redirect_uris: [REDIRECT_URI, "https://app.example.com/cb"] });
    const { page } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { redirect_uri: null }));
    expect(page.status).toBe(400);
    expect(textOf(page.html)).toMatch(/several redirect URIs/);
  });
});

describe("a bad request is a page too, never a redirect to the client (signed in or not)", () => {
  const cases: [string, Record<string, string | null>, string, RegExp][] = [
    ["no PKCE challenge", { code_challenge: null }, "invalid_request", /code_challenge is required/],
    ["PKCE plain", { code_challenge_method: "plain" }, "invalid_request", /S256 \(plain is not accepted\)/],
    ["no challenge method (RFC 7636: plain)", { code_challenge_method: null }, "invalid_request", /must be S256/],
    ["an unknown challenge method", { code_challenge_method: "S512" }, "invalid_request", /not supported: use S256/],
    ["a challenge that is no SHA-256", { code_challenge: "short" }, "invalid_request", /43 characters/],
    ["response_type token", { response_type: "token" }, "unsupported_response_type", /only response_type=code/],
    ["no response_type", { response_type: null }, "invalid_request", /response_type is required/],
    ["an unknown scope", { scope: "read admin" }, "invalid_scope", /unknown scope "admin"/],
    ["another resource", { resource: "https://other.example/mcp" }, "invalid_target", /tokens for http:\/\/localhost\/mcp only/],
    ["this server's REST API as resource", { resource: "http://localhost/api/v1" }, "invalid_target", /only/],
  ];
  for (const [name, over, error, words] of cases) {
    for (const signIn of [undefined, "alice@acme.vc"]) {
      test(`${name}: a 400 page naming ${error}, ${signIn ? "signed in" : "signed out"}`, async () => {
        const { t, b } = await webApp({ env: OAUTH_ENV, signIn });
        const clientId = await registerClient(t);
        const { page, location } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, over));
        expect(location).toBeNull();
        expect(page.status).toBe(400);
        const text = textOf(page.html);
        expect(text).toContain(error);
        expect(text).toMatch(words);
        expect(text).toContain("Nothing was sent back to 127.0.0.1:47999");
        expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_codes").get()!.n).toBe(0);
      });
    }
  }

  test("the open redirect of the finding: a self-registered https client, a bad request, signed out: no 303 to its URI", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t, { redirect_uris: ["https://attacker.example/landing"] });
    const url = authorizeQuery(clientId, CHALLENGE, { redirect_uri: "https://attacker.example/landing", response_type: "token" });
    const first = await b.get(url);
    expect(first.status).toBe(303);
    expect(first.location).toStartWith("/app/oauth/authorize?");
    const second = await b.get(first.location!);
    expect(second.status).toBe(400);
    expect(second.location ?? null).toBeNull();
    expect(second.html).not.toContain("https://attacker.example/landing?");
  });

  test("a parameter given twice: invalid_request, on a page", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t);
    const { page, location } = await throughConsent(b, `${authorizeQuery(clientId, CHALLENGE)}&scope=write`);
    expect(location).toBeNull();
    expect(textOf(page.html)).toMatch(/scope may be given only once \(invalid_request\)/);
  });

  test("two resources: invalid_target (this server has one)", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t);
    const { page, location } = await throughConsent(b, `${authorizeQuery(clientId, CHALLENGE)}&resource=${encodeURIComponent("https://other.example/")}`);
    expect(location).toBeNull();
    expect(textOf(page.html)).toContain("invalid_target");
  });

  test("more than the client registered for: invalid_scope", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t, { scope: "read" });
    const { page, location } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { scope: "read write" }));
    expect(location).toBeNull();
    expect(textOf(page.html)).toContain("invalid_scope");
  });
});

describe("consent", () => {
  test("signed out: sign in first, then back to the consent page, which names the app, the redirect host and the scope", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t, { client_name: "Claude <Desktop>" });
    const { page, location } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { scope: "read write" }), { decision: null, signIn: "alice@acme.vc" });
    expect(location).toBeNull();
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("Allow “Claude <Desktop>” to use Dealgraph as you?");
    expect(page.html).not.toContain("<Desktop>");
    expect(text).toContain("127.0.0.1:47999 (an app on this computer)");
    expect(text).toMatch(/Read and write : .*start deal analyses/);
    expect(text).toContain("Alice Archer (alice@acme.vc) in Acme Ventures");
    expect(page.html).toContain('name="decision" value="allow"');
    expect(page.html).toContain('name="decision" value="deny"');
    // The form may lead back to the app (browsers check form-action on the redirect too).
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:47999;");
  });

  test("a read request is explained as read only (no choice to make)", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t);
    const { page } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { scope: null }), { decision: null });
    expect(page.html).toContain('data-scope="read"');
    expect(textOf(page.html)).toMatch(/Read only .* cannot start analyses or research/);
  });

  test("Deny: back to the client with access_denied and the state; no code exists", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t);
    const { location } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE), { decision: "deny" });
    expect(location!.searchParams.get("error")).toBe("access_denied");
    expect(location!.searchParams.get("state")).toBe("the-state");
    expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_codes").get()!.n).toBe(0);
  });

  test("Allow: a code, the state unchanged, iss; a loopback redirect URI on another port is the same app (RFC 8252)", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t);
    const state = "a/b?c=d&e=f g";
    const { location } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { state, redirect_uri: "http://127.0.0.1:51234/callback" }), { decision: "allow" });
    expect(location!.origin).toBe("http://127.0.0.1:51234");
    expect(location!.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location!.searchParams.get("state")).toBe(state);
    expect(location!.searchParams.get("iss")).toBe("http://localhost");
  });

  test("the consent form without its CSRF token, or from another site: refused, nothing issued", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t);
    const url = authorizeQuery(clientId, CHALLENGE);
    const fields = Object.fromEntries(new URL(url, "http://localhost").searchParams);
    expect((await b.post("/app/oauth/authorize", { ...fields, decision: "allow" }, { csrf: null })).status).toBe(403);
    await b.get("/app/connected-apps");
    expect((await b.post("/app/oauth/authorize", { ...fields, decision: "allow" }, { origin: "https://evil.example" })).status).toBe(403);
    expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_codes").get()!.n).toBe(0);
  });

  test("a decision that is neither allow nor deny, or write narrowed from a read request: 422, nothing allowed", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t);
    const fields = Object.fromEntries(new URL(authorizeQuery(clientId, CHALLENGE), "http://localhost").searchParams);
    await b.get("/app/connected-apps");
    expect((await b.post("/app/oauth/authorize", { ...fields, decision: "maybe" })).status).toBe(422);
    expect((await b.post("/app/oauth/authorize", { ...fields, decision: "allow", grant: "write" })).status).toBe(422);
    expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_codes").get()!.n).toBe(0);
  });

  test("a user in no organization cannot allow anything", async () => {
    const { t, f, b } = await webApp({ env: OAUTH_ENV, passwords: ["nomad"] });
    await b.signIn(f.users.nomad.email);
    const clientId = await registerClient(t);
    const { page, location } = await throughConsent(b, authorizeQuery(clientId, CHALLENGE));
    expect(location).toBeNull();
    expect(page.status).toBe(403);
  });

  test("allowed before with the same scope: back with a code, no question; a wider scope asks again", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId } = await signInGrant(t, b, { scope: "read" });
    const same = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { scope: "read" }), { decision: null });
    expect(same.location!.searchParams.get("code")).toBeString();
    expect(same.location!.searchParams.get("state")).toBe("the-state");
    // A page that moves on by itself (after a sign-in, a redirect would still be the sign-in form's, which may lead only here).
    expect(same.page.html).toContain(`<meta http-equiv="refresh" content="0;url=${same.location!.href.replace(/&/g, "&amp;")}">`);
    expect(textOf(same.page.html)).toContain("You allowed “Test Assistant” before");
    const wider = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { scope: "read write" }), { decision: null });
    expect(wider.location).toBeNull();
    expect(wider.page.html).toContain('data-testid="consent"');
  });

  test("allowed before, but the app registered another redirect URI too: asked again (a click) for either", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t, { redirect_uris: [REDIRECT_URI, "https://other.example/cb"] });
    await signInGrant(t, b, { clientId, scope: "read" });
    const codesBefore = t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_codes").get()!.n;
    for (const redirect_uri of ["https://other.example/cb", REDIRECT_URI]) {
      const again = await throughConsent(b, authorizeQuery(clientId, CHALLENGE, { scope: "read", redirect_uri }), { decision: null });
      expect(again.location).toBeNull();
      expect(again.page.html).toContain('data-testid="consent"');
      expect(again.page.html).not.toContain("http-equiv=\"refresh\"");
    }
    expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_codes").get()!.n).toBe(codesBefore);
  });

  test("a revoked app is asked again", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { clientId } = await signInGrant(t, b);
    t.deps.db.$client.run("UPDATE oauth_grants SET revoked_at = '2020-01-01T00:00:00.000Z'");
    const again = await throughConsent(b, authorizeQuery(clientId, CHALLENGE), { decision: null });
    expect(again.location).toBeNull();
    expect(again.page.html).toContain('data-testid="consent"');
  });

  test("/oauth/authorize leads to the consent page with the request as it came", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV });
    const clientId = await registerClient(t);
    const url = authorizeQuery(clientId, CHALLENGE);
    const res = await b.get(url);
    expect(res.status).toBe(303);
    expect(res.location).toBe(url.replace("/oauth/authorize", "/app/oauth/authorize"));
    expect(RESOURCE).toBe("http://localhost/mcp");
  });
});
