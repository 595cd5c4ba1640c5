// The account page: who you are, and setting a password (the current one is asked for, unless
// this session began with a one-time sign-in link: that is how a forgotten password is replaced).
import { MIN_PASSWORD_LENGTH } from "../web.auth.ts";
import { html, type Html } from "../html.ts";
import { badge, csrfField, field, layout, pageHead, when, type Shell } from "./layout.ts";

export type AccountView = {
  name: string;
  email: string;
  orgName: string | null;
  isAdmin: boolean;
  hasPassword: boolean;
  needsCurrent: boolean;
  sessionStarted: string;
  sessionExpires: string;
  errors: { current?: string; password?: string; confirm?: string };
};

export function accountPage(shell: Shell, v: AccountView): Html {
  return layout(
    shell,
    html`${pageHead("Your account")}
<div class="grid">
  <div class="card">
    <h2>Profile</h2>
    <p><strong>${v.name}</strong><br><span class="muted">${v.email}</span></p>
    <p>${v.orgName ? html`Organization: <strong>${v.orgName}</strong>` : badge("No organization", "warn")} ${v.isAdmin ? badge("Admin", "info") : ""}</p>
    <p class="small muted">Signed in since ${when(v.sessionStarted)}; this session ends by ${when(v.sessionExpires)} (or after 12 hours without activity).</p>
  </div>
  <div class="card">
    <h2>${v.hasPassword ? "Change password" : "Set a password"}</h2>
    <form method="post" action="/app/account/password" novalidate>
      ${csrfField(shell.csrf)}
      ${v.needsCurrent ? field({ label: "Current password", name: "current", type: "password", error: v.errors.current, attrs: html`autocomplete="current-password" required` }) : ""}
      ${field({ label: "New password", name: "password", type: "password", error: v.errors.password, hint: `At least ${MIN_PASSWORD_LENGTH} characters.`, attrs: html`autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required` })}
      ${field({ label: "Repeat the new password", name: "confirm", type: "password", error: v.errors.confirm, attrs: html`autocomplete="new-password" required` })}
      <button class="btn" type="submit">Save password</button>
      <p class="small muted">Saving signs out your other sessions.</p>
    </form>
  </div>
</div>`,
  );
}
