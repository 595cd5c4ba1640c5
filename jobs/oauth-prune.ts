import { oauthService } from "../src/modules/oauth/oauth.service.ts";
import type { Job } from "./job.ts";

export const oauthPrune: Job = {
  id: "oauth-prune",
  pattern: "23 3 * * *",
  description: "drop MCP sign-in codes and tokens a day past their expiry, and registered clients that never completed a grant within a day",
  runOnce: (deps) => {
    const { codes, tokens, clients } = oauthService(deps).pruneExpired();
    return { codes_deleted: codes, tokens_deleted: tokens, clients_deleted: clients };
  },
};
