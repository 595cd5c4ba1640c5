// Webhook endpoints of an org and their delivery ledger: register (checked by safe-fetch's rules),
// list, delete (cancelling pending deliveries), rotate the secret, read deliveries, redeliver one.
// Another org's endpoint, a deleted one and a non-UUID id are all simply not found.
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError, conflict, invalid, notFound } from "../../http/errors.ts";
import { checkPublicUrl, SafeFetchError, systemResolver, type Resolver } from "../../lib/safe-fetch.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { columnList, type RowOf } from "../../db/rows.ts";
import { WEBHOOK_EVENTS } from "./webhooks.model.ts";
import { newWebhookSecret } from "./webhooks.secrets.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./webhooks.tables.ts";

/** Published to wake the dispatcher now (a redelivery, a new outbox event). */
export const WEBHOOKS_WAKE_TOPIC = "webhooks:wake";

const resolvers = new WeakMap<Deps, Resolver>();
/** DNS for the webhooks of these deps (tests give a fake one; the default is the system's). */
export const setWebhookResolver = (deps: Deps, resolver: Resolver) => resolvers.set(deps, resolver);
export const webhookResolver = (deps: Deps): Resolver => resolvers.get(deps) ?? deps.outbound?.resolver ?? systemResolver;

export type EndpointRow = RowOf<typeof webhookEndpoints>;

/** A delivery as the API and the dispatcher read it (the lease and the outbox event's id stay inside). */
export type DeliveryRow = Omit<RowOf<typeof webhookDeliveries>, "leaseUntil" | "outboxEventId">;

type AttemptRow = Omit<RowOf<typeof webhookAttempts>, "seq" | "deliveryId">;

const DELIVERY_KEYS = [
  "id",
  "orgId",
  "endpointId",
  "event",
  "entityId",
  "resultUrl",
  "data",
  "eventCreatedAt",
  "status",
  "attempts",
  "roundAttempts",
  "roundStartedAt",
  "lastResponseCode",
  "lastError",
  "lastAttemptAt",
  "nextAttemptAt",
  "createdAt",
] as const satisfies readonly (keyof DeliveryRow)[];

export const ENDPOINT_COLUMNS = columnList(webhookEndpoints);
export const DELIVERY_COLUMNS = columnList(webhookDeliveries, { only: DELIVERY_KEYS });
const ATTEMPT_COLUMNS = columnList(webhookAttempts, { only: ["attempt", "attemptedAt", "durationMs", "responseCode", "error", "outcome"] });

export function endpointView(e: EndpointRow, now: Date) {
  const overlap = e.previousSecretUntil && e.previousSecretUntil > now.toISOString() ? e.previousSecretUntil : null;
  return {
    webhook_id: e.id,
    url: e.url,
    description: e.description,
    events: [...WEBHOOK_EVENTS],
    created_at: e.createdAt,
    secret_rotated_at: e.secretRotatedAt,
    previous_secret_expires_at: overlap,
  };
}

export function deliveryView(d: DeliveryRow) {
  return {
    delivery_id: d.id,
    webhook_id: d.endpointId,
    event: d.event,
    entity_id: d.entityId,
    result_url: d.resultUrl,
    status: d.status,
    attempts: d.attempts,
    last_response_code: d.lastResponseCode,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
  };
}

/**
 * The URL as stored and compared (WHATWG serialization: lower-case host, default port dropped).
 * Refused: a port outside 1-65535 (the parser takes 0), and a user name or password, which would
 * be kept in the ledger, logs and listings (receivers authenticate deliveries by the signature).
 */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(["body", "url"], "Input should be a valid URL (a port must be between 1 and 65535)", "url_parsing");
  }
  if (url.username || url.password) {
    throw invalid(["body", "url"], "The URL must not contain a user name or password (they would show in logs and listings); verify deliveries by their signature instead", "url_userinfo");
  }
  if (url.port === "0") throw invalid(["body", "url"], "The URL's port must be between 1 and 65535, not 0", "url_port");
  url.hash = "";
  return url.href;
}

export const webhooksService = perDeps((deps: Deps) => {
  const { clock, config } = deps;
  const sqlite = deps.db.$client;
  const box = deps.secrets.box;

  const liveById = sqlite.query<EndpointRow, [string, string]>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND org_id = ? AND deleted_at IS NULL`,
  );
  const liveByUrl = sqlite.query<{ id: string }, [string, string]>(
    "SELECT id FROM webhook_endpoints WHERE org_id = ? AND url = ? AND deleted_at IS NULL",
  );
  const listLive = sqlite.query<EndpointRow, [string]>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ? AND deleted_at IS NULL ORDER BY created_at, id`,
  );
  const insert = sqlite.query(
    `INSERT INTO webhook_endpoints (id, org_id, url, description, secret_enc, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const softDelete = sqlite.query(
    `UPDATE webhook_endpoints SET deleted_at = ?, secret_enc = NULL, previous_secret_enc = NULL, previous_secret_until = NULL
     WHERE id = ? AND deleted_at IS NULL`,
  );
  const cancelPending = sqlite.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'The endpoint was deleted; delivery cancelled'
     WHERE endpoint_id = ? AND status = 'pending'`,
  );
  const rotateSecret = sqlite.query<EndpointRow, { id: string; secret: string; prev: string | null; until: string | null; now: string }>(
    `UPDATE webhook_endpoints SET previous_secret_enc = $prev, previous_secret_until = $until, secret_enc = $secret, secret_rotated_at = $now
     WHERE id = $id AND deleted_at IS NULL RETURNING ${ENDPOINT_COLUMNS}`,
  );
  const deliveriesOf = sqlite.query<DeliveryRow, { endpoint: string; status: string | null; limit: number }>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $endpoint AND ($status IS NULL OR status = $status)
     ORDER BY created_at DESC, id DESC LIMIT $limit`,
  );
  const deliveryById = sqlite.query<DeliveryRow, [string, string]>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ? AND endpoint_id = ?`,
  );
  const attemptsOf = sqlite.query<AttemptRow, [string]>(
    `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt`,
  );
  // Never while a worker holds the row: its attempt's finish would overwrite the new schedule, and
  // clearing its lease would let a second worker send the same delivery at once.
  const requeue = sqlite.query<DeliveryRow, { id: string; now: string }>(
    `UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, round_started_at = $now, next_attempt_at = $now
     WHERE id = $id AND (lease_until IS NULL OR lease_until <= $now) RETURNING ${DELIVERY_COLUMNS}`,
  );
  const leaseOf = sqlite.query<Pick<RowOf<typeof webhookDeliveries>, "leaseUntil">, [string]>(
    `SELECT ${columnList(webhookDeliveries, { only: ["leaseUntil"] })} FROM webhook_deliveries WHERE id = ?`,
  );

  function mustGet(orgId: string, webhookId: string): EndpointRow {
    const row = isUuid(webhookId) ? liveById.get(webhookId, orgId) : null;
    if (!row) throw notFound("Webhook endpoint not found");
    return row;
  }

  async function register(orgId: string, input: { url: string; description?: string }) {
    const url = normalizeUrl(input.url);
    try {
      await checkPublicUrl(url, { requireHttps: true, allowPrivate: config.allowPrivateNetwork, resolver: webhookResolver(deps) });
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      const type = error.code === "invalid_url" ? "url_parsing" : error.code === "https_required" || error.code === "unsupported_scheme" ? "url_scheme" : "url_not_public";
      throw invalid(["body", "url"], `The URL must be HTTPS on a public address: ${error.message}`, type);
    }
    if (liveByUrl.get(orgId, url)) throw conflict(`The URL ${url} is already registered as a webhook of this organization`);
    const id = newId();
    const secret = newWebhookSecret();
    const sealed = await box.encrypt(secret, id);
    try {
      insert.run(id, orgId, url, input.description?.trim() ?? "", sealed, clock.now().toISOString());
    } catch (error) {
      // Two registrations of one URL at once: the unique index decides.
      if (String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT")) {
        throw conflict(`The URL ${url} is already registered as a webhook of this organization`);
      }
      throw error;
    }
    return { endpoint: mustGet(orgId, id), secret };
  }

  function list(orgId: string): EndpointRow[] {
    return listLive.all(orgId);
  }

  /** Soft delete: the endpoint and its ledger read 404 from now on; pending deliveries are cancelled. */
  function remove(orgId: string, webhookId: string): void {
    const endpoint = mustGet(orgId, webhookId);
    sqlite.transaction(() => {
      softDelete.run(clock.now().toISOString(), endpoint.id);
      cancelPending.run(endpoint.id);
    })();
  }

  async function rotate(orgId: string, webhookId: string, overlapHours: number) {
    const endpoint = mustGet(orgId, webhookId);
    const now = clock.now();
    const secret = newWebhookSecret();
    const sealed = await box.encrypt(secret, endpoint.id);
    const keepOld = overlapHours > 0 && endpoint.secretEnc;
    const row = rotateSecret.get({
      id: endpoint.id,
      secret: sealed,
      prev: keepOld ? endpoint.secretEnc : null,
      until: keepOld ? new Date(now.getTime() + overlapHours * 3600_000).toISOString() : null,
      now: now.toISOString(),
    });
    if (!row) throw notFound("Webhook endpoint not found");
    return { endpoint: row, secret };
  }

  function deliveries(orgId: string, webhookId: string, q: { limit?: number; status?: string }): DeliveryRow[] {
    const endpoint = mustGet(orgId, webhookId);
    return deliveriesOf.all({ endpoint: endpoint.id, status: q.status ?? null, limit: q.limit ?? 50 });
  }

  function mustGetDelivery(orgId: string, webhookId: string, deliveryId: string): DeliveryRow {
    const endpoint = mustGet(orgId, webhookId);
    const row = isUuid(deliveryId) ? deliveryById.get(deliveryId, endpoint.id) : null;
    if (!row) throw notFound("Delivery not found");
    return row;
  }

  function delivery(orgId: string, webhookId: string, deliveryId: string) {
    const row = mustGetDelivery(orgId, webhookId, deliveryId);
    return { row, attempts: attemptsOf.all(row.id) };
  }

  /**
   * Queues one delivery again, now, with a fresh schedule; its id (the webhook-id) stays the same.
   * While an attempt is in flight (the row is leased): 409 with Retry-After, the seconds until the
   * lease lapses at the latest (the attempt usually ends well before).
   */
  function redeliver(orgId: string, webhookId: string, deliveryId: string): DeliveryRow {
    const id = mustGetDelivery(orgId, webhookId, deliveryId).id;
    const now = clock.now();
    const row = requeue.get({ id, now: now.toISOString() });
    if (!row) {
      const until = leaseOf.get(id)?.leaseUntil;
      const seconds = Math.max(1, Math.ceil(((until ? Date.parse(until) : now.getTime()) - now.getTime()) / 1000));
      throw new ApiError(409, `An attempt of this delivery is in flight; try again in ${seconds} s`, { "Retry-After": String(seconds) });
    }
    queueMicrotask(() => deps.bus.publish(WEBHOOKS_WAKE_TOPIC, row.id));
    return row;
  }

  return { register, list, get: mustGet, remove, rotate, deliveries, delivery, redeliver };
});
