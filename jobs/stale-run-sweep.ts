import { sweepStaleRuns } from "../src/modules/actions/actions.sweep.ts";
import type { Job } from "./job.ts";

export const staleRunSweep: Job = {
  id: "stale-run-sweep",
  pattern: "* * * * *",
  description: "fail running actions whose heartbeat is older than DEALGRAPH_STALE_RUN_SECONDS (and emit their .failed events)",
  runOnce: (deps) => sweepStaleRuns(deps),
};
