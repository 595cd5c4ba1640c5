// The founder_analysis action: gather the firm's evidence about the founder (stages resolve,
// enrich, network, documents), let the founder engine judge it (stage score), store the result.
import type { Deps } from "../../deps.ts";
import { founderEngine } from "../../engines/select.ts";
import { LlmError } from "../../engines/llm/client.ts";
import { RunError } from "../../lib/run-error.ts";
import type { Handler, RunHandlers } from "../actions/runner.ts";
import { founderEvidence } from "./founders.evidence.ts";
import { FOUNDER_ANALYSIS, foundersService, type FounderRunInput } from "./founders.service.ts";

export function founderAnalysisHandler(deps: Deps): Handler {
  const founders = foundersService(deps);
  const evidence = founderEvidence(deps);
  const engine = founderEngine(deps);

  return async ({ run, progress }) => {
    const row = founders.mustGet(run.orgId, run.subjectId);
    const input = run.input as FounderRunInput;
    const gathered = await evidence.gather(row, run.userId, { linkedin_key: input.linkedin_key ?? null, github_login: input.github_login ?? null }, (stage) =>
      progress({ stage }),
    );
    progress({ stage: "score" });
    let assessment;
    try {
      assessment = await engine.assess(gathered);
    } catch (error) {
      if (error instanceof LlmError) throw new RunError(`The founder could not be assessed: ${error.message}`);
      throw error;
    }
    founders.storeResult(row.id, assessment, gathered.resolvedName);
  };
}

/** The founders module's action kinds. */
export function founderRunHandlers(deps: Deps): RunHandlers {
  return [[FOUNDER_ANALYSIS.kind, founderAnalysisHandler(deps)]];
}
