// The API-key page: the user's keys with today's usage against both budgets, a form to create one
// (its secret is shown once, on the next page, through a flash), rotate with an overlap, revoke.
import type { ApiKeyView } from "../../identity/keys.views.ts";
import { html, type Html } from "../html.ts";
import { badge, confirmForm, csrfField, field, layout, meter, pageHead, when, type Shell } from "./layout.ts";

export type KeyForm = {
  name: string;
  scope: string;
  expires: string;
  errors: { name?: string; scope?: string; expires?: string };
};

export const EMPTY_KEY_FORM: KeyForm = { name: "", scope: "read", expires: "", errors: {} };

export type KeysView = { keys: ApiKeyView[]; form: KeyForm; minExpiry: string };

export function statusBadge(status: ApiKeyView["status"]): Html {
  return status === "active" ? badge("Active", "ok") : status === "expired" ? badge("Expired", "warn") : badge("Revoked", "bad");
}

export function usageCell(k: ApiKeyView): Html {
  return html`${meter(k.usage_today.requests.used, k.usage_today.requests.limit, "requests")}
${meter(k.usage_today.actions.used, k.usage_today.actions.limit, "actions")}`;
}

function expiryCell(k: ApiKeyView): Html {
  return k.expires_at ? when(k.expires_at) : html`<span class="muted">Never</span>`;
}

function rotateMenu(k: ApiKeyView, csrf: string | null): Html {
  return html`<details class="menu">
  <summary class="btn small secondary">Rotate</summary>
  <div class="menu-body">
    <form method="post" action="/app/keys/${k.key_id}/rotate">
      ${csrfField(csrf)}
      ${field({
        label: "Overlap (hours)",
        name: "overlap_hours",
        type: "number",
        value: 24,
        hint: "How long the current secret keeps working next to the new one (0–720).",
        attrs: html`min="0" max="720" step="1" required`,
      })}
      <button class="btn small block" type="submit">Rotate key</button>
    </form>
  </div>
</details>`;
}

function revokeForm(k: ApiKeyView, csrf: string | null, action: string): Html {
  return confirmForm(action, `Revoke the key “${k.name}”? Anything using it stops working immediately. This cannot be undone.`, csrf, "Revoke");
}

export function keyTable(keys: ApiKeyView[], csrf: string | null, opts: { owner?: (k: ApiKeyView) => Html; rotate: boolean; revokeAction: (k: ApiKeyView) => string }): Html {
  if (keys.length === 0) return html`<div class="empty">No API keys yet.</div>`;
  return html`<div class="table-wrap"><table data-testid="key-table">
<thead><tr>
  ${opts.owner ? html`<th>Owner</th>` : ""}<th>Name</th><th>Scope</th><th>Prefix</th><th>Status</th>
  <th>Created</th><th>Last used</th><th>Expires</th><th>Usage today (UTC)</th><th></th>
</tr></thead>
<tbody>
${keys.map(
  (k) => html`<tr data-key-id="${k.key_id}" data-key-name="${k.name}" data-status="${k.status}">
  ${opts.owner ? html`<td>${opts.owner(k)}</td>` : ""}
  <td><strong>${k.name}</strong>${k.rotated_from_key_id ? html`<div class="small muted">rotated from an earlier key</div>` : ""}</td>
  <td>${k.scope === "write" ? badge("read + write", "info") : badge("read")}</td>
  <td><code>${k.prefix}…</code></td>
  <td>${statusBadge(k.status)}</td>
  <td class="small">${when(k.created_at)}</td>
  <td class="small">${when(k.last_used_at)}</td>
  <td class="small">${expiryCell(k)}</td>
  <td>${usageCell(k)}</td>
  <td><div class="actions">${
    k.status === "active" ? html`${opts.rotate ? rotateMenu(k, csrf) : ""}${revokeForm(k, csrf, opts.revokeAction(k))}` : ""
  }</div></td>
</tr>`,
)}
</tbody></table></div>`;
}

function createForm(v: KeysView, csrf: string | null): Html {
  const f = v.form;
  return html`<div class="card" id="create">
  <h2>Create a key</h2>
  <form method="post" action="/app/keys" novalidate data-testid="create-key-form">
    ${csrfField(csrf)}
    <div class="row">
      ${field({ label: "Name", name: "name", value: f.name, error: f.errors.name, hint: "What uses it, e.g. “CRM sync” or “Maya's laptop”.", attrs: html`maxlength="100" required` })}
      ${field({
        label: "Expires on (optional)",
        name: "expires",
        type: "date",
        value: f.expires,
        error: f.errors.expires,
        hint: "At 00:00 UTC that day. Leave empty for a key that does not expire.",
        attrs: html`min="${v.minExpiry}"`,
      })}
    </div>
    <div class="field${f.errors.scope ? " invalid" : ""}">
      <span class="label">Scope</span>
      <div class="radio-row">
        <label><input type="radio" name="scope" value="read"${f.scope !== "write" ? html` checked` : ""}> Read only</label>
        <label><input type="radio" name="scope" value="write"${f.scope === "write" ? html` checked` : ""}> Read and write</label>
      </div>
      <div class="hint">A read-only key can call every GET (and warmth lookup); analyses, research, uploads and webhooks need read and write.</div>
      ${f.errors.scope ? html`<div class="error-text">${f.errors.scope}</div>` : ""}
    </div>
    <button class="btn" type="submit">Create key</button>
  </form>
</div>`;
}

export function keysPage(shell: Shell, v: KeysView): Html {
  const active = v.keys.filter((k) => k.status === "active").length;
  return layout(
    shell,
    html`${pageHead(
      "API keys",
      html`Keys let your tools call the <a href="/api/v1/docs">Dealgraph API</a> as you. ${active} active.`,
      html`<a class="btn" href="#create">New key</a>`,
    )}
<div class="card flush">
  <div class="card-head"><h2>Your keys</h2><span class="muted small">Secrets are shown once, when created; only a hash is kept.</span></div>
  ${keyTable(v.keys, shell.csrf, { rotate: true, revokeAction: (k) => `/app/keys/${k.key_id}/revoke` })}
</div>
${createForm(v, shell.csrf)}`,
  );
}
