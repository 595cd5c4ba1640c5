// The shapes the `ask` tool's functions share: what a function is given, what it answers, and
// what a conversation remembers between questions.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";

/** What the conversation last talked about: follow-ups ("how warm is she?", "its runway?") resolve here. */
export type Entities = {
  person?: { id: string | null; name: string };
  company?: { name: string; domain: string | null };
  holding?: { id: string; name: string };
  deal?: { id: string; name: string };
  fund?: { name: string };
  founder?: { id: string; name: string };
  research?: { id: string; query: string };
};

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

/** One function's answer: words, the figures it read (as the REST API returns them) and links. */
export type Answer = {
  function: string;
  arguments: Record<string, unknown>;
  text: string;
  data: Record<string, unknown> | null;
  links: string[];
  entities?: Entities;
};

/** A function the built-in engine and the model can both call. */
export type AskFunction = {
  name: string;
  description: string;
  /** JSON Schema of the arguments (OpenAI tools format). */
  parameters: Record<string, unknown>;
  /** Starts an action: needs a read-and-write key and spends the actions budget. */
  action: boolean;
  run(ctx: AskContext, args: Record<string, unknown>): Promise<Answer>;
};

export const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
