// Network settings: the sharing opt-in, explained, and the going-stale list with a snooze per row.
import type { StaleSignal } from "../../network/network.signals.ts";
import { html, type Html } from "../html.ts";
import { badge, csrfField, layout, pageHead, when, type Shell } from "./layout.ts";

export type NetworkView = {
  sharing: boolean;
  orgName: string;
  stale: StaleSignal[];
  staleTotal: number;
  defaultSnooze: string;
  minSnooze: string;
};

function sharingCard(v: NetworkView, csrf: string | null): Html {
  return html`<div class="card" data-testid="sharing">
  <div class="switch-state">
    <div>
      <h2>Share my network with my team</h2>
      <p class="muted">Currently: ${v.sharing ? badge("On: teammates can find paths through you", "ok") : badge("Off: only you see your relationships")}</p>
    </div>
    <form method="post" action="/app/network/sharing">
      ${csrfField(csrf)}
      <input type="hidden" name="share" value="${v.sharing ? "off" : "on"}">
      <button class="btn${v.sharing ? " secondary" : ""}" type="submit">${v.sharing ? "Stop sharing" : "Start sharing"}</button>
    </form>
  </div>
  <div class="explain">
    <strong>What this means</strong>
    <ul>
      <li>When on, your teammates at ${v.orgName} see your relationships in <em>who knows</em> and warmth lookups:
        that you know someone, how strong and warm the relationship is, and when you were last in touch, so they can ask you for an introduction.</li>
      <li>They never see your emails, meetings or what was said in them: only the relationship and its scores.</li>
      <li>Your relationships never leave ${v.orgName}. No other organization on this server can see them, on or off.</li>
      <li>When off, only you (and your own API keys) see your network. You can change this at any time; it takes effect immediately.</li>
    </ul>
  </div>
</div>`;
}

function staleTable(v: NetworkView, csrf: string | null): Html {
  if (v.stale.length === 0) {
    return html`<div class="empty" data-testid="stale-empty">Nobody is going stale. Relationships appear here when the time since your last touch
      passes the cadence you declared (or the one Dealgraph learned from your history).</div>`;
  }
  return html`<div class="table-wrap"><table data-testid="stale-table">
<thead><tr><th>Contact</th><th>Last touch</th><th class="num">Days since</th><th class="num">Cadence</th><th>Snooze until</th></tr></thead>
<tbody>
${v.stale.map(
  (s) => html`<tr data-contact="${s.email ?? ""}">
  <td><strong>${s.name}</strong>${s.email && s.email !== s.name ? html`<div class="small muted">${s.email}</div>` : ""}</td>
  <td class="small">${when(s.last_touch_at, true)}</td>
  <td class="num"><strong>${s.days_since_last_touch}</strong></td>
  <td class="num">every ${s.effective_cadence_days} d ${s.source === "declared" ? badge("declared", "info") : badge("learned")}</td>
  <td>${s.email
    ? html`<form method="post" action="/app/network/snooze" class="inline">
      ${csrfField(csrf)}
      <input type="hidden" name="contact" value="${s.email}">
      <input type="hidden" name="back" value="/app/network">
      <input type="date" name="until" value="${v.defaultSnooze}" min="${v.minSnooze}" aria-label="Snooze ${s.name} until" required>
      <button class="btn small secondary" type="submit">Snooze</button>
    </form>`
    : html`<span class="muted small">no address</span>`}</td>
</tr>`,
)}
</tbody></table></div>`;
}

export function networkPage(shell: Shell, v: NetworkView): Html {
  return layout(
    shell,
    html`${pageHead("Network", "Who sees your relationships, and who you should get back in touch with.")}
${sharingCard(v, shell.csrf)}
<div class="card flush">
  <div class="card-head"><h2>Going stale</h2><span class="muted small" data-testid="stale-total">${v.staleTotal === 1 ? "1 relationship past its cadence" : `${v.staleTotal} relationships past their cadence`}</span></div>
  ${staleTable(v, shell.csrf)}
</div>
<p class="muted small">Set a cadence for anyone on the <a href="/app/contacts">contacts page</a>. A declared cadence wins over the learned one.</p>`,
  );
}
