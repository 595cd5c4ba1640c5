// The in-process jobs. Each is `{ id, pattern, runOnce(deps) }`, defined beside the code that owns
// it and listed here. Only `dealgraph serve` (and `demo`) start the schedule; tests call
// `runOnce` with a test clock and never wait for one.
import { Cron } from "croner";
import type { Deps } from "../src/deps.ts";
import { cadenceLearning } from "./cadence-learning.ts";
import { documentConversion } from "./document-conversion.ts";
import { keyUsagePrune } from "./key-usage-prune.ts";
import { reachCandidates } from "./reach-candidates.ts";
import { staleRunSweep } from "./stale-run-sweep.ts";
import { webhookDelivery } from "./webhook-delivery.ts";

export type JobResult = Record<string, unknown>;

export type Job = {
  id: string;
  /** Cron pattern, UTC. */
  pattern: string;
  description: string;
  runOnce(deps: Deps): JobResult | Promise<JobResult>;
};

export const jobs: Job[] = [keyUsagePrune, cadenceLearning, reachCandidates, staleRunSweep, webhookDelivery, documentConversion];

export function findJob(id: string): Job | undefined {
  return jobs.find((j) => j.id === id);
}

export type RunningJobs = { stop(): void; next(id: string): Date | null };

export function startJobs(deps: Deps, list: Job[] = jobs): RunningJobs {
  const crons = new Map<string, Cron>();
  for (const job of list) {
    // No croner `name`: croner keeps names in a process-wide registry, and tests run several servers.
    // utcOffset 0 rather than timezone "UTC": the same schedule without loading Intl's time zones
    // (about 15 ms of start-up).
    const cron = new Cron(job.pattern, { utcOffset: 0, protect: true }, async () => {
      const started = Date.now();
      try {
        const result = await job.runOnce(deps);
        deps.log.info("job finished", { job: job.id, ms: Date.now() - started, ...result });
      } catch (error) {
        deps.log.error("job failed", { job: job.id, error: error instanceof Error ? error.message : String(error) });
      }
    });
    crons.set(job.id, cron);
  }
  return {
    stop: () => crons.forEach((c) => c.stop()),
    next: (id) => crons.get(id)?.nextRun() ?? null,
  };
}

export function nextRun(job: Job, from: Date): Date | null {
  return new Cron(job.pattern, { utcOffset: 0, paused: true }).nextRun(from);
}
