import { learnCadences } from "../src/modules/network/network.cadence.ts";
import type { Job } from "./job.ts";

export const cadenceLearning: Job = {
  id: "cadence-learning",
  pattern: "5 2 * * *",
  description: "learn each relationship's keep-in-touch cadence from its touch history",
  runOnce: (deps) => learnCadences(deps),
};
