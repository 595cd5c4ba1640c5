// Discovery and registration, each RFC's rules as a scenario: the protected resource metadata (RFC
// 9728) at both paths, the authorization server metadata (RFC 8414) with exactly the contract's
// fields, the public origin (DEALGRAPH_PUBLIC_URL, else the bound address), and dynamic client
// registration (RFC 7591) of public clients: https or loopback http redirect URIs only, metadata
// checked, per-address limits.
import { describe, expect, test } from "bun:test";
import { seededApp } from "../../helpers/app.ts";
import { DEFAULT_OAUTH_REGISTRATIONS_PER_HOUR } from "../../../src/config.ts";
import { startMcpServer } from "../mcp/mcp-harness.ts";
import { REDIRECT_URI } from "../../helpers/oauth.ts";

const PUBLIC = "https://dealgraph.example.com";

describe("discovery", () => {
  test("RFC 9728 protected resource metadata, at the root and at the path of /mcp, names /mcp and this server", async () => {
    const { t } = seededApp({ env: { DEALGRAPH_PUBLIC_URL: PUBLIC } });
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const res = await t.request("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      expect(res.json).toEqual({
        resource: `${PUBLIC}/mcp`,
        authorization_servers: [PUBLIC],
        scopes_supported: ["read", "write"],
        bearer_methods_supported: ["header"],
        resource_name: "Dealgraph",
      });
    }
  });

  test("RFC 8414 authorization server metadata: the contract's fields and values", async () => {
    const { t } = seededApp({ env: { DEALGRAPH_PUBLIC_URL: PUBLIC } });
    const res = await t.request("GET", "/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      issuer: PUBLIC,
      authorization_endpoint: `${PUBLIC}/oauth/authorize`,
      token_endpoint: `${PUBLIC}/oauth/token`,
      registration_endpoint: `${PUBLIC}/oauth/register`,
      revocation_endpoint: `${PUBLIC}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["read", "write"],
      token_endpoint_auth_methods_supported: ["none"],
    });
  });

  test("without DEALGRAPH_PUBLIC_URL the public origin is the bound address, whatever the Host header says", async () => {
    const h = startMcpServer();
    try {
      const res = await fetch(`${h.base}/.well-known/oauth-authorization-server`, { headers: { host: "evil.example" } });
      const doc = (await res.json()) as Record<string, string>;
      expect(doc.issuer).toBe(h.base);
      expect(doc.token_endpoint).toBe(`${h.base}/oauth/token`);
      const prm = (await (await fetch(`${h.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
      expect(prm.resource).toBe(`${h.base}/mcp`);
      const mcp = await fetch(h.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/mcp"`);
    } finally {
      await h.close();
    }
  });

  test("the endpoints are in the OpenAPI document, unauthenticated", async () => {
    const { t } = seededApp();
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    const ops = ["/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/oauth/register", "/oauth/authorize", "/oauth/token", "/oauth/revoke"].map(
      (p) => Object.values<any>(doc.paths[p] ?? {})[0],
    );
    expect(ops.map((o) => o?.operationId)).toEqual(["getProtectedResourceMetadata", "getAuthorizationServerMetadata", "registerOAuthClient", "authorizeOAuth", "exchangeOAuthToken", "revokeOAuthToken"]);
    for (const op of ops) expect(op.security).toEqual([]);
    expect(Object.keys(doc.paths["/oauth/token"].post.requestBody.content)).toEqual(["application/x-www-form-urlencoded"]);
  });
});

describe("dynamic client registration (RFC 7591)", () => {
  test("201 with a client_id, echoing the redirect URIs; a public client whatever it asked", async () => {
    const { t } = seededApp();
    const uris = ["http://127.0.0.1:33418/callback", "http://[::1]/cb", "http://localhost:9/x", "https://app.example.com/oauth/callback"];
    const res = await t.request("POST", "/oauth/register", { body: { client_name: "Claude", redirect_uris: uris, token_endpoint_auth_method: "client_secret_basic", scope: "read write" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toMatchObject({
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_id_issued_at: expect.any(Number),
      client_name: "Claude",
      redirect_uris: uris,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "read write",
    });
    expect(res.json.client_secret).toBeUndefined();
  });

  const refusals: [string, unknown, string, RegExp][] = [
    ["http on a public host", { redirect_uris: ["http://app.example.com/cb"] }, "invalid_redirect_uri", /neither https nor http on a loopback/],
    ["a private-use scheme", { redirect_uris: ["com.example.app:/callback"] }, "invalid_redirect_uri", /neither https nor http/],
    ["javascript:", { redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri", /neither https/],
    ["a fragment", { redirect_uris: ["https://app.example.com/cb#x"] }, "invalid_redirect_uri", /fragment/],
    ["user info", { redirect_uris: ["https://user:pw@app.example.com/cb"] }, "invalid_redirect_uri", /user info/],
    ["not a URL", { redirect_uris: ["/relative"] }, "invalid_redirect_uri", /not an absolute URL/],
    ["no redirect_uris", { client_name: "x" }, "invalid_redirect_uri", /redirect_uris is required/],
    ["an empty list", { redirect_uris: [] }, "invalid_redirect_uri", /non-empty/],
    ["eleven URIs", { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, "invalid_redirect_uri", /at most 10/],
    ["a number for a URI", { redirect_uris: [42] }, "invalid_redirect_uri", /non-empty string/],
    ["client_credentials", { redirect_uris: [REDIRECT_URI], grant_types: ["client_credentials"] }, "invalid_client_metadata", /grant_types may only name/],
    ["no authorization_code", { redirect_uris: [REDIRECT_URI], grant_types: ["refresh_token"] }, "invalid_client_metadata", /must include authorization_code/],
    ["the token response type", { redirect_uris: [REDIRECT_URI], response_types: ["token"] }, "invalid_client_metadata", /response_types may only name code/],
    ["an unknown scope", { redirect_uris: [REDIRECT_URI], scope: "admin" }, "invalid_client_metadata", /unknown scope "admin"/],
    ["a name that is not text", { redirect_uris: [REDIRECT_URI], client_name: { x: 1 } }, "invalid_client_metadata", /client_name must be a string/],
    ["a long name", { redirect_uris: [REDIRECT_URI], client_name: "n".repeat(201) }, "invalid_client_metadata", /at most 200/],
    ["an array body", [REDIRECT_URI], "invalid_client_metadata", /JSON object/],
  ];
  for (const [name, body, error, words] of refusals) {
    test(`${name}: 400 ${error}, nothing registered`, async () => {
      const { t } = seededApp();
      const res = await t.request("POST", "/oauth/register", { body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error, error_description: expect.stringMatching(words), detail: res.json.error_description });
      expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_clients").get()!.n).toBe(0);
    });
  }

  test("a body that is not JSON, or not declared as JSON: 400 invalid_client_metadata", async () => {
    const { t } = seededApp();
    expect((await t.request("POST", "/oauth/register", { rawBody: "{not json" })).json.error).toBe("invalid_client_metadata");
    const form = await t.request("POST", "/oauth/register", { rawBody: "redirect_uris=x", contentType: "application/x-www-form-urlencoded" });
    expect(form.status).toBe(400);
    expect(form.json.error_description).toMatch(/application\/json/);
  });

  test(`at most ${DEFAULT_OAUTH_REGISTRATIONS_PER_HOUR} registrations per client address per hour by default; then 429 with Retry-After, until the hour is over`, async () => {
    expect(DEFAULT_OAUTH_REGISTRATIONS_PER_HOUR).toBe(60);
    const { t } = seededApp();
    const register = () => t.request("POST", "/oauth/register", { body: { redirect_uris: [REDIRECT_URI] } });
    for (let i = 0; i < DEFAULT_OAUTH_REGISTRATIONS_PER_HOUR; i++) expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe("too_many_requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    t.clock.advance(3600_000);
    expect((await register()).status).toBe(201);
  });

  test("DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR sets the limit", async () => {
    const { t } = seededApp({ env: { DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR: "3" } });
    const register = () => t.request("POST", "/oauth/register", { body: { redirect_uris: [REDIRECT_URI] } });
    for (let i = 0; i < 3; i++) expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(refused.json.error_description).toMatch(/too many registrations from your address; try again in \d+ seconds/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    t.clock.advance(1800_000);
    expect((await register()).status).toBe(429);
    t.clock.advance(1800_000);
    expect((await register()).status).toBe(201);
  });

  test("the limit is per client address: behind a trusted proxy, X-Forwarded-For says whose", async () => {
    const REGISTRATIONS_PER_HOUR = 5;
    const h = startMcpServer({ env: { DEALGRAPH_TRUSTED_PROXIES: "127.0.0.1", DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR) } });
    try {
      const register = (client: string) =>
        fetch(`${h.base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) });
      for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) expect((await register("203.0.113.7")).status).toBe(201);
      expect((await register("203.0.113.7")).status).toBe(429);
      expect((await register("198.51.100.2")).status).toBe(201);
    } finally {
      await h.close();
    }
  });
});
