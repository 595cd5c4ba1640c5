import { refreshReachCandidates } from "../src/modules/network/network.reach-compute.ts";
import type { Job } from "./job.ts";

export const reachCandidates: Job = {
  id: "reach-candidates",
  pattern: "35 2 * * *",
  description: "find founders each user can reach through someone they know well, scored against the sectors and stages of the firm's book",
  runOnce: (deps) => refreshReachCandidates(deps),
};
