import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { openSqlite, wrapDrizzle, type Db } from "./client.ts";
import { applyMigrations } from "./migrate.ts";

export const databasePath = (dataDir: string) => join(dataDir, "dealgraph.db");

/** Opens the data dir's database and brings its schema up to date. */
export function openDataDir(config: Config): { db: Db; migrated: string[] } {
  mkdirSync(config.dataDir, { recursive: true });
  const sqlite = openSqlite(databasePath(config.dataDir), { busyTimeoutMs: config.busyTimeoutMs });
  const migrated = applyMigrations(sqlite);
  return { db: wrapDrizzle(sqlite), migrated };
}
