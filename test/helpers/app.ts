// The app factory every test starts from: a fresh migrated database per test (a migrated
// in-memory template, copied), the real app, and a request helper over app.handle.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { applyPragmas, openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { silentLog, type Log } from "../../src/lib/log.ts";
import { TestClock } from "./clock.ts";

let template: Uint8Array | null = null;

function migratedCopy(): Database {
  if (!template) {
    const t = new Database(":memory:");
    applyMigrations(t);
    template = t.serialize();
    t.close();
  }
  const db = Database.deserialize(template, { strict: true });
  applyPragmas(db, { busyTimeoutMs: 0 });
  return db;
}

export type TestAppOptions = {
  clock?: TestClock;
  env?: Record<string, string>;
  log?: Log;
  /** A real file in a temp dir instead of memory: for tests of locking and multiple connections. */
  file?: boolean;
  busyTimeoutMs?: number;
};

export type RequestOptions = {
  key?: string | null;
  /** How to send the key: `Authorization: Bearer` (default) or `X-API-Key`. */
  via?: "bearer" | "x-api-key";
  body?: unknown;
  /** A body sent as is, with content-type application/json unless `contentType` says otherwise. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
};

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export function createTestApp(opts: TestAppOptions = {}) {
  const clock = opts.clock ?? new TestClock();
  const config = loadConfig(opts.env ?? {}, {});
  let dataDir: string | null = null;
  let sqlite: Database;
  if (opts.file) {
    dataDir = mkdtempSync(join(tmpdir(), "dealgraph-test-"));
    config.dataDir = dataDir;
    sqlite = openSqlite(join(dataDir, "dealgraph.db"), { busyTimeoutMs: opts.busyTimeoutMs ?? 2000 });
    applyMigrations(sqlite);
  } else {
    sqlite = migratedCopy();
  }
  const deps: Deps = createDeps({ db: wrapDrizzle(sqlite), config, clock, log: opts.log ?? silentLog });
  const app = createApp(deps);

  async function request(method: string, path: string, o: RequestOptions = {}) {
    const headers = new Headers(o.headers);
    if (o.key) headers.set(o.via === "x-api-key" ? "x-api-key" : "authorization", o.via === "x-api-key" ? o.key : `Bearer ${o.key}`);
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !headers.has("content-type")) headers.set("content-type", o.contentType ?? "application/json");
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  function close() {
    sqlite.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }

  return { app, deps, clock, request, close, dataDir };
}
