// Asking the blind corpus (test/fixtures/ask-corpus, written by someone who never read the ask
// tool): each item through the tool's own entry point, its follow-ups in the conversation it
// started, each answer judged by the corpus's own judge (figures, names, what must not be said,
// trap figures). Used by scripts/bench/ask.ts and ask-blind-corpus.test.ts. A held-out item's text
// is never printed by callers: they report its part's counts only.
import type { Deps } from "../../../src/deps.ts";
import type { Principal } from "../../../src/modules/identity/auth.macro.ts";
import { ask } from "../../../src/modules/mcp/ask.service.ts";
import { judgeAnswer, loadCorpus, type Item } from "../../fixtures/ask-corpus/judge.ts";

export type BlindVerdict = { id: string; cls: string; q: string; ok: boolean; wrongFigure: boolean; why: string; text: string; ms: number };

export type BlindScore = { part: "dev" | "dev2" | "dev3" | "dev4" | "dev5" | "dev6" | "heldout"; asked: number; correct: number; wrongFigures: number; byClass: Record<string, { asked: number; correct: number }>; verdicts: BlindVerdict[] };

/** Asks every item of one part (follow-ups in their conversation) and judges each answer. */
export async function runBlind(deps: Deps, principal: Principal, part: "dev" | "dev2" | "dev3" | "dev4" | "dev5" | "dev6" | "heldout"): Promise<BlindScore> {
  const verdicts: BlindVerdict[] = [];
  const askItem = async (item: Item, cls: string, conversation?: string) => {
    const started = performance.now();
    const result = await ask(deps, principal, { question: item.q, ...(conversation ? { conversation_id: conversation } : {}) });
    const ms = performance.now() - started;
    const data = result.structuredContent as { conversation_id: string } | undefined;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n").replace(/\n\n\(conversation_id: [^)]*\)$/, "");
    const v = judgeAnswer(item, text);
    verdicts.push({ id: item.id, cls, q: item.q, ok: v.ok && !result.isError, wrongFigure: v.wrongFigure, why: result.isError ? `tool error: ${text}` : v.why, text, ms });
    for (const next of item.then ?? []) await askItem(next, cls, data?.conversation_id);
  };
  for (const item of loadCorpus(part).items) await askItem(item, item.class);
  const byClass: BlindScore["byClass"] = {};
  for (const v of verdicts) {
    const c = (byClass[v.cls] ??= { asked: 0, correct: 0 });
    c.asked++;
    if (v.ok) c.correct++;
  }
  return { part, asked: verdicts.length, correct: verdicts.filter((v) => v.ok).length, wrongFigures: verdicts.filter((v) => v.wrongFigure).length, byClass, verdicts };
}
