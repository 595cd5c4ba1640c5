// The dispatcher: fans each outbox event out to every endpoint of its org registered by then (one
// ledger row per event x endpoint), then delivers due rows with bounded concurrency through
// safe-fetch, records every attempt, and schedules the next. State lives in the database only: a
// lease marks a row in flight, so a killed process's rows are taken up again once it lapses, and
// two dispatchers (the server's and `dealgraph jobs run webhook-delivery`) never send one attempt twice.
import type { Deps } from "../../deps.ts";
import { safeFetch, SafeFetchError } from "../../http/safe-fetch.ts";
import { newId } from "../../lib/ids.ts";
import { classify, nextStep, parseRetryAfter } from "./webhooks.schedule.ts";
import { signatureHeader, secretBox } from "./webhooks.secrets.ts";
import { DELIVERY_COLUMNS, ENDPOINT_COLUMNS, webhookResolver, WEBHOOKS_WAKE_TOPIC, type DeliveryRow, type EndpointRow } from "./webhooks.service.ts";

export type DispatcherOptions = {
  /** Attempts in flight at once (default 32), and per endpoint (default 16). */
  concurrency?: number;
  perEndpoint?: number;
  random?: () => number;
};

export type DispatchStats = { fannedOut: number; attempted: number; succeeded: number; retrying: number; failed: number };

const FANOUT_BATCH = 500;
/** How long past the receiver timeout a lease outlives a silent worker. */
const LEASE_GRACE_MS = 15_000;

/** The thin payload: the receiver fetches `result_url` for detail. */
export function payloadOf(d: Pick<DeliveryRow, "id" | "event" | "eventCreatedAt" | "entityId" | "resultUrl">): string {
  return JSON.stringify({ event: d.event, id: d.id, created_at: d.eventCreatedAt, data: { entity_id: d.entityId, result_url: d.resultUrl } });
}

export function createDispatcher(deps: Deps, opts: DispatcherOptions = {}) {
  const { clock, config, log } = deps;
  const sqlite = deps.db.$client;
  const box = secretBox(deps);
  const concurrency = opts.concurrency ?? 32;
  const perEndpoint = opts.perEndpoint ?? 16;
  const timeoutMs = config.webhookTimeoutSeconds * 1000;
  const inFlight = new Map<string, Promise<void>>();
  const perEndpointCount = new Map<string, number>();
  const stats: DispatchStats = { fannedOut: 0, attempted: 0, succeeded: 0, retrying: 0, failed: 0 };
  let stopped = false;
  // Stopping aborts attempts in flight: their rows are released untouched and tried again later.
  const abort = new AbortController();

  sqlite.query("INSERT OR IGNORE INTO webhook_cursor (id, last_seq) VALUES (1, 0)").run();
  const cursor = sqlite.query<{ lastSeq: number }, []>("SELECT last_seq AS lastSeq FROM webhook_cursor WHERE id = 1");
  const batchEnd = sqlite.query<{ upTo: number | null }, [number, number]>(
    "SELECT MAX(seq) AS upTo FROM (SELECT seq FROM outbox_events WHERE seq > ? ORDER BY seq LIMIT ?)",
  );
  const pairs = sqlite.query<{ eventId: string; orgId: string; event: string; entityId: string; resultUrl: string; createdAt: string; endpointId: string }, [number, number]>(
    `SELECT e.id AS eventId, e.org_id AS orgId, e.event, e.entity_id AS entityId, e.result_url AS resultUrl, e.created_at AS createdAt, w.id AS endpointId
     FROM outbox_events e JOIN webhook_endpoints w ON w.org_id = e.org_id AND w.deleted_at IS NULL AND w.created_at <= e.created_at
     WHERE e.seq > ? AND e.seq <= ? ORDER BY e.seq, w.created_at`,
  );
  const insertDelivery = sqlite.query(
    `INSERT OR IGNORE INTO webhook_deliveries (id, org_id, endpoint_id, outbox_event_id, event, entity_id, result_url, event_created_at,
       status, round_started_at, next_attempt_at, created_at)
     VALUES ($id, $org, $endpoint, $eventId, $event, $entity, $result, $eventAt, 'pending', $now, $now, $now)`,
  );
  const advance = sqlite.query("UPDATE webhook_cursor SET last_seq = ? WHERE id = 1 AND last_seq < ?");
  const due = sqlite.query<{ id: string; endpointId: string }, { now: string; perEndpoint: number; limit: number }>(
    `SELECT id, endpoint_id AS endpointId FROM (
       SELECT id, endpoint_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at) AS rn
       FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $now AND (lease_until IS NULL OR lease_until <= $now))
     WHERE rn <= $perEndpoint ORDER BY next_attempt_at LIMIT $limit`,
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
    for (;;) {
      const done = sqlite.transaction(() => {
        const from = cursor.get()!.lastSeq;
        const upTo = batchEnd.get(from, FANOUT_BATCH)?.upTo;
        if (upTo == null) return true;
        const now = clock.now().toISOString();
        for (const p of pairs.all(from, upTo)) {
          const r = insertDelivery.run({
            id: newId(),
            org: p.orgId,
            endpoint: p.endpointId,
            eventId: p.eventId,
            event: p.event,
            entity: p.entityId,
            result: p.resultUrl,
            eventAt: p.createdAt,
            now,
          });
          created += r.changes;
        }
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
      const taken = new Map<string, number>();
      for (const c of due.all({ now: nowIso, perEndpoint, limit: free * 4 })) {
        if (rows.length >= free) break;
        const busy = (perEndpointCount.get(c.endpointId) ?? 0) + (taken.get(c.endpointId) ?? 0);
        if (busy >= perEndpoint || inFlight.has(c.id)) continue;
        const row = claim.get({ id: c.id, now: nowIso, lease });
        if (!row) continue;
        taken.set(c.endpointId, (taken.get(c.endpointId) ?? 0) + 1);
        rows.push(row);
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
        pump();
      });
    inFlight.set(d.id, p);
  }

  let pumping = false;
  let again = false;
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

  /** The server's fast path: polls every `pollMs` and wakes on the bus; stop() waits for attempts in flight. */
  function run(pollMs = 200) {
    const timer = setInterval(pump, pollMs);
    const unsubscribe = deps.bus.subscribe(WEBHOOKS_WAKE_TOPIC, () => pump());
    pump();
    return {
      async stop() {
        stopped = true;
        clearInterval(timer);
        unsubscribe();
        abort.abort();
        await Promise.allSettled(inFlight.values());
      },
    };
  }

  return { fanOut, pump, drain, run, stats, inFlight: () => inFlight.size };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
