// The research action: execute the plan made during the POST. For each sub-question search the
// firm's own records (stage `search`), gather the passages (`read`), then the engine writes the
// report (`write`). A deadline (30 minutes from the run's start, injectable for tests) is checked
// between steps; past it the run fails and says so.
import type { Deps } from "../../deps.ts";
import { LlmError } from "../../engines/llm/client.ts";
import type { Findings } from "../../engines/research-engine.ts";
import { researchEngine } from "../../engines/select.ts";
import { RunError } from "../../lib/run-error.ts";
import type { Handler, RunHandlers } from "../actions/runner.ts";
import { researchCorpus } from "./research.corpus.ts";
import { RESEARCH, researchService } from "./research.service.ts";

export const RESEARCH_CAP_MS = 30 * 60_000;

export type ResearchHandlerOptions = { capMs?: number };

export function researchHandler(deps: Deps, opts: ResearchHandlerOptions = {}): Handler {
  const research = researchService(deps);
  const capMs = opts.capMs ?? RESEARCH_CAP_MS;
  const minutes = capMs / 60_000;
  const capText = Number.isInteger(minutes) ? `${minutes}-minute` : `${capMs / 1000}-second`;

  return async ({ run, progress }) => {
    const started = Date.parse(run.startedAt ?? deps.clock.now().toISOString());
    const checkpoint = () => {
      if (deps.clock.now().getTime() - started > capMs) {
        throw new RunError(`The research run exceeded its ${capText} cap and was stopped before finishing; ask a narrower question or split it.`);
      }
    };
    const step = (stage: string, percent: number) => {
      checkpoint();
      progress({ stage, percent });
    };

    step("plan", 5);
    const row = research.mustGetRow(run.orgId, run.subjectId);
    const subQuestions = (JSON.parse(row.plan) as { sub_questions: string[] }).sub_questions;
    const corpus = researchCorpus(deps, { orgId: run.orgId, userId: run.userId });
    const findings: Findings[] = [];
    for (const [i, question] of subQuestions.entries()) {
      step("search", 10 + Math.floor((i / subQuestions.length) * 60));
      findings.push(corpus.find(question));
      // Yield between sub-questions: other requests are served while a long run searches.
      await Promise.resolve();
    }
    step("read", 75);
    const engine = researchEngine(deps);
    let report;
    try {
      report = await engine.write({ query: row.query, findings, progress: step, checkpoint });
    } catch (error) {
      if (error instanceof LlmError) throw new RunError(`The language model could not write the report: ${error.message}`);
      throw error;
    }
    checkpoint();
    research.storeReport(row.id, engine.name, report);
  };
}

/** The research module's action kinds. */
export function researchRunHandlers(deps: Deps, opts: ResearchHandlerOptions = {}): RunHandlers {
  return [[RESEARCH.kind, researchHandler(deps, opts)]];
}
