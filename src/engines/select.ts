// Which engine analyses: the built-in one (offline, deterministic; a deal's analysis runs in a
// child process, off the event loop: off-loop.ts) unless an OpenAI-compatible endpoint is
// configured (DEALGRAPH_LLM_BASE_URL), then the LLM engine behind the same interface. No fallback
// between them for runs: a configured model that fails fails the run, with the reason.
// (The `ask` tool answers a partner waiting for it: its door falls back to the built-in engine.)
import type { Deps } from "../deps.ts";
import type { DealEngine } from "./deal-engine.ts";
import { builtinDealEngineOffLoop } from "./off-loop.ts";
import { llmDealEngine } from "./llm/deal-engine.ts";
import { builtinResearchEngine } from "./builtin/research-engine.ts";
import { llmClient } from "./llm/client.ts";
import { llmResearchEngine } from "./llm/research-engine.ts";
import type { ResearchEngine } from "./research-engine.ts";
import { builtinFounderEngine } from "./builtin/founder-engine.ts";
import type { FounderEngine } from "./founder-engine.ts";
import { llmFounderEngine } from "./llm/founder-engine.ts";
import type { AskEngine } from "./ask-engine.ts";
import { builtinAskEngine } from "./builtin/ask-engine.ts";
import { llmAskEngine } from "./llm/ask-engine.ts";

export function dealEngine(deps: Deps): DealEngine {
  return deps.config.llm ? llmDealEngine(deps.config.llm) : builtinDealEngineOffLoop();
}

export function researchEngine(deps: Deps): ResearchEngine {
  return deps.config.llm ? llmResearchEngine(llmClient(deps.config.llm)) : builtinResearchEngine;
}

export function founderEngine(deps: Deps): FounderEngine {
  return deps.config.llm ? llmFounderEngine(deps.config.llm) : builtinFounderEngine;
}

export function askEngine(deps: Deps): AskEngine {
  return deps.config.llm ? llmAskEngine(deps.config.llm) : builtinAskEngine;
}
