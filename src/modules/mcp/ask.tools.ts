// Every operation the `ask` tool's engines can call (the built-in reader and the model alike),
// and the one place that governs a call by the key (or sign-in grant): a read-only one cannot start an action (no
// run, no charge), one question starts at most MAX_ACTIONS_PER_QUESTION actions, and a service's
// refusal (spent budget, a bad URL, a conflict) becomes a sentence. `askTools` is what an engine
// is handed for one question: these operations, the firm's names, and who is asking.
import type { AskCall, AskTools } from "../../engines/ask-engine.ts";
import type { ToolSpec } from "../../engines/llm/client.ts";
import { ApiError } from "../../http/errors.ts";
import type { Answer, AskContext, AskFunction } from "./ask.context.ts";
import { askNames } from "./ask.names.ts";
import { QUERY_FUNCTION } from "./ask.query.ts";
import { ACTION_FUNCTIONS } from "./ask.tools.actions.ts";
import { BOOK_FUNCTIONS } from "./ask.tools.book.ts";
import { NETWORK_FUNCTIONS } from "./ask.tools.network.ts";
import { RUN_FUNCTIONS } from "./ask.tools.runs.ts";
import { UPDATES_FUNCTIONS } from "./ask.tools.updates.ts";

export const FUNCTIONS: AskFunction[] = [...NETWORK_FUNCTIONS, ...BOOK_FUNCTIONS, ...UPDATES_FUNCTIONS, QUERY_FUNCTION, ...RUN_FUNCTIONS, ...ACTION_FUNCTIONS];
const byName = new Map(FUNCTIONS.map((f) => [f.name, f]));

/** A model that asks for more is told no (nothing started, nothing charged) and the answer says so. */
export const MAX_ACTIONS_PER_QUESTION = 2;

export const READ_ONLY_REFUSAL =
  "This API key is read-only, so I cannot start actions with it: nothing was started and nothing was charged. Create a read-and-write key on the API-key page (/app/keys) to start analyses and research.";

/** The same refusal for an app signed in with MCP sign-in (OAuth) and allowed to read only. */
export const readOnlyAppRefusal = (app: string) =>
  `This app (“${app}”) was allowed to read only, so I cannot start actions: nothing was started and nothing was charged. ` +
  "To start analyses and research, connect it again asking for read and write, and allow that on the consent page (your connected apps: /app/connected-apps).";

/** The operations in the OpenAI tools format (the model sees the same list the built-in engine uses). */
export const TOOL_SPECS: ToolSpec[] = FUNCTIONS.map((f) => ({ type: "function", function: { name: f.name, description: f.description, parameters: f.parameters } }));

function sentence(detail: ApiError["detail"]): string {
  return typeof detail === "string" ? detail : detail.map((d) => `${d.loc[d.loc.length - 1]}: ${d.msg}`).join("; ");
}

/** Calls one operation under the key's rules; never throws for anything a caller did. */
export async function callFunction(ctx: AskContext, name: string, args: Record<string, unknown>): Promise<Answer> {
  const fn = byName.get(name);
  if (!fn) return { function: name, arguments: args, text: `There is no function called ${name}.`, data: null, links: [] };
  if (fn.action && ctx.principal.scope !== "write") {
    const app = ctx.principal.oauthClient;
    return app === undefined
      ? { function: name, arguments: args, text: READ_ONLY_REFUSAL, data: { refused: "read_only_key" }, links: ["/app/keys"] }
      : { function: name, arguments: args, text: readOnlyAppRefusal(app), data: { refused: "read_only_grant" }, links: ["/app/connected-apps"] };
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

/** What an engine is handed for one question. */
export function askTools(ctx: AskContext): AskTools {
  return {
    names: askNames(ctx),
    call: (c: AskCall) => callFunction(ctx, c.fn, c.args),
    specs: TOOL_SPECS,
    caller: { userName: ctx.principal.userName, canStart: ctx.principal.scope === "write", today: ctx.deps.clock.now(), maxActionsPerQuestion: MAX_ACTIONS_PER_QUESTION },
    actionsOverCap: () => ctx.turn.actionsOverCap,
  };
}
