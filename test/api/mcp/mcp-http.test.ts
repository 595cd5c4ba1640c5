// The /mcp door as HTTP: the official SDK client lists exactly one tool; keys, budgets and the
// Origin rule work as for REST; each MCP HTTP request is counted once; nothing is a 500.
import { afterEach, describe, expect, test } from "bun:test";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { createTestApp } from "../../helpers/app.ts";
import { runScenarios } from "../../helpers/scenarios.ts";
import { startMcpServer, type McpHarness } from "./mcp-harness.ts";

let h: McpHarness;
afterEach(async () => {
  await h?.close();
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(h.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

describe("POST /mcp: the shared auth scenarios", () =>
  runScenarios(
    // With the Accept header every MCP client sends (the transport answers 406 without it).
    authScenarios({ method: "POST", path: "/mcp", body: initialize, scope: "read", ok: 200 }).map((s) => ({
      ...s,
      headers: { accept: "application/json, text/event-stream", ...s.headers },
    })),
  ));
describe("GET /mcp: the shared auth scenarios", () => runScenarios(authScenarios({ method: "GET", path: "/mcp", scope: "read", ok: 405 })));

test("/mcp is not in the OpenAPI document (it is not a REST operation)", async () => {
  const t = createTestApp();
  const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
  expect(Object.keys(doc.paths).filter((p) => p.includes("mcp"))).toEqual([]);
  t.close();
});

describe("/mcp with the SDK client", () => {
  test("lists exactly one tool, ask, with its input schema", async () => {
    h = startMcpServer();
    const client = await h.connect(h.f.keys.read.secret);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["ask"]);
    const schema = tools[0].inputSchema as any;
    expect(schema.required).toEqual(["question"]);
    expect(schema.properties.question).toMatchObject({ type: "string", minLength: 1, maxLength: 4000 });
    expect(schema.properties.conversation_id.type).toBe("string");
    expect(client.getServerVersion()?.name).toBe("dealgraph");
  });

  test("X-API-Key works as well as Bearer", async () => {
    h = startMcpServer();
    const res = await post(initialize, { "x-api-key": h.f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).result.serverInfo.name).toBe("dealgraph");
    expect(res.headers.get("x-ratelimit-limit")).toBe("5000");
  });
});

describe("/mcp keys and budgets", () => {
  test("401 without a key, with a bad, revoked or expired key; 403 for a user with no org", async () => {
    h = startMcpServer();
    const none = await post(initialize);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).detail).toMatch(/no key was sent/);
    for (const key of [h.f.keys.unknown, h.f.keys.revoked, h.f.keys.expired]) {
      const res = await post(initialize, { authorization: `Bearer ${key.secret}` });
      expect(res.status).toBe(401);
      expect(typeof ((await res.json()) as any).detail).toBe("string");
    }
    const noOrg = await post(initialize, { authorization: `Bearer ${h.f.keys.noOrg.secret}` });
    expect(noOrg.status).toBe(403);
    expect(((await noOrg.json()) as any).detail).toMatch(/no organization/);
  });

  test("each MCP HTTP request counts once against the key's daily budget; over it: 429 with Retry-After", async () => {
    h = startMcpServer();
    const key = h.f.keys.bobRead;
    expect(h.usage(key.id).requests).toBe(0);
    const first = await post(initialize, { authorization: `Bearer ${key.secret}` });
    expect(first.status).toBe(200);
    expect(h.usage(key.id).requests).toBe(1);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4999");
    // A whole SDK session: initialize, the initialized notification, the refused GET stream, a tool list.
    const client = await h.connect(key.secret);
    await client.listTools();
    expect(h.usage(key.id).requests).toBe(5);

    h.t.deps.db.$client.query("UPDATE api_keys SET daily_requests = 5 WHERE id = ?").run(key.id);
    const over = await post(initialize, { authorization: `Bearer ${key.secret}` });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await over.json()) as any).detail).toMatch(/Daily request limit of 5 reached/);
  });

  test("GET and DELETE: 405 (stateless, POST only), after the key is checked", async () => {
    h = startMcpServer();
    expect((await fetch(h.url, { headers: { accept: "text/event-stream" } })).status).toBe(401);
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(h.url, { method, headers: { accept: "text/event-stream", authorization: `Bearer ${h.f.keys.read.secret}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(typeof ((await res.json()) as any).detail).toBe("string");
    }
  });

  test("malformed JSON-RPC: a JSON-RPC error, never a 500", async () => {
    h = startMcpServer();
    const auth = { authorization: `Bearer ${h.f.keys.read.secret}` };
    const broken = await fetch(h.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...auth }, body: "{not json" });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).error.code).toBe(-32700);
    const notRpc = await post({ hello: "world" }, auth);
    expect(notRpc.status).toBe(400);
  });
});

describe("/mcp Origin", () => {
  test("a foreign Origin: 403 before anything else (even without a key), and nothing is counted", async () => {
    h = startMcpServer();
    const foreign: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null", authorization: `Bearer ${h.f.keys.read.secret}` }];
    for (const headers of foreign) {
      const res = await post(initialize, headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).detail).toMatch(/Origin/);
    }
    expect(h.usage(h.f.keys.read.id).requests).toBe(0);
    // The rule is the MCP door's: REST is not affected.
    const rest = await fetch(`${h.base}/api/v1/me`, { headers: { origin: "https://evil.example", authorization: `Bearer ${h.f.keys.read.secret}` } });
    expect(rest.status).toBe(200);
  });

  test("the server's own origin and DEALGRAPH_ALLOWED_ORIGINS are allowed", async () => {
    h = startMcpServer({ env: { DEALGRAPH_ALLOWED_ORIGINS: "https://claude.example, http://localhost:6274" } });
    const auth = { authorization: `Bearer ${h.f.keys.read.secret}` };
    for (const origin of [h.base, "https://claude.example", "http://localhost:6274"]) {
      const res = await post(initialize, { ...auth, origin });
      expect(res.status, origin).toBe(200);
    }
    expect((await post(initialize, { ...auth, origin: "https://claude.example.evil.test" })).status).toBe(403);
    const client = await h.connect(h.f.keys.read.secret, { origin: "https://claude.example" });
    expect((await client.listTools()).tools).toHaveLength(1);
  });
});
