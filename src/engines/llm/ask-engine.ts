// The model-driven `ask` engine (DEALGRAPH_LLM_BASE_URL set): the model reads the question and
// calls the same typed operations as the built-in engine through tool calls, under the same key
// rules, for a few rounds; its final text is the answer, checked against what the operations
// returned (a figure none of them holds is removed and counted). The figures in the structured
// content are the operations' own, never the model's.
import { CAPABILITIES, type Answer, type AskEngine, type AskTools, type EngineResult, type Memory } from "../ask-engine.ts";
import { checkFigures } from "./ask-figures.ts";
import { llmClient, type ChatMessage, type LlmConfig } from "./client.ts";

const MAX_ROUNDS = 4;
const MAX_CALLS_PER_ROUND = 6;

function systemPrompt(tools: AskTools, memory: Memory): string {
  const remembered = Object.entries(memory.entities)
    .map(([kind, e]) => `${kind}: ${JSON.stringify(e)}`)
    .join("; ");
  const max = tools.caller.maxActionsPerQuestion;
  return [
    "You are Dealgraph's assistant for the partners of a venture firm. Answer from the firm's own data only, by calling the functions given;",
    "never invent or estimate a figure: when a function says a figure is missing, say so and why. Every figure you write must come from a function's result.",
    "For lists, rankings, totals, averages and changes over time use `query` (dates as YYYY-MM-DD ranges).",
    `You can help with: ${CAPABILITIES.join("; ")}.`,
    tools.caller.canStart
      ? `This key may start actions (each spends one action from the key's daily budget); start one only when the user explicitly asks to start it (never to answer a question about a score or a status: read those), and at most ${max} per question.`
      : "This key is read-only: it cannot start analyses or research; say so if asked.",
    `Today is ${tools.caller.today.toISOString().slice(0, 10)}. The user is ${tools.caller.userName}.`,
    remembered ? `Earlier in this conversation: ${remembered}.` : "",
    memory.last ? `The last operation was ${memory.last.fn} ${JSON.stringify(memory.last.args)}.` : "",
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

export function llmAskEngine(config: LlmConfig): AskEngine {
  return {
    name: "llm",
    /** The model's answer and every operation it called; throws LlmError when the model cannot be used. */
    async answer(question: string, memory: Memory, tools: AskTools): Promise<EngineResult> {
      const llm = llmClient(config, { timeoutMs: 60_000 });
      const messages: ChatMessage[] = [{ role: "system", content: systemPrompt(tools, memory) }];
      for (const turn of memory.turns) messages.push({ role: "user", content: turn.question }, { role: "assistant", content: turn.answer });
      messages.push({ role: "user", content: question });
      const answers: Answer[] = [];
      const done = (text: string): EngineResult => {
        // The model's figures are checked against the operations' results (and the question's own).
        const checked = checkFigures(text, [question, ...answers.map((a) => a.text)], answers.map((a) => a.data));
        const removed = checked.removed
          ? `\n\n(${checked.removed} figure${checked.removed === 1 ? "" : "s"} the model wrote ${checked.removed === 1 ? "was" : "were"} not returned by any operation and ${checked.removed === 1 ? "was" : "were"} removed.)`
          : "";
        // The model's words cannot be trusted to mention the actions it was refused: the answer says so itself.
        const over = tools.actionsOverCap();
        const max = tools.caller.maxActionsPerQuestion;
        const note = over
          ? `\n\n(The model asked to start ${over} more action${over === 1 ? "" : "s"} than the ${max} one question may start; ${over === 1 ? "it was" : "they were"} not started and nothing was charged for ${over === 1 ? "it" : "them"}. Ask again to start ${over === 1 ? "it" : "them"}.)`
          : "";
        return { engine: "llm", text: checked.text + removed + note, answers, figures_removed: checked.removed };
      };
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const reply = await llm.chat(messages, { tools: tools.specs });
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
            const answer = await tools.call({ fn: call.function.name, args });
            answers.push(answer);
            content = JSON.stringify({ text: answer.text, data: answer.data, links: answer.links });
          }
          messages.push({ role: "tool", tool_call_id: call.id, content });
        }
      }
      // Out of rounds: the operations' own words are the answer.
      return done(answers.map((a) => a.text).join("\n\n") || "The model did not finish its answer.");
    },
  };
}
