// The consent page of MCP sign-in: which app asks (in its own, unverified words), where the answer
// goes (the redirect host), what it may do (read, or read and write, explained), as whom; Allow
// or Deny. A request for read and write may be allowed for reading only.
import { html, type Html } from "../html.ts";
import { bareLayout, csrfField, when } from "./layout.ts";

export type ConsentView = {
  csrf: string;
  client: { id: string; name: string | null; registeredAt: string };
  redirect: { host: string; loopback: boolean };
  asked: "read" | "write";
  user: { name: string; email: string };
  orgName: string;
  dailyRequests: number;
  dailyActions: number;
  /** The authorization request's parameters, carried by the form as they came. */
  params: [string, string][];
};

const READS = "ask about your firm's network (who knows whom, and how warmly), the deal pipeline and its analyses, the portfolio and the fund book: what you can see in Dealgraph";

function scopeChoice(v: ConsentView): Html {
  if (v.asked === "read") {
    return html`<div class="card" data-testid="consent-scope" data-scope="read">
  <h2>Read only</h2>
  <p>It may ${READS}, through Dealgraph's <code>ask</code> tool. It cannot start analyses or research, or change anything.</p>
</div>`;
  }
  return html`<div class="field" data-testid="consent-scope" data-scope="write">
  <span class="label">What may it do?</span>
  <label class="choice"><input type="radio" name="grant" value="write" checked> <span><strong>Read and write</strong>: ${READS}; and start deal analyses,
    founder analyses and research runs as you, each spending one of the ${v.dailyActions} actions it may start a day.</span></label>
  <label class="choice"><input type="radio" name="grant" value="read"> <span><strong>Read only</strong>: ${READS}, but start nothing.</span></label>
</div>`;
}

export function consentPage(v: ConsentView): Html {
  const named = v.client.name !== null;
  return bareLayout(
    "Allow access?",
    html`<div class="card" data-testid="consent">
  <h1>Allow ${named ? html`“${v.client.name}”` : "an app without a name"} to use Dealgraph as you?</h1>
  <p class="muted small">${named ? "The name is the app's own description of itself; Dealgraph has not checked it." : "The app gave no name."}
    Registered ${when(v.client.registeredAt)} · <code>${v.client.id}</code></p>
  <p>It would act as <strong>${v.user.name}</strong> (${v.user.email}) in <strong>${v.orgName}</strong>, for at most ${v.dailyRequests.toLocaleString("en-US")} requests a day.</p>
  <form method="post" action="/app/oauth/authorize">
    ${csrfField(v.csrf)}
    ${v.params.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
    ${scopeChoice(v)}
    <p>After you answer, your browser goes back to <strong data-testid="redirect-host">${v.redirect.host}</strong>${v.redirect.loopback ? " (an app on this computer)" : ""}.
      If you did not just connect an app, choose Deny.</p>
    <div class="actions">
      <button class="btn" type="submit" name="decision" value="allow">Allow</button>
      <button class="btn secondary" type="submit" name="decision" value="deny">Deny</button>
    </div>
  </form>
  <p class="muted small">You can revoke it at any time under Settings → <a href="/app/connected-apps">Connected apps</a>; it stops working at its next request.</p>
</div>`,
    { wide: true },
  );
}

/**
 * The answer for an app the member allowed before with the same scope: no question, the browser
 * moves on to the app by itself. A page rather than a redirect: after a sign-in the request is
 * still the sign-in form's navigation, whose policy allows forms to lead to this server only.
 */
export function continuePage(v: { clientName: string | null; host: string; to: string }): Html {
  const name = v.clientName !== null ? html`“${v.clientName}”` : "the app";
  return bareLayout(
    "Continuing",
    html`<div class="card" data-testid="consent-continue">
  <h1>Continuing to ${name}</h1>
  <p>You allowed ${name} before, with the same access. Your browser goes back to <strong>${v.host}</strong> now.</p>
  <a class="btn block" href="${v.to}" data-testid="continue-link">Continue</a>
  <p class="muted small">Changed your mind? Revoke it under Settings → <a href="/app/connected-apps">Connected apps</a>.</p>
</div>`,
    { wide: true, refreshTo: v.to },
  );
}
