// Connections: the member's mail and calendar accounts. The mail-sync capability that fills this
// page (connect, status, remove) is not built yet; until it is, connectionsSection says so. It is
// the one function that capability replaces.
import { html, type Html } from "../html.ts";
import { layout, pageHead, type Shell } from "./layout.ts";

/** What the page shows of the member's connections (for now: that none can be made yet). */
export function connectionsSection(): Html {
  return html`<div class="card notice" data-testid="connections-not-configured">
  <h2>Connections are not configured yet</h2>
  <p>Connecting a mailbox or calendar directly (IMAP, CalDAV) is not available on this server yet.</p>
  <p class="muted">Until then, bring your network in from files: <code>dealgraph import mail --user USER_ID PATH</code> (an mbox file or a folder of
    .eml files), <code>dealgraph import calendar --user USER_ID FILE.ics</code> and <code>dealgraph import contacts --user USER_ID FILE.vcf</code>.</p>
</div>`;
}

export function connectionsPage(shell: Shell, section: Html): Html {
  return layout(shell, html`${pageHead("Connections", "Your mail and calendar accounts, which keep your network up to date.")}${section}`);
}
