// The server operator's backups page: the latest archives in <data-dir>/backups (time, size,
// verified, kept before an upgrade), a warning when the newest is overdue, and a button that starts
// one now (disabled while one is being written; a press then answers 409).
import { isPreUpgrade } from "../../backups/backups.service.ts";
import { html, type Html } from "../html.ts";
import { badge, csrfField, layout, pageHead, when, type Shell } from "./layout.ts";

export type BackupsView = {
  backups: { name: string; created_at: string; bytes: number; verified_at: string | null; problem: string | null }[];
  freshness: { status: "ok" | "warning"; detail: string };
  inProgress: boolean;
  lastFailure: { at: string; error: string } | null;
};

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

export function backupsCard(v: BackupsView, csrf: string | null): Html {
  return html`<div class="card flush" data-testid="backups">
  <div class="card-head"><h2>Backups</h2><span class="muted small">The whole server's data (every organization), its files and its key. Restore with <code>dealgraph restore FILE --data-dir DIR</code>.</span></div>
  ${v.freshness.status === "warning" ? html`<div class="flash error" role="alert">${v.freshness.detail}</div>` : ""}
  ${v.lastFailure ? html`<div class="flash error" role="alert">The backup started ${v.lastFailure.at} failed: ${v.lastFailure.error}</div>` : ""}
  <form method="post" action="/app/backups">${csrfField(csrf)}<button class="btn small" type="submit"${v.inProgress ? html` disabled` : ""}>${v.inProgress ? "A backup is being written…" : "Back up now"}</button></form>
  ${v.backups.length
    ? html`<div class="table-wrap"><table data-testid="backups-table">
<thead><tr><th>Taken</th><th class="num">Size</th><th>Verified</th><th>File</th></tr></thead>
<tbody>
${v.backups.map(
  (b) => html`<tr>
  <td class="small">${when(b.created_at)}</td>
  <td class="num">${size(b.bytes)}</td>
  <td>${b.verified_at ? badge("Verified", "ok") : badge("Not verified", "bad")}${b.problem ? html`<div class="small muted">${b.problem}</div>` : ""}</td>
  <td><code class="small">${b.name}</code>${isPreUpgrade(b.name) ? html` ${badge("Before an upgrade: kept", "info")}` : ""}</td>
</tr>`,
)}
</tbody></table></div>`
    : html`<p class="muted">No backups yet.</p>`}
</div>`;
}

export function backupsPage(shell: Shell, v: BackupsView): Html {
  return layout(shell, html`${pageHead("Backups", "This server's backups: you are its operator.")}
${backupsCard(v, shell.csrf)}`);
}
