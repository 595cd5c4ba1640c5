// Webhooks: the org's endpoints and their delivery ledger (status, attempts, the receiver's last
// answer, when the next attempt is due), with a button that queues a delivery again.
import type { deliveryView, endpointView } from "../../webhooks/webhooks.service.ts";
import { html, type Html } from "../html.ts";
import { badge, csrfField, layout, pageHead, when, type Shell } from "./layout.ts";

export type EndpointView = ReturnType<typeof endpointView>;
export type DeliveryView = ReturnType<typeof deliveryView>;

export type WebhooksView = {
  endpoints: { endpoint: EndpointView; deliveries: DeliveryView[] }[];
  /** One endpoint's whole ledger (its own page), else every endpoint with its latest deliveries. */
  single: boolean;
  status: string;
  back: string;
};

function statusBadge(s: DeliveryView["status"]): Html {
  return s === "succeeded" ? badge("delivered", "ok") : s === "failed" ? badge("failed", "bad") : badge("pending", "info");
}

/** The event's subject in the app, when it has a page. */
function entityLink(d: DeliveryView): Html {
  const short = `${d.entity_id.slice(0, 8)}…`;
  if (d.event.startsWith("deal.")) return html`<a href="/app/deals/${d.entity_id}" title="${d.entity_id}">deal ${short}</a>`;
  if (d.event.startsWith("research.")) return html`<a href="/app/research/${d.entity_id}" title="${d.entity_id}">research ${short}</a>`;
  return html`<span class="mono small" title="${d.entity_id}">${short}</span>`;
}

function deliveries(e: EndpointView, list: DeliveryView[], v: WebhooksView, csrf: string | null): Html {
  if (list.length === 0) return html`<div class="empty">No deliveries${v.status ? ` with status ${v.status}` : ""} yet: events created after the endpoint was registered are sent here.</div>`;
  return html`<div class="table-wrap"><table class="compact" data-testid="deliveries-${e.webhook_id}">
<thead><tr><th>Event</th><th>Subject</th><th>Status</th><th class="num">Attempts</th><th>Last answer</th><th>Last attempt</th><th>Next attempt</th><th></th></tr></thead>
<tbody>${list.map(
    (d) => html`<tr data-delivery-id="${d.delivery_id}" data-status="${d.status}">
  <td class="mono small">${d.event}</td>
  <td class="small">${entityLink(d)}</td>
  <td>${statusBadge(d.status)}</td>
  <td class="num">${d.attempts}</td>
  <td class="small">${d.last_response_code !== null ? html`HTTP ${d.last_response_code}` : ""}${d.last_error ? html`<div class="muted" title="${d.last_error}">${d.last_error.length > 80 ? `${d.last_error.slice(0, 80)}…` : d.last_error}</div>` : d.last_response_code === null ? html`<span class="muted">—</span>` : ""}</td>
  <td class="small">${when(d.last_attempt_at)}</td>
  <td class="small">${when(d.next_attempt_at)}</td>
  <td><form method="post" action="/app/webhooks/${e.webhook_id}/deliveries/${d.delivery_id}/redeliver">
    ${csrfField(csrf)}<input type="hidden" name="back" value="${v.back}">
    <button class="btn small secondary" type="submit">Redeliver</button>
  </form></td>
</tr>`,
  )}</tbody></table></div>`;
}

export function webhooksPage(shell: Shell, v: WebhooksView): Html {
  const body = v.endpoints.length
    ? v.endpoints.map(
        ({ endpoint: e, deliveries: list }) => html`<div class="card flush" data-webhook-id="${e.webhook_id}">
  <div class="card-head"><div><h2 class="mono">${e.url}</h2><div class="small muted">${e.description ? html`${e.description} · ` : ""}registered ${when(e.created_at, true)}${e.secret_rotated_at ? html` · secret rotated ${when(e.secret_rotated_at, true)}` : ""}${e.previous_secret_expires_at ? html` · previous secret valid until ${when(e.previous_secret_expires_at)}` : ""}</div></div>
  ${v.single
    ? html`<form method="get" action="/app/webhooks/${e.webhook_id}" class="inline"><select name="status" aria-label="Delivery status" data-autosubmit>
      ${[["", "Every status"], ["pending", "Pending"], ["succeeded", "Delivered"], ["failed", "Failed"]].map(([value, text]) => html`<option value="${value}"${value === v.status ? html` selected` : ""}>${text}</option>`)}
    </select><button class="btn small secondary js-hide" type="submit">Show</button></form>`
    : html`<a class="btn small secondary" href="/app/webhooks/${e.webhook_id}">All deliveries</a>`}</div>
  ${deliveries(e, list, v, shell.csrf)}
</div>`,
      )
    : html`<div class="card"><div class="empty">No webhook endpoints. Register one with the API (<code>POST /api/v1/webhooks</code>, a write key): its signing secret is shown once, there.</div></div>`;
  return layout(
    shell,
    html`${v.single ? html`<p class="small"><a href="/app/webhooks">← Webhooks</a></p>` : ""}
${pageHead("Webhooks", "Where your organization's events are sent, and how each delivery went. Redelivering sends the same event (same webhook-id) again now.")}
${body}`,
  );
}
