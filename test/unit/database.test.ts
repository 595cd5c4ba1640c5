import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { applyMigrations, migrationStatus } from "../../src/db/migrate.ts";
import { databasePath, openDataDir } from "../../src/db/open.ts";
import { dataSteps } from "../../migrations/data-steps.ts";
import { migrations } from "../../migrations/index.ts";

// The SQL migrations, then the one-time data steps recorded beside them.
const ALL_TAGS = [...migrations.map((m) => m.tag), ...dataSteps.map((s) => s.tag)];

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("a data dir opens with WAL, a busy timeout and foreign keys, migrated once", () => {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-db-"));
  dirs.push(dir);
  const config = { ...loadConfig({}), dataDir: join(dir, "nested", "data"), busyTimeoutMs: 1234 };
  const first = openDataDir(config);
  expect(first.migrated).toEqual(ALL_TAGS);
  const sqlite = first.db.$client;
  expect(sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode).toBe("wal");
  expect(sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()?.timeout).toBe(1234);
  expect(sqlite.query<{ foreign_keys: number }, []>("PRAGMA foreign_keys").get()?.foreign_keys).toBe(1);
  // The page cache and the memory map as configured (defaults: 64 MB and 256 MB).
  expect(sqlite.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size).toBe(-64 * 1024);
  expect(sqlite.query<{ mmap_size: number }, []>("PRAGMA mmap_size").get()?.mmap_size).toBe(256 * 1024 * 1024);
  // Foreign keys are enforced: a key for a user that does not exist is refused.
  expect(() =>
    sqlite.query("INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, scope, created_at) VALUES ('k', 'nobody', 'n', 'p', 'h', 'read', 'now')").run(),
  ).toThrow(/FOREIGN KEY/);
  sqlite.close();
  const second = openDataDir(config);
  expect(second.migrated).toEqual([]);
  expect(migrationStatus(second.db.$client)).toEqual({ applied: ALL_TAGS.length, expected: ALL_TAGS.length, pending: [] });
  second.db.$client.close();
  expect(databasePath(config.dataDir)).toBe(join(dir, "nested", "data", "dealgraph.db"));
});

test("two connections migrating one file at once apply each migration exactly once", () => {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-db-"));
  dirs.push(dir);
  const a = new Database(join(dir, "x.db"));
  const b = new Database(join(dir, "x.db"));
  a.exec("PRAGMA busy_timeout = 2000");
  b.exec("PRAGMA busy_timeout = 2000");
  const applied = [...applyMigrations(a), ...applyMigrations(b)];
  expect(applied).toEqual(ALL_TAGS);
  a.close();
  b.close();
});

test("DEALGRAPH_SQLITE_CACHE_MB and DEALGRAPH_SQLITE_MMAP_MB size the connection's page cache and memory map", () => {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-db-"));
  dirs.push(dir);
  const config = loadConfig({ DEALGRAPH_DATA_DIR: dir, DEALGRAPH_SQLITE_CACHE_MB: "300", DEALGRAPH_SQLITE_MMAP_MB: "0" });
  const { db } = openDataDir(config);
  expect(db.$client.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size).toBe(-300 * 1024);
  expect(db.$client.query<{ mmap_size: number }, []>("PRAGMA mmap_size").get()?.mmap_size).toBe(0);
  db.$client.close();
});
