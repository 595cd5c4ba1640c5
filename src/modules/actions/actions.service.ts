// The action engine's state machine: dispatch (charging the actions budget in the same
// transaction), start, progress with heartbeat, and the terminal transitions that write their
// outbox event in the same transaction. Progress changes are published on the bus for SSE.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { chargePrincipalAction } from "../identity/web-budgets.service.ts";
import { newId } from "../../lib/ids.ts";
import { columnList, type RowOf } from "../../db/rows.ts";
import { actionRuns, outboxEvents } from "./actions.tables.ts";

export type RunStatus = RowOf<typeof actionRuns>["status"];
export type Progress = Record<string, unknown> & { stage: string };

/** What a kind of action is called in webhook events, and where its result is read. */
export type ActionKind = {
  kind: string;
  /** `deal.analysis`, `founder.analysis`, `research`: events are `<prefix>.completed|failed`. */
  eventPrefix: string;
  resultUrl(subjectId: string): string;
};

/** A run as the engine hands it around: its row, with `progress` and `input` parsed. */
export type Run = Omit<RowOf<typeof actionRuns>, "progress" | "input"> & { progress: Progress | null; input: Record<string, unknown> };

type RunRow = RowOf<typeof actionRuns>;

/** A terminal transition's webhook event, as the outbox keeps it. */
export type OutboxEvent = RowOf<typeof outboxEvents>;

const COLUMNS = columnList(actionRuns);

const parse = (row: RunRow | null | undefined): Run | null =>
  row ? { ...row, progress: row.progress ? (JSON.parse(row.progress) as Progress) : null, input: JSON.parse(row.input) } : null;

export const runTopic = (runId: string) => `run:${runId}`;
export const RUN_QUEUED_TOPIC = "runs:queued";

/** The status read every action exposes (CONTRACT.md): progress only while running, error only when failed. */
export function statusView(run: Run, asOf: Date) {
  return {
    status: run.status,
    progress: run.status === "running" ? run.progress : null,
    error: run.status === "failed" ? run.error : null,
    waiting_for: run.status === "queued" ? run.waitingFor : null,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    as_of: asOf.toISOString(),
  };
}

export const actionsService = perDeps((deps: Deps) => {
  const { db, clock, bus } = deps;
  const sqlite = db.$client;

  const byId = sqlite.query<RunRow, [string]>(`SELECT ${COLUMNS} FROM action_runs WHERE id = ?`);
  const latestForSubject = sqlite.query<RunRow, [string, string]>(
    `SELECT ${COLUMNS} FROM action_runs WHERE subject_id = ? AND org_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const insert = sqlite.query(
    `INSERT INTO action_runs (id, org_id, user_id, key_id, kind, event_prefix, result_url, subject_id, status, input, waiting_for, created_at)
     VALUES ($id, $org, $user, $key, $kind, $eventPrefix, $resultUrl, $subject, 'queued', $input, $waitingFor, $now)`,
  );
  const claim = sqlite.query<RunRow, { id: string; now: string }>(
    `UPDATE action_runs SET status = 'running', started_at = $now, heartbeat_at = $now, attempts = attempts + 1,
       waiting_for = NULL, progress = '{"stage":"starting"}'
     WHERE id = $id AND status = 'queued' AND waiting_for IS NULL RETURNING ${COLUMNS}`,
  );
  const setProgress = sqlite.query("UPDATE action_runs SET progress = ?, heartbeat_at = ? WHERE id = ? AND status = 'running'");
  const beat = sqlite.query("UPDATE action_runs SET heartbeat_at = ? WHERE id = ? AND status = 'running'");
  const finish = sqlite.query<RunRow, { id: string; status: RunStatus; error: string | null; now: string; from: string }>(
    `UPDATE action_runs SET status = $status, error = $error, finished_at = $now, progress = NULL, waiting_for = NULL
     WHERE id = $id AND status = $from RETURNING ${COLUMNS}`,
  );
  // A queued run waiting for something outside (waiting_for) may have one step to take first (a
  // document gate to submit, so the host sends its verification email). Its claim and its end are
  // marked in the input under `wait_step`, so a restart neither loses nor repeats it.
  const waitStepsDue = sqlite.query<{ id: string }, { kind: string; stale: string; limit: number }>(
    `SELECT id FROM action_runs WHERE status = 'queued' AND waiting_for IS NOT NULL AND kind = $kind
       AND json_extract(input, '$.wait_step.done_at') IS NULL
       AND (json_extract(input, '$.wait_step.claimed_at') IS NULL OR json_extract(input, '$.wait_step.claimed_at') < $stale)
     ORDER BY created_at, id LIMIT $limit`,
  );
  const claimStep = sqlite.query<RunRow, { id: string; now: string; stale: string }>(
    `UPDATE action_runs SET input = json_set(input, '$.wait_step', json_object('claimed_at', $now))
     WHERE id = $id AND status = 'queued' AND waiting_for IS NOT NULL AND json_extract(input, '$.wait_step.done_at') IS NULL
       AND (json_extract(input, '$.wait_step.claimed_at') IS NULL OR json_extract(input, '$.wait_step.claimed_at') < $stale)
     RETURNING ${COLUMNS}`,
  );
  // The step's patch (e.g. the host's cookies) is merged whenever the run is still queued: what it
  // waited for may have arrived while the step ran (a verification link, which cleared waiting_for
  // first), and the run then needs both. Only the end of the wait itself depends on it still waiting.
  const endStep = sqlite.query<RunRow, { id: string; patch: string; now: string; resume: number }>(
    `UPDATE action_runs SET
       input = CASE WHEN waiting_for IS NOT NULL THEN json_set(json_patch(input, $patch), '$.wait_step.done_at', $now) ELSE json_patch(input, $patch) END,
       waiting_for = CASE WHEN $resume THEN NULL ELSE waiting_for END
     WHERE id = $id AND status = 'queued' RETURNING ${COLUMNS}`,
  );
  const resumeWaiting = sqlite.query<RunRow, { id: string; patch: string }>(
    `UPDATE action_runs SET input = json_patch(input, $patch), waiting_for = NULL
     WHERE id = $id AND status = 'queued' AND waiting_for IS NOT NULL RETURNING ${COLUMNS}`,
  );
  // What other modules read of the runs of their subjects (a deal's live analysis, a founder
  // analysis' latest status, a user's live research): named here, next to the table.
  const liveOfSubjects = sqlite.query<RunRow, { org: string; ids: string }>(
    `SELECT ${COLUMNS} FROM action_runs WHERE subject_id IN (SELECT value FROM json_each($ids)) AND org_id = $org AND status IN ('queued', 'running') LIMIT 1`,
  );
  const waitingOfOrg = sqlite.query<RunRow, { org: string; waitingFor: string }>(
    `SELECT ${COLUMNS} FROM action_runs WHERE org_id = $org AND status = 'queued' AND waiting_for = $waitingFor ORDER BY created_at, id`,
  );
  const latestStatusOf = sqlite.query<{ subject: string; status: RunStatus | null }, { ids: string }>(
    `SELECT s.value AS subject, (SELECT a.status FROM action_runs a WHERE a.subject_id = s.value ORDER BY a.created_at DESC, a.id DESC LIMIT 1) AS status
     FROM json_each($ids) s`,
  );
  const liveOfUser = sqlite.query<{ n: number }, { user: string; kind: string }>(
    "SELECT count(*) AS n FROM action_runs WHERE user_id = $user AND kind = $kind AND status IN ('queued', 'running')",
  );
  const endedOfOrg = sqlite.query<{ status: "succeeded" | "failed"; n: number }, { org: string; kind: string }>(
    "SELECT status, count(*) AS n FROM action_runs WHERE org_id = $org AND kind = $kind AND status IN ('succeeded', 'failed') GROUP BY status",
  );
  // The outbox, in the order events were written (the webhook dispatcher fans it out from a cursor).
  const eventsAfterSeq = sqlite.query<OutboxEvent, { after: number; limit: number }>(
    `SELECT ${columnList(outboxEvents)} FROM outbox_events WHERE seq > $after ORDER BY seq LIMIT $limit`,
  );
  const anyEventAfter = sqlite.query<{ one: number }, { after: number }>("SELECT 1 AS one FROM outbox_events WHERE seq > $after LIMIT 1");
  const addEvent = sqlite.query(
    `INSERT INTO outbox_events (id, org_id, event, entity_id, result_url, run_id, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  /**
   * Queues a run and charges the actions budget (the key's, or a web session's member's), in the
   * caller's transaction (so whatever the caller writes with it, and the charge, stand or fall
   * together). Returns the run and the X-Actions-* headers for the 202; throws the 429 when the
   * budget is spent. `waitingFor`: the run waits (queued) for something outside (e.g.
   * "email_verification") until resume() ends the wait.
   */
  function dispatch(principal: Principal, kind: ActionKind, subjectId: string, input: Record<string, unknown>, opts: { waitingFor?: string | null } = {}) {
    const headers = chargePrincipalAction(deps, principal);
    const id = newId();
    insert.run({
      id,
      org: principal.orgId,
      user: principal.userId,
      key: principal.keyId,
      kind: kind.kind,
      eventPrefix: kind.eventPrefix,
      resultUrl: kind.resultUrl(subjectId),
      subject: subjectId,
      input: JSON.stringify(input),
      waitingFor: opts.waitingFor ?? null,
      now: clock.now().toISOString(),
    });
    // Runners pick it up after the caller's transaction commits (they read committed rows only).
    queueMicrotask(() => bus.publish(RUN_QUEUED_TOPIC, id));
    return { run: get(id)!, headers };
  }

  function get(runId: string): Run | null {
    return parse(byId.get(runId));
  }

  /** The latest run for a subject in an org (a deal's analysis, ...), or null. */
  function latestFor(orgId: string, subjectId: string): Run | null {
    return parse(latestForSubject.get(subjectId, orgId));
  }

  /** queued -> running, if nobody else took it first. */
  function start(runId: string): Run | null {
    const run = parse(claim.get({ id: runId, now: clock.now().toISOString() }));
    if (run) bus.publish(runTopic(runId), run);
    return run;
  }

  function progress(runId: string, p: Progress): void {
    setProgress.run(JSON.stringify(p), clock.now().toISOString(), runId);
    const run = get(runId);
    if (run) bus.publish(runTopic(runId), run);
  }

  function heartbeat(runId: string): void {
    beat.run(clock.now().toISOString(), runId);
  }

  /** The terminal transition and its webhook event, in one transaction. Null if the run was not in `from`. */
  function terminate(runId: string, status: "succeeded" | "failed", error: string | null, from: RunStatus = "running"): Run | null {
    const now = clock.now().toISOString();
    const run = sqlite.transaction(() => {
      const done = parse(finish.get({ id: runId, status, error, now, from }));
      if (!done) return null;
      addEvent.run(newId(), done.orgId, `${done.eventPrefix}.${status === "succeeded" ? "completed" : "failed"}`, done.subjectId, done.resultUrl, done.id, now, null);
      return done;
    })();
    if (run) bus.publish(runTopic(runId), run);
    return run;
  }

  function announce(run: Run | null, ready: boolean): Run | null {
    if (run) {
      bus.publish(runTopic(run.id), run);
      if (ready) bus.publish(RUN_QUEUED_TOPIC, run.id);
    }
    return run;
  }

  /** Waiting runs of a kind whose wait step is still to take (or was claimed before `staleBefore` and never ended). */
  function dueWaitSteps(kind: string, limit: number, staleBefore: Date): string[] {
    return waitStepsDue.all({ kind, stale: staleBefore.toISOString(), limit }).map((r) => r.id);
  }

  /** Claims a waiting run's step; null when another runner has it, it is done, or the run no longer waits. */
  function claimWaitStep(runId: string, staleBefore: Date): Run | null {
    return parse(claimStep.get({ id: runId, now: clock.now().toISOString(), stale: staleBefore.toISOString() }));
  }

  /**
   * Ends a wait step: merges `patch` into the input while the run is queued (even when the wait
   * ended meanwhile); `resume` clears waiting_for so a runner takes the run. Null when it is no
   * longer queued (failed by the sweep, say).
   */
  function endWaitStep(runId: string, patch: Record<string, unknown>, resume: boolean): Run | null {
    const run = parse(endStep.get({ id: runId, patch: JSON.stringify(patch), now: clock.now().toISOString(), resume: resume ? 1 : 0 }));
    // Ready for a runner when this ended the wait, or the wait had already ended while the step ran.
    return announce(run, run !== null && run.waitingFor === null);
  }

  /** What the run waited for has arrived: merge `patch` into its input and queue it. Null when it was not waiting. */
  function resume(runId: string, patch: Record<string, unknown>): Run | null {
    return announce(parse(resumeWaiting.get({ id: runId, patch: JSON.stringify(patch) })), true);
  }

  /** The queued or running run of any of these subjects in the org (one subject has one at most), or null. */
  function liveRunOf(orgId: string, subjectIds: string[]): Run | null {
    return subjectIds.length ? parse(liveOfSubjects.get({ org: orgId, ids: JSON.stringify(subjectIds) })) : null;
  }

  /** The org's queued runs waiting for `waitingFor` (e.g. "email_verification"), oldest first. */
  function waitingRuns(orgId: string, waitingFor: string): Run[] {
    return waitingOfOrg.all({ org: orgId, waitingFor }).map((row) => parse(row)!);
  }

  const waitingOfSubject = sqlite.query<{ id: string }, { subject: string; org: string; waitingFor: string }>(
    "SELECT id FROM action_runs WHERE subject_id = $subject AND org_id = $org AND status = 'queued' AND waiting_for = $waitingFor ORDER BY created_at, id",
  );
  const earlierRunning = sqlite.query<{ n: number }, { subject: string; org: string; id: string }>(
    `SELECT count(*) AS n FROM action_runs r, action_runs me
      WHERE me.id = $id AND r.subject_id = $subject AND r.org_id = $org AND r.id <> me.id AND r.status = 'running'
        AND (r.created_at < me.created_at OR (r.created_at = me.created_at AND r.id < me.id))`,
  );
  const earlierLive = sqlite.query<{ n: number }, { subject: string; org: string; id: string }>(
    `SELECT count(*) AS n FROM action_runs r, action_runs me
      WHERE me.id = $id AND r.subject_id = $subject AND r.org_id = $org AND r.id <> me.id AND r.status IN ('queued', 'running')
        AND (r.created_at < me.created_at OR (r.created_at = me.created_at AND r.id < me.id))`,
  );

  /** A subject's queued runs waiting for `waitingFor` (a deal's data-room pass waiting for its running pass), oldest first. */
  function waitingOf(orgId: string, subjectId: string, waitingFor: string): string[] {
    return waitingOfSubject.all({ subject: subjectId, org: orgId, waitingFor }).map((r) => r.id);
  }

  /** Whether a run of the same subject created before `runId` is running (`running`) or queued or running (`live`). */
  function earlierRunOf(orgId: string, subjectId: string, runId: string, which: "running" | "live"): boolean {
    return (which === "running" ? earlierRunning : earlierLive).get({ subject: subjectId, org: orgId, id: runId })!.n > 0;
  }

  /** The status of each subject's latest run (as latestFor judges it); subjects without a run are left out. */
  function latestStatuses(subjectIds: string[]): Map<string, RunStatus> {
    const out = new Map<string, RunStatus>();
    if (subjectIds.length === 0) return out;
    for (const r of latestStatusOf.all({ ids: JSON.stringify(subjectIds) })) if (r.status) out.set(r.subject, r.status);
    return out;
  }

  /** How many runs of a kind the user has queued or running. */
  function liveCount(userId: string, kind: string): number {
    return liveOfUser.get({ user: userId, kind })!.n;
  }

  /** The org's ended runs of a kind, by outcome. */
  function endedCounts(orgId: string, kind: string): { succeeded: number; failed: number } {
    const counts = { succeeded: 0, failed: 0 };
    for (const r of endedOfOrg.all({ org: orgId, kind })) counts[r.status] = r.n;
    return counts;
  }

  /** Outbox events written after `seq`, in order, at most `limit`. */
  function eventsAfter(seq: number, limit: number): OutboxEvent[] {
    return eventsAfterSeq.all({ after: seq, limit });
  }

  /** Whether any outbox event was written after `seq` (the dispatcher's cheap check before a fan-out). */
  function hasEventsAfter(seq: number): boolean {
    return !!anyEventAfter.get({ after: seq });
  }

  /**
   * Writes a webhook event that no run ends (e.g. `portfolio.update.received`), to be called inside
   * the caller's transaction so the event and what it reports commit together. `sourceId` stands
   * in the run's place (the outbox keys a redelivery by it). `data` joins the payload's `data`
   * beside `entity_id` and `result_url` (e.g. an update's `company_id` and counts by status).
   */
  function recordEvent(orgId: string, event: string, entityId: string, resultUrl: string, sourceId: string, data?: Record<string, unknown>): void {
    addEvent.run(newId(), orgId, event, entityId, resultUrl, sourceId, clock.now().toISOString(), data ? JSON.stringify(data) : null);
  }

  const succeed = (runId: string) => terminate(runId, "succeeded", null);
  const fail = (runId: string, error: string, from: RunStatus = "running") => terminate(runId, "failed", error, from);

  return {
    recordEvent,
    dispatch,
    get,
    latestFor,
    start,
    progress,
    heartbeat,
    succeed,
    fail,
    dueWaitSteps,
    claimWaitStep,
    endWaitStep,
    resume,
    liveRunOf,
    waitingRuns,
    waitingOf,
    earlierRunOf,
    latestStatuses,
    liveCount,
    endedCounts,
    eventsAfter,
    hasEventsAfter,
  };
});
