// The shapes the `ask` tool's functions share: what a function is given, what it answers, and
// what a conversation remembers between questions.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../http/auth.ts";

/** What the conversation last talked about: follow-ups ("how warm is she?", "its runway?") resolve here. */
export type Entities = {
  person?: { id: string | null; name: string };
  company?: { name: string; domain: string | null };
  holding?: { id: string; name: string };
  deal?: { id: string; name: string };
  fund?: { name: string };
};

export type AskContext = { deps: Deps; principal: Principal };

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
