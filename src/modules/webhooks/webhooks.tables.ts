import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

// A receiver of an org's events. Deleting one is soft (the ledger keeps pointing at it) and wipes
// its secrets. Secrets are AES-256-GCM ciphertext under a key kept outside the database.
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    // Normalized (WHATWG href): the key of the one-registration-per-URL rule.
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    secretEnc: text("secret_enc"),
    // The secret before the last rotation: deliveries are signed with both until the overlap ends.
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretUntil: text("previous_secret_until"),
    secretRotatedAt: text("secret_rotated_at"),
    createdAt: text("created_at").notNull(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("webhook_endpoints_org_url_live_unique").on(t.orgId, t.url).where(sql`${t.deletedAt} IS NULL`),
    index("webhook_endpoints_org_created_idx").on(t.orgId, t.createdAt),
  ],
);

// The ledger: one delivery per (outbox event, endpoint). Its id is the payload `id` and the
// `webhook-id` header, stable across retries and redeliveries.
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    outboxEventId: text("outbox_event_id").notNull(),
    event: text("event").notNull(),
    entityId: text("entity_id").notNull(),
    resultUrl: text("result_url").notNull(),
    // The outbox event's extra payload fields (JSON), copied so a redelivery sends them again; null for most events.
    data: text("data"),
    eventCreatedAt: text("event_created_at").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    // Every attempt ever made (also across redeliveries).
    attempts: integer("attempts").notNull().default(0),
    // The current schedule (a redelivery starts a new one): its attempts and when it began.
    roundAttempts: integer("round_attempts").notNull().default(0),
    roundStartedAt: text("round_started_at").notNull(),
    lastResponseCode: integer("last_response_code"),
    lastError: text("last_error"),
    lastAttemptAt: text("last_attempt_at"),
    // Null once the delivery is final.
    nextAttemptAt: text("next_attempt_at"),
    // A worker holds the delivery until then (an attempt in flight); a crashed worker's lease lapses.
    leaseUntil: text("lease_until"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_unique").on(t.outboxEventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

// Every attempt, with what the receiver answered (or why there was no answer).
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    attemptedAt: text("attempted_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    responseCode: integer("response_code"),
    error: text("error"),
    // succeeded | retry | failed: what this attempt decided for the delivery.
    outcome: text("outcome", { enum: ["succeeded", "retry", "failed"] }).notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

// How far the dispatcher has fanned the outbox out (one row).
export const webhookCursor = sqliteTable("webhook_cursor", {
  id: integer("id").primaryKey(),
  lastSeq: integer("last_seq").notNull(),
});
