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
  pipeline: { stage: string; label: string; count: number }[];
  analysing: number;
  holdings: { total: number; active: number };
  funds: number;
  research: number;
};

function pipelineCard(v: HomeView): Html {
  const total = v.pipeline.reduce((n, s) => n + s.count, 0);
  return html`<div class="card" data-testid="home-pipeline">
  <div class="card-head"><h2>Pipeline</h2><a href="/app/deals">Open the board →</a></div>
  <div class="section-scores">${v.pipeline.map(
    (s) => html`<a class="section-score" href="/app/deals?stage=${s.stage}"><span>${s.label}</span><strong data-stage-count="${s.stage}">${s.count.toLocaleString("en-US")}</strong></a>`,
  )}</div>
  <p class="small muted">${total.toLocaleString("en-US")} deal${total === 1 ? "" : "s"}${v.analysing ? ` · ${v.analysing} being analysed now` : ""}</p>
</div>`;
}

export function homePage(shell: Shell, v: HomeView): Html {
  return layout(
    shell,
    html`${pageHead(`Welcome, ${v.firstName}`, html`The workspace of <strong>${shell.orgName}</strong>.`)}
${pipelineCard(v)}
<div class="grid">
  <a class="card" href="/app/portfolio"><div class="stat">${v.holdings.active.toLocaleString("en-US")}</div><div class="stat-label">active holding${v.holdings.active === 1 ? "" : "s"} of ${v.holdings.total.toLocaleString("en-US")} in the portfolio</div></a>
  <a class="card" href="/app/funds"><div class="stat">${v.funds}</div><div class="stat-label">LP commitment${v.funds === 1 ? "" : "s"} in the fund book</div></a>
  <a class="card" href="/app/research"><div class="stat">${v.research.toLocaleString("en-US")}</div><div class="stat-label">research run${v.research === 1 ? "" : "s"}</div></a>
  <a class="card" href="/app/contacts"><div class="stat">${v.contacts.toLocaleString("en-US")}</div><div class="stat-label">contact${v.contacts === 1 ? "" : "s"} in your network</div></a>
  <a class="card" href="/app/network"><div class="stat">${v.goingStale}</div><div class="stat-label">relationship${v.goingStale === 1 ? "" : "s"} going stale</div></a>
  <a class="card" href="/app/keys"><div class="stat">${v.activeKeys}</div><div class="stat-label">active API key${v.activeKeys === 1 ? "" : "s"}</div></a>
  <a class="card" href="/app/network"><div class="stat">${v.sharing ? badge("Sharing on", "ok") : badge("Sharing off")}</div><div class="stat-label">network sharing with your team</div></a>
</div>
<div class="card">
  <h2>Getting started</h2>
  <ol>
    <li>Look through the <a href="/app/deals">pipeline</a>: every deal's score comes with the quotes behind it. Upload a deck with <em>New deal</em>.</li>
    <li>Before a call, ask <a href="/app/who-knows">who knows</a> the company or the person, and ask that teammate for an intro.</li>
    <li>Follow the <a href="/app/portfolio">portfolio's metrics</a> and the <a href="/app/funds">fund book</a>, or ask a <a href="/app/research">research</a> question across all of it.</li>
    <li>Decide whether teammates may see your relationships: <a href="/app/network">network sharing</a>.</li>
    <li>For scripts and integrations, create an API key on the <a href="/app/keys">API-key page</a> and see the <a href="/api/v1/docs">API reference</a>.</li>
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
