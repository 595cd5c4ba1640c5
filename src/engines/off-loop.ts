// The built-in deal engine off the event loop. It is plain, synchronous text work (about a second
// per megabyte of text here), so a data room of large files would hold the server's event loop for
// as long as it runs, and a text crafted to make one of its patterns backtrack could hold it for
// good. It runs instead in a child process of the same program (`__analyze-deal`, through
// src/lib/child-job.ts): killed past 300 s or 1 GB of memory, with no network, its progress stages
// passed on as they happen. The engine itself is unchanged (the same builtinDealEngine runs there).
import { ChildJobError, formatBytes, formatMs, runChildJob, serveChildJob, type ChildLimits } from "../lib/child-job.ts";
import { RunError } from "../lib/run-error.ts";
import type { DealAnalysis, DealEngine, DealEngineInput } from "./deal-engine.ts";

/** The hidden command a child of this program is started with (src/cli/index.ts dispatches it). */
export const ANALYZE_DEAL_COMMAND = "__analyze-deal";

export const ENGINE_LIMITS: ChildLimits = { timeoutMs: 300_000, memoryBytes: 1024 * 1024 * 1024, maxOutputBytes: 64 * 1024 * 1024, concurrency: 2 };

type Job = Pick<DealEngineInput, "pages" | "hints">;

const textSize = (pages: Job["pages"]) => formatBytes(pages.reduce((n, p) => n + Buffer.byteLength(p.text), 0));

/** builtinDealEngine, run in a child process with limits; a stop becomes the run's error. */
export function builtinDealEngineOffLoop(limits: ChildLimits = ENGINE_LIMITS): DealEngine {
  return {
    name: "builtin",
    async analyze({ pages, hints, progress }: DealEngineInput): Promise<DealAnalysis> {
      try {
        return await runChildJob<DealAnalysis>(ANALYZE_DEAL_COMMAND, { pages, hints } satisfies Job, limits, (stage) => progress(String(stage)));
      } catch (error) {
        if (!(error instanceof ChildJobError)) throw error;
        const material = `the material (${textSize(pages)} of text)`;
        throw new RunError(
          {
            time: `The analysis of ${material} took longer than ${formatMs(limits.timeoutMs)}, so it was stopped`,
            memory: `The analysis of ${material} needed more than ${formatBytes(limits.memoryBytes)} of memory, so it was stopped`,
            output: `The analysis of ${material} produced more than ${formatBytes(limits.maxOutputBytes)}, so it was stopped`,
            crash: `The analysis stopped unexpectedly (${error.message})`,
            failed: error.message,
          }[error.reason],
        );
      }
    },
  };
}

/** The child's side: one analysis, its stages emitted as it goes. Returns the exit code. */
export function analyzeDealChild(): Promise<number> {
  return serveChildJob(async (input, emit) => {
    const { pages, hints } = input as Job;
    // Loaded here: the server (and the document children) load this file without the engine.
    const { builtinDealEngine } = await import("./builtin/deal-engine.ts");
    return builtinDealEngine.analyze({ pages, hints, progress: (stage) => emit(stage) });
  }, "The analysis failed");
}
