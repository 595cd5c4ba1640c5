// The /mcp door as HTTP: the official SDK client lists exactly one tool; keys, budgets and the
// Origin rule work as for REST; each MCP HTTP request is counted once; nothing is a 500.
import { afterEach, describe, expect, test } from "bun:test";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { createTestApp } from "../../helpers/app.ts";
import { runScenarios } from "../../helpers/scenarios.ts";
import { ownOrigins } from "../../../src/modules/mcp/mcp.origin.ts";
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
  // (Its sign-in's discovery document, /.well-known/oauth-protected-resource/mcp, is documented.)
  expect(Object.keys(doc.paths).filter((p) => p === "/mcp" || p.startsWith("/mcp/"))).toEqual([]);
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

  test("a JSON-RPC batch counts each of its messages; one that does not fit the budget is refused whole (429), nothing run", async () => {
    h = startMcpServer();
    const key = h.f.keys.bobRead;
    const auth = { authorization: `Bearer ${key.secret}` };
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask", arguments: { question: "show me the pipeline" } } });
    const batch = await post(Array.from({ length: 10 }, (_, i) => call(i + 1)), auth);
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as unknown[]).length).toBe(10);
    expect(h.usage(key.id).requests).toBe(10);
    expect(batch.headers.get("x-ratelimit-remaining")).toBe("4990");

    h.t.deps.db.$client.query("UPDATE api_keys SET daily_requests = 15 WHERE id = ?").run(key.id);
    // 11 + 6 messages do not fit in 15: the HTTP request itself counts (11), the batch does not run.
    const over = await post(Array.from({ length: 6 }, (_, i) => call(i + 20)), auth);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await over.json()) as any).detail).toMatch(/Daily request limit of 15 reached/);
    expect(h.usage(key.id).requests).toBe(11);
    // Four messages still fit: 11 + 4 = 15.
    const fits = await post(Array.from({ length: 4 }, (_, i) => call(i + 30)), auth);
    expect(fits.status).toBe(200);
    expect(fits.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(h.usage(key.id).requests).toBe(15);
    // A single message and a malformed body are one request each.
    h.t.deps.db.$client.query("UPDATE api_keys SET daily_requests = 100 WHERE id = ?").run(key.id);
    await post(call(40), auth);
    await fetch(h.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...auth }, body: "[{broken" });
    expect(h.usage(key.id).requests).toBe(17);
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

describe("/mcp body size", () => {
  test("a body over 1 MB is 413 after the key is judged, and nothing is asked (Content-Length and chunked)", async () => {
    h = startMcpServer();
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: { question: "x".repeat(2 * 1024 * 1024) } } });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const anonymous = await fetch(h.url, { method: "POST", headers, body: big });
    expect(anonymous.status).toBe(401);
    const withKey = await fetch(h.url, { method: "POST", headers: { ...headers, authorization: `Bearer ${h.f.keys.read.secret}` }, body: big });
    expect(withKey.status).toBe(413);
    expect(((await withKey.json()) as { detail: string }).detail).toMatch(/at most 1 MB/);
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        const bytes = new TextEncoder().encode(big);
        for (let at = 0; at < bytes.length; at += 64 * 1024) c.enqueue(bytes.subarray(at, at + 64 * 1024));
        c.close();
      },
    });
    const streamed = await fetch(h.url, { method: "POST", headers: { ...headers, authorization: `Bearer ${h.f.keys.read.secret}` }, body: chunked });
    expect(streamed.status).toBe(413);
    // A small request still works afterwards.
    const list = await fetch(h.url, { method: "POST", headers: { ...headers, authorization: `Bearer ${h.f.keys.read.secret}` }, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) });
    expect(list.status).toBe(200);
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

describe("/mcp Origin: the server's own origin comes from its bound address, never from Host", () => {
  test("DNS rebinding: Host and Origin both naming a host the server does not own, with a valid key: 403, nothing counted", async () => {
    h = startMcpServer();
    const auth = { authorization: `Bearer ${h.f.keys.read.secret}` };
    const port = new URL(h.base).port;
    for (const [host, origin] of [
      ["evil.example", "http://evil.example"],
      [`evil.example:${port}`, `http://evil.example:${port}`],
      [`192.0.2.99:${port}`, `http://192.0.2.99:${port}`],
    ]) {
      const res = await post(initialize, { ...auth, host, origin });
      expect(res.status, `${host} ${origin}`).toBe(403);
    }
    expect(h.usage(h.f.keys.read.id).requests).toBe(0);
  });

  test("allowed: the bound address, its loopback alias on the same port, DEALGRAPH_PUBLIC_URL's origin, whatever the Host says", async () => {
    h = startMcpServer({ env: { DEALGRAPH_PUBLIC_URL: "https://deals.firm.example/" } });
    const auth = { authorization: `Bearer ${h.f.keys.read.secret}` };
    const port = new URL(h.base).port;
    for (const origin of [h.base, `http://localhost:${port}`, `HTTP://LOCALHOST:${port}`, "https://deals.firm.example"]) {
      expect((await post(initialize, { ...auth, origin })).status, origin).toBe(200);
    }
    // A page of ours reached through an odd Host header is still ours.
    expect((await post(initialize, { ...auth, origin: h.base, host: "evil.example" })).status).toBe(200);
    // Another port on loopback, another scheme, a look-alike: not ours.
    for (const origin of [`http://localhost:${Number(port) + 1}`, `https://127.0.0.1:${port}`, "https://deals.firm.example.evil.test", "http://deals.firm.example"]) {
      expect((await post(initialize, { ...auth, origin })).status, origin).toBe(403);
    }
  });

  test("own origins by bound address: loopback aliases, every interface address for a wildcard bind, no names for a public bind", () => {
    const interfaces = () => ({
      lo: [{ address: "127.0.0.1", family: "IPv4" }, { address: "::1", family: "IPv6" }],
      eth0: [{ address: "192.0.2.2", family: "IPv4" }, { address: "fd00::2", family: "IPv6" }, { address: "fe80::1%eth0", family: "IPv6" }],
    }) as any;
    expect([...ownOrigins({ hostname: "127.0.0.1", port: 8080 }, null, interfaces)].sort()).toEqual(["http://127.0.0.1:8080", "http://localhost:8080"]);
    expect([...ownOrigins({ hostname: "localhost", port: 80 }, null, interfaces)].sort()).toEqual(["http://127.0.0.1", "http://[::1]", "http://localhost"]);
    expect([...ownOrigins({ hostname: "0.0.0.0", port: 8080 }, null, interfaces)].sort()).toEqual([
      "http://127.0.0.1:8080",
      "http://192.0.2.2:8080",
      "http://localhost:8080",
    ]);
    expect(ownOrigins({ hostname: "::", port: 8080 }, null, interfaces).has("http://[fd00::2]:8080")).toBe(true);
    expect([...ownOrigins({ hostname: "192.0.2.2", port: 8080 }, "https://deals.firm.example", interfaces)].sort()).toEqual([
      "http://192.0.2.2:8080",
      "https://deals.firm.example",
    ]);
  });
});
