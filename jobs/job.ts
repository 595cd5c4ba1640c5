import type { Deps } from "../src/deps.ts";

export type JobResult = Record<string, unknown>;

/** One piece of scheduled background work: a call into the module that owns the logic. */
export type Job = {
  id: string;
  /** Cron pattern, UTC. */
  pattern: string;
  description: string;
  runOnce(deps: Deps): JobResult | Promise<JobResult>;
};
