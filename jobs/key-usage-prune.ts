import { budgetsService } from "../src/modules/identity/budgets.service.ts";
import { webBudgets } from "../src/modules/identity/web-budgets.service.ts";
import { webAuth } from "../src/modules/web/web.auth.ts";
import type { Job } from "./job.ts";

/** Usage counters are kept 400 days (a year of "last used" history), then dropped. */
export const USAGE_RETENTION_DAYS = 400;

export const keyUsagePrune: Job = {
  id: "key-usage-prune",
  pattern: "17 3 * * *",
  description: `drop per-key and per-member (web app) daily usage counters older than ${USAGE_RETENTION_DAYS} days, and web sign-in failures older than a day`,
  runOnce: (deps) => ({
    deleted: budgetsService(deps).pruneUsage(USAGE_RETENTION_DAYS),
    web_usage_deleted: webBudgets(deps).prune(USAGE_RETENTION_DAYS),
    sign_in_failures_deleted: webAuth(deps).pruneFailures(),
  }),
};
