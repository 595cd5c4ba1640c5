// Connections: the member's mail and calendar accounts on the firm's server (connect with login and
// password, or on a Google Workspace or Microsoft 365 org through the provider's sign-in with no
// password field at all; each one's status, last sync, counts, last error and backfill progress, sync now,
// remove), and the weekly going-stale digest opt-in. Never a credential: a subscription is shown by
// its origin only, and password fields are never filled back in. Each mailbox's sync ledger:
// its totals over every sync (what the server held, and how each message was counted), the
// failures by reason and the connection's last error, and its latest syncs folder by folder.
import type { LedgerEntry, LedgerTotals } from "../../connections/connections.ledger.ts";
import type { ConnectionView } from "../../connections/connections.service.ts";
import { html, type Html } from "../html.ts";
import { badge, csrfField, field, layout, meter, pageHead, when, type Shell } from "./layout.ts";

export type MailForm = { login: string; folders: string; since: string; error: string | null };
export type CalendarForm = { source: "caldav" | "ics" | "provider"; url: string; login: string; error: string | null };

/** Who signs members in: each member's password (`imap`), or the provider the administrator authorized. */
export type SignIn = "imap" | "google" | "microsoft";

export type ConnectionsView = {
  /** The organization's servers as an administrator set them; null: none yet. */
  server: { imap: string; caldav: string | null; provider: SignIn } | null;
  /** The member's own address (what a provider's sign-in connects). */
  email: string;
  connections: ConnectionView[];
  mail: MailForm;
  calendar: CalendarForm;
  digest: { enabled: boolean; outboundConfigured: boolean };
  /** Per mail connection: its ledger's totals and its latest rows (newest first). */
  ledgers: Record<string, { totals: LedgerTotals; recent: LedgerEntry[] }>;
};

const n = (x: number) => x.toLocaleString("en-US");

function statusCell(c: ConnectionView): Html {
  if (c.status === "syncing") {
    return html`${badge("Syncing", "info")}${c.progress ? html`<div class="small">${c.progress.folder}</div>${meter(c.progress.done, c.progress.total, "read")}` : ""}`;
  }
  if (c.status === "error") return html`${badge("Error", "bad")}${c.next_attempt_at ? html`<div class="small muted">tried again ${when(c.next_attempt_at)}</div>` : ""}`;
  if (c.status === "ok") return badge("Synced", "ok");
  return badge("Waiting for its first sync", "warn");
}

function lastResult(c: ConnectionView): Html {
  const r = c.last_result;
  if (!r) return html`<span class="muted">—</span>`;
  const parts = c.kind === "mail" ? [`${n(r.messages_new)} new messages`] : [`${n(r.meetings_new)} new meetings`];
  if (r.duplicates) parts.push(`${n(r.duplicates)} already known`);
  if (r.skipped) parts.push(`${n(r.skipped)} skipped`);
  if (r.refused) parts.push(`${n(r.refused)} refused by the limits`);
  return html`<span class="small">${parts.join(", ")}</span>${r.refusals?.length ? html`<div class="small muted" data-testid="refusals">${r.refusals.join(" ")}</div>` : ""}`;
}

function table(v: ConnectionsView, csrf: string | null): Html {
  if (v.connections.length === 0) return html`<div class="empty">No mailbox or calendar connected yet.</div>`;
  return html`<div class="table-wrap"><table data-testid="connection-table">
<thead><tr><th>Account</th><th>Kind</th><th>Status</th><th>Last sync</th><th>Recorded</th><th>Last sync's figures</th><th>Last error</th><th></th></tr></thead>
<tbody>
${v.connections.map(
  (c) => html`<tr data-connection-id="${c.connection_id}" data-status="${c.status}">
  <td><strong>${c.account}</strong></td>
  <td>${c.kind === "mail" ? "Mail (IMAP)" : c.source === "ics" ? "Calendar (subscription)" : c.source === "graph" ? "Calendar (Microsoft Graph)" : "Calendar (CalDAV)"}</td>
  <td>${statusCell(c)}</td>
  <td class="small">${when(c.last_synced_at)}</td>
  <td>${n(c.items_synced)} ${c.kind === "mail" ? "messages" : "meetings"}</td>
  <td>${lastResult(c)}</td>
  <td class="small">${c.last_error ?? html`<span class="muted">—</span>`}</td>
  <td><div class="actions">
    <form method="post" action="/app/connections/${c.connection_id}/sync">${csrfField(csrf)}<button class="btn small secondary" type="submit">Sync now</button></form>
    <form method="post" action="/app/connections/${c.connection_id}/remove" data-confirm="Remove ${c.account}? It is no longer synced and what it signed in with (a password or a provider token) is forgotten; what it recorded stays.">
      ${csrfField(csrf)}<button class="btn small danger" type="submit">Remove</button>
    </form>
  </div></td>
</tr>`,
)}
</tbody></table></div>`;
}

const reasons = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, v]) => `${k.replaceAll("_", " ")} ${n(v)}`)
    .join(", ");

function ledgerCard(c: ConnectionView, l: { totals: LedgerTotals; recent: LedgerEntry[] }): Html {
  const t = l.totals;
  const failed = t.failed ? html`<span data-testid="ledger-failed">${n(t.failed)} failed (${reasons(t.failed_by_reason)})</span>` : html`<span data-testid="ledger-failed">none failed</span>`;
  return html`<div class="card" data-testid="ledger" data-connection-id="${c.connection_id}">
  <h2>Sync ledger: ${c.account}</h2>
  <p class="small muted">Every message on the server up to the last UID read is counted once: imported, already known, skipped (with the reason) or failed.</p>
  <p data-testid="ledger-totals">${n(t.seen)} messages seen over ${n(t.rows)} folder sync${t.rows === 1 ? "" : "s"}: ${n(t.imported)} imported, ${n(t.duplicates)} already known, ${n(t.skipped)} skipped, ${failed}.</p>
  <p class="small" data-testid="ledger-last-error">Last error: ${c.last_error ?? html`<span class="muted">none</span>`}</p>
  ${
    l.recent.length
      ? html`<div class="table-wrap"><table data-testid="ledger-rows"><thead><tr><th>Synced</th><th>Folder</th><th>UIDs</th><th>Seen</th><th>Imported</th><th>Already known</th><th>Skipped</th><th>Failed</th></tr></thead><tbody>
${l.recent.map(
  (e) => html`<tr><td class="small">${when(e.synced_at)}</td><td>${e.folder}</td><td class="small">${e.seen === 0 && e.uid_from > e.uid_to ? `nothing new after ${e.uid_to}` : `${e.uid_from}–${e.uid_to}`} <span class="muted">(UIDVALIDITY ${e.uidvalidity})</span></td><td>${n(e.seen)}</td><td>${n(e.imported)}</td><td>${n(e.duplicates)}</td><td class="small">${reasons(e.skipped) || "—"}</td><td class="small">${reasons(e.failed) || "—"}</td></tr>`,
)}
</tbody></table></div>`
      : html`<p class="muted small">No sync has read anything yet.</p>`
  }
</div>`;
}

function mailForm(v: ConnectionsView, csrf: string | null): Html {
  if (!v.server) {
    return html`<div class="card notice" data-testid="no-mail-server"><h2>Connect your mailbox</h2>
<p>Your organization's mail server is not set yet. An administrator sets it once with
<code>dealgraph admin mail-server set --org ORG_ID --imap HOST</code>; then you connect here.</p></div>`;
  }
  const f = v.mail;
  if (v.server.provider !== "imap") return providerMailForm(v, v.server.provider, csrf);
  return html`<div class="card" id="connect-mail">
  <h2>Connect your mailbox</h2>
  <p class="muted small">On ${v.server.imap}. Dealgraph reads the headers of INBOX and Sent (never Junk, Trash or Drafts) and logs in first: a wrong password stores nothing.</p>
  ${f.error ? html`<div class="flash error" role="alert" data-testid="mail-error">${f.error}</div>` : ""}
  <form method="post" action="/app/connections/mail" data-testid="connect-mail-form">
    ${csrfField(csrf)}
    <div class="row">
      ${field({ label: "Login", name: "login", value: f.login, attrs: html`required autocomplete="username"` })}
      ${field({ label: "Password or app password", name: "password", type: "password", hint: "Stored encrypted, never shown again.", attrs: html`required autocomplete="current-password"` })}
    </div>
    <div class="row">
      ${field({ label: "Folders (optional)", name: "folders", value: f.folders, hint: "Comma-separated; empty: INBOX and Sent." })}
      ${field({ label: "Back to (optional)", name: "since", type: "date", value: f.since, hint: "How far the first sync reaches back; empty: two years." })}
    </div>
    <button class="btn" type="submit">Connect mailbox</button>
  </form>
</div>`;
}

const PROVIDER_NAME = { google: "Google Workspace", microsoft: "Microsoft 365" } as const;

/**
 * On a Google Workspace or Microsoft 365 org: no password field. The provider's sign-in takes its
 * place (the administrator authorized Dealgraph for the domain), for the member's own address.
 */
function providerMailForm(v: ConnectionsView, provider: "google" | "microsoft", csrf: string | null): Html {
  const f = v.mail;
  return html`<div class="card" id="connect-mail" data-provider="${provider}">
  <h2>Connect your mailbox</h2>
  <p class="muted small">Your firm's mail is ${PROVIDER_NAME[provider]}: Dealgraph signs in to <strong data-testid="provider-mailbox">${v.email}</strong> through it, with no password (your administrator authorized it for the domain). It reads the headers of INBOX and Sent (never Junk, Trash or Drafts) and signs in first: if ${PROVIDER_NAME[provider]} refuses, nothing is stored.</p>
  ${f.error ? html`<div class="flash error" role="alert" data-testid="mail-error">${f.error}</div>` : ""}
  <form method="post" action="/app/connections/mail" data-testid="connect-mail-form">
    ${csrfField(csrf)}
    <div class="row">
      ${field({ label: "Folders (optional)", name: "folders", value: f.folders, hint: "Comma-separated; empty: INBOX and Sent." })}
      ${field({ label: "Back to (optional)", name: "since", type: "date", value: f.since, hint: "How far the first sync reaches back; empty: two years." })}
    </div>
    <button class="btn" type="submit">Connect with ${PROVIDER_NAME[provider]}</button>
  </form>
</div>`;
}

/** The member's calendar at the provider: Google's CalDAV (the primary calendar) or Microsoft Graph. */
function providerCalendarForm(v: ConnectionsView, provider: "google" | "microsoft", csrf: string | null): Html {
  const f = v.calendar;
  const which = provider === "google" ? "Google Calendar (your primary calendar)" : "Microsoft 365 calendar";
  return html`<div class="card" id="connect-calendar" data-provider="${provider}">
  <h2>Connect your calendar</h2>
  <p class="muted small">Your ${which} for <strong>${v.email}</strong>, through ${PROVIDER_NAME[provider]}'s sign-in: no password.</p>
  ${f.error ? html`<div class="flash error" role="alert" data-testid="calendar-error">${f.error}</div>` : ""}
  <form method="post" action="/app/connections/calendar" data-testid="connect-calendar-form">
    ${csrfField(csrf)}
    <input type="hidden" name="source" value="provider">
    <button class="btn" type="submit">Connect ${provider === "google" ? "Google Calendar" : "the Microsoft 365 calendar"}</button>
  </form>
</div>`;
}

function calendarForm(v: ConnectionsView, csrf: string | null): Html {
  if (v.server && v.server.provider !== "imap") return providerCalendarForm(v, v.server.provider, csrf);
  const f = v.calendar;
  return html`<div class="card" id="connect-calendar">
  <h2>Connect a calendar</h2>
  <p class="muted small">A CalDAV calendar${v.server?.caldav ? html` (your firm's server: <code>${v.server.caldav}</code>)` : ""} with its login, or a read-only iCalendar link (Google's secret iCal address, Outlook's published calendar).</p>
  ${f.error ? html`<div class="flash error" role="alert" data-testid="calendar-error">${f.error}</div>` : ""}
  <form method="post" action="/app/connections/calendar" data-testid="connect-calendar-form">
    ${csrfField(csrf)}
    <div class="field">
      <span class="label">Kind</span>
      <div class="radio-row">
        <label><input type="radio" name="source" value="caldav"${f.source === "caldav" ? html` checked` : ""}> CalDAV calendar</label>
        <label><input type="radio" name="source" value="ics"${f.source === "ics" ? html` checked` : ""}> Subscription link</label>
      </div>
    </div>
    ${field({ label: "Calendar URL", name: "url", value: f.url, hint: "CalDAV: the calendar collection's URL. Subscription: the https or webcal link.", attrs: html`required` })}
    <div class="row">
      ${field({ label: "Login (CalDAV)", name: "login", value: f.login, attrs: html`autocomplete="username"` })}
      ${field({ label: "Password (CalDAV)", name: "password", type: "password", attrs: html`autocomplete="current-password"` })}
    </div>
    <button class="btn" type="submit">Connect calendar</button>
  </form>
</div>`;
}

function digestCard(v: ConnectionsView, csrf: string | null): Html {
  const { enabled, outboundConfigured } = v.digest;
  return html`<div class="card" id="digest">
  <h2>Weekly going-stale digest</h2>
  <p>Every Monday, a plain mail listing the relationships past their keep-in-touch rhythm: who, how long, their cadence, a link to each.</p>
  ${outboundConfigured ? "" : html`<p class="muted small" data-testid="outbound-not-configured">Outbound mail is not configured on this server (DEALGRAPH_SMTP_URL and DEALGRAPH_MAIL_FROM), so no digest is sent until an administrator sets it up.</p>`}
  <form method="post" action="/app/connections/digest">
    ${csrfField(csrf)}
    <input type="hidden" name="enabled" value="${enabled ? "off" : "on"}">
    <button class="btn ${enabled ? "secondary" : ""}" type="submit" data-testid="digest-toggle">${enabled ? "Turn the digest off" : "Send me the digest"}</button>
    <span class="small muted">${enabled ? "On." : "Off."}</span>
  </form>
</div>`;
}

export function connectionsPage(shell: Shell, v: ConnectionsView): Html {
  return layout(
    shell,
    html`${pageHead("Connections", "Your mail and calendar accounts keep your network current: who-knows, warmth and going-stale follow them.")}
<div class="card flush">
  <div class="card-head"><h2>Your accounts</h2><span class="muted small">${v.server && v.server.provider !== "imap" ? `Synced every few minutes by the server, signed in through ${PROVIDER_NAME[v.server.provider]}: no password is kept.` : "Synced every few minutes by the server; passwords are stored encrypted."}</span></div>
  ${table(v, shell.csrf)}
</div>
${v.connections.filter((c) => v.ledgers[c.connection_id]).map((c) => ledgerCard(c, v.ledgers[c.connection_id]))}
${mailForm(v, shell.csrf)}
${calendarForm(v, shell.csrf)}
${digestCard(v, shell.csrf)}`,
  );
}
