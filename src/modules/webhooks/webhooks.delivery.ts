// The dispatcher: fans each outbox event out to every endpoint of its org registered by then (one
// ledger row per event x endpoint), then delivers due rows with bounded concurrency through
// safe-fetch, records every attempt, and schedules the next. State lives in the database only: a
// lease marks a row in flight, so a killed process's rows are taken up again once it lapses, and
// two dispatchers (the server's and `dealgraph jobs run webhook-delivery`) never send one attempt twice.
import type { Deps } from "../../deps.ts";
import { safeFetch, SafeFetchError } from "../../lib/safe-fetch.ts";
import { actionsService, RUN_QUEUED_TOPIC, runTopic, type Run } from "../actions/actions.service.ts";
import { newId } from "../../lib/ids.ts";
import { columnList, type RowOf } from "../../db/rows.ts";
import { classify, nextStep, parseRetryAfter } from "./webhooks.schedule.ts";
import { signatureHeader } from "./webhooks.secrets.ts";
import { webhookCursor, webhookDeliveries, webhookEndpoints } from "./webhooks.tables.ts";
import { DELIVERY_COLUMNS, ENDPOINT_COLUMNS, webhookResolver, WEBHOOKS_WAKE_TOPIC, type DeliveryRow, type EndpointRow } from "./webhooks.service.ts";

export type DispatcherOptions = {
  /** Attempts in flight at once (default 32), and per endpoint (default 16). */
  concurrency?: number;
  perEndpoint?: number;
  random?: () => number;
};

export type DispatchStats = { fannedOut: number; attempted: number; succeeded: number; retrying: number; failed: number };

const FANOUT_BATCH = 500;
const MAX_WATCHED = 10_000;
/** How long past the receiver timeout a lease outlives a silent worker. */
const LEASE_GRACE_MS = 15_000;

// Deps whose process runs the server's dispatcher (then the minute job has nothing to add).
const serving = new WeakSet<Deps>();
export const dispatcherRunning = (deps: Deps): boolean => serving.has(deps);

/**
 * The thin payload: the receiver fetches `result_url` for detail. An event that no run ends may
 * add fields of its own after these two (`portfolio.update.received`: `update_id`, `company_id`,
 * `counts`); a run's events carry exactly these.
 */
export function payloadOf(d: Pick<DeliveryRow, "id" | "event" | "eventCreatedAt" | "entityId" | "resultUrl" | "data">): string {
  const extra = d.data ? (JSON.parse(d.data) as Record<string, unknown>) : {};
  return JSON.stringify({ event: d.event, id: d.id, created_at: d.eventCreatedAt, data: { entity_id: d.entityId, result_url: d.resultUrl, ...extra } });
}

export function createDispatcher(deps: Deps, opts: DispatcherOptions = {}) {
  const { clock, config, log } = deps;
  const sqlite = deps.db.$client;
  const box = deps.secrets.box;
  const concurrency = opts.concurrency ?? 32;
  const perEndpoint = opts.perEndpoint ?? 16;
  const timeoutMs = config.webhookTimeoutSeconds * 1000;
  const inFlight = new Map<string, Promise<void>>();
  const perEndpointCount = new Map<string, number>();
  const stats: DispatchStats = { fannedOut: 0, attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
  let stopped = false;
  // Stopping aborts attempts in flight: their rows are released untouched and tried again later.
  const abort = new AbortController();
  const actions = actionsService(deps);

  sqlite.query("INSERT OR IGNORE INTO webhook_cursor (id, last_seq) VALUES (1, 0)").run();
  const cursor = sqlite.query<Pick<RowOf<typeof webhookCursor>, "lastSeq">, []>(`SELECT ${columnList(webhookCursor, { only: ["lastSeq"] })} FROM webhook_cursor WHERE id = 1`);
  // An event goes to every endpoint of its org that was live when it was written.
  const liveEndpointsOf = sqlite.query<Pick<EndpointRow, "id" | "createdAt">, [string]>(
    `SELECT ${columnList(webhookEndpoints, { only: ["id", "createdAt"] })} FROM webhook_endpoints WHERE org_id = ? AND deleted_at IS NULL ORDER BY created_at, id`,
  );
  const insertDelivery = sqlite.query(
    `INSERT OR IGNORE INTO webhook_deliveries (id, org_id, endpoint_id, outbox_event_id, event, entity_id, result_url, data, event_created_at,
       status, round_started_at, next_attempt_at, created_at)
     VALUES ($id, $org, $endpoint, $eventId, $event, $entity, $result, $data, $eventAt, 'pending', $now, $now, $now)`,
  );
  const advance = sqlite.query("UPDATE webhook_cursor SET last_seq = ? WHERE id = 1 AND last_seq < ?");
  // Oldest due first, straight off the (status, next_attempt_at) index; `$skip` (a JSON array) leaves
  // out endpoints already at their in-flight cap, so one endpoint's backlog cannot starve the others.
  const due = sqlite.query<Pick<DeliveryRow, "id" | "endpointId">, { now: string; skip: string; limit: number }>(
    `SELECT ${columnList(webhookDeliveries, { only: ["id", "endpointId"] })} FROM webhook_deliveries
     WHERE status = 'pending' AND next_attempt_at <= $now AND (lease_until IS NULL OR lease_until <= $now)
       AND endpoint_id NOT IN (SELECT value FROM json_each($skip))
     ORDER BY next_attempt_at LIMIT $limit`,
  );
  const claim = sqlite.query<DeliveryRow, { id: string; now: string; lease: string }>(
    `UPDATE webhook_deliveries SET lease_until = $lease
     WHERE id = $id AND status = 'pending' AND next_attempt_at <= $now AND (lease_until IS NULL OR lease_until <= $now)
     RETURNING ${DELIVERY_COLUMNS}`,
  );
  const endpointById = sqlite.query<EndpointRow, [string]>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`);
  const recordAttempt = sqlite.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, duration_ms, response_code, error, outcome)
     SELECT id, attempts + 1, $at, $ms, $code, $error, $outcome FROM webhook_deliveries WHERE id = $id`,
  );
  // A row cancelled (endpoint deleted) while its attempt was in flight keeps its final status.
  const finishAttempt = sqlite.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, round_attempts = round_attempts + 1, last_response_code = $code,
       last_error = $error, last_attempt_at = $at, lease_until = NULL,
       status = CASE WHEN status = 'pending' THEN $status ELSE status END,
       next_attempt_at = CASE WHEN status = 'pending' THEN $next ELSE next_attempt_at END
     WHERE id = $id`,
  );
  const release = sqlite.query("UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ?");
  const cancel = sqlite.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL,
       last_error = 'The endpoint was deleted; delivery cancelled' WHERE id = ?`,
  );

  /** Writes the ledger rows for outbox events not yet fanned out. Returns how many. */
  function fanOut(): number {
    let created = 0;
    if (!actions.hasEventsAfter(cursor.get()!.lastSeq)) return 0;
    for (;;) {
      const done = sqlite.transaction(() => {
        const events = actions.eventsAfter(cursor.get()!.lastSeq, FANOUT_BATCH);
        if (events.length === 0) return true;
        const now = clock.now().toISOString();
        const endpointsOf = new Map<string, Pick<EndpointRow, "id" | "createdAt">[]>();
        for (const e of events) {
          let endpoints = endpointsOf.get(e.orgId);
          if (!endpoints) endpointsOf.set(e.orgId, (endpoints = liveEndpointsOf.all(e.orgId)));
          for (const w of endpoints) {
            if (w.createdAt > e.createdAt) break; // registered after the event: not its receiver
            const r = insertDelivery.run({
              id: newId(),
              org: e.orgId,
              endpoint: w.id,
              eventId: e.id,
              event: e.event,
              entity: e.entityId,
              result: e.resultUrl,
              data: e.data,
              eventAt: e.createdAt,
              now,
            });
            created += r.changes;
          }
        }
        const upTo = events[events.length - 1].seq;
        advance.run(upTo, upTo);
        return false;
      }).immediate();
      if (done) break;
    }
    stats.fannedOut += created;
    return created;
  }

  function claimDue(free: number): DeliveryRow[] {
    const now = clock.now();
    const nowIso = now.toISOString();
    const lease = new Date(now.getTime() + timeoutMs + LEASE_GRACE_MS).toISOString();
    return sqlite.transaction(() => {
      const rows: DeliveryRow[] = [];
      const busy = new Map(perEndpointCount);
      const capped = () => JSON.stringify([...busy].filter(([, n]) => n >= perEndpoint).map(([id]) => id));
      // A second pass only when the first filled up endpoints to their cap before the free slots.
      for (let pass = 0; pass < 2 && rows.length < free; pass++) {
        const candidates = due.all({ now: nowIso, skip: capped(), limit: free + inFlight.size });
        for (const c of candidates) {
          if (rows.length >= free) break;
          if ((busy.get(c.endpointId) ?? 0) >= perEndpoint || inFlight.has(c.id)) continue;
          const row = claim.get({ id: c.id, now: nowIso, lease });
          if (!row) continue;
          busy.set(c.endpointId, (busy.get(c.endpointId) ?? 0) + 1);
          rows.push(row);
        }
        if (candidates.length < free + inFlight.size) break; // nothing more is due
      }
      return rows;
    }).immediate();
  }

  async function secretsOf(endpoint: EndpointRow, now: Date): Promise<string[]> {
    const secrets = [await box.decrypt(endpoint.secretEnc!, endpoint.id)];
    if (endpoint.previousSecretEnc && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now.toISOString()) {
      secrets.push(await box.decrypt(endpoint.previousSecretEnc, endpoint.id));
    }
    return secrets;
  }

  async function attempt(d: DeliveryRow): Promise<void> {
    const endpoint = endpointById.get(d.endpointId);
    if (!endpoint || endpoint.deletedAt || !endpoint.secretEnc) {
      cancel.run(d.id);
      return;
    }
    const now = clock.now();
    const started = performance.now();
    const body = payloadOf(d);
    const timestamp = Math.floor(now.getTime() / 1000);
    let code: number | null = null;
    let error: string | null = null;
    let retryAfterMs: number | null = null;
    try {
      const headers = {
        "content-type": "application/json",
        "user-agent": "Dealgraph-Webhooks/1.0",
        "webhook-id": d.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatureHeader(await secretsOf(endpoint, now), d.id, timestamp, body),
      };
      const res = await safeFetch(endpoint.url, {
        method: "POST",
        headers,
        body,
        timeoutMs,
        maxBytes: 1024,
        followRedirects: 0,
        requireHttps: true,
        allowPrivate: config.allowPrivateNetwork,
        resolver: webhookResolver(deps),
        dial: deps.outbound?.dial,
        signal: abort.signal,
      });
      code = res.status;
      if (code >= 300 && code < 400) error = `Redirect not followed (${code}${res.headers.get("location") ? ` to ${res.headers.get("location")}` : ""})`;
      else if (code >= 300) error = `The receiver answered ${code}`;
      if (code === 429 || code === 503) retryAfterMs = parseRetryAfter(res.headers.get("retry-after"), now);
    } catch (e) {
      if (abort.signal.aborted) {
        release.run(d.id);
        return;
      }
      error = e instanceof SafeFetchError ? e.message : `Delivery failed: ${(e as Error)?.message ?? String(e)}`;
      if (!(e instanceof SafeFetchError)) log.warn("webhook attempt failed unexpectedly", { delivery_id: d.id, error: String(e) });
    }
    const outcome = classify(code);
    const roundAttempts = d.roundAttempts + 1;
    const step = nextStep({
      outcome,
      roundAttempts,
      roundStartedAt: new Date(d.roundStartedAt),
      now: clock.now(),
      retryAfterMs,
      scale: config.webhookRetryScale,
      random: opts.random,
    });
    const attemptOutcome = step.status === "pending" ? "retry" : step.status;
    const at = now.toISOString();
    sqlite.transaction(() => {
      recordAttempt.run({ id: d.id, at, ms: Math.round(performance.now() - started), code, error, outcome: attemptOutcome });
      finishAttempt.run({ id: d.id, code, error, at, status: step.status, next: step.nextAttemptAt?.toISOString() ?? null });
    })();
    stats.attempted++;
    stats[attemptOutcome === "retry" ? "retrying" : attemptOutcome]++;
  }

  function start(d: DeliveryRow) {
    perEndpointCount.set(d.endpointId, (perEndpointCount.get(d.endpointId) ?? 0) + 1);
    const p = attempt(d)
      .catch((e) => log.error("webhook attempt could not be recorded", { delivery_id: d.id, error: String(e) }))
      .finally(() => {
        inFlight.delete(d.id);
        const n = (perEndpointCount.get(d.endpointId) ?? 1) - 1;
        if (n > 0) perEndpointCount.set(d.endpointId, n);
        else perEndpointCount.delete(d.endpointId);
        schedule();
      });
    inFlight.set(d.id, p);
  }

  let pumping = false;
  let again = false;
  let scheduled = false;
  /** One pump for all the attempts that end in the same turn of the event loop. */
  function schedule(): void {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }
  /** Fans out new events and starts every due delivery there is room for. Never throws. */
  function pump(): void {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        fanOut();
        const free = concurrency - inFlight.size;
        if (free > 0) for (const d of claimDue(free)) start(d);
      } while (again && !stopped);
    } catch (e) {
      log.error("webhook dispatch failed", { error: e instanceof Error ? e.message : String(e) });
    } finally {
      pumping = false;
    }
  }

  /** Delivers until nothing is due now and nothing is in flight (the job's runOnce). */
  async function drain(): Promise<DispatchStats> {
    const before = { ...stats };
    pump();
    while (inFlight.size) {
      await Promise.all(inFlight.values());
      pump();
    }
    return {
      fannedOut: stats.fannedOut - before.fannedOut,
      attempted: stats.attempted - before.attempted,
      succeeded: stats.succeeded - before.succeeded,
      retrying: stats.retrying - before.retrying,
      failed: stats.failed - before.failed,
    };
  }

  /**
   * The server's fast path. A run dispatched in this process is watched on the bus until it ends;
   * its terminal transition (published after the outbox row commits) starts the delivery at once.
   * A poll every `pollMs` catches everything else: retries coming due, runs from other processes.
   * stop() aborts attempts in flight (their rows are released, not counted) and waits for them.
   */
  function run(pollMs = 200) {
    const timer = setInterval(pump, pollMs);
    const watching = new Map<string, () => void>();
    const unwatchAll = () => {
      watching.forEach((off) => off());
      watching.clear();
    };
    const offQueued = deps.bus.subscribe<string>(RUN_QUEUED_TOPIC, (runId) => {
      if (watching.has(runId)) return;
      if (watching.size >= MAX_WATCHED) unwatchAll(); // runs parked for days: the poll still has them
      const off = deps.bus.subscribe<Run>(runTopic(runId), (r) => {
        if (r.status !== "succeeded" && r.status !== "failed") return;
        off();
        watching.delete(runId);
        schedule();
      });
      watching.set(runId, off);
      // It may have ended before this (the queued notice comes after the dispatching transaction).
      const now = actions.get(runId)?.status;
      if (now === "succeeded" || now === "failed") {
        off();
        watching.delete(runId);
        schedule();
      }
    });
    const offWake = deps.bus.subscribe(WEBHOOKS_WAKE_TOPIC, () => schedule());
    serving.add(deps);
    pump();
    return {
      async stop() {
        stopped = true;
        serving.delete(deps);
        clearInterval(timer);
        offQueued();
        offWake();
        unwatchAll();
        abort.abort();
        await Promise.allSettled(inFlight.values());
      },
    };
  }

  return { fanOut, pump, drain, run, stats, inFlight: () => inFlight.size };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
