// The table of contents of background work: every scheduled job, every kind of action run, and
// `startBackground`, which `serve` (and `demo`) call to start the scheduler, the action runner and
// the webhook dispatcher. With src/app.ts it shows the whole running server. Each job is a short
// file calling into the module that owns its logic; each module hands over its own run handlers.
// Tests call a job's `runOnce` with a test clock and never wait for a schedule.
import { Cron } from "croner";
import type { Config } from "../src/config.ts";
import type { Deps } from "../src/deps.ts";
import { startRunner, type Handler, type RunnerOptions } from "../src/modules/actions/runner.ts";
import { dealRunHandlers } from "../src/modules/deals/deals.handlers.ts";
import { founderRunHandlers } from "../src/modules/founders/founders.handlers.ts";
import { researchRunHandlers } from "../src/modules/research/research.handlers.ts";
import { createDispatcher } from "../src/modules/webhooks/webhooks.delivery.ts";
import { backup } from "./backup.ts";
import { cadenceLearning } from "./cadence-learning.ts";
import { documentConversion } from "./document-conversion.ts";
import type { Job } from "./job.ts";
import { keyUsagePrune } from "./key-usage-prune.ts";
import { startMailIdle } from "./mail-idle.ts";
import { mailSync } from "./mail-sync.ts";
import { oauthPrune } from "./oauth-prune.ts";
import { reachCandidates } from "./reach-candidates.ts";
import { staleDigestJob } from "./stale-digest.ts";
import { staleRunSweep } from "./stale-run-sweep.ts";
import { webhookDelivery } from "./webhook-delivery.ts";

export type { Job, JobResult } from "./job.ts";

/** The schedule. */
export const jobs: Job[] = [keyUsagePrune, oauthPrune, cadenceLearning, reachCandidates, staleRunSweep, webhookDelivery, documentConversion, backup, mailSync, staleDigestJob];

/** The job's pattern under this configuration (null: turned off; `every N s` for an interval job). */
export function patternOf(job: Job, config: Config): string | null {
  if (job.everySeconds) return `every ${job.everySeconds(config)} s`;
  return job.schedule ? job.schedule(config) : job.pattern;
}

/** Every kind of action and its handler, as the module that owns it hands it over. */
export function runHandlers(deps: Deps): Map<string, Handler> {
  return new Map([
    ...dealRunHandlers(deps), // deal analysis (websites, documents, data rooms; gated links wait)
    ...founderRunHandlers(deps), // founder analysis
    ...researchRunHandlers(deps), // research over the firm's records
  ]);
}

export function findJob(id: string): Job | undefined {
  return jobs.find((j) => j.id === id);
}

export type RunningJobs = { stop(): Promise<void>; next(id: string): Date | null };

/** Runs a job, logging its result or its failure (a failing job never stops the schedule). */
async function runLogged(deps: Deps, job: Job): Promise<void> {
  const started = Date.now();
  try {
    const result = await job.runOnce(deps);
    deps.log.info("job finished", { job: job.id, ms: Date.now() - started, ...result });
  } catch (error) {
    deps.log.error("job failed", { job: job.id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** How soon after start an interval job first runs (at most its interval). */
const FIRST_RUN_SECONDS = 5;

/**
 * An interval job's own timer. Runs are spaced so that what a run picks up is never older than
 * the interval when it is done: the next run starts `seconds` after this one started, less this
 * run's duration (a mail-sync run reads what arrived since the last one started, and its rows are
 * in once it ends). Runs never overlap; one longer than the interval is followed at once.
 */
function everyTimer(deps: Deps, job: Job, seconds: number): { stop(): Promise<void>; next(): Date } {
  let stopped = false;
  let due: number;
  let timer: ReturnType<typeof setTimeout>;
  let running: Promise<void> | null = null;
  const tick = async () => {
    if (stopped) return;
    const started = Date.now();
    running = runLogged(deps, job);
    await running;
    running = null;
    due = Math.max(started + seconds * 1000 - (Date.now() - started), Date.now());
    if (!stopped) timer = setTimeout(tick, due - Date.now());
  };
  // The first run comes soon after start: whatever arrived while the server was down is read now.
  due = Date.now() + Math.min(seconds, FIRST_RUN_SECONDS) * 1000;
  timer = setTimeout(tick, due - Date.now());
  return {
    // A run in flight is asked to end early and waited for: the server closes the database after.
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (running) {
        job.stop?.(deps);
        await running;
      }
    },
    next: () => new Date(due),
  };
}

export function startJobs(deps: Deps, list: Job[] = jobs): RunningJobs {
  const crons = new Map<string, Cron>();
  const timers = new Map<string, ReturnType<typeof everyTimer>>();
  for (const job of list) {
    if (job.everySeconds) {
      timers.set(job.id, everyTimer(deps, job, job.everySeconds(deps.config)));
      continue;
    }
    const pattern = patternOf(job, deps.config);
    if (pattern === null) continue;
    // No croner `name`: croner keeps names in a process-wide registry, and tests run several servers.
    // utcOffset 0 rather than timezone "UTC": the same schedule without loading Intl's time zones
    // (about 15 ms of start-up).
    const cron = new Cron(pattern, { utcOffset: 0, protect: true }, () => runLogged(deps, job));
    crons.set(job.id, cron);
  }
  return {
    async stop() {
      crons.forEach((c) => c.stop());
      await Promise.all([...timers.values()].map((t) => t.stop()));
    },
    next: (id) => timers.get(id)?.next() ?? crons.get(id)?.nextRun() ?? null,
  };
}

export function nextRun(job: Job, from: Date, config?: Config): Date | null {
  if (config && job.everySeconds) return new Date(from.getTime() + job.everySeconds(config) * 1000);
  const pattern = config ? patternOf(job, config) : job.pattern;
  return pattern === null ? null : new Cron(pattern, { utcOffset: 0, paused: true }).nextRun(from);
}

export type Background = { stop(): Promise<void> };

/**
 * Everything a server runs besides HTTP: the schedule, the action runner over every module's
 * handlers (it first recovers runs a crash left running), the webhook dispatcher (a run's event
 * is sent when the run ends, else within its 200 ms poll; pending deliveries resume), and the
 * IMAP IDLE sessions of connected mailboxes (live mail; stopped first, with the syncs they started).
 */
export function startBackground(deps: Deps, opts: { runner?: RunnerOptions } = {}): Background {
  const scheduled = startJobs(deps);
  const runner = startRunner(deps, runHandlers(deps), opts.runner);
  const webhooks = createDispatcher(deps).run();
  const idle = startMailIdle(deps);
  return {
    async stop() {
      await idle.stop();
      await scheduled.stop();
      await runner.stop();
      await webhooks.stop();
    },
  };
}
