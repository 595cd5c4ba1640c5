// Runs in a worker thread: the real founders service on its own SQLite connection, requesting the
// same founder's analysis in a race with other workers on the same file.
import { loadConfig } from "../../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../../src/db/client.ts";
import { createDeps } from "../../../src/deps.ts";
import { silentLog } from "../../../src/lib/log.ts";
import { foundersService } from "../../../src/modules/founders/founders.service.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { TestClock } from "../../helpers/clock.ts";
declare const self: Worker;

self.onmessage = (e: MessageEvent) => {
  const { path, secret, body, attempts, at } = e.data as { path: string; secret: string; body: unknown; attempts: number; at: string };
  const sqlite = openSqlite(path, { busyTimeoutMs: 10_000 });
  const deps = createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), clock: new TestClock(at), log: silentLog });
  const founders = foundersService(deps);
  const principal = principalOf(deps, secret);
  const answers = Array.from({ length: attempts }, () => founders.analyze(principal, body).body);
  sqlite.close();
  self.postMessage(answers.map((a) => ({ id: a.analysis_id, existing: a.existing })));
};
