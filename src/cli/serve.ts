import type { Server } from "bun";
import { startBackground } from "../../jobs/index.ts";
import { createApp } from "../app.ts";
import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { loadConfig, type Config, type ConfigOverrides } from "../config.ts";
import { startCheckpointer } from "../db/checkpointer.ts";
import { wrapDrizzle } from "../db/client.ts";
import { applyMigrations, migrationStatus } from "../db/migrate.ts";
import { databasePath, openDatabase } from "../db/open.ts";
import { acquireServeLock, type ServeLock } from "../db/serve-lock.ts";
import { createDeps, type Deps } from "../deps.ts";
import { createLog, type Log } from "../lib/log.ts";
import { createBackup } from "../modules/backups/backups.service.ts";
import { parse, UsageError, type Io } from "./io.ts";

export type Running = { url: string; server: Server<unknown>; stop(): Promise<void> };

/** Serves HTTP (src/app.ts) and runs the background work (jobs/index.ts) until stopped; SIGINT/SIGTERM stop it cleanly. */
export function startServer(deps: Deps, opts: { lock?: ServeLock } = {}): Running {
  const app = createApp(deps);
  app.listen({ hostname: deps.config.host, port: deps.config.port });
  const server = app.server!;
  // Checkpoints (and their fsyncs) in a worker thread, not inside a request's commit (db/checkpointer.ts).
  const checkpoints = startCheckpointer(deps.db.$client, { busyTimeoutMs: deps.config.busyTimeoutMs });
  const background = startBackground(deps);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await background.stop();
    await server.stop();
    await checkpoints.stop(); // the last checkpoint, on this connection
    deps.db.$client.close();
    opts.lock?.release();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      deps.log.info("stopping", { signal });
      stop().then(() => process.exit(0));
    });
  }
  return { url: server.url.toString().replace(/\/$/, ""), server, stop };
}

export function serverOptions(args: string[], extra: Parameters<typeof parse>[1] = {}) {
  const { values, positionals } = parse(args, { host: { type: "string" }, port: { type: "string" }, ...extra });
  const overrides: ConfigOverrides = {};
  if (values.host) overrides.host = values.host as string;
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${JSON.stringify(values.port)}`);
    overrides.port = port;
  }
  if (values["data-dir"]) overrides.dataDir = values["data-dir"] as string;
  return { values, positionals, overrides };
}

export type Serving = { deps: Deps; lock: ServeLock };

/**
 * Takes the data dir (one server per data dir), opens its database and brings it up to date: on a
 * data dir an earlier release made, a backup is written first (<data-dir>/backups/), then every
 * pending migration is applied in one transaction, so a failure leaves the database as it was.
 */
export async function openForServing(io: Io, overrides: ConfigOverrides, command: "serve" | "demo"): Promise<Serving> {
  const config = loadConfig(io.env, overrides);
  const log = createLog();
  mkdirSync(config.dataDir, { recursive: true });
  const lock = acquireServeLock(config.dataDir, command);
  try {
    const sqlite = openDatabase(config);
    try {
      await backUpBeforeUpgrade(sqlite, config, log);
      const migrated = applyMigrations(sqlite);
      log.info("database ready", { path: databasePath(config.dataDir), migrations_applied_now: migrated });
      return { deps: createDeps({ db: wrapDrizzle(sqlite), config, log }), lock };
    } catch (error) {
      sqlite.close();
      throw error;
    }
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** A database with some but not all migrations applied was made by an earlier release: back it up first. */
async function backUpBeforeUpgrade(sqlite: Database, config: Config, log: Log): Promise<void> {
  const status = migrationStatus(sqlite);
  if (status.applied === 0 || status.pending.length === 0) return;
  log.info("upgrading the data dir: writing a backup first", { pending: status.pending });
  const written = await createBackup({ config, now: new Date(), suffix: "pre-upgrade", progress: (line) => log.info(`backup ${line}`) });
  log.info("backup written before the upgrade", { file: written.file, bytes: written.bytes });
}

export async function serveCommand(args: string[], io: Io) {
  const { overrides } = serverOptions(args);
  const { deps, lock } = await openForServing(io, overrides, "serve");
  const running = startServer(deps, { lock });
  io.out(`Dealgraph listening on ${running.url} (API docs: ${running.url}/api/v1/docs)`);
  return running;
}
