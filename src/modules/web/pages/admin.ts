// Admin views for an organization's admins: the members and their sharing state, and every key
// in the organization (revoke only: an admin never sees or makes another user's secret).
import type { ApiKeyView } from "../../identity/keys.views.ts";
import { html, type Html } from "../html.ts";
import { keyTable } from "./keys.ts";
import { badge, layout, pageHead, when, type Shell } from "./layout.ts";

export type Member = {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  sharing: boolean;
  hasPassword: boolean;
  activeKeys: number;
  createdAt: string;
};

export type AdminView = { members: Member[]; keys: (ApiKeyView & { owner: string })[]; operator: boolean };

function membersTable(members: Member[]): Html {
  return html`<div class="table-wrap"><table data-testid="members-table">
<thead><tr><th>Member</th><th>Role</th><th>Network sharing</th><th>Sign-in</th><th class="num">Active keys</th><th>Joined</th><th>User id</th></tr></thead>
<tbody>
${members.map(
  (m) => html`<tr data-user-id="${m.id}">
  <td><strong>${m.name}</strong><div class="small muted">${m.email}</div></td>
  <td>${m.isAdmin ? badge("Admin", "info") : badge("Member")}</td>
  <td>${m.sharing ? badge("Sharing", "ok") : badge("Not sharing")}</td>
  <td>${m.hasPassword ? badge("Password set", "ok") : badge("No password", "warn")}</td>
  <td class="num">${m.activeKeys}</td>
  <td class="small">${when(m.createdAt, true)}</td>
  <td><code class="small">${m.id}</code></td>
</tr>`,
)}
</tbody></table></div>`;
}

export function adminPage(shell: Shell, v: AdminView): Html {
  const sharing = v.members.filter((m) => m.sharing).length;
  return layout(
    shell,
    html`${pageHead("Admin", html`${shell.orgName}: ${v.members.length} member${v.members.length === 1 ? "" : "s"}, ${sharing} sharing their network.`)}
<div class="card flush">
  <div class="card-head"><h2>Members</h2><span class="muted small">Add people with <code>dealgraph admin user create --org …</code>; give them a first sign-in link with <code>dealgraph admin user link --user …</code>.</span></div>
  ${membersTable(v.members)}
</div>
<div class="card flush">
  <div class="card-head"><h2>All API keys</h2><span class="muted small">Revoke a key that leaked or belongs to someone who left. Only the owner can create or rotate keys.</span></div>
  ${keyTable(v.keys, shell.csrf, {
    rotate: false,
    owner: (k) => html`<span class="nw">${(k as ApiKeyView & { owner: string }).owner}</span>`,
    revokeAction: (k) => `/app/admin/keys/${k.key_id}/revoke`,
  })}
</div>
<p class="muted small">Backups hold every organization's data, so they are the server operator's: ${v.operator ? html`<a href="/app/backups">Backups</a>.` : html`<code>dealgraph backup</code> on the server, or the backups page for a user marked with <code>dealgraph admin user operator --user … on</code>.`}</p>`,
  );
}
