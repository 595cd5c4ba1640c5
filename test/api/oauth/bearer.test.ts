// An MCP sign-in access token as a credential: /mcp takes it (bound to its user, organization,
// scope and the /mcp audience), the REST API refuses it (401), a read grant starts no action, a
// write grant's actions and requests are charged to the grant's own budgets, and another
// organization's data stays invisible to it.
import { afterEach, describe, expect, test } from "bun:test";
import { webBudgets } from "../../../src/modules/identity/web-budgets.service.ts";
import { budgetsService } from "../../../src/modules/identity/budgets.service.ts";
import { mcpCall, OAUTH_ENV, signInGrant } from "../../helpers/oauth.ts";
import { Browser, webApp, withPassword } from "../../helpers/web.ts";
import { seedFirm } from "../mcp/mcp-seed.ts";
import { startMcpServer, type McpHarness } from "../mcp/mcp-harness.ts";

const ask = (question: string, conversation_id?: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "ask", arguments: conversation_id ? { question, conversation_id } : { question } },
});

describe("the REST API refuses MCP sign-in tokens", () => {
  test("an access or refresh token on /api/v1: 401 saying it works at /mcp only, before anything about the request", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b, { scope: "write" });
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      for (const [method, path, body] of [
        ["GET", "/api/v1/me", undefined],
        ["GET", "/api/v1/deals", undefined],
        ["POST", "/api/v1/research", { query: "" }],
      ] as const) {
        const res = await t.request(method, path, { key: token, body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.json.detail).toMatch(/MCP sign-in token, which works at \/mcp only; the REST API takes API keys/);
        expect(res.headers.get("www-authenticate")).toBe('Bearer realm="dealgraph"');
      }
      expect((await t.request("GET", "/api/v1/me", { key: token, via: "x-api-key" })).status).toBe(401);
    }
    expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM research_runs").get()!.n).toBe(0);
  });
});

describe("/mcp with an access token", () => {
  test("expired after an hour: 401 invalid_token naming the metadata; a refresh token is not an access token", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    expect((await mcpCall(t, tokens.access_token)).status).toBe(200);
    t.clock.advance(3600_000);
    const expired = await mcpCall(t, tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.json.detail).toMatch(/expired at .*refresh it/);
    expect(expired.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"');
    const refresh = await mcpCall(t, tokens.refresh_token);
    expect(refresh.status).toBe(401);
    expect(refresh.json.detail).toMatch(/refresh token; exchange it at the token endpoint/);
    const unknown = await mcpCall(t, "mcp_at_" + "Z".repeat(43));
    expect(unknown.json.detail).toMatch(/not one this server issued/);
  });

  test("bound to its audience: once the server's public URL changes, tokens issued for the old /mcp are refused", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    t.deps.config.publicUrl = "https://dealgraph.example.com";
    const res = await mcpCall(t, tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.json.detail).toMatch(/issued for http:\/\/localhost\/mcp, not for this server's https:\/\/dealgraph\.example\.com\/mcp/);
  });

  test("bound to its organization: a member who moved to another organization is refused", async () => {
    const { t, f, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    t.deps.db.$client.run(`UPDATE users SET org_id = '${f.orgs.globex.id}' WHERE id = '${f.users.alice.id}'`);
    const res = await mcpCall(t, tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.json.detail).toMatch(/no longer a member of the organization/);
  });

  test("the grant's own daily request budget: 429 naming the connected app; the user's keys keep theirs", async () => {
    const { t, f, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    t.deps.config.defaultDailyRequests = 2;
    expect((await mcpCall(t, tokens.access_token)).headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await mcpCall(t, tokens.access_token)).status).toBe(200);
    const over = await mcpCall(t, tokens.access_token);
    expect(over.status).toBe(429);
    expect(over.json.detail).toMatch(/Daily request limit of 2 reached for this connected app/);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await mcpCall(t, f.keys.read.secret)).status).toBe(200);
    // A batch counts each message against the grant, as for a key.
    t.deps.config.defaultDailyRequests = 10;
    const batch = await mcpCall(t, tokens.access_token, [1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "tools/list" })));
    // Two used before (the refused one counts nothing), three now: 5 of 10 left.
    expect(batch.headers.get("x-ratelimit-remaining")).toBe("5");
  });
});

describe("what a grant may do, on the firm's data", () => {
  let h: McpHarness;
  afterEach(async () => {
    await h?.close();
  });

  async function signedIn(email: string, userId: string, scope: "read" | "write") {
    await withPassword(h.t, userId);
    const b = new Browser(h.t);
    await b.signIn(email);
    return signInGrant(h.t, b, { scope });
  }

  test("a read grant: reads answer, an action is refused in words; no run, no charge", async () => {
    h = startMcpServer({ env: OAUTH_ENV });
    seedFirm(h);
    const { tokens } = await signedIn("alice@acme.vc", h.f.users.alice.id, "read");
    const client = await h.connect(tokens.access_token);
    expect((await h.ask(client, "What is the score of Ledgerly?")).text).toContain("Score: 72/100");
    const refused = await h.ask(client, "Analyse the deal at https://example.com");
    expect(refused.text).toMatch(/^This app \(“Test Assistant”\) was allowed to read only, so I cannot start actions/);
    expect(refused.data.answers[0].data).toEqual({ refused: "read_only_grant" });
    expect(h.t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM action_runs WHERE kind = 'deal_analysis' AND status = 'queued'").get()!.n).toBe(0);
  });

  test("a write grant starts an action, recorded on the grant and charged to the user's one daily count of actions (shared with the user's keys)", async () => {
    h = startMcpServer({ env: OAUTH_ENV });
    seedFirm(h);
    const { tokens } = await signedIn("alice@acme.vc", h.f.users.alice.id, "write");
    const client = await h.connect(tokens.access_token);
    const usedBefore = webBudgets(h.t.deps).today(h.f.users.alice.id).used;
    const keyBefore = h.usage(h.f.keys.write.id).actions;
    const started = await h.ask(client, "Research payroll APIs in Europe");
    expect(started.text).toContain(`This app has ${25 - usedBefore - 1} actions left today.`);
    expect(webBudgets(h.t.deps).today(h.f.users.alice.id).used).toBe(usedBefore + 1);
    const grant = h.t.deps.db.$client.query<{ id: string; budget_owner_id: string }, []>("SELECT id, budget_owner_id FROM oauth_grants").get()!;
    const run = h.t.deps.db.$client.query<{ key_id: string; user_id: string }, []>("SELECT key_id, user_id FROM action_runs ORDER BY rowid DESC LIMIT 1").get()!;
    expect(run).toEqual({ key_id: grant.id, user_id: h.f.users.alice.id });
    expect(budgetsService(h.t.deps).usageToday([{ keyId: grant.id, budgetOwnerId: grant.budget_owner_id }]).get(grant.id)!.actions).toBe(1);
    expect(h.usage(h.f.keys.write.id).actions).toBe(keyBefore);
  });

  test("another organization's grant sees none of this organization's data, nor its conversations", async () => {
    h = startMcpServer({ env: OAUTH_ENV });
    seedFirm(h);
    const alice = await h.connect((await signedIn("alice@acme.vc", h.f.users.alice.id, "read")).tokens.access_token);
    const asked = await h.ask(alice, "What is the score of Ledgerly?");
    const carol = await h.connect((await signedIn("carol@globex.vc", h.f.users.carol.id, "read")).tokens.access_token);
    expect((await h.ask(carol, "What is the score of Ledgerly?")).text).toContain("There is no deal called Ledgerly");
    expect((await h.ask(carol, "What is the runway of Acme Robotics?")).text).toContain("Acme Robotics is not in your firm's portfolio.");
    expect((await h.ask(carol, "Who knows someone at acme.com?")).text).toContain("contact_not_found");
    expect((await h.ask(carol, "What's the score of Initech?")).text).toContain("Score: 55/100");
    const followUp = await h.ask(carol, "and its stage?", asked.data.conversation_id);
    expect(followUp.isError).toBe(true);
    const raw = await mcpCall(h.t, (await signedIn("carol@globex.vc", h.f.users.carol.id, "read")).tokens.access_token, ask("What is the score of Ledgerly?"));
    expect(JSON.stringify(raw.json)).not.toContain("72/100");
  });
});
