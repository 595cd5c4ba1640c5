// Who knows: a company domain and/or a person, and the firm's warm paths to them, ranked: who in
// the team knows whom, how strong and warm it is, the signals that make it so (touches each way,
// meetings, how recently), and a ready email asking that teammate for an introduction.
import { html, type Html } from "../html.ts";
import { count } from "./format.ts";
import { badge, layout, pageHead, when, type Shell } from "./layout.ts";

export type PathView = {
  contact_id: string | null;
  name: string | null;
  title: string | null;
  email: string | null;
  domain: string | null;
  warmth: number | null;
  strength_score: number | null;
  relationship: string | null;
  path_owner: string | null;
  owner_user_id: string | null;
  signals: {
    first_touch_at: string | null;
    last_touch_at: string | null;
    last_touch_by: string;
    days_since_last_touch: number | null;
    emails_sent: number;
    emails_received: number;
    meetings: number;
    two_way_ratio: number;
  } | null;
  /** The owner's address for the intro request; null when the owner is the member asking. */
  owner_email: string | null;
};

export type WhoKnowsView = {
  domain: string;
  person: string;
  searched: boolean;
  paths: PathView[];
  unavailable_reason: string | null;
  me: { name: string; userId: string };
  orgName: string;
};

function warmthCell(p: PathView): Html {
  if (p.warmth === null) return html`<span class="muted small">no data</span>`;
  const pct = Math.round(p.warmth * 100);
  const step = Math.max(5, Math.round(pct / 5) * 5);
  return html`<div class="warmth" title="Warmth ${p.warmth} (strength tempered by how recently you were in touch)"><div class="meter-bar"><span class="w${step}"></span></div><span class="small" data-value="${p.warmth}">${pct}</span></div>`;
}

function relationship(p: PathView): Html {
  if (p.strength_score === null) return html`<span class="muted small">no data</span>`;
  const kind = p.relationship === "strong" ? "ok" : p.relationship === "moderate" ? "info" : "";
  return html`${badge(p.relationship ?? "", kind)} <span class="small muted" data-value="${p.strength_score}">${p.strength_score}</span>`;
}

/** What made the path warm, in figures the owner can check against their own inbox. */
function signalsCell(p: PathView): Html {
  const s = p.signals;
  if (!s) return html`<span class="muted small">a contact card only: no mail or meetings</span>`;
  const by = s.last_touch_by === "owner" ? `${p.path_owner ?? "the owner"} wrote` : s.last_touch_by === "contact" ? "they wrote" : "a meeting";
  return html`<div class="path-signals">
  <span>last touch <b>${s.days_since_last_touch === null ? "—" : s.days_since_last_touch === 0 ? "today" : `${count(s.days_since_last_touch)} d ago`}</b> (${by})</span>
  <span><b>${count(s.emails_sent)}</b> sent · <b>${count(s.emails_received)}</b> received</span>
  <span><b>${count(s.meetings)}</b> meeting${s.meetings === 1 ? "" : "s"}</span>
  <span>two-way <b>${Math.round(s.two_way_ratio * 100)}%</b></span>
  <span>since ${when(s.first_touch_at, true)}</span>
</div>`;
}

function introLink(p: PathView, v: WhoKnowsView): Html {
  if (p.owner_user_id === v.me.userId) return html`<span class="small muted">your own contact${p.email ? html`: <a href="mailto:${p.email}">write to them</a>` : ""}</span>`;
  if (!p.owner_email) return html`<span class="small muted">owner has no address</span>`;
  const who = p.name ?? p.email ?? "them";
  const at = p.title ? ` (${p.title}${p.domain ? `, ${p.domain}` : ""})` : p.domain ? ` at ${p.domain}` : "";
  const subject = `Intro to ${who}?`;
  const body = `Hi ${(p.path_owner ?? "").split(/\s+/)[0]},\n\nDealgraph says you know ${who}${at}. Would you be up for introducing me?\n\nThanks,\n${v.me.name}`;
  const href = `mailto:${encodeURIComponent(p.owner_email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
  return html`<a class="btn small secondary" href="${href}" data-testid="intro-link">Ask ${p.path_owner ?? "the owner"} for an intro</a>`;
}

function results(v: WhoKnowsView): Html {
  if (!v.searched) {
    return html`<div class="card"><div class="empty">Search by a company's domain (e.g. <code>acme.com</code>), a person's name or email address, or both (that person at that company).
      Paths come from your own relationships and those of teammates who share their network.</div></div>`;
  }
  if (v.paths.length === 0) {
    const why = v.unavailable_reason === "no_relationship_data"
      ? "Someone in the team has this contact, but there is no mail or meeting with them to judge the relationship by."
      : "Nobody in your team's shared network knows them (yet).";
    return html`<div class="card"><div class="empty" data-testid="no-paths">${why}</div></div>`;
  }
  return html`<div class="card flush"><div class="table-wrap"><table data-testid="paths-table">
<thead><tr><th class="num">#</th><th>Person</th><th>Known by</th><th>Relationship</th><th>Warmth</th><th>Why</th><th></th></tr></thead>
<tbody>${v.paths.map(
    (p, i) => html`<tr data-contact-id="${p.contact_id ?? ""}" data-owner="${p.path_owner ?? ""}">
  <td class="num">${i + 1}</td>
  <td><strong>${p.name ?? p.email ?? "Unnamed"}</strong><div class="small muted">${[p.title, p.email].filter(Boolean).join(" · ")}</div></td>
  <td>${p.path_owner}</td>
  <td class="nw">${relationship(p)}</td>
  <td>${warmthCell(p)}</td>
  <td>${signalsCell(p)}</td>
  <td>${introLink(p, v)}</td>
</tr>`,
  )}</tbody></table></div></div>`;
}

export function whoKnowsPage(shell: Shell, v: WhoKnowsView): Html {
  const target = [v.person, v.domain && (v.person ? `at ${v.domain}` : v.domain)].filter(Boolean).join(" ");
  return layout(
    shell,
    html`${pageHead("Who knows", v.searched ? html`Warm paths to <strong>${target}</strong> through ${v.orgName}'s shared network, strongest first.` : "Find the warmest way in to a company or a person.")}
<div class="card">
  <form method="get" action="/app/who-knows" class="filters" role="search" data-testid="who-knows-form">
    <div class="field grow"><label for="f-domain">Company domain</label><input id="f-domain" type="search" name="domain" value="${v.domain}" placeholder="acme.com" maxlength="253"></div>
    <div class="field grow"><label for="f-person">Person</label><input id="f-person" type="search" name="person" value="${v.person}" placeholder="Name or email" maxlength="320"></div>
    <button class="btn" type="submit">Find paths</button>
  </form>
</div>
${results(v)}
<p class="muted small">Strength (0–100) grows with mail and meetings both ways and fades over months without contact; warmth leans on how recent the last touch was. Teammates who do not share their network are never shown.</p>`,
  );
}
