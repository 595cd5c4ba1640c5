import { loadConfig, type ConfigOverrides } from "../config.ts";
import { openDataDir } from "../db/open.ts";
import { createDeps, type Deps } from "../deps.ts";
import { createLog } from "../lib/log.ts";
import type { Io } from "./io.ts";

/** Opens the data dir named by --data-dir (or DEALGRAPH_DATA_DIR, or ./data), migrated. */
export function openDeps(io: Io, values: { "data-dir"?: string }, overrides: ConfigOverrides = {}, logToStderr = false): Deps {
  const config = loadConfig(io.env, { ...overrides, ...(values["data-dir"] ? { dataDir: values["data-dir"] } : {}) });
  const { db } = openDataDir(config);
  return createDeps({ db, config, log: createLog({ silent: !logToStderr }) });
}
