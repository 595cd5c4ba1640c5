// Webhook management (write scope) and the delivery ledger (read scope). The spec's four routes
// plus, additively: one endpoint's record, one delivery with its attempts, redelivery, secret rotation.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import {
  CreatedWebhookModel,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryDetailModel,
  DeliveryListModel,
  DeliveryParams,
  RedeliveredModel,
  RotatedSecretModel,
  RotateSecretBody,
  WebhookDetailModel,
  WebhookListModel,
  WebhookParams,
} from "./webhooks.model.ts";
import { deliveryView, endpointView, webhooksService } from "./webhooks.service.ts";

const tags = ["Webhooks"];

export function webhookRoutes(deps: Deps) {
  const webhooks = webhooksService(deps);
  const now = () => deps.clock.now();

  return new Elysia({ prefix: "/api/v1/webhooks" })
    .use(authPlugin(deps))
    .post(
      "",
      async ({ principal, body, set }) => {
        const { endpoint, secret } = await webhooks.register(principal.orgId, body);
        set.status = 201;
        return { ...endpointView(endpoint, now()), secret, as_of: now().toISOString() };
      },
      {
        auth: "write",
        body: CreateWebhookBody,
        detail: {
          operationId: "createWebhook",
          tags,
          summary: "Register an HTTPS endpoint for all six event types; the signing secret is shown this once",
          responses: jsonResponses({ 201: CreatedWebhookModel }),
        },
      },
    )
    .get("", ({ principal }) => ({ scope: "org" as const, webhooks: webhooks.list(principal.orgId).map((e) => endpointView(e, now())), as_of: now().toISOString() }), {
      auth: "read",
      detail: { operationId: "listWebhooks", tags, summary: "The org's webhook endpoints (never their secrets)", responses: jsonResponses({ 200: WebhookListModel }) },
    })
    .get(
      "/:webhook_id",
      ({ principal, params }) => ({ scope: "org" as const, webhook: endpointView(webhooks.get(principal.orgId, params.webhook_id), now()), as_of: now().toISOString() }),
      {
        auth: "read",
        params: WebhookParams,
        detail: { operationId: "getWebhook", tags, summary: "One webhook endpoint (never its secret)", responses: jsonResponses({ 200: WebhookDetailModel }) },
      },
    )
    .delete(
      "/:webhook_id",
      ({ principal, params, set }) => {
        webhooks.remove(principal.orgId, params.webhook_id);
        set.status = 204;
      },
      {
        auth: "write",
        params: WebhookParams,
        detail: {
          operationId: "deleteWebhook",
          tags,
          summary: "Delete an endpoint: its pending deliveries are cancelled; it and its ledger then read 404",
          responses: jsonResponses({ 204: null }),
        },
      },
    )
    .post(
      "/:webhook_id/rotate-secret",
      async ({ principal, params, body }) => {
        const { endpoint, secret } = await webhooks.rotate(principal.orgId, params.webhook_id, body?.overlap_hours ?? 24);
        return { webhook: endpointView(endpoint, now()), secret, as_of: now().toISOString() };
      },
      {
        auth: "write",
        params: WebhookParams,
        // Every property is optional, and so is the body itself (no body: the default overlap).
        body: t.Optional(RotateSecretBody),
        detail: {
          operationId: "rotateWebhookSecret",
          tags,
          summary: "New signing secret (shown once); during the overlap deliveries carry both signatures",
          responses: jsonResponses({ 200: RotatedSecretModel }),
        },
      },
    )
    .get(
      "/:webhook_id/deliveries",
      ({ principal, params, query }) => ({
        scope: "org" as const,
        webhook_id: params.webhook_id,
        deliveries: webhooks.deliveries(principal.orgId, params.webhook_id, query).map(deliveryView),
        as_of: now().toISOString(),
      }),
      {
        auth: "read",
        params: WebhookParams,
        query: DeliveriesQuery,
        detail: {
          operationId: "listWebhookDeliveries",
          tags,
          summary: "Recent deliveries of an endpoint: status, attempts, the receiver's last response code",
          responses: jsonResponses({ 200: DeliveryListModel }),
        },
      },
    )
    .get(
      "/:webhook_id/deliveries/:delivery_id",
      ({ principal, params }) => {
        const { row, attempts } = webhooks.delivery(principal.orgId, params.webhook_id, params.delivery_id);
        return {
          scope: "org" as const,
          delivery: {
            ...deliveryView(row),
            attempts_log: attempts.map((a) => ({
              attempt: a.attempt,
              attempted_at: a.attemptedAt,
              duration_ms: a.durationMs,
              response_code: a.responseCode,
              error: a.error,
              outcome: a.outcome,
            })),
          },
          as_of: now().toISOString(),
        };
      },
      {
        auth: "read",
        params: DeliveryParams,
        detail: { operationId: "getWebhookDelivery", tags, summary: "One delivery with every attempt", responses: jsonResponses({ 200: DeliveryDetailModel }) },
      },
    )
    .post(
      "/:webhook_id/deliveries/:delivery_id/redeliver",
      ({ principal, params, set }) => {
        const row = webhooks.redeliver(principal.orgId, params.webhook_id, params.delivery_id);
        set.status = 202;
        return { delivery: deliveryView(row), as_of: now().toISOString() };
      },
      {
        auth: "write",
        params: DeliveryParams,
        detail: {
          operationId: "redeliverWebhookDelivery",
          tags,
          summary: "Queue one delivery again now, with a fresh retry schedule and the same webhook-id",
          responses: {
            ...jsonResponses({ 202: RedeliveredModel }),
            409: {
              description: "An attempt of this delivery is in flight; try again after Retry-After seconds",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
              headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds until the attempt's lease lapses at the latest" } },
            },
          },
        },
      },
    );
}
