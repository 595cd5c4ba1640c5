import { chmodSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import { openSqlite, wrapDrizzle, type Db } from "./client.ts";
import { applyMigrations } from "./migrate.ts";

export const databasePath = (dataDir: string) => join(dataDir, "dealgraph.db");

/**
 * The data dir is the server's alone: the dir itself 0700 (nobody else may enter it, whatever the
 * modes inside), its top-level files 0600 and folders 0700. Data dirs made by earlier releases
 * (0755 and 0644 under a usual umask) are brought to this on every open; new files get it from
 * the process umask (077, set by main.ts). A path we cannot change (not ours) is left as it is.
 */
export function hardenDataDir(dataDir: string): void {
  const chmod = (path: string, mode: number) => {
    try {
      if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
    } catch {
      // not ours to change, or gone meanwhile
    }
  };
  chmod(dataDir, 0o700);
  let names: string[] = [];
  try {
    names = readdirSync(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dataDir, name);
    try {
      const st = statSync(path);
      if (st.isDirectory()) chmod(path, 0o700);
      else if (st.isFile()) chmod(path, 0o600);
    } catch {
      // gone meanwhile
    }
  }
}

/** Opens (creating if needed) the data dir's database, as it is: no migration applied. */
export function openDatabase(config: Config): Database {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  hardenDataDir(config.dataDir);
  return openSqlite(databasePath(config.dataDir), { busyTimeoutMs: config.busyTimeoutMs, cacheMb: config.sqliteCacheMb, mmapMb: config.sqliteMmapMb });
}

/** Opens the data dir's database and brings its schema up to date. */
export function openDataDir(config: Config): { db: Db; migrated: string[] } {
  const sqlite = openDatabase(config);
  try {
    const migrated = applyMigrations(sqlite);
    return { db: wrapDrizzle(sqlite), migrated };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}
