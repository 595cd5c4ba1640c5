import type { Deps } from "../../deps.ts";
import { actionsService } from "./actions.service.ts";

/**
 * Fails every running run without a heartbeat for DEALGRAPH_STALE_RUN_SECONDS. Unlike the service
 * the spec describes, the failure still writes its `.failed` event: receivers hear of it.
 */
export function sweepStaleRuns(deps: Deps): { failed: number } {
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
  return { failed };
}
