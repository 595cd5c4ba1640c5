// The overview a user lands on, the error pages, and the page for a user in no organization.
import { html, type Html } from "../html.ts";
import { badge, layout, pageHead, type Shell } from "./layout.ts";

export type HomeView = {
  firstName: string;
  activeKeys: number;
  contacts: number;
  goingStale: number;
  sharing: boolean;
  members: number | null;
};

export function homePage(shell: Shell, v: HomeView): Html {
  return layout(
    shell,
    html`${pageHead(`Welcome, ${v.firstName}`, html`Everything you can set up for <strong>${shell.orgName}</strong> from here.`)}
<div class="grid">
  <a class="card" href="/app/keys"><div class="stat">${v.activeKeys}</div><div class="stat-label">active API key${v.activeKeys === 1 ? "" : "s"}</div></a>
  <a class="card" href="/app/contacts"><div class="stat">${v.contacts.toLocaleString("en-US")}</div><div class="stat-label">contact${v.contacts === 1 ? "" : "s"} in your network</div></a>
  <a class="card" href="/app/network"><div class="stat">${v.goingStale}</div><div class="stat-label">relationship${v.goingStale === 1 ? "" : "s"} going stale</div></a>
  <a class="card" href="/app/network"><div class="stat">${v.sharing ? badge("Sharing on", "ok") : badge("Sharing off")}</div><div class="stat-label">network sharing with your team</div></a>
</div>
<div class="card">
  <h2>Getting started</h2>
  <ol>
    <li>Create an API key on the <a href="/app/keys">API-key page</a> and use it as <code>Authorization: Bearer ak_…</code>
      (see the <a href="/api/v1/docs">API reference</a>).</li>
    <li>Decide whether teammates' who-knows searches may see your relationships: <a href="/app/network">network settings</a>.</li>
    <li>Tell Dealgraph how often you want to stay in touch with the people who matter: <a href="/app/contacts">contacts</a>.</li>
    ${v.members !== null
      ? html`<li>As an administrator, review your ${v.members} member${v.members === 1 ? "" : "s"}, their sharing and every key of the organization on the <a href="/app/admin">admin page</a>.</li>`
      : ""}
  </ol>
</div>`,
  );
}

export function errorPage(shell: Shell | null, status: number, title: string, message: string | Html): Html {
  const body = html`<div class="card" data-testid="error-page">
  <h1>${title}</h1>
  <p>${message}</p>
  <p class="muted small">Error ${status}</p>
  <a class="btn secondary" href="/app">Back to the overview</a>
</div>`;
  return layout(shell ?? { title, user: null, orgName: null, csrf: null }, body);
}

export function noOrgPage(shell: Shell): Html {
  return layout(
    shell,
    html`<div class="card" data-testid="no-org">
  <h1>You are not in an organization yet</h1>
  <p>Your user exists, but it belongs to no organization, so there is nothing to show here and API keys
  of yours are refused.</p>
  <p>Ask an administrator of your firm to add you to its organization.</p>
</div>`,
  );
}
