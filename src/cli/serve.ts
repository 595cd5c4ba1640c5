import type { Server } from "bun";
import { startBackground } from "../../jobs/index.ts";
import { createApp } from "../app.ts";
import { loadConfig, type ConfigOverrides } from "../config.ts";
import { databasePath, openDataDir } from "../db/open.ts";
import { createDeps, type Deps } from "../deps.ts";
import { createLog } from "../lib/log.ts";
import { parse, UsageError, type Io } from "./io.ts";

export type Running = { url: string; server: Server<unknown>; stop(): Promise<void> };

/** Serves HTTP (src/app.ts) and runs the background work (jobs/index.ts) until stopped; SIGINT/SIGTERM stop it cleanly. */
export function startServer(deps: Deps): Running {
  const app = createApp(deps);
  app.listen({ hostname: deps.config.host, port: deps.config.port });
  const server = app.server!;
  const background = startBackground(deps);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await background.stop();
    await server.stop();
    deps.db.$client.close();
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

export function openForServing(io: Io, overrides: ConfigOverrides): Deps {
  const config = loadConfig(io.env, overrides);
  const log = createLog();
  const { db, migrated } = openDataDir(config);
  log.info("database ready", { path: databasePath(config.dataDir), migrations_applied_now: migrated });
  return createDeps({ db, config, log });
}

export async function serveCommand(args: string[], io: Io) {
  const { overrides } = serverOptions(args);
  const running = startServer(openForServing(io, overrides));
  io.out(`Dealgraph listening on ${running.url} (API docs: ${running.url}/api/v1/docs)`);
  return running;
}
