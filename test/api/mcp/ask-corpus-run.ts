// Asking the corpus: each question through the `ask` tool's own entry point (what /mcp calls for a
// tool call), follow-ups in the conversation their first question started, each answer judged
// against the expected operation (its function and a subset of its arguments) and the figures it
// must state. Used by ask-corpus.test.ts and scripts/bench/ask.ts.
import type { Deps } from "../../../src/deps.ts";
import type { Principal } from "../../../src/modules/identity/auth.macro.ts";
import { ask } from "../../../src/modules/mcp/ask.service.ts";
import type { Facts } from "./ask-corpus-facts.ts";
import type { Row } from "./ask-corpus.ts";

export type Verdict = { row: Row; ok: boolean; why: string; ms: number; text: string; calls: { function: string; arguments: Record<string, unknown> }[] };

/** Whether `actual` holds everything `expected` says: objects by subset, arrays and values exactly (strings case-insensitively). */
export function holds(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== "object") {
    return typeof expected === "string" && typeof actual === "string" ? actual.toLowerCase() === expected.toLowerCase() : actual === expected;
  }
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => holds(actual[i], e));
  if (!actual || typeof actual !== "object") return false;
  return Object.entries(expected).every(([k, v]) => holds((actual as Record<string, unknown>)[k], v));
}

function judge(row: Row, text: string, calls: Verdict["calls"], facts: Facts): { ok: boolean; why: string } {
  const e = row.expect;
  if ("help" in e) return calls.length === 0 && text.startsWith("I did not understand") ? { ok: true, why: "" } : { ok: false, why: `expected the help answer, got ${JSON.stringify(calls)}` };
  if ("clarify" in e) return calls.length === 0 && text.includes(e.clarify) ? { ok: true, why: "" } : { ok: false, why: `expected a question back (${e.clarify}), got ${JSON.stringify(calls)}` };
  if (calls.length !== 1 || calls[0].function !== e.fn) return { ok: false, why: `expected ${e.fn}, got ${calls.map((c) => c.function).join(", ") || "no operation"}` };
  if (e.args && !holds(calls[0].arguments, e.args)) return { ok: false, why: `arguments ${JSON.stringify(calls[0].arguments)} do not hold ${JSON.stringify(e.args)}` };
  const says = typeof row.says === "function" ? row.says(facts) : (row.says ?? []);
  const missing = says.filter((s) => !text.includes(s));
  return missing.length ? { ok: false, why: `the answer does not say ${JSON.stringify(missing)}` } : { ok: true, why: "" };
}

/** Asks every row (and its follow-ups, in one conversation), in order. */
export async function runCorpus(deps: Deps, principal: Principal, rows: Row[], facts: Facts): Promise<Verdict[]> {
  const out: Verdict[] = [];
  const askRow = async (row: Row, conversation?: string) => {
    const started = performance.now();
    const result = await ask(deps, principal, { question: row.q, ...(conversation ? { conversation_id: conversation } : {}) });
    const ms = performance.now() - started;
    const data = result.structuredContent as { conversation_id: string; answers: Verdict["calls"] } | undefined;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    const calls = data?.answers.map((a) => ({ function: a.function, arguments: a.arguments })) ?? [];
    out.push({ row, ...(result.isError ? { ok: false, why: `tool error: ${text}` } : judge(row, text, calls, facts)), ms, text, calls });
    for (const next of row.then ?? []) await askRow(next, data?.conversation_id);
  };
  for (const row of rows) await askRow(row);
  return out;
}
