// The `ask` tool: one question in plain words, in a conversation the caller may continue. Hands the
// selected engine (src/engines/select.ts: the model when DEALGRAPH_LLM_BASE_URL is set, else the
// built-in reader) the operations over the firm's records, remembers the turn, and answers in words
// plus structured content with the figures and links the operations returned. A model that cannot
// be used is answered for by the built-in engine, which says so.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../../deps.ts";
import type { Answer, EngineResult, Entities, Memory } from "../../engines/ask-engine.ts";
import { builtinAskEngine } from "../../engines/builtin/ask-engine.ts";
import { LlmError } from "../../engines/llm/client.ts";
import { askEngine } from "../../engines/select.ts";
import { asDependencyFailure } from "../../http/errors.ts";
import type { Principal } from "../identity/auth.macro.ts";
import type { AskContext } from "./ask.context.ts";
import { askTools } from "./ask.tools.ts";
import { conversationsService, type ConversationState } from "./mcp.conversations.ts";

export const MAX_QUESTION_CHARS = 4000;

export type AskInput = { question: string; conversation_id?: string };

const toolError = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

const memoryOf = (state: ConversationState): Memory => ({ turns: state.turns, entities: state.entities, last: state.last_call });

/** The engine's answer; the built-in engine's when the model cannot be used, with the reason. */
async function answer(ctx: AskContext, question: string, state: ConversationState): Promise<EngineResult & { note: string }> {
  const engine = askEngine(ctx.deps);
  try {
    return { ...(await engine.answer(question, memoryOf(state), askTools(ctx))), note: "" };
  } catch (error) {
    if (!(error instanceof LlmError) || engine === builtinAskEngine) throw error;
    ctx.deps.log.warn("mcp ask: language model unavailable, answered by the built-in engine", { error: error.message });
    const fallback = await builtinAskEngine.answer(question, memoryOf(state), askTools(ctx));
    return { ...fallback, note: `\n\n(The language model could not be used: ${error.message}. This answer comes from the built-in engine.)` };
  }
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

    const result = await answer(ctx, question, state);
    const entities: Entities = Object.assign({}, ...result.answers.map((a: Answer) => a.entities ?? {}));
    const last = result.answers.at(-1);
    const text = result.text + result.note;
    conversations.record(
      principal,
      id,
      state,
      { question: question.slice(0, 1000), answer: text, functions: result.answers.map((a) => a.function), at: deps.clock.now().toISOString() },
      entities,
      last ? { fn: last.function, args: last.arguments } : null,
    );
    const links = [...new Set(result.answers.flatMap((a) => a.links))];
    return {
      content: [{ type: "text", text: `${text}\n\n(conversation_id: ${id})` }],
      structuredContent: {
        conversation_id: id,
        understood: result.answers.length > 0,
        engine: result.engine,
        answers: result.answers.map((a) => ({ function: a.function, arguments: a.arguments, data: a.data, links: a.links })),
        links,
        ...(result.figures_removed !== undefined ? { figures_removed: result.figures_removed } : {}),
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
