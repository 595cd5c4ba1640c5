// A small client for an OpenAI-compatible chat-completions endpoint (DEALGRAPH_LLM_BASE_URL).
// The endpoint is the operator's own choice (often a model on the same host), so it is called
// directly rather than through safe-fetch; every call has a timeout and every answer is checked:
// a model that returns no JSON, or the wrong JSON, is an LlmError the engines turn into a failed
// run with a precise reason, never a made-up result.
import type { Config } from "../../config.ts";

export type LlmConfig = NonNullable<Config["llm"]>;

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; content: string; tool_call_id: string };

export type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

export type ToolSpec = {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

export type ChatReply = { content: string | null; toolCalls: ToolCall[] };

export class LlmError extends Error {
  override name = "LlmError";
}

const DEFAULT_TIMEOUT_MS = 120_000;

export function llmClient(config: LlmConfig, o: { timeoutMs?: number } = {}) {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function chat(messages: ChatMessage[], opts: { json?: boolean; tools?: ToolSpec[]; temperature?: number } = {}): Promise<ChatReply> {
    const body: Record<string, unknown> = {
      model: config.model ?? "default",
      messages,
      temperature: opts.temperature ?? 0,
    };
    if (opts.json) body.response_format = { type: "json_object" };
    if (opts.tools?.length) body.tools = opts.tools;
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const reason = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : (e as Error).message;
      throw new LlmError(`the language model at ${config.baseUrl} could not be reached: ${reason}`);
    }
    const text = await res.text();
    if (!res.ok) throw new LlmError(`the language model answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    let parsed: { choices?: { message?: { content?: string | null; tool_calls?: ToolCall[] } }[] };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new LlmError("the language model's answer is not JSON");
    }
    const message = parsed.choices?.[0]?.message;
    if (!message) throw new LlmError("the language model's answer has no choices[0].message");
    return { content: message.content ?? null, toolCalls: message.tool_calls ?? [] };
  }

  /** Asks for a JSON object and checks it with `accept` (which throws or returns the typed value). */
  async function json<T>(messages: ChatMessage[], accept: (value: unknown) => T): Promise<T> {
    const reply = await chat(messages, { json: true });
    const raw = (reply.content ?? "").trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new LlmError(`the language model did not return JSON: ${raw.slice(0, 120)}`);
    }
    try {
      return accept(value);
    } catch (e) {
      throw new LlmError(`the language model's JSON is not what was asked for: ${(e as Error).message}`);
    }
  }

  return { chat, json, model: config.model ?? "default" };
}

export type LlmClient = ReturnType<typeof llmClient>;
