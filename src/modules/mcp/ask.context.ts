// What the `ask` tool's operations share: the question being answered (its key, its org, its
// action allowance) and the shape of one operation.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import type { Answer } from "../../engines/ask-engine.ts";

export { str, type Answer, type Entities } from "../../engines/ask-engine.ts";

/** The question being answered: what derives stable idempotency keys and caps the actions it may start. */
export type Turn = {
  conversationId: string;
  question: string;
  /** Actions this question started (a run dispatched and charged). */
  actionsStarted: number;
  /** Action calls refused because the question had already started its allowance. */
  actionsOverCap: number;
  /** Research runs asked for so far in this question: the n-th one gets the n-th key. */
  researchCalls: number;
};

export type AskContext = { deps: Deps; principal: Principal; turn: Turn };

/** An operation the built-in engine and the model can both call. */
export type AskFunction = {
  name: string;
  description: string;
  /** JSON Schema of the arguments (OpenAI tools format). */
  parameters: Record<string, unknown>;
  /** Starts an action: needs a read-and-write key and spends the actions budget. */
  action: boolean;
  run(ctx: AskContext, args: Record<string, unknown>): Promise<Answer>;
};

/** Per-question memo: a read made once however many operations of the question need it. */
export function perTurn<T>(read: (ctx: AskContext) => T): (ctx: AskContext) => T {
  const memo = new WeakMap<Turn, T>();
  return (ctx) => {
    if (memo.has(ctx.turn)) return memo.get(ctx.turn)!;
    const value = read(ctx);
    memo.set(ctx.turn, value);
    return value;
  };
}
