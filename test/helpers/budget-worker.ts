// Runs in a worker thread: the real budgets service on its own SQLite connection, charging one
// key's request budget in a race with other workers on the same file.
import { loadConfig } from "../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { budgetsService } from "../../src/modules/identity/budgets.service.ts";
import { TestClock } from "./clock.ts";
declare const self: Worker;

self.onmessage = (e: MessageEvent) => {
  const { path, keyId, limit, attempts, at } = e.data as { path: string; keyId: string; limit: number; attempts: number; at: string };
  const sqlite = openSqlite(path, { busyTimeoutMs: 10_000 });
  const deps = createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), clock: new TestClock(at), log: silentLog });
  const budgets = budgetsService(deps);
  let admitted = 0;
  for (let i = 0; i < attempts; i++) if (budgets.countRequest({ keyId: keyId }, limit).allowed) admitted++;
  sqlite.close();
  self.postMessage(admitted);
};
