// A local OpenAI-compatible chat-completions server for tests of the LLM engines (the hosted model
// cannot run here). Each test gives it a `reply` function: it sees the request body (messages,
// tools, response_format) and returns the assistant message; every request is recorded.
import type { ToolCall } from "../../src/engines/llm/client.ts";

export type StubRequest = {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: ToolCall[]; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
  response_format?: { type: string };
  authorization: string | null;
};

export type StubReply =
  | { content: string | object; tool_calls?: undefined }
  | { content?: null; tool_calls: { name: string; arguments: object }[] }
  | { status: number; body: string };

export type LlmStub = {
  url: string;
  requests: StubRequest[];
  /** DEALGRAPH_LLM_* settings that point the app at this stub. */
  env: Record<string, string>;
  stop(): void;
};

export function startLlmStub(reply: (req: StubRequest, n: number) => StubReply | Promise<StubReply>): LlmStub {
  const requests: StubRequest[] = [];
  let calls = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method !== "POST" || !url.pathname.endsWith("/chat/completions")) return new Response("not found", { status: 404 });
      const body = (await request.json()) as StubRequest;
      body.authorization = request.headers.get("authorization");
      requests.push(body);
      const r = await reply(body, calls++);
      if ("status" in r) return new Response(r.body, { status: r.status });
      const message = r.tool_calls
        ? {
            role: "assistant",
            content: null,
            tool_calls: r.tool_calls.map((c, i) => ({
              id: `call_${calls}_${i}`,
              type: "function",
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : { role: "assistant", content: typeof r.content === "string" ? r.content : JSON.stringify(r.content) };
      return Response.json({
        id: `chatcmpl-${calls}`,
        object: "chat.completion",
        model: body.model,
        choices: [{ index: 0, message, finish_reason: r.tool_calls ? "tool_calls" : "stop" }],
      });
    },
  });
  const url = `http://127.0.0.1:${server.port}/v1`;
  return {
    url,
    requests,
    env: { DEALGRAPH_LLM_BASE_URL: url, DEALGRAPH_LLM_MODEL: "stub-model", DEALGRAPH_LLM_API_KEY: "sk-test" },
    stop: () => server.stop(true),
  };
}
