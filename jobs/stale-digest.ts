import { staleDigest } from "../src/modules/connections/connections.digest.ts";
import type { Job } from "./job.ts";

export const staleDigestJob: Job = {
  id: "stale-digest",
  pattern: "0 7 * * 1",
  description: "email the weekly going-stale digest to the members who asked for it (needs DEALGRAPH_SMTP_URL)",
  runOnce: (deps) => staleDigest(deps).sendDue(),
};
