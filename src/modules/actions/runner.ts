// The in-process runner: takes queued runs with bounded concurrency, runs each kind's handler with
// a heartbeat, and ends every run in a terminal state. Fair between organizations and users: a free
// slot goes to the organization with the fewest runs in flight (ties: the one served longest ago,
// then the oldest run), and within it to the user likewise (round-robin by org, then user); one
// organization holds at most `concurrency - 1` slots, so another's run always finds one soon and
// one org's queue never blocks another's. Each run is done as its organization's work
// (lib/work-context.ts): the document reader's child processes are shared the same way, and OCR is
// held to the per-file and per-organization-day bounds (ocr-budget.ts). On start it recovers runs a crash left
// `running`: re-queued once, failed after that (never stuck). A run that waits for something
// outside (waiting_for) is not started; its kind's wait step, if any, is taken once while it stays
// queued, within the same concurrency (the stale-run sweep fails it after 24 hours of waiting).
import type { Deps } from "../../deps.ts";
import { noteRunStage } from "../../lib/event-loop-lag.ts";
import { RunError } from "../../lib/run-error.ts";
import { runAsWork } from "../../lib/work-context.ts";
import { actionsService, RUN_QUEUED_TOPIC, type Progress, type Run } from "./actions.service.ts";
import { ocrAllowance, ocrBoundsFrom, type OcrBounds } from "./ocr-budget.ts";


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

export type RunnerOptions = {
  /** Runs (and wait steps) in flight at once; default 3. */
  concurrency?: number;
  /** Slots one organization may hold; default concurrency - 1 (at least 1), so others always find one. */
  perOrg?: number;
  heartbeatMs?: number;
  pollMs?: number;
  /** OCR bounds (default: from the environment, ocr-budget.ts). */
  ocr?: OcrBounds;
};

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
  const concurrency = opts.concurrency ?? 3;
  const perOrg = Math.max(1, opts.perOrg ?? concurrency - 1);
  const heartbeatMs = opts.heartbeatMs ?? 10_000;
  const ocrBounds = opts.ocr ?? ocrBoundsFrom();
  const abort = new AbortController();
  /** What is in flight: its promise, and whose it is (wait steps count for nobody's share). */
  const inFlight = new Map<string, { done: Promise<void>; org: string | null; user: string | null }>();
  const kinds = [...handlers.keys()];
  const placeholders = kinds.map(() => "?").join(", ");
  // Who has runs waiting, each with its oldest: a handful of rows however long one org's queue is.
  const waitingByUser = deps.db.$client.query<{ org: string; user: string; oldest: string }, string[]>(
    `SELECT org_id AS org, user_id AS user, min(created_at) AS oldest FROM action_runs
     WHERE status = 'queued' AND waiting_for IS NULL AND kind IN (${placeholders || "NULL"}) GROUP BY org_id, user_id`,
  );
  const oldestOfUser = deps.db.$client.query<{ id: string }, string[]>(
    `SELECT id FROM action_runs WHERE status = 'queued' AND waiting_for IS NULL AND org_id = ? AND user_id = ? AND kind IN (${placeholders || "NULL"})
     ORDER BY created_at, id LIMIT 1`,
  );
  // Round-robin memory: when each org and user was last given a slot (a counter, not a time).
  let turn = 0;
  const servedOrg = new Map<string, number>();
  const servedUser = new Map<string, number>();
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
      // The run is its organization's work all the way down (shared pools, OCR's daily bound).
      const work = { tenant: run.orgId, user: run.userId, ocr: ocrAllowance(deps, run.orgId, ocrBounds) };
      const progress = (p: Progress) => (noteRunStage(run.id, `${run.kind}:${p.stage}`), actions.progress(run.id, p));
      await runAsWork(work, () => handler({ run, deps, progress, signal: abort.signal }));
      actions.succeed(run.id);
    } catch (error) {
      if (abort.signal.aborted) return; // stopping: the run stays `running` and is recovered on the next start
      const message = error instanceof RunError ? error.message : internalError;
      if (!(error instanceof RunError)) deps.log.error("run failed", { run_id: run.id, kind: run.kind, error: (error as Error)?.stack ?? String(error) });
      actions.fail(run.id, message);
    } finally {
      clearInterval(beat);
      noteRunStage(run.id, null);
    }
  }

  /** Runs in flight per org and per user (wait steps excluded). */
  function load() {
    const orgs = new Map<string, number>();
    const users = new Map<string, number>();
    for (const f of inFlight.values()) {
      if (f.org) orgs.set(f.org, (orgs.get(f.org) ?? 0) + 1);
      if (f.user) users.set(f.user, (users.get(f.user) ?? 0) + 1);
    }
    return { orgs, users };
  }

  /**
   * The next run to start: among orgs below their share, the one with the fewest in flight, then
   * the one served longest ago, then the oldest waiting run; within it the user likewise. Null
   * when nobody waits (or every waiting org holds its share).
   */
  function nextRun(skip: Set<string>): { id: string; org: string; user: string } | null {
    const { orgs, users } = load();
    const waiting = waitingByUser.all(...kinds).filter((w) => (orgs.get(w.org) ?? 0) < perOrg && !skip.has(`${w.org}\n${w.user}`));
    if (waiting.length === 0) return null;
    const rank = (count: number, served: number | undefined, oldest: string) => [count, served ?? -1, oldest] as const;
    const less = (a: readonly [number, number, string], b: readonly [number, number, string]) =>
      a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
    const oldestOfOrg = new Map<string, string>();
    for (const w of waiting) if (!oldestOfOrg.has(w.org) || w.oldest < oldestOfOrg.get(w.org)!) oldestOfOrg.set(w.org, w.oldest);
    let org: string | null = null;
    for (const [o, oldest] of oldestOfOrg) {
      if (org === null || less(rank(orgs.get(o) ?? 0, servedOrg.get(o), oldest), rank(orgs.get(org) ?? 0, servedOrg.get(org), oldestOfOrg.get(org)!))) org = o;
    }
    let pick: (typeof waiting)[number] | null = null;
    for (const w of waiting) {
      if (w.org !== org) continue;
      if (pick === null || less(rank(users.get(w.user) ?? 0, servedUser.get(w.user), w.oldest), rank(users.get(pick.user) ?? 0, servedUser.get(pick.user), pick.oldest))) pick = w;
    }
    const id = oldestOfUser.get(pick!.org, pick!.user, ...kinds)?.id;
    return id ? { id, org: pick!.org, user: pick!.user } : null;
  }

  function pump() {
    if (stopped) return;
    if (kinds.length === 0) return;
    const skip = new Set<string>();
    for (let tries = 0; concurrency - inFlight.size > 0 && tries < concurrency * 4; tries++) {
      const next = nextRun(skip);
      if (!next) break;
      if (inFlight.has(next.id)) {
        skip.add(`${next.org}\n${next.user}`);
        continue;
      }
      const run = actions.start(next.id);
      if (!run) continue; // another runner took it: the next pick sees it gone
      servedOrg.set(run.orgId, ++turn);
      servedUser.set(run.userId, turn);
      const id = run.id;
      const done = execute(run).finally(() => {
        inFlight.delete(id);
        pump();
      });
      inFlight.set(id, { done, org: run.orgId, user: run.userId });
    }
    const staleBefore = new Date(deps.clock.now().getTime() - deps.config.staleRunSeconds * 1000);
    for (const [kind, step] of waitSteps) {
      const room = concurrency - inFlight.size;
      if (room <= 0) break;
      for (const id of actions.dueWaitSteps(kind, room, staleBefore)) {
        if (inFlight.has(id)) continue;
        const run = actions.claimWaitStep(id, staleBefore);
        if (!run) continue;
        const done = takeWaitStep(run, step).finally(() => {
          inFlight.delete(id);
          pump();
        });
        inFlight.set(id, { done, org: null, user: null });
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
      while (inFlight.size) await Promise.all([...inFlight.values()].map((f) => f.done));
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      unsubscribe();
      abort.abort();
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    },
  };
}

export type Runner = ReturnType<typeof startRunner>;
