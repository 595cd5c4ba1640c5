// MCP sign-in driven by the MCP SDK's own client OAuth support against a running server: the 401
// from /mcp points at the protected resource metadata, the SDK discovers the authorization server,
// registers itself, starts the authorization code flow with PKCE (S256) and the resource
// indicator; a member signs in and allows it on the consent page; the SDK exchanges the code and
// calls the `ask` tool with the access token. Then refresh with rotation, the budgets of the grant,
// a read grant that cannot start actions, and revocation from the web app.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test } from "bun:test";
import { budgetsService } from "../../../src/modules/identity/budgets.service.ts";
import { startMcpServer, type McpHarness } from "../mcp/mcp-harness.ts";
import { codeOf, MemoryOAuthProvider, throughConsent } from "../../helpers/oauth.ts";
import { Browser, withPassword } from "../../helpers/web.ts";

let h: McpHarness;
afterEach(async () => {
  await h?.close();
});

async function connectWith(provider: MemoryOAuthProvider) {
  const client = new Client({ name: "sdk-oauth-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(h.url), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

/** The whole first sign-in: 401, discovery, registration, consent (signing in as alice), code exchange. */
async function signInWithSdk(opts: { scope?: "read" | "write"; provider?: MemoryOAuthProvider; browser?: Browser } = {}) {
  await withPassword(h.t, h.f.users.alice.id);
  const provider = opts.provider ?? new MemoryOAuthProvider({ client_name: "Test Assistant", redirect_uris: ["http://127.0.0.1:47999/callback"], token_endpoint_auth_method: "none" });
  const first = new Client({ name: "sdk-oauth-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(h.url), { authProvider: provider });
  const refused = await first.connect(transport).then(
    () => null,
    (e: unknown) => e,
  );
  expect(refused).toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).not.toBeNull();
  const browser = opts.browser ?? new Browser(h.t);
  const outcome = await throughConsent(browser, provider.authorizationUrl!, { decision: "allow", scope: opts.scope, signIn: "alice@acme.vc" });
  expect(outcome.location!.origin + outcome.location!.pathname).toBe("http://127.0.0.1:47999/callback");
  expect(outcome.location!.searchParams.get("state")).toBe(provider.stateValue);
  expect(outcome.location!.searchParams.get("iss")).toBe(h.base);
  await transport.finishAuth(codeOf(outcome));
  return { provider, browser };
}

describe("the MCP SDK's client signs in and calls the tool", () => {
  test("401 -> discovery -> registration -> PKCE -> consent -> token -> tools/call", async () => {
    h = startMcpServer();
    // What the SDK starts from: the 401 names the protected resource metadata.
    const bare = await fetch(h.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/mcp"`);

    const { provider } = await signInWithSdk({ scope: "write" });
    // What the SDK learned and sent on the way.
    expect(provider.client).toMatchObject({ client_name: "Test Assistant", token_endpoint_auth_method: "none", redirect_uris: ["http://127.0.0.1:47999/callback"] });
    const auth = provider.authorizationUrl!;
    expect(auth.origin + auth.pathname).toBe(`${h.base}/oauth/authorize`);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("resource")).toBe(`${h.base}/mcp`);
    expect(auth.searchParams.get("scope")).toBe("read write");
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
    expect(provider.saved!.access_token).toMatch(/^mcp_at_[A-Za-z0-9_-]{43}$/);
    expect(provider.saved!.refresh_token).toMatch(/^mcp_rt_[A-Za-z0-9_-]{43}$/);

    const { client } = await connectWith(provider);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["ask"]);
    const answer = (await client.callTool({ name: "ask", arguments: { question: "which deals do we have?" } })) as { isError?: boolean; structuredContent?: { conversation_id?: string } };
    expect(answer.isError).not.toBe(true);
    expect(answer.structuredContent?.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    await client.close();

    // Only hashes are stored.
    const dump = JSON.stringify(h.t.deps.db.$client.query("SELECT * FROM oauth_tokens").all()) + JSON.stringify(h.t.deps.db.$client.query("SELECT * FROM oauth_codes").all());
    expect(dump).not.toContain(provider.saved!.access_token);
    expect(dump).not.toContain(provider.saved!.refresh_token);
  });

  test("an expired access token: the SDK refreshes (rotating) and carries on; the old refresh token used again revokes the grant", async () => {
    h = startMcpServer();
    const { provider } = await signInWithSdk();
    const firstRefresh = provider.saved!.refresh_token!;
    h.t.clock.advance(3601_000);
    const { client } = await connectWith(provider);
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(provider.saved!.refresh_token).not.toBe(firstRefresh);
    await client.close();

    // A thief replays the first refresh token: refused, and the grant (with the app's fresh tokens) ends.
    const replay = await fetch(`${h.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: firstRefresh, client_id: provider.client!.client_id }),
    });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant", detail: expect.stringMatching(/already used.*revoked/) });
    const res = await fetch(h.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${provider.saved!.access_token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toStartWith('Bearer error="invalid_token", resource_metadata=');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/revoked/);
  });

  test("each MCP request counts against the grant's own daily budget, apart from the user's keys", async () => {
    h = startMcpServer();
    const { provider } = await signInWithSdk();
    const { client } = await connectWith(provider);
    await client.listTools();
    await client.close();
    const grantId = h.t.deps.db.$client.query<{ id: string }, []>("SELECT id FROM oauth_grants WHERE revoked_at IS NULL").get()!.id;
    const usage = budgetsService(h.t.deps).usageToday([{ keyId: grantId, budgetOwnerId: grantId }]).get(grantId)!;
    // initialize, notifications/initialized, tools/list (the SDK's GET for a stream is refused 405 and counted too).
    expect(usage.requests).toBeGreaterThanOrEqual(3);
    expect(h.usage(h.f.keys.write.id).requests).toBe(0);
    expect(h.usage(h.f.keys.read.id).requests).toBe(0);
  });

  test("a read grant: the tool answers questions but starts no action, and nothing is charged", async () => {
    h = startMcpServer();
    const { provider } = await signInWithSdk({ scope: "read" });
    expect(provider.saved!.scope).toBe("read");
    const { client } = await connectWith(provider);
    const tools = await client.listTools();
    expect(tools.tools[0].annotations?.readOnlyHint).toBe(true);
    const res = (await client.callTool({ name: "ask", arguments: { question: "analyse https://example.com" } })) as { content: { text: string }[]; structuredContent?: any };
    expect(res.content.map((c) => c.text).join("\n")).toMatch(/allowed to read only.*nothing was started and nothing was charged/);
    expect(h.t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM action_runs").get()!.n).toBe(0);
    const grantId = h.t.deps.db.$client.query<{ id: string }, []>("SELECT id FROM oauth_grants").get()!.id;
    expect(budgetsService(h.t.deps).usageToday([{ keyId: grantId, budgetOwnerId: grantId }]).get(grantId)!.actions).toBe(0);
    await client.close();
  });

  test("revoked from Connected apps: the very next request is refused", async () => {
    h = startMcpServer();
    const { provider, browser } = await signInWithSdk();
    const { client } = await connectWith(provider);
    await client.listTools();
    const page = await browser.get("/app/connected-apps");
    const grantId = /data-grant-id="([0-9a-f-]{36})"/.exec(page.html)![1];
    const revoked = await browser.post(`/app/connected-apps/${grantId}/revoke`, {});
    expect(revoked.status).toBe(303);
    const after = await fetch(h.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${provider.saved!.access_token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { detail: string }).detail).toMatch(/access was revoked/);
    await client.close().catch(() => {});
  });

  test("a second sign-in of the same app skips the question (same scope) and continues the same budget", async () => {
    h = startMcpServer();
    const { provider, browser } = await signInWithSdk();
    const { client } = await connectWith(provider);
    await client.listTools();
    await client.close();
    const before = h.t.deps.db.$client.query<{ id: string; budget_owner_id: string }, []>("SELECT id, budget_owner_id FROM oauth_grants").get()!;
    // The app lost its tokens: the SDK starts over; the member is still signed in and allowed it before.
    provider.saved = undefined;
    const again = new Client({ name: "sdk-oauth-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(h.url), { authProvider: provider });
    await again.connect(transport).catch(() => {});
    const outcome = await throughConsent(browser, provider.authorizationUrl!, { decision: null });
    await transport.finishAuth(codeOf(outcome));
    const grants = h.t.deps.db.$client.query<{ id: string; budget_owner_id: string; revoked_reason: string | null }, []>("SELECT id, budget_owner_id, revoked_reason FROM oauth_grants ORDER BY created_at").all();
    expect(grants).toHaveLength(2);
    expect(grants[0]).toMatchObject({ id: before.id, revoked_reason: expect.stringMatching(/replaced/) });
    expect(grants[1].budget_owner_id).toBe(before.budget_owner_id);
  });
});
