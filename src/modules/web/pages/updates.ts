// The review queue of founders' updates: each update with the figures read from it, each figure
// beside its quote, with accept, reject and a corrected period for those waiting for review.
import { html, type Html } from "../html.ts";
import { badge, csrfField, layout, pageHead, pager, when, type Shell } from "./layout.ts";
import { metricLabel, metricValue } from "./portfolio.ts";

export type UpdateFigureRow = {
  figure_id: number;
  metric: string;
  value: number;
  unit: string | null;
  currency: string | null;
  period_end: string | null;
  status: "applied" | "needs_review" | "rejected";
  reason: string | null;
  quote: string;
  source: { message_id: string; document_id: string | null; page: number | null };
};

export type UpdateRow = {
  update_id: string;
  company_id: string;
  company_name: string | null;
  from: string;
  subject: string;
  received_at: string;
  period_end: string | null;
  problems: string | null;
  figures: UpdateFigureRow[];
};

export type UpdatesView = { status: string; updates: UpdateRow[]; total: number; page: number; pageSize: number; waiting: number };

const STATUS_BADGE = { applied: badge("applied", "ok"), needs_review: badge("needs review", "warn"), rejected: badge("rejected", "bad") } as const;

function where(f: UpdateFigureRow): string {
  return f.source.document_id ? `${f.source.document_id.replace(/^attachment-\d+:/, "")}${f.source.page ? `, page ${f.source.page}` : ""}` : "message text";
}

function actions(f: UpdateFigureRow, csrf: string | null, back: string): Html {
  if (f.status === "rejected") return html`<span class="muted small">rejected</span>`;
  const action = `/app/portfolio/updates/figures/${f.figure_id}`;
  const hidden = html`${csrfField(csrf)}<input type="hidden" name="back" value="${back}">`;
  return html`<div class="row-actions">
  ${f.status === "needs_review" ? html`<form method="post" action="${action}">${hidden}<input type="hidden" name="decision" value="accept"><button class="btn small" type="submit" data-action="accept">Accept</button></form>` : ""}
  <form method="post" action="${action}">${hidden}<input type="hidden" name="decision" value="reject"><button class="btn small secondary" type="submit" data-action="reject">Reject</button></form>
  <form method="post" action="${action}" class="inline">${hidden}<input type="hidden" name="decision" value="period">
    <label class="small">period end <input type="date" name="period_end" value="${f.period_end ?? ""}" required data-field="period_end"></label>
    <button class="btn small secondary" type="submit" data-action="period">Correct</button></form>
</div>`;
}

export function updatesPage(shell: Shell, v: UpdatesView): Html {
  const back = `/app/portfolio/updates?status=${encodeURIComponent(v.status)}${v.page > 1 ? `&page=${v.page}` : ""}`;
  const tabs = [
    ["needs_review", `Needs review (${v.waiting})`],
    ["applied", "Applied"],
    ["rejected", "Rejected"],
    ["all", "All"],
  ];
  const body = v.updates.length
    ? v.updates.map(
        (u) => html`<div class="card flush" data-update-id="${u.update_id}">
  <div class="card-head"><h2><a href="/app/portfolio/${u.company_id}">${u.company_name ?? "?"}</a>: ${u.subject || "(no subject)"}</h2>
    <span class="small muted">from ${u.from} · ${when(u.received_at)}${u.period_end ? html` · for the period ending ${when(u.period_end, true)}` : ""}</span></div>
  ${u.problems ? html`<p class="small warn">Not read: ${u.problems}</p>` : ""}
  <div class="table-wrap"><table class="compact" data-testid="update-figures"><thead><tr><th>Metric</th><th class="num">Value</th><th>Period end</th><th>Status</th><th>Quote</th><th></th></tr></thead>
  <tbody>${u.figures.map(
    (f) => html`<tr data-figure-id="${f.figure_id}" data-status="${f.status}" data-metric="${f.metric}">
    <td>${metricLabel(f.metric)}</td><td class="num">${metricValue({ value: f.value, unit: f.unit, currency: f.currency, statement_date: f.period_end ?? "" })}</td>
    <td class="small" data-field="period">${f.period_end ?? html`<span class="muted">not said</span>`}</td>
    <td>${STATUS_BADGE[f.status]}${f.reason ? html`<div class="small muted" data-field="reason">${f.reason}</div>` : ""}</td>
    <td class="small"><q data-field="quote">${f.quote}</q><div class="muted">${where(f)}</div></td>
    <td>${actions(f, shell.csrf, back)}</td></tr>`,
  )}</tbody></table></div></div>`,
      )
    : html`<div class="card"><div class="empty">${v.status === "needs_review" ? "Nothing waits for review." : "No updates here yet."} Updates arrive from synced mailboxes and <code>dealgraph import updates</code>.</div></div>`;
  return layout(
    shell,
    html`<p class="small"><a href="/app/portfolio">← Portfolio</a></p>
${pageHead("Founders' updates", "Figures read from portfolio companies' update mails, each beside the sentence or table row it came from.")}
<nav class="tabs" data-testid="update-tabs">${tabs.map(([key, label]) => html`<a href="/app/portfolio/updates?status=${key}"${key === v.status ? html` class="active" aria-current="page"` : ""}>${label}</a>`)}</nav>
${body}
${pager(v.page, Math.max(1, Math.ceil(v.total / v.pageSize)), (n) => `/app/portfolio/updates?status=${encodeURIComponent(v.status)}&page=${n}`)}`,
  );
}
