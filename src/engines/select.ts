// Which engine analyses: the built-in one (offline, deterministic) unless an OpenAI-compatible
// endpoint is configured (DEALGRAPH_LLM_BASE_URL), then the LLM engine behind the same interface.
// No fallback between them: a configured model that fails fails the run, with the reason.
import type { Deps } from "../deps.ts";
import { builtinDealEngine } from "./builtin/deal-engine.ts";
import type { DealEngine } from "./deal-engine.ts";
import { llmDealEngine } from "./llm/deal-engine.ts";

export function dealEngine(deps: Deps): DealEngine {
  return deps.config.llm ? llmDealEngine(deps.config.llm) : builtinDealEngine;
}
