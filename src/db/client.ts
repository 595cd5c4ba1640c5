import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { stabilizeStatements } from "./stable-statements.ts";

// No schema is handed to drizzle: the code builds its queries from the tables it imports and never
// uses the relational query API, whose metadata cost start-up about 4 ms to build.
export type Db = BunSQLiteDatabase & { $client: Database };

export type OpenOptions = {
  busyTimeoutMs: number;
  /** The page cache's ceiling in MB (SQLite's default, 2 MB, when not given). */
  cacheMb?: number;
  /** How much of the file to read through a memory map, in MB (none when not given). */
  mmapMb?: number;
};

/** Opens (creating if needed) the database with the pragmas every connection must have. */
export function openSqlite(path: string, opts: OpenOptions): Database {
  const sqlite = new Database(path, { create: true, strict: true });
  applyPragmas(sqlite, opts);
  return sqlite;
}

export function applyPragmas(sqlite: Database, opts: OpenOptions): void {
  // busy_timeout first: switching to WAL itself needs the lock another process may hold.
  sqlite.exec(`PRAGMA busy_timeout = ${Math.trunc(opts.busyTimeoutMs)}`);
  if (sqlite.filename !== ":memory:" && sqlite.filename !== "") sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // A negative cache_size is in KiB.
  if (opts.cacheMb !== undefined) sqlite.exec(`PRAGMA cache_size = ${-Math.trunc(opts.cacheMb * 1024)}`);
  if (opts.mmapMb !== undefined) sqlite.exec(`PRAGMA mmap_size = ${Math.trunc(opts.mmapMb * 1024 * 1024)}`);
}

/** The app's handle on a connection: drizzle over bun:sqlite, every statement compiled once (stable-statements.ts). */
export function wrapDrizzle(sqlite: Database): Db {
  stabilizeStatements(sqlite);
  return drizzle({ client: sqlite }) as Db;
}
