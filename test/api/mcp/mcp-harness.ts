// A running server (the test app listening on loopback) and the official MCP SDK client that
// talks to it with a key, the way Claude Desktop or any Streamable HTTP client would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, type TestAppOptions } from "../../helpers/app.ts";
import { seedIdentity } from "../../helpers/fixtures.ts";

export type Asked = { text: string; isError: boolean; data: any };

export function startMcpServer(opts: TestAppOptions = {}) {
  const t = createTestApp(opts);
  const f = seedIdentity(t.deps);
  // The app listens itself (as `dealgraph serve` does), so it knows the address it is bound to.
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  const server = t.app.server!;
  const base = `http://127.0.0.1:${server.port}`;
  const url = `${base}/mcp`;
  const clients: Client[] = [];

  async function connect(secret: string, headers: Record<string, string> = {}) {
    const client = new Client({ name: "dealgraph-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${secret}`, ...headers } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function ask(client: Client, question: string, conversation_id?: string): Promise<Asked> {
    const result = (await client.callTool({ name: "ask", arguments: conversation_id === undefined ? { question } : { question, conversation_id } })) as {
      content: { type: string; text: string }[];
      isError?: boolean;
      structuredContent?: unknown;
    };
    return { text: result.content.map((c) => c.text).join("\n"), isError: result.isError === true, data: result.structuredContent };
  }

  /** Today's counted requests (and actions) of a key, as the budget ledger has them. */
  function usage(keyId: string): { requests: number; actions: number } {
    const row = t.deps.db.$client
      .query<{ requests: number; actions: number }, [string]>("SELECT COALESCE(SUM(requests), 0) AS requests, COALESCE(SUM(actions), 0) AS actions FROM key_usage WHERE key_id = ?")
      .get(keyId);
    return row ?? { requests: 0, actions: 0 };
  }

  async function close() {
    for (const c of clients) await c.close().catch(() => {});
    server.stop(true);
    t.close();
  }

  return { t, f, base, url, connect, ask, usage, close };
}

export type McpHarness = ReturnType<typeof startMcpServer>;
