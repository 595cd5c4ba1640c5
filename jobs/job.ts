import type { Config } from "../src/config.ts";
import type { Deps } from "../src/deps.ts";

export type JobResult = Record<string, unknown>;

/** One piece of scheduled background work: a call into the module that owns the logic. */
export type Job = {
  id: string;
  /** Cron pattern, UTC. */
  pattern: string;
  /** The pattern as configured, when a setting moves it (null: the job is off); else `pattern`. */
  schedule?(config: Config): string | null;
  /** Runs every so many seconds instead (croner patterns are minute-based); `pattern` is then only what is shown. */
  everySeconds?(config: Config): number;
  description: string;
  runOnce(deps: Deps): JobResult | Promise<JobResult>;
  /** Asks a run in flight to end early at the server's shutdown (it resumes at the next start). */
  stop?(deps: Deps): void;
};
