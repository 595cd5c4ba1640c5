import { DEFAULT_BACKUP_CRON } from "../src/config.ts";
import { backupsService } from "../src/modules/backups/backups.service.ts";
import type { Job } from "./job.ts";

export const backup: Job = {
  id: "backup",
  pattern: DEFAULT_BACKUP_CRON,
  schedule: (config) => config.backupCron,
  description: "write a verified backup of the data dir into <data-dir>/backups (DEALGRAPH_BACKUP_CRON) and keep the newest DEALGRAPH_BACKUP_KEEP",
  runOnce: (deps) => backupsService(deps).runScheduled(),
};
