import { t } from "elysia";
import { queryInt } from "../../http/validation.ts";

export const WEBHOOK_EVENTS = [
  "deal.analysis.completed",
  "deal.analysis.failed",
  "founder.analysis.completed",
  "founder.analysis.failed",
  "research.completed",
  "research.failed",
  "portfolio.update.received",
] as const;

const Timestamp = t.String({ format: "date-time" });
const Uuid = t.String({ format: "uuid" });

export const WebhookModel = t.Object(
  {
    webhook_id: Uuid,
    url: t.String({ description: "HTTPS URL on a public address" }),
    description: t.String(),
    events: t.Array(t.String(), { description: "All event types" }),
    created_at: Timestamp,
    secret_rotated_at: t.Nullable(Timestamp),
    previous_secret_expires_at: t.Nullable(
      t.String({ format: "date-time", description: "Until then deliveries are also signed with the previous secret" }),
    ),
  },
  { description: "A webhook endpoint. The secret is shown only when it is made (registration, rotation)." },
);

export const CreateWebhookBody = t.Object({
  url: t.String({ maxLength: 2048, description: "HTTPS URL on a public address" }),
  description: t.Optional(t.String({ maxLength: 500, description: "Free text (default empty)" })),
});

export const CreatedWebhookModel = t.Object({
  ...WebhookModel.properties,
  secret: t.String({ description: "`whsec_` + base64 of 32 random bytes: the signing key, shown this once" }),
  as_of: Timestamp,
});

export const WebhookListModel = t.Object({ scope: t.Literal("org"), webhooks: t.Array(WebhookModel), as_of: Timestamp });

export const WebhookDetailModel = t.Object({ scope: t.Literal("org"), webhook: WebhookModel, as_of: Timestamp });

export const RotateSecretBody = t.Object({
  overlap_hours: t.Optional(
    t.Integer({ minimum: 0, maximum: 168, description: "How long deliveries are also signed with the old secret (default 24)" }),
  ),
});

export const RotatedSecretModel = t.Object({
  webhook: WebhookModel,
  secret: t.String({ description: "The new secret, shown this once" }),
  as_of: Timestamp,
});

export const DeliveryModel = t.Object({
  delivery_id: t.String({ format: "uuid", description: "Also the payload `id` and the `webhook-id` header; stable across retries" }),
  webhook_id: Uuid,
  event: t.String(),
  entity_id: t.String(),
  result_url: t.String(),
  status: t.UnionEnum(["pending", "succeeded", "failed"]),
  attempts: t.Integer(),
  last_response_code: t.Nullable(t.Integer()),
  last_error: t.Nullable(t.String({ description: "Why the last attempt failed, when it did" })),
  last_attempt_at: t.Nullable(Timestamp),
  next_attempt_at: t.Nullable(t.String({ format: "date-time", description: "Null once the delivery is final" })),
  created_at: Timestamp,
});

export const AttemptModel = t.Object({
  attempt: t.Integer(),
  attempted_at: Timestamp,
  duration_ms: t.Integer(),
  response_code: t.Nullable(t.Integer()),
  error: t.Nullable(t.String()),
  outcome: t.UnionEnum(["succeeded", "retry", "failed"]),
});

export const DeliveryListModel = t.Object({
  scope: t.Literal("org"),
  webhook_id: Uuid,
  deliveries: t.Array(DeliveryModel, { description: "Newest first" }),
  as_of: Timestamp,
});

export const DeliveryDetailModel = t.Object({
  scope: t.Literal("org"),
  delivery: t.Object({ ...DeliveryModel.properties, attempts_log: t.Array(AttemptModel) }),
  as_of: Timestamp,
});

export const RedeliveredModel = t.Object({ delivery: DeliveryModel, as_of: Timestamp });

export const DeliveriesQuery = t.Object({
  limit: t.Optional(queryInt("limit", { minimum: 1, maximum: 200, default: 50, description: "How many (newest first)" })),
  // A union of literals, not UnionEnum: Elysia fills an optional UnionEnum query with its first value.
  status: t.Optional(t.Union([t.Literal("pending"), t.Literal("succeeded"), t.Literal("failed")], { description: "Only deliveries in this status" })),
});

export const WebhookParams = t.Object({ webhook_id: t.String() });
export const DeliveryParams = t.Object({ webhook_id: t.String(), delivery_id: t.String() });
