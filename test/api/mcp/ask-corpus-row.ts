// The shape of an `ask` corpus row and the helpers rows are written with (ask-corpus.ts, and the
// rows of classes found on blind material in ask-corpus-blind-classes.ts).
import type { Facts } from "./ask-corpus-facts.ts";

export type Category =
  | "issue"
  | "holdings"
  | "negation"
  | "metrics"
  | "deals"
  | "deal"
  | "positions"
  | "cashflows"
  | "network"
  | "runs"
  | "documents"
  | "not-in-data"
  | "follow-up"
  | "updates"
  | "actions";

/** The operation that answers, its arguments (a subset), or a question back, or the help answer. */
export type Expect = { fn: string; args?: Record<string, unknown> } | { clarify: string } | { help: true };

export type Row = {
  q: string;
  cat: Category;
  expect: Expect;
  /** What the answer's text must say. */
  says?: string[] | ((f: Facts) => string[]);
  /** Follow-ups asked next, in the same conversation. */
  then?: Row[];
};

export const q = (kind: string, args: Record<string, unknown> = {}): Expect => ({ fn: "query", args: { kind, ...args } });
export const fn = (name: string, args?: Record<string, unknown>): Expect => ({ fn: name, ...(args ? { args } : {}) });
export const days = (from: string, to: string) => ({ dates: { from, to } });

export const THIS_MONTH = days("2026-11-01", "2026-11-20");
export const LAST_MONTH = days("2026-10-01", "2026-10-31");
export const THIS_WEEK = days("2026-11-16", "2026-11-20");
export const LAST_WEEK = days("2026-11-09", "2026-11-15");
export const THIS_YEAR = days("2026-01-01", "2026-11-20");
export const LAST_YEAR = days("2025-01-01", "2025-12-31");
export const LAST_QUARTER = days("2026-07-01", "2026-09-30");
export const THIS_QUARTER = days("2026-10-01", "2026-11-20");
export const SHORTEST_RUNWAY = { order: { by: "runway_months", dir: "asc" } };
export const NOT_HELD = "not in your records";
