// The in-process runner: takes queued runs with bounded concurrency, runs each kind's handler with
// a heartbeat, and ends every run in a terminal state. On start it recovers runs a crash left
// `running`: re-queued once, failed after that (never stuck). A run that waits for something
// outside (waiting_for) is not started; its kind's wait step, if any, is taken once while it stays
// queued, within the same concurrency (the stale-run sweep fails it after 24 hours of waiting).
import type { Deps } from "../../deps.ts";
import { RunError } from "../../lib/run-error.ts";
import { actionsService, RUN_QUEUED_TOPIC, type Progress, type Run } from "./actions.service.ts";


export type RunContext = {
  run: Run;
  deps: Deps;
  /** Reports a stage (and its figures); also a heartbeat. */
  progress(p: Progress): void;
  /** Aborted when the runner stops. */
  signal: AbortSignal;
};

/**
 * A step a waiting run takes while it stays `queued` (e.g. submitting a document host's gate so the
 * host sends its verification email). `resume: true` ends the wait; otherwise the run keeps waiting
 * with `patch` merged into its input. A RunError fails the run with its message.
 */
export type WaitStep = (ctx: { run: Run; deps: Deps; signal: AbortSignal }) => Promise<{ resume: boolean; patch?: Record<string, unknown> }>;

export type Handler = ((ctx: RunContext) => Promise<void>) & { waitStep?: WaitStep };

/** What a module hands the runner: its action kinds, each with its handler. */
export type RunHandlers = [kind: string, handler: Handler][];

export const MAX_ATTEMPTS = 2;

export type RunnerOptions = { concurrency?: number; heartbeatMs?: number; pollMs?: number };

export function recoverInterruptedRuns(deps: Deps): { requeued: number; failed: number } {
  const actions = actionsService(deps);
  const sqlite = deps.db.$client;
  const stuck = sqlite.query<{ id: string; attempts: number }, []>("SELECT id, attempts FROM action_runs WHERE status = 'running'").all();
  let requeued = 0;
  let failed = 0;
  for (const run of stuck) {
    if (run.attempts < MAX_ATTEMPTS) {
      sqlite.query("UPDATE action_runs SET status = 'queued', progress = NULL, started_at = NULL WHERE id = ? AND status = 'running'").run(run.id);
      requeued++;
    } else if (actions.fail(run.id, `The run was interrupted by a restart ${run.attempts} times and was not retried again`)) {
      failed++;
    }
  }
  // A wait step a crash cut short is taken again (its claim is dropped).
  sqlite
    .query("UPDATE action_runs SET input = json_remove(input, '$.wait_step') WHERE status = 'queued' AND waiting_for IS NOT NULL AND json_extract(input, '$.wait_step.done_at') IS NULL AND json_extract(input, '$.wait_step.claimed_at') IS NOT NULL")
    .run();
  if (stuck.length) deps.log.warn("recovered interrupted runs", { requeued, failed });
  return { requeued, failed };
}

export function startRunner(deps: Deps, handlers: Map<string, Handler>, opts: RunnerOptions = {}) {
  const actions = actionsService(deps);
  const concurrency = opts.concurrency ?? 2;
  const heartbeatMs = opts.heartbeatMs ?? 10_000;
  const abort = new AbortController();
  const inFlight = new Map<string, Promise<void>>();
  const kinds = [...handlers.keys()];
  const placeholders = kinds.map(() => "?").join(", ");
  const nextQueued = deps.db.$client.query<{ id: string }, (string | number)[]>(
    `SELECT id FROM action_runs WHERE status = 'queued' AND waiting_for IS NULL AND kind IN (${placeholders || "NULL"}) ORDER BY created_at, id LIMIT ?`,
  );
  const waitSteps = [...handlers].flatMap(([kind, h]) => (h.waitStep ? [[kind, h.waitStep] as const] : []));
  let stopped = false;

  recoverInterruptedRuns(deps);

  const internalError = "The run failed on an internal error; it has been logged with the run id";

  async function takeWaitStep(run: Run, step: WaitStep) {
    try {
      const { resume, patch } = await step({ run, deps, signal: abort.signal });
      actions.endWaitStep(run.id, patch ?? {}, resume);
    } catch (error) {
      if (abort.signal.aborted) return; // stopping: the claim is dropped on the next start
      if (!(error instanceof RunError)) deps.log.error("wait step failed", { run_id: run.id, kind: run.kind, error: (error as Error)?.stack ?? String(error) });
      actions.fail(run.id, error instanceof RunError ? error.message : internalError, "queued");
    }
  }

  async function execute(run: Run) {
    const handler = handlers.get(run.kind)!;
    const beat = setInterval(() => actions.heartbeat(run.id), heartbeatMs);
    try {
      await handler({ run, deps, progress: (p) => actions.progress(run.id, p), signal: abort.signal });
      actions.succeed(run.id);
    } catch (error) {
      if (abort.signal.aborted) return; // stopping: the run stays `running` and is recovered on the next start
      const message = error instanceof RunError ? error.message : internalError;
      if (!(error instanceof RunError)) deps.log.error("run failed", { run_id: run.id, kind: run.kind, error: (error as Error)?.stack ?? String(error) });
      actions.fail(run.id, message);
    } finally {
      clearInterval(beat);
    }
  }

  function pump() {
    if (stopped) return;
    const free = concurrency - inFlight.size;
    if (free <= 0 || kinds.length === 0) return;
    for (const { id } of nextQueued.all(...kinds, free)) {
      if (inFlight.has(id)) continue;
      const run = actions.start(id);
      if (!run) continue; // another runner took it
      const p = execute(run).finally(() => {
        inFlight.delete(id);
        pump();
      });
      inFlight.set(id, p);
    }
    const staleBefore = new Date(deps.clock.now().getTime() - deps.config.staleRunSeconds * 1000);
    for (const [kind, step] of waitSteps) {
      const room = concurrency - inFlight.size;
      if (room <= 0) break;
      for (const id of actions.dueWaitSteps(kind, room, staleBefore)) {
        if (inFlight.has(id)) continue;
        const run = actions.claimWaitStep(id, staleBefore);
        if (!run) continue;
        const p = takeWaitStep(run, step).finally(() => {
          inFlight.delete(id);
          pump();
        });
        inFlight.set(id, p);
      }
    }
  }

  const unsubscribe = deps.bus.subscribe(RUN_QUEUED_TOPIC, () => pump());
  const poll = setInterval(pump, opts.pollMs ?? 1000);
  pump();

  return {
    /** Takes queued runs now (tests call it instead of waiting for the poll). */
    pump,
    /** Resolves when every run in flight has ended. */
    idle: async () => {
      while (inFlight.size) await Promise.all(inFlight.values());
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      unsubscribe();
      abort.abort();
      await Promise.allSettled(inFlight.values());
    },
  };
}

export type Runner = ReturnType<typeof startRunner>;
