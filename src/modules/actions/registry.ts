// Every kind of action and its handler, registered by the module that owns it (deal analysis,
// founder analysis, research), the way jobs/index.ts lists the jobs. `serve` starts one runner
// over all of them.
import type { Deps } from "../../deps.ts";
import type { Handler } from "./runner.ts";

export function actionHandlers(_deps: Deps): Map<string, Handler> {
  return new Map();
}
