import { connectionsSync } from "../src/modules/connections/connections.sync.ts";
import type { Job } from "./job.ts";

export const mailSync: Job = {
  id: "mail-sync",
  // What the default interval (300 s) is as a pattern; the schedule itself is the interval below.
  pattern: "*/5 * * * *",
  everySeconds: (config) => config.syncIntervalSeconds,
  description: "sync every connected mailbox and calendar that is due (DEALGRAPH_SYNC_INTERVAL_SECONDS; failing ones back off)",
  runOnce: (deps) => connectionsSync(deps).syncDue(),
  stop: (deps) => connectionsSync(deps).stop(),
};
