// Contacts: search the user's own network by name or email, and set a keep-in-touch cadence or a
// snooze for each contact.
import { html, type Html } from "../html.ts";
import type { ContactRow } from "../web.contacts.ts";
import { badge, csrfField, layout, pageHead, pager, when, type Shell } from "./layout.ts";

export type ContactsView = {
  q: string;
  page: number;
  pageSize: number;
  total: number;
  contacts: ContactRow[];
  /** This page's own address, where the forms come back to. */
  back: string;
  now: string;
  defaultSnooze: string;
  minSnooze: string;
};

function strength(c: ContactRow): Html {
  if (c.strength_score === null) return html`<span class="muted small">no data</span>`;
  const kind = c.strength_score >= 70 ? "ok" : c.strength_score >= 40 ? "info" : "";
  return html`${badge(c.relationship ?? "", kind)} <span class="small muted">${Math.round(c.strength_score)}</span>`;
}

function cadenceForm(c: ContactRow, v: ContactsView, csrf: string | null): Html {
  const learned = c.learned_cadence_days ? `learned: every ${c.learned_cadence_days} d` : "nothing learned yet";
  return html`<form method="post" action="/app/network/cadence" class="inline">
  ${csrfField(csrf)}
  <input type="hidden" name="contact" value="${c.email}">
  <input type="hidden" name="back" value="${v.back}">
  <input type="number" name="days" min="0" max="3650" step="1" value="${c.declared_cadence_days ?? ""}" placeholder="days" aria-label="Cadence in days for ${c.name ?? c.email}">
  <button class="btn small secondary" type="submit">Save</button>
</form>
<div class="small muted">${c.declared_cadence_days ? html`declared: every ${c.declared_cadence_days} d · ` : ""}${learned}</div>`;
}

function snoozeForm(c: ContactRow, v: ContactsView, csrf: string | null): Html {
  const snoozed = c.snoozed_until && c.snoozed_until > v.now;
  return html`<form method="post" action="/app/network/snooze" class="inline">
  ${csrfField(csrf)}
  <input type="hidden" name="contact" value="${c.email}">
  <input type="hidden" name="back" value="${v.back}">
  ${snoozed
    ? html`<span class="small">until ${when(c.snoozed_until, true)}</span>
      <input type="hidden" name="until" value="${v.now.slice(0, 10)}">
      <button class="btn small secondary" type="submit">Unsnooze</button>`
    : html`<input type="date" name="until" value="${v.defaultSnooze}" min="${v.minSnooze}" aria-label="Snooze ${c.name ?? c.email} until" required>
      <button class="btn small secondary" type="submit">Snooze</button>`}
</form>`;
}

function table(v: ContactsView, csrf: string | null): Html {
  if (v.contacts.length === 0) {
    return html`<div class="empty">${v.q ? html`No contact matches “${v.q}”.` : "No contacts yet: import your mail, calendar or contacts (dealgraph import …)."}</div>`;
  }
  return html`<div class="table-wrap"><table data-testid="contacts-table">
<thead><tr><th>Contact</th><th>Relationship</th><th>Last touch</th><th>Keep in touch every</th><th>Snooze</th></tr></thead>
<tbody>
${v.contacts.map(
  (c) => html`<tr data-contact="${c.email ?? ""}">
  <td><strong>${c.name ?? c.email ?? "Unnamed"}</strong>
    <div class="small muted">${[c.email, c.title].filter(Boolean).join(" · ")}</div></td>
  <td>${strength(c)}</td>
  <td class="small">${when(c.last_touch_at, true)}</td>
  <td>${c.email ? cadenceForm(c, v, csrf) : html`<span class="muted small">no address</span>`}</td>
  <td>${c.email ? snoozeForm(c, v, csrf) : ""}</td>
</tr>`,
)}
</tbody></table></div>
${pager(v.page, Math.max(1, Math.ceil(v.total / v.pageSize)), (p) => `/app/contacts?${new URLSearchParams({ ...(v.q ? { q: v.q } : {}), page: String(p) })}`)}`;
}

export function contactsPage(shell: Shell, v: ContactsView): Html {
  return layout(
    shell,
    html`${pageHead("Contacts", html`Your own relationships (${v.total.toLocaleString("en-US")}${v.q ? " matching" : ""}). Cadences and snoozes shape the <a href="/app/network">going-stale</a> list.`)}
<div class="card">
  <form method="get" action="/app/contacts" class="search" role="search">
    <input type="search" name="q" value="${v.q}" placeholder="Search by name or email" aria-label="Search contacts">
    <button class="btn secondary" type="submit">Search</button>
    ${v.q ? html`<a class="btn secondary" href="/app/contacts">Clear</a>` : ""}
  </form>
</div>
<div class="card flush">${table(v, shell.csrf)}</div>
<p class="muted small">A cadence is in days; leave it empty (or 0) to go back to the learned one. A snooze hides the contact from going-stale until that day.</p>`,
  );
}
