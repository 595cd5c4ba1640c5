// Signing in: email and password, or a one-time link from `dealgraph admin user link`.
import { html, type Html } from "../html.ts";
import { bareLayout, csrfField, field } from "./layout.ts";

export type SignInView = {
  csrf: string;
  email?: string;
  next?: string;
  error?: string | null;
  notice?: string | null;
};

export function signInPage(v: SignInView): Html {
  return bareLayout(
    "Sign in",
    html`<div class="card">
  <h1>Sign in</h1>
  <p class="muted">Your firm's deal, portfolio and network workspace.</p>
  ${v.notice ? html`<div class="flash info" role="status">${v.notice}</div>` : ""}
  ${v.error ? html`<div class="flash error" role="alert" data-testid="sign-in-error">${v.error}</div>` : ""}
  <form method="post" action="/app/sign-in" novalidate>
    ${csrfField(v.csrf)}
    ${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : ""}
    ${field({ label: "Email", name: "email", type: "email", value: v.email ?? "", attrs: html`autocomplete="username" required${v.email ? "" : html` autofocus`}` })}
    ${field({ label: "Password", name: "password", type: "password", attrs: html`autocomplete="current-password" required${v.email ? html` autofocus` : ""}` })}
    <button class="btn block" type="submit">Sign in</button>
  </form>
</div>
<p class="muted small">No password yet, or forgot it? Ask an administrator for a one-time sign-in link
(<code>dealgraph admin user link --user USER_ID</code>) or to set one
(<code>dealgraph admin user password --user USER_ID</code>).</p>`,
  );
}

export type LinkView =
  | { state: "valid"; token: string; csrf: string; name: string; email: string }
  | { state: "unknown" | "used" | "expired" };

const LINK_PROBLEMS = {
  unknown: "This sign-in link is not valid. Check that the whole link was copied, or ask an administrator for a new one.",
  used: "This sign-in link was already used. Each link works once: ask an administrator for a new one.",
  expired: "This sign-in link has expired (links are valid for 15 minutes). Ask an administrator for a new one.",
};

export function linkPage(v: LinkView): Html {
  if (v.state !== "valid") {
    return bareLayout(
      "Sign-in link",
      html`<div class="card">
  <h1>Sign-in link</h1>
  <div class="flash error" role="alert" data-testid="link-error">${LINK_PROBLEMS[v.state]}</div>
  <a class="btn secondary block" href="/app/sign-in">Go to sign in</a>
</div>`,
    );
  }
  return bareLayout(
    "Sign-in link",
    html`<div class="card">
  <h1>Welcome</h1>
  <p>This one-time link signs you in as <strong>${v.name}</strong> (${v.email}).</p>
  <form method="post" action="/app/sign-in/link">
    ${csrfField(v.csrf)}
    <input type="hidden" name="token" value="${v.token}">
    <button class="btn block" type="submit">Continue as ${v.name}</button>
  </form>
  <p class="muted small">After signing in, set a password on your account page.</p>
</div>`,
  );
}
