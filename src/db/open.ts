import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import { openSqlite, wrapDrizzle, type Db } from "./client.ts";
import { applyMigrations } from "./migrate.ts";

export const databasePath = (dataDir: string) => join(dataDir, "dealgraph.db");

/** Opens (creating if needed) the data dir's database, as it is: no migration applied. */
export function openDatabase(config: Config): Database {
  mkdirSync(config.dataDir, { recursive: true });
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
