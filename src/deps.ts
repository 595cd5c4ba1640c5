import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { OutboundOverrides } from "./lib/safe-fetch.ts";
import { Bus } from "./lib/bus.ts";
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

export function createDeps(parts: { db: Db; config: Config; clock?: Clock; log?: Log; bus?: Bus }): Deps {
  return {
    db: parts.db,
    config: parts.config,
    clock: parts.clock ?? systemClock,
    log: parts.log ?? createLog(),
    bus: parts.bus ?? new Bus(),
  };
}
