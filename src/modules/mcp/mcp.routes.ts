// The Model Context Protocol door at /mcp: the SDK's Streamable HTTP transport (web-standard, JSON
// responses, stateless: a fresh server and transport per request; conversations live in SQLite, not
// in a session), behind the same API keys, budgets and org scoping as REST, or an MCP sign-in
// access token (the oauth module), whose grant is judged like a key. Its 401s point the client at
// the protected resource metadata (RFC 9728), where MCP clients discover how to sign in. A browser
// page of another site must not drive it: a present Origin that is neither ours nor allowed gets
// 403 before anything else runs.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { requestAuthenticator, type Principal } from "../identity/auth.macro.ts";
import { countExtraRequests } from "../identity/budgets.http.ts";
import { API_VERSION } from "../../http/openapi.ts";
import { MB, readBounded } from "../../http/request-body.ts";
import { CAPABILITIES } from "../../engines/ask-engine.ts";
import { ask, MAX_QUESTION_CHARS } from "./ask.service.ts";
import { boundAddress, publicBase } from "../../http/public-origin.ts";
import { mcpChallenge, MCP_RESOURCE_PATH } from "../oauth/oauth.metadata.ts";
import { oauthService } from "../oauth/oauth.service.ts";
import { originAllowed } from "./mcp.origin.ts";

export const MCP_PATH = MCP_RESOURCE_PATH;
/** A JSON-RPC message carrying a 4,000-character question fits many times over. */
const MCP_BODY_MAX_BYTES = MB;

// The SDK (and zod with it) is loaded on the first /mcp request, not at start-up: it is the
// heaviest module of the server (about 100 ms and 20 MB), and most servers never see an MCP call.
/**
 * `load` run on first use and its result shared; a failed load is not kept (the next call tries
 * again), so one failed import (a full disk, a file replaced mid-upgrade) does not break every
 * MCP request until a restart.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((error) => {
      pending = undefined;
      throw error;
    }));
}

const sdk = loadOnce(loadSdk);
async function loadSdk() {
  const [{ McpServer }, { WebStandardStreamableHTTPServerTransport }, { z }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("zod"),
  ]);
  const askInput = {
    question: z.string().min(1).max(MAX_QUESTION_CHARS).describe("The question, in plain words"),
    conversation_id: z.string().max(100).optional().describe("Continue an earlier conversation: the conversation_id of its last answer"),
  };
  return { McpServer, WebStandardStreamableHTTPServerTransport, askInput };
}

const ASK_DESCRIPTION =
  "Ask Dealgraph about your firm's network, deals, portfolio and funds in plain words, or have it start an analysis or a research run " +
  "(read-and-write keys only; each spends one action). It answers in words, with the figures and links in structured content, and a " +
  `conversation_id to pass back for follow-up questions. It understands: ${CAPABILITIES.join("; ")}.`;

/** A fresh server and transport per request (stateless). */
async function mcpServer(deps: Deps, principal: Principal) {
  const { McpServer, WebStandardStreamableHTTPServerTransport, askInput } = await sdk();
  const server = new McpServer(
    { name: "dealgraph", version: API_VERSION },
    { instructions: "One tool, `ask`: questions about the firm's network, deals, portfolio and funds; pass conversation_id back for follow-ups." },
  );
  server.registerTool(
    "ask",
    { title: "Ask Dealgraph", description: ASK_DESCRIPTION, inputSchema: askInput, annotations: { readOnlyHint: principal.scope !== "write", openWorldHint: false } },
    (args) => ask(deps, principal, args),
  );
  return { server, transport: new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }) };
}

const json = (status: number, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ detail }), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

function withHeaders(response: Response, headers: Record<string, unknown>): Response {
  const merged = new Headers(response.headers);
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !merged.has(k)) merged.set(k, String(v));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

/** How many JSON-RPC messages a body carries: an array's length, else one (the transport judges the rest). */
function batchSize(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  if (!text.trimStart().startsWith("[")) return 1;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}

type ServerInfo = { hostname?: string; port?: number } | null;

export function mcpRoutes(deps: Deps) {
  const authenticate = requestAuthenticator(deps);
  const oauth = oauthService(deps);
  /** An API key, or an access token issued for this server's /mcp; a 401 says where sign-in is. */
  const principalOf = (request: Request, server: ServerInfo, set: { headers: Record<string, unknown> }) => {
    const base = publicBase(deps.config, server);
    return authenticate(request, set, "read", { other: (secret) => oauth.verifyAccess(secret, base), challenge: (presented) => mcpChallenge(base, presented) });
  };
  const refused = () =>
    json(403, "This Origin may not use the MCP endpoint: only this server's own origin and those listed in DEALGRAPH_ALLOWED_ORIGINS are allowed.");
  const notAllowed = ({ request, server, set }: { request: Request; server: ServerInfo; set: { headers: Record<string, unknown> } }) => {
    principalOf(request, server, set);
    return withHeaders(json(405, "This MCP endpoint is stateless: send JSON-RPC messages with POST (no session stream to open or close).", { Allow: "POST" }), set.headers);
  };

  return (
    new Elysia()
      // Before authentication, so a foreign page learns nothing, not even whether a key is valid.
      .onRequest(({ request, server }) => {
        const path = new URL(request.url).pathname;
        if (path !== MCP_PATH && !path.startsWith(`${MCP_PATH}/`)) return;
        if (!originAllowed(request.headers.get("origin"), deps.config, boundAddress(deps.config, server))) return refused();
      })
      .post(
        MCP_PATH,
        async ({ request, set, server: listening }) => {
          const principal = principalOf(request, listening, set);
          // Read with a cap (after the key was judged), then handed to the transport as it came.
          const body = await readBounded(request, MCP_BODY_MAX_BYTES);
          if ("overLimit" in body) {
            return withHeaders(json(413, `An MCP request body may be at most ${MCP_BODY_MAX_BYTES / MB} MB (a question is at most ${MAX_QUESTION_CHARS} characters).`), set.headers);
          }
          // A JSON-RPC batch is as many requests as it has messages (the auth hook counted one).
          countExtraRequests(deps, principal, batchSize(body.bytes) - 1, set);
          const { server, transport } = await mcpServer(deps, principal);
          try {
            await server.connect(transport);
            const response = await transport.handleRequest(new Request(request.url, { method: "POST", headers: request.headers, body: body.bytes }));
            return withHeaders(response, set.headers);
          } finally {
            await server.close();
          }
        },
        { parse: "none", detail: { hide: true } },
      )
      .get(MCP_PATH, notAllowed, { detail: { hide: true } })
      .delete(MCP_PATH, notAllowed, { detail: { hide: true } })
  );
}
