import type { Deps } from "../../deps.ts";
import { actionsService } from "./actions.service.ts";

/**
 * Fails every running run without a heartbeat for DEALGRAPH_STALE_RUN_SECONDS. Unlike the service
 * the spec describes, the failure still writes its `.failed` event: receivers hear of it.
 */
export function sweepStaleRuns(deps: Deps): { failed: number; expired: number } {
  const seconds = deps.config.staleRunSeconds;
  const cutoff = new Date(deps.clock.now().getTime() - seconds * 1000).toISOString();
  const stale = deps.db.$client
    .query<{ id: string }, [string]>("SELECT id FROM action_runs WHERE status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < ?)")
    .all(cutoff);
  const actions = actionsService(deps);
  let failed = 0;
  for (const { id } of stale) {
    if (actions.fail(id, `The run stopped reporting progress for more than ${seconds} seconds and was failed by the stale-run sweep`)) failed++;
  }
  // Runs waiting on something outside (an email verification) give up after a day, saying why.
  const dayAgo = new Date(deps.clock.now().getTime() - 86_400_000).toISOString();
  const waiting = deps.db.$client
    .query<{ id: string; waiting_for: string }, [string]>("SELECT id, waiting_for FROM action_runs WHERE status = 'queued' AND waiting_for IS NOT NULL AND created_at < ?")
    .all(dayAgo);
  let expired = 0;
  for (const run of waiting) {
    const why = run.waiting_for === "email_verification" ? "The document host's email verification did not complete within 24 hours" : `Waited more than 24 hours for ${run.waiting_for}`;
    if (actions.fail(run.id, why, "queued")) expired++;
  }
  return { failed, expired };
}
