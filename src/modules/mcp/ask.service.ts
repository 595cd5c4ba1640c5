// The `ask` tool: one question in plain words, in a conversation the caller may continue. Picks the
// engine (the model when DEALGRAPH_LLM_BASE_URL is set, else the built-in one), remembers the turn,
// and answers in words plus structured content with the figures and links the functions returned.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../../deps.ts";
import { LlmError } from "../../engines/llm/client.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { asDependencyFailure } from "../../http/errors.ts";
import { HELP, recognise } from "./ask.builtin.ts";
import { callFunction } from "./ask.functions.ts";
import { askModel } from "./ask.llm.ts";
import type { Answer, AskContext, Entities } from "./ask.types.ts";
import { conversationsService, type ConversationState } from "./mcp.conversations.ts";

export const MAX_QUESTION_CHARS = 4000;

export type AskInput = { question: string; conversation_id?: string };

const toolError = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

async function builtin(ctx: AskContext, question: string, state: ConversationState): Promise<{ text: string; answers: Answer[] }> {
  const intent = recognise(ctx, question, state.entities, state.last_function);
  if (!intent) return { text: HELP, answers: [] };
  if ("clarify" in intent) return { text: intent.clarify, answers: [] };
  const answer = await callFunction(ctx, intent.fn, intent.args);
  return { text: intent.note ? `${answer.text}\n\n${intent.note}` : answer.text, answers: [answer] };
}

export async function ask(deps: Deps, principal: Principal, input: AskInput): Promise<CallToolResult> {
  const question = input.question.trim();
  if (!question) return toolError("The question is empty: ask something in words, for example \"who knows someone at acme.com?\".");
  if (question.length > MAX_QUESTION_CHARS) return toolError(`The question is too long: at most ${MAX_QUESTION_CHARS} characters, this one has ${question.length}.`);
  const conversations = conversationsService(deps);
  try {
    let id: string;
    let state: ConversationState;
    if (input.conversation_id !== undefined) {
      const loaded = conversations.load(principal, input.conversation_id.trim());
      if (!loaded) {
        return toolError(`There is no conversation ${JSON.stringify(input.conversation_id)} of yours: ask without conversation_id to start a new one.`);
      }
      id = input.conversation_id.trim().toLowerCase();
      state = loaded;
    } else ({ id, state } = conversations.start(principal));
    const ctx: AskContext = { deps, principal, turn: { conversationId: id, question, actionsStarted: 0, actionsOverCap: 0, researchCalls: 0 } };

    let engine: "builtin" | "llm" = "builtin";
    let result: { text: string; answers: Answer[] };
    let note = "";
    if (deps.config.llm) {
      try {
        result = await askModel(ctx, deps.config.llm, question, state);
        engine = "llm";
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        deps.log.warn("mcp ask: language model unavailable, answered by the built-in engine", { error: error.message });
        note = `\n\n(The language model could not be used: ${error.message}. This answer comes from the built-in engine.)`;
        result = await builtin(ctx, question, state);
      }
    } else result = await builtin(ctx, question, state);

    const entities: Entities = Object.assign({}, ...result.answers.map((a) => a.entities ?? {}));
    const lastFunction = result.answers.length ? result.answers[result.answers.length - 1].function : null;
    const text = result.text + note;
    conversations.record(principal, id, state, { question: question.slice(0, 1000), answer: text, functions: result.answers.map((a) => a.function), at: deps.clock.now().toISOString() }, entities, lastFunction);
    const links = [...new Set(result.answers.flatMap((a) => a.links))];
    return {
      content: [{ type: "text", text: `${text}\n\n(conversation_id: ${id})` }],
      structuredContent: {
        conversation_id: id,
        understood: result.answers.length > 0,
        engine,
        answers: result.answers.map((a) => ({ function: a.function, arguments: a.arguments, data: a.data, links: a.links })),
        links,
        as_of: deps.clock.now().toISOString(),
      },
    };
  } catch (error) {
    const down = asDependencyFailure(error);
    if (down) return toolError("The database is busy right now; ask again in a moment.");
    deps.log.error("mcp ask: unexpected error", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return toolError("Something went wrong while answering; the error was logged. Try again, or ask the REST API directly.");
  }
}
