// Runs in a worker thread: the real mail importer on its own SQLite connection to the test's
// database file. The test sends `open`, then one `file` at a time, each imported (one
// transaction) while the test goes on reading pages on its own connection; `imported` is posted
// after each commit, `closed` after `close`.
import type { Database } from "bun:sqlite";
import { loadConfig } from "../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { importMail } from "../../src/modules/network/import/network.import.ts";
import { TestClock } from "./clock.ts";
declare const self: Worker;

type Message = { open: { db: string; userId: string; at: string } } | { file: string } | { close: true };

let sqlite: Database;
let deps: Deps;
let userId: string;

self.onmessage = (e: MessageEvent<Message>) => {
  const m = e.data;
  if ("open" in m) {
    sqlite = openSqlite(m.open.db, { busyTimeoutMs: 10_000 });
    deps = createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), clock: new TestClock(m.open.at), log: silentLog });
    userId = m.open.userId;
  } else if ("file" in m) {
    importMail(deps, { userId, path: m.file });
    self.postMessage("imported");
  } else {
    sqlite.close();
    self.postMessage("closed");
  }
};
