// The web app's stylesheet, embedded as a string and served from the binary (/app/assets/app.css):
// no CDN, no web fonts, works offline. The script is in client.ts.

import { WORKSPACE_CSS } from "./style.workspace.ts";

export const CSS = `
:root {
  --bg: #f5f6f8; --surface: #fff; --ink: #18202c; --muted: #5b6675; --faint: #8a94a3; --line: #e3e6eb;
  --brand: #1f3a5f; --brand-ink: #fff; --accent: #2f6fde; --accent-dark: #2459b8;
  --ok: #1c7c4a; --ok-bg: #e6f4ec; --warn: #8a5a00; --warn-bg: #fdf3dc; --bad: #b42318; --bad-bg: #fdecea;
  --radius: 8px; --shadow: 0 1px 2px rgba(16,24,40,.06), 0 1px 3px rgba(16,24,40,.08);
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif;
  font-size: 15px; line-height: 1.5; color: var(--ink); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .9em; }
h1 { font-size: 1.55rem; margin: 0 0 .25rem; letter-spacing: -.01em; }
h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
p { margin: 0 0 .75rem; }
.muted { color: var(--muted); }
.nw { white-space: nowrap; }
.small { font-size: .85rem; }

.topbar { background: var(--brand); color: var(--brand-ink); }
.topbar-inner { max-width: 1360px; margin: 0 auto; padding: 0 24px; display: flex; align-items: center; gap: 28px; height: 56px; }
.brand { color: #fff; font-weight: 700; font-size: 1.05rem; display: flex; align-items: center; gap: 8px; }
.brand:hover { text-decoration: none; }
.brand-mark { width: 22px; height: 22px; border-radius: 6px; background: linear-gradient(135deg, #6ea8ff, #2f6fde); display: inline-block; }
.nav { display: flex; gap: 4px; flex: 1; }
.nav a { color: #c9d6ea; padding: 6px 12px; border-radius: 6px; font-weight: 500; }
.nav a:hover { color: #fff; background: rgba(255,255,255,.08); text-decoration: none; }
.nav a.active { color: #fff; background: rgba(255,255,255,.16); }
.who { display: flex; align-items: center; gap: 12px; color: #c9d6ea; font-size: .9rem; }
.who a { color: #fff; }
.who form { margin: 0; }
.linkish { background: none; border: 0; color: #fff; cursor: pointer; font: inherit; padding: 0; }
.linkish:hover { text-decoration: underline; }

main { flex: 1; width: 100%; max-width: 1360px; margin: 0 auto; padding: 28px 24px 48px; }
.page-head { display: flex; align-items: flex-end; justify-content: space-between; gap: 16px; margin-bottom: 20px; }
.page-head p { margin: 0; color: var(--muted); }
footer { color: var(--faint); font-size: .8rem; text-align: center; padding: 16px; }

.card { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); padding: 20px 22px; margin-bottom: 20px; }
.card.flush { padding: 0; overflow: hidden; }
.card.flush > h2, .card.flush > .card-head { padding: 18px 22px 0; }
.card-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; margin-bottom: 12px; }
.card-head h2 { margin: 0; }
.grid { display: grid; gap: 16px; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); margin-bottom: 20px; }
.grid > .card { margin-bottom: 0; }
.stat { font-size: 1.9rem; font-weight: 650; letter-spacing: -.02em; }
.stat-label { color: var(--muted); font-size: .85rem; }

table { width: 100%; border-collapse: collapse; font-size: .92rem; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: .78rem; text-transform: uppercase; letter-spacing: .04em; background: #fafbfc; }
th, td { padding: 10px 14px; border-bottom: 1px solid var(--line); vertical-align: middle; }
tr:last-child td { border-bottom: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
.empty { padding: 28px 22px; color: var(--muted); text-align: center; }

.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .78rem; font-weight: 600; background: #eef1f5; color: var(--muted); white-space: nowrap; }
.badge.ok { background: var(--ok-bg); color: var(--ok); }
.badge.warn { background: var(--warn-bg); color: var(--warn); }
.badge.bad { background: var(--bad-bg); color: var(--bad); }
.badge.info { background: #e8f0fd; color: var(--accent-dark); }

.meter { display: flex; align-items: center; gap: 8px; white-space: nowrap; }
.meter-bar { width: 64px; height: 6px; background: #e8ebf0; border-radius: 3px; overflow: hidden; }
.meter-bar span { display: block; height: 100%; background: var(--accent); }
.secret-note { margin-top: 6px; }
.meter-bar span.hot { background: var(--bad); }

form { margin: 0; }
.field { margin-bottom: 14px; }
.field label, .label { display: block; font-weight: 600; font-size: .88rem; margin-bottom: 4px; }
.hint { color: var(--muted); font-size: .82rem; margin-top: 3px; }
.error-text { color: var(--bad); font-size: .85rem; margin-top: 4px; }
input[type=text], input[type=email], input[type=password], input[type=number], input[type=date], input[type=search], select {
  font: inherit; width: 100%; padding: 8px 10px; border: 1px solid #cfd5dd; border-radius: 6px; background: #fff; color: var(--ink);
}
input:focus, select:focus, button:focus-visible { outline: 2px solid #9cc0ff; outline-offset: 1px; border-color: var(--accent); }
.invalid input, input.invalid { border-color: var(--bad); }
.row { display: flex; gap: 12px; align-items: flex-end; flex-wrap: wrap; }
.row .field { flex: 1; min-width: 160px; }
.inline { display: inline-flex; gap: 6px; align-items: center; }
.inline input[type=number] { width: 76px; padding: 5px 8px; }
.inline input[type=date] { width: 150px; padding: 4px 8px; }
.radio-row { display: flex; gap: 18px; }
.radio-row label { font-weight: 500; display: flex; align-items: center; gap: 6px; }

.btn { font: inherit; font-weight: 600; display: inline-flex; align-items: center; gap: 6px; padding: 8px 14px; border-radius: 6px; border: 1px solid transparent; cursor: pointer; background: var(--accent); color: #fff; white-space: nowrap; }
.btn:hover { background: var(--accent-dark); text-decoration: none; }
.btn.secondary { background: #fff; color: var(--ink); border-color: #cfd5dd; }
.btn.secondary:hover { background: #f3f5f8; }
.btn.danger { background: #fff; color: var(--bad); border-color: #f1b8b2; }
.btn.danger:hover { background: var(--bad-bg); }
.btn.small { padding: 4px 10px; font-size: .85rem; }
.btn.block { width: 100%; justify-content: center; }
.actions { display: flex; gap: 8px; align-items: center; justify-content: flex-end; flex-wrap: wrap; }

.flash { border-radius: var(--radius); padding: 12px 16px; margin-bottom: 18px; border: 1px solid; }
.flash.success { background: var(--ok-bg); border-color: #b5dcc5; color: #14532d; }
.flash.error { background: var(--bad-bg); border-color: #f1b8b2; color: #7a1a12; }
.flash.info { background: #e8f0fd; border-color: #bcd2f7; color: #1d3d78; }
.secret-box { margin-top: 10px; display: flex; gap: 8px; align-items: center; }
.secret-box code { flex: 1; background: #fff; border: 1px dashed #8fbf9f; border-radius: 6px; padding: 8px 10px; word-break: break-all; color: var(--ink); }

details.menu { position: relative; display: inline-block; }
details.menu > summary { list-style: none; }
details.menu > summary::-webkit-details-marker { display: none; }
details.menu[open] > .menu-body { position: absolute; right: 0; z-index: 5; margin-top: 6px; background: #fff; border: 1px solid var(--line); border-radius: var(--radius); box-shadow: 0 8px 24px rgba(16,24,40,.14); padding: 14px; width: 260px; text-align: left; }
.menu-body .field { margin-bottom: 10px; }

.auth-wrap { flex: 1; display: flex; align-items: center; justify-content: center; padding: 40px 16px; }
.auth-card { width: 100%; max-width: 400px; }
.auth-card.wide { max-width: 580px; }
.field label.choice { display: flex; gap: 8px; align-items: flex-start; font-weight: 400; font-size: .95rem; margin: 8px 0; }
.field label.choice input { margin-top: 4px; }
.auth-brand { display: flex; align-items: center; gap: 10px; justify-content: center; margin-bottom: 18px; font-weight: 700; font-size: 1.2rem; color: var(--brand); }
.explain { background: #f7f9fc; border: 1px solid var(--line); border-radius: var(--radius); padding: 14px 16px; }
.explain ul { margin: .25rem 0 0; padding-left: 1.2rem; }
.explain li { margin: .2rem 0; }
.switch-state { display: flex; align-items: center; justify-content: space-between; gap: 16px; }
.pager { display: flex; justify-content: space-between; align-items: center; padding: 12px 22px; border-top: 1px solid var(--line); }
.search { display: flex; gap: 8px; max-width: 460px; }
${WORKSPACE_CSS}`;

export const METER_CSS = Array.from({ length: 21 }, (_, i) => `.meter-bar span.w${i * 5} { width: ${i * 5}%; }`).join("\n");

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6ea8ff"/><stop offset="1" stop-color="#2f6fde"/></linearGradient></defs><rect width="32" height="32" rx="8" fill="url(#g)"/><circle cx="11" cy="12" r="3.2" fill="#fff"/><circle cx="21" cy="10" r="2.6" fill="#fff"/><circle cx="19" cy="22" r="3.6" fill="#fff"/><path d="M11 12 21 10 19 22Z" fill="none" stroke="#fff" stroke-width="1.6"/></svg>`;
