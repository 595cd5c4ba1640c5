// Connected apps: the MCP clients a member allowed to sign in as them (app, scope, when allowed and
// last used, today's usage), each with a revoke button; for an org admin, every member's too.
// Grants that ended in the last week stay listed with the reason (a reused refresh token says so).
import type { GrantView } from "../../oauth/oauth.views.ts";
import { html, type Html } from "../html.ts";
import { badge, confirmForm, layout, meter, pageHead, when, type Shell } from "./layout.ts";

export type ConnectedAppsView = {
  mine: GrantView[];
  /** Every member's grants, for an org admin (null for anyone else). */
  org: GrantView[] | null;
  mcpUrl: string;
};

function revokeForm(g: GrantView, csrf: string | null): Html {
  return confirmForm(`/app/connected-apps/${g.grant_id}/revoke`, `Revoke “${g.client_name}”? It stops working at its next request; connecting it again asks again.`, csrf, "Revoke");
}

function grantTable(grants: GrantView[], csrf: string | null, withOwner: boolean, testId: string): Html {
  if (grants.length === 0) return html`<div class="empty">No connected apps.</div>`;
  return html`<div class="table-wrap"><table data-testid="${testId}">
<thead><tr>
  ${withOwner ? html`<th>Member</th>` : ""}<th>App</th><th>Scope</th><th>Status</th><th>Allowed</th><th>Last used</th><th>Usage today (UTC)</th><th></th>
</tr></thead>
<tbody>
${grants.map(
  (g) => html`<tr data-grant-id="${g.grant_id}" data-status="${g.status}">
  ${withOwner ? html`<td><span class="nw">${g.user.name}</span><div class="small muted">${g.user.email}</div></td>` : ""}
  <td><strong>${g.client_name}</strong><div class="small muted"><code>${g.client_id}</code></div></td>
  <td>${g.scope === "read write" ? badge("read + write", "info") : badge("read")}</td>
  <td>${g.status === "active" ? badge("Active", "ok") : html`${badge("Revoked", "bad")}<div class="small muted">${when(g.revoked_at)}: ${g.revoked_reason ?? ""}</div>`}</td>
  <td class="small">${when(g.created_at)}</td>
  <td class="small">${when(g.last_used_at)}</td>
  <td>${meter(g.usage_today.requests.used, g.usage_today.requests.limit, "requests")}
${meter(g.usage_today.actions.used, g.usage_today.actions.limit, "actions")}</td>
  <td><div class="actions">${g.status === "active" ? revokeForm(g, csrf) : ""}</div></td>
</tr>`,
)}
</tbody></table></div>`;
}

export function connectedAppsPage(shell: Shell, v: ConnectedAppsView): Html {
  const active = v.mine.filter((g) => g.status === "active").length;
  return layout(
    shell,
    html`${pageHead(
      "Connected apps",
      html`AI assistants and other MCP clients you allowed to use Dealgraph as you, by signing in. ${active} active.`,
    )}
<div class="card flush">
  <div class="card-head"><h2>Your connected apps</h2><span class="muted small">Usage counts against each app's own daily budgets, apart from your keys.</span></div>
  ${grantTable(v.mine, shell.csrf, false, "my-grants")}
</div>
${v.org
  ? html`<div class="card flush">
  <div class="card-head"><h2>Everyone in ${shell.orgName}</h2><span class="muted small">As an administrator you can revoke any member's app.</span></div>
  ${grantTable(v.org, shell.csrf, true, "org-grants")}
</div>`
  : ""}
<div class="card">
  <h2>Connecting an app</h2>
  <p>Add Dealgraph to an MCP client (Claude, ChatGPT, an IDE, ...) as a remote server at <code data-testid="mcp-url">${v.mcpUrl}</code>.
  The client opens this server's sign-in in your browser; you sign in (if you are not already) and allow it, for reading only or
  for reading and starting analyses. Clients that cannot sign in this way take an <a href="/app/keys">API key</a> instead.</p>
</div>`,
  );
}
