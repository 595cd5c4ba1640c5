// The model-driven engine (DEALGRAPH_LLM_BASE_URL set): the model reads the question and calls the
// same functions as the built-in engine through tool calls, under the same key rules, for a few
// rounds; its final text is the answer. The figures in the structured content are the ones the
// functions returned, never the model's.
import { llmClient, type ChatMessage, type LlmConfig } from "../../engines/llm/client.ts";
import { callFunction, MAX_ACTIONS_PER_QUESTION, toolSpecs } from "./ask.functions.ts";
import { CAPABILITIES } from "./ask.builtin.ts";
import type { Answer, AskContext } from "./ask.types.ts";
import type { ConversationState } from "./mcp.conversations.ts";

const MAX_ROUNDS = 4;
const MAX_CALLS_PER_ROUND = 6;

function systemPrompt(ctx: AskContext, state: ConversationState): string {
  const remembered = Object.entries(state.entities)
    .map(([kind, e]) => `${kind}: ${JSON.stringify(e)}`)
    .join("; ");
  return [
    "You are Dealgraph's assistant for the partners of a venture firm. Answer from the firm's own data only, by calling the functions given;",
    "never invent or estimate a figure: when a function says a figure is missing, say so and why.",
    `You can help with: ${CAPABILITIES.join("; ")}.`,
    ctx.principal.scope === "write"
      ? `This key may start actions (each spends one action from the key's daily budget); start one only when the user explicitly asks to start it (never to answer a question about a score or a status: read those), and at most ${MAX_ACTIONS_PER_QUESTION} per question.`
      : "This key is read-only: it cannot start analyses or research; say so if asked.",
    `Today is ${ctx.deps.clock.now().toISOString().slice(0, 10)}. The user is ${ctx.principal.userName}.`,
    remembered ? `Earlier in this conversation: ${remembered}.` : "",
    "Answer briefly in plain words, with the figures and the links (paths under /api/v1) the functions returned.",
  ]
    .filter(Boolean)
    .join(" ");
}

function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(raw || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The model's answer and every function call it made; throws LlmError when the model cannot be used. */
export async function askModel(ctx: AskContext, config: LlmConfig, question: string, state: ConversationState): Promise<{ text: string; answers: Answer[] }> {
  const llm = llmClient(config, { timeoutMs: 60_000 });
  const tools = toolSpecs();
  const messages: ChatMessage[] = [{ role: "system", content: systemPrompt(ctx, state) }];
  for (const turn of state.turns) {
    messages.push({ role: "user", content: turn.question }, { role: "assistant", content: turn.answer });
  }
  messages.push({ role: "user", content: question });
  const answers: Answer[] = [];
  // The model's words cannot be trusted to mention the actions it was refused: the answer says so itself.
  const done = (text: string) => {
    const over = ctx.turn.actionsOverCap;
    const note = over
      ? `\n\n(The model asked to start ${over} more action${over === 1 ? "" : "s"} than the ${MAX_ACTIONS_PER_QUESTION} one question may start; ${over === 1 ? "it was" : "they were"} not started and nothing was charged for ${over === 1 ? "it" : "them"}. Ask again to start ${over === 1 ? "it" : "them"}.)`
      : "";
    return { text: text + note, answers };
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const reply = await llm.chat(messages, { tools });
    if (reply.toolCalls.length === 0) {
      const text = reply.content?.trim();
      return done(text || answers.map((a) => a.text).join("\n\n") || "The model gave no answer.");
    }
    messages.push({ role: "assistant", content: reply.content, tool_calls: reply.toolCalls });
    for (const [i, call] of reply.toolCalls.entries()) {
      let content: string;
      const args = parseArguments(call.function.arguments);
      if (i >= MAX_CALLS_PER_ROUND) content = JSON.stringify({ error: "too many calls in one round; ask again" });
      else if (!args) content = JSON.stringify({ error: "arguments must be a JSON object" });
      else {
        const answer = await callFunction(ctx, call.function.name, args);
        answers.push(answer);
        content = JSON.stringify({ text: answer.text, data: answer.data, links: answer.links });
      }
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
  // Out of rounds: the functions' own words are the answer.
  return done(answers.map((a) => a.text).join("\n\n") || "The model did not finish its answer.");
}
