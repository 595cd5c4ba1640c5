// Every function the `ask` tool can call, for the built-in engine and the model alike, and the one
// place that governs a call by the key: a read-only key cannot start an action (no run, no
// charge), one question starts at most MAX_ACTIONS_PER_QUESTION actions, and a service's refusal
// (spent budget, a bad URL, a conflict) becomes a sentence.
import type { ToolSpec } from "../../engines/llm/client.ts";
import { ApiError } from "../../http/errors.ts";
import { ACTION_FUNCTIONS } from "./ask.actions.ts";
import { BOOK_FUNCTIONS } from "./ask.book.ts";
import { NETWORK_FUNCTIONS } from "./ask.network.ts";
import { RUN_FUNCTIONS } from "./ask.runs.ts";
import type { Answer, AskContext, AskFunction } from "./ask.types.ts";

export const FUNCTIONS: AskFunction[] = [...NETWORK_FUNCTIONS, ...BOOK_FUNCTIONS, ...RUN_FUNCTIONS, ...ACTION_FUNCTIONS];
const byName = new Map(FUNCTIONS.map((f) => [f.name, f]));

/** A model that asks for more is told no (nothing started, nothing charged) and the answer says so. */
export const MAX_ACTIONS_PER_QUESTION = 2;

export const READ_ONLY_REFUSAL =
  "This API key is read-only, so I cannot start actions with it: nothing was started and nothing was charged. Create a read-and-write key on the API-key page (/app/keys) to start analyses and research.";

/** The functions in the OpenAI tools format (the model sees the same list the built-in engine uses). */
export function toolSpecs(): ToolSpec[] {
  return FUNCTIONS.map((f) => ({ type: "function", function: { name: f.name, description: f.description, parameters: f.parameters } }));
}

function sentence(detail: ApiError["detail"]): string {
  return typeof detail === "string" ? detail : detail.map((d) => `${d.loc[d.loc.length - 1]}: ${d.msg}`).join("; ");
}

/** Calls one function under the key's rules; never throws for anything a caller did. */
export async function callFunction(ctx: AskContext, name: string, args: Record<string, unknown>): Promise<Answer> {
  const fn = byName.get(name);
  if (!fn) return { function: name, arguments: args, text: `There is no function called ${name}.`, data: null, links: [] };
  if (fn.action && ctx.principal.scope !== "write") {
    return { function: name, arguments: args, text: READ_ONLY_REFUSAL, data: { refused: "read_only_key" }, links: ["/app/keys"] };
  }
  if (fn.action && ctx.turn.actionsStarted >= MAX_ACTIONS_PER_QUESTION) {
    ctx.turn.actionsOverCap++;
    return {
      function: name,
      arguments: args,
      text: `Not started: one question may start at most ${MAX_ACTIONS_PER_QUESTION} actions, and this one already has. Nothing was charged for it; ask again to start it.`,
      data: { refused: "actions_per_question", limit: MAX_ACTIONS_PER_QUESTION },
      links: [],
    };
  }
  try {
    const answer = await fn.run(ctx, args);
    const accepted = (answer.data as { accepted?: { existing?: boolean } } | null)?.accepted;
    if (fn.action && accepted && accepted.existing === false) ctx.turn.actionsStarted++;
    return answer;
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status >= 500 && error.status !== 503)) throw error;
    const why = sentence(error.detail);
    const text =
      error.status === 429
        ? `I could not start it: ${why} Nothing was started.`
        : error.status === 404
          ? `Not found: ${why}`
          : fn.action
            ? `I could not start it: ${why}${/[.!?]$/.test(why) ? "" : "."} Nothing was charged.`
            : why;
    return { function: name, arguments: args, text, data: { error: { status: error.status, detail: error.detail } }, links: [] };
  }
}
