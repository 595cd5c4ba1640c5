// The frame every page shares (top bar, navigation, flash messages) and the small parts pages
// are built from: fields with inline errors, badges, dates, usage meters.
import { html, type Html } from "../html.ts";
import type { Flash } from "../web.service.ts";

export type NavKey =
  | "home"
  | "deals"
  | "who-knows"
  | "portfolio"
  | "funds"
  | "research"
  | "network"
  | "contacts"
  | "keys"
  | "connected-apps"
  | "webhooks"
  | "connections"
  | "admin"
  | "account";

export type Shell = {
  title: string;
  active?: NavKey;
  user: { name: string; email: string; isAdmin: boolean } | null;
  /** Null for a user in no organization: no org pages in the navigation. */
  orgName: string | null;
  csrf: string | null;
  flashes?: Flash[];
};

type NavItem = { key: NavKey; href: string; label: string; admin?: boolean };

/** The firm's workspace, in the top bar. */
const NAV: NavItem[] = [
  { key: "home", href: "/app", label: "Overview" },
  { key: "deals", href: "/app/deals", label: "Deals" },
  { key: "who-knows", href: "/app/who-knows", label: "Who knows" },
  { key: "portfolio", href: "/app/portfolio", label: "Portfolio" },
  { key: "funds", href: "/app/funds", label: "Funds" },
  { key: "research", href: "/app/research", label: "Research" },
  { key: "contacts", href: "/app/contacts", label: "Contacts" },
];

/** Settings and integrations, under one menu. */
const SETTINGS: NavItem[] = [
  { key: "network", href: "/app/network", label: "Network sharing" },
  { key: "keys", href: "/app/keys", label: "API keys" },
  { key: "connected-apps", href: "/app/connected-apps", label: "Connected apps" },
  { key: "webhooks", href: "/app/webhooks", label: "Webhooks" },
  { key: "connections", href: "/app/connections", label: "Connections" },
  { key: "admin", href: "/app/admin", label: "Admin", admin: true },
];

/** Pages with charts also load uPlot (served from the binary, like everything else). */
export type PageAssets = { charts?: boolean };

function head(title: string, assets: PageAssets = {}, refreshTo?: string): Html {
  return html`<head>
<meta charset="utf-8">
${refreshTo ? html`<meta http-equiv="refresh" content="0;url=${refreshTo}">` : ""}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Dealgraph</title>
<link rel="icon" href="/app/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app/assets/app.css">
${assets.charts ? html`<link rel="stylesheet" href="/app/assets/uplot.css">
<script src="/app/assets/uplot.js" defer></script>` : ""}
<script src="/app/assets/app.js" defer></script>
</head>`;
}

function navLink(n: NavItem, active: NavKey | undefined): Html {
  return html`<a href="${n.href}" class="${n.key === active ? "active" : ""}"${n.key === active ? html` aria-current="page"` : ""}>${n.label}</a>`;
}

export function layout(shell: Shell, body: Html, assets: PageAssets = {}): Html {
  const { user } = shell;
  const inOrg = !!(user && shell.orgName);
  const settings = inOrg ? SETTINGS.filter((n) => !n.admin || user!.isAdmin) : [];
  const settingsActive = settings.some((n) => n.key === shell.active);
  return html`<html lang="en">
${head(shell.title, assets)}
<body>
<header class="topbar"><div class="topbar-inner">
  <a class="brand" href="/app"><span class="brand-mark"></span>Dealgraph</a>
  <nav class="nav" aria-label="Main">
    ${inOrg ? NAV.map((n) => navLink(n, shell.active)) : ""}
    ${settings.length
      ? html`<details class="menu nav-menu"><summary class="${settingsActive ? "active" : ""}">Settings</summary>
      <div class="menu-body nav-menu-body">${settings.map((n) => navLink(n, shell.active))}</div></details>`
      : ""}
  </nav>
  ${user
    ? html`<div class="who">
    ${shell.orgName ? html`<span class="org-name">${shell.orgName}</span><span aria-hidden="true">·</span>` : ""}
    <a href="/app/account" class="${shell.active === "account" ? "active" : ""}">${user.name}</a>
    <form method="post" action="/app/sign-out">${csrfField(shell.csrf)}<button class="linkish" type="submit">Sign out</button></form>
  </div>`
    : ""}
</div></header>
<main>
${flashList(shell.flashes ?? [])}
${body}
</main>
<footer>Dealgraph · self-hosted · <a href="/api/v1/docs">API reference</a></footer>
</body>
</html>`;
}

/**
 * A page without the app frame: sign-in, sign-in links, and (wide) the consent page of MCP sign-in.
 * `refreshTo`: a page that moves on by itself (a navigation, which no form-action policy restricts).
 */
export function bareLayout(title: string, body: Html, opts: { wide?: boolean; refreshTo?: string } = {}): Html {
  return html`<html lang="en">
${head(title, {}, opts.refreshTo)}
<body>
<div class="auth-wrap"><div class="auth-card${opts.wide ? " wide" : ""}">
  <div class="auth-brand"><span class="brand-mark"></span>Dealgraph</div>
  ${body}
</div></div>
</body>
</html>`;
}

export function pageHead(title: string, subtitle?: string | Html, aside?: Html): Html {
  return html`<div class="page-head"><div><h1>${title}</h1>${subtitle ? html`<p>${subtitle}</p>` : ""}</div>${aside ?? ""}</div>`;
}

export function csrfField(token: string | null): Html {
  return token ? html`<input type="hidden" name="csrf" value="${token}">` : html``;
}

/** A one-button form for something that cannot be undone: app.js asks `question` first. */
export function confirmForm(action: string, question: string, csrf: string | null, label: string): Html {
  return html`<form method="post" action="${action}" data-confirm="${question}">
  ${csrfField(csrf)}
  <button class="btn small danger" type="submit">${label}</button>
</form>`;
}

export function flashList(flashes: Flash[]): Html {
  return html`${flashes.map(
    (f, i) => html`<div class="flash ${f.kind}" role="${f.kind === "error" ? "alert" : "status"}">
  <div>${f.text}</div>
  ${f.secret
    ? html`<div class="secret-box"><code id="secret-${i}" data-testid="new-secret">${f.secret.value}</code>
      <button type="button" class="btn small secondary" data-copy="secret-${i}">Copy</button></div>
      <div class="small secret-note">This is the only time the secret is shown. Store it in your password manager or secret store now.</div>`
    : ""}
</div>`,
  )}`;
}

export type FieldSpec = {
  label: string;
  name: string;
  type?: string;
  value?: string | number | null;
  error?: string | null;
  hint?: string | Html;
  attrs?: Html;
};

export function field(f: FieldSpec): Html {
  const id = `f-${f.name}`;
  return html`<div class="field${f.error ? " invalid" : ""}">
  <label for="${id}">${f.label}</label>
  <input id="${id}" name="${f.name}" type="${f.type ?? "text"}" value="${f.value ?? ""}"${f.error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ""} ${f.attrs ?? ""}>
  ${f.hint ? html`<div class="hint">${f.hint}</div>` : ""}
  ${f.error ? html`<div class="error-text" id="${id}-error">${f.error}</div>` : ""}
</div>`;
}

export function badge(text: string, kind: "ok" | "warn" | "bad" | "info" | "" = ""): Html {
  return html`<span class="badge ${kind}">${text}</span>`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `2026-11-22 14:05 UTC`, in a <time> element; an em dash for nothing. */
export function when(iso: string | null | undefined, dateOnly = false): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return html`${iso}`;
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (dateOnly) return html`<time datetime="${d.toISOString()}" class="nw">${day}</time>`;
  // Wraps between the day and the time of day, never inside either.
  return html`<time datetime="${d.toISOString()}"><span class="nw">${day}</span> <span class="nw">${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC</span></time>`;
}

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function meter(used: number, limit: number, unit: string): Html {
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  // The content security policy allows no inline styles: widths come in 5% steps of classes.
  const step = used > 0 ? Math.max(5, Math.round(pct / 5) * 5) : 0;
  return html`<div class="meter" title="${used} of ${limit} ${unit} today (UTC)">
  <div class="meter-bar"><span class="w${step}${pct >= 90 ? " hot" : ""}"></span></div>
  <span class="small">${used.toLocaleString("en-US")} / ${limit.toLocaleString("en-US")} ${unit}</span>
</div>`;
}

/** Previous and next under a paged table (nothing when there is one page). */
export function pager(page: number, pages: number, href: (page: number) => string, note?: string): Html {
  if (pages <= 1) return html``;
  return html`<div class="pager">
  <span class="small muted">Page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}${note ? ` · ${note}` : ""}</span>
  <span class="actions">
    ${page > 1 ? html`<a class="btn small secondary" href="${href(page - 1)}">Previous</a>` : ""}
    ${page < pages ? html`<a class="btn small secondary" href="${href(page + 1)}">Next</a>` : ""}
  </span>
</div>`;
}
