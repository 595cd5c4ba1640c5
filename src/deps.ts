import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { OutboundOverrides } from "./lib/safe-fetch.ts";
import { Bus } from "./lib/bus.ts";
import { createSecretBox, type SecretBox } from "./lib/secret-box.ts";
import { loadServerKey, purposeKey, SECRET_BOX_PURPOSE, type KeyPurpose } from "./lib/server-key.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createLog, type Log } from "./lib/log.ts";

// What every route, service and job is built from. Later capabilities add their parts here
// (a blob store for documents, the analysis engines) rather than reaching for globals.
export type Deps = {
  db: Db;
  clock: Clock;
  config: Config;
  log: Log;
  bus: Bus;
  /** The server's secret key (outside the database), by purpose, and the box that seals with it. */
  secrets: Secrets;
  /**
   * Tests only: a resolver and dial that stand loopback servers in for public hosts (document
   * hosts, websites). Set by test code on the object, never from configuration or a request.
   */
  outbound?: OutboundOverrides;
};

/**
 * One service instance per Deps, so its prepared statements are compiled once and shared by
 * every route and job that asks for it.
 */
export function perDeps<S>(build: (deps: Deps) => S): (deps: Deps) => S {
  const cache = new WeakMap<Deps, S>();
  return (deps) => {
    let service = cache.get(deps);
    if (!service) cache.set(deps, (service = build(deps)));
    return service;
  };
}

export type Secrets = {
  /** The 32-byte key for one purpose (read or made on first use). */
  key(purpose: KeyPurpose): Uint8Array;
  /** Seals secrets at rest (webhook secrets, document-link passwords and cookies, mail credentials). */
  box: SecretBox;
};

function createSecrets(db: Db, config: Config, log: Log): Secrets {
  let master: Uint8Array | null = null;
  const key = (purpose: KeyPurpose) => {
    const file = db.$client.filename;
    master ??= loadServerKey({ secretKey: config.secretKey, dataDir: config.dataDir, ephemeral: file === ":memory:" || file === "", warn: (message, fields) => log.warn(message, fields) });
    return purposeKey(master, purpose);
  };
  return { key, box: createSecretBox(() => key(SECRET_BOX_PURPOSE)) };
}

export function createDeps(parts: { db: Db; config: Config; clock?: Clock; log?: Log; bus?: Bus }): Deps {
  const log = parts.log ?? createLog();
  return {
    db: parts.db,
    config: parts.config,
    clock: parts.clock ?? systemClock,
    log,
    bus: parts.bus ?? new Bus(),
    secrets: createSecrets(parts.db, parts.config, log),
  };
}
