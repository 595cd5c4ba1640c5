// The app factory every test starts from: a fresh migrated database per test (a migrated
// in-memory template, copied), the real app, and a request helper over app.handle; seededApp(),
// the same with the standard firm, closed when the test that made it finishes; the app on a
// loopback port; and the real runner taking what is queued.
import { Database } from "bun:sqlite";
import { onTestFinished } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHandlers } from "../../jobs/index.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { applyPragmas, openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { silentLog, type Log } from "../../src/lib/log.ts";
import { startRunner, type Handler } from "../../src/modules/actions/runner.ts";
import { TestClock } from "./clock.ts";
import { seedIdentity, type Fixture } from "./fixtures.ts";

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

  /** A request through app.handle; `json` is the body parsed (typed as the caller says: `request<Static<typeof Model>>`). */
  async function request<T = any>(method: string, path: string, o: RequestOptions = {}) {
    const headers = new Headers(o.headers);
    if (o.key) headers.set(o.via === "x-api-key" ? "x-api-key" : "authorization", o.via === "x-api-key" ? o.key : `Bearer ${o.key}`);
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !headers.has("content-type")) headers.set("content-type", o.contentType ?? "application/json");
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let json: T = undefined as T;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined as T;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  let closed = false;
  /** Closes the database and removes the data dir; a second call does nothing. */
  function close() {
    if (closed) return;
    closed = true;
    sqlite.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }

  return { app, deps, clock, request, close, dataDir };
}

/**
 * Where most tests start: a fresh app with the standard firm (fixtures.ts), closed when the test
 * that called this finishes (after its afterEach hooks, so a server or runner on it stops first).
 */
export function seededApp(opts: TestAppOptions = {}): { t: TestApp; f: Fixture } {
  const t = createTestApp(opts);
  onTestFinished(() => t.close());
  return { t, f: seedIdentity(t.deps) };
}

/** A server on a loopback port (for clients that need a real socket), stopped when the test finishes. */
export function loopbackServer(fetch: (request: Request) => Response | Promise<Response>) {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch });
  onTestFinished(() => server.stop(true));
  return server;
}

/** The app served on a loopback port until the test finishes; its base URL. */
export function serveApp(t: TestApp): string {
  return `http://127.0.0.1:${loopbackServer((request) => t.app.handle(request)).port}`;
}

/** The real runner on the app (its handlers unless given), stopped when the test finishes. */
export function testRunner(t: TestApp, handlers: Map<string, Handler> = runHandlers(t.deps), opts: Parameters<typeof startRunner>[2] = { pollMs: 60_000 }) {
  const runner = startRunner(t.deps, handlers, opts);
  onTestFinished(() => runner.stop());
  return runner;
}

/** Runs every queued run to its end with the real runner (the app's handlers unless given), then stops it. */
export async function runAll(t: TestApp, handlers: Map<string, Handler> = runHandlers(t.deps)) {
  const runner = startRunner(t.deps, handlers, { pollMs: 60_000 });
  runner.pump();
  await runner.idle();
  await runner.stop();
}
