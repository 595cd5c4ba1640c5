// The integration pages under Settings: webhooks (the org's endpoints, their delivery ledger, and
// redelivery through the webhooks service: another org's endpoint or delivery is 404, one in flight
// 409). Connections (mail and calendar accounts) have their own routes: web.connections.ts.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { invalid } from "../../http/errors.ts";
import { deliveryView, endpointView, webhooksService } from "../webhooks/webhooks.service.ts";
import { webhooksPage } from "./pages/webhooks.ts";
import { guard, refusalText } from "./web.guard.ts";
import { htmlResponse, redirect, safeNext } from "./web.http.ts";

const hidden = { detail: { hide: true } };
const LATEST = 10;
const LEDGER = 200;
const STATUSES = ["pending", "succeeded", "failed"];

export function settingsPages(deps: Deps) {
  const webhooks = webhooksService(deps);
  const now = () => deps.clock.now();

  return new Elysia({ prefix: "/app" })
    .get(
      "/webhooks",
      guard(deps, {}, (c) => {
        const endpoints = webhooks.list(c.org.id).map((e) => ({
          endpoint: endpointView(e, now()),
          deliveries: webhooks.deliveries(c.org.id, e.id, { limit: LATEST }).map(deliveryView),
        }));
        return htmlResponse(webhooksPage(c.shell("Webhooks", "webhooks"), { endpoints, single: false, status: "", back: "/app/webhooks" }));
      }),
      hidden,
    )
    .get(
      "/webhooks/:webhook_id",
      guard(deps, {}, (c) => {
        const status = (c.url.searchParams.get("status") ?? "").trim();
        if (status && !STATUSES.includes(status)) throw invalid(["query", "status"], `Unknown status “${status.slice(0, 40)}”: use one of ${STATUSES.join(", ")}.`);
        const endpoint = webhooks.get(c.org.id, c.params.webhook_id);
        const deliveries = webhooks.deliveries(c.org.id, endpoint.id, { limit: LEDGER, status: status || undefined }).map(deliveryView);
        const view = { endpoints: [{ endpoint: endpointView(endpoint, now()), deliveries }], single: true, status, back: c.url.pathname + c.url.search };
        return htmlResponse(webhooksPage(c.shell("Webhooks", "webhooks"), view));
      }),
      hidden,
    )
    .post(
      "/webhooks/:webhook_id/deliveries/:delivery_id/redeliver",
      guard(deps, {}, (c) => {
        const back = safeNext(c.fields.back || "/app/webhooks");
        // An unknown or another org's endpoint or delivery is 404 (the error page), not a flash.
        webhooks.delivery(c.org.id, c.params.webhook_id, c.params.delivery_id);
        try {
          const row = webhooks.redeliver(c.org.id, c.params.webhook_id, c.params.delivery_id);
          c.flash({ kind: "success", text: `Queued ${row.event} again: it is sent now, with the same webhook-id.` });
        } catch (error) {
          c.flash({ kind: "error", text: refusalText(error) });
        }
        return redirect(back);
      }),
      hidden,
    );
}
