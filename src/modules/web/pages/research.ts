// Research: ask a question over the firm's own records (an action, within the member's daily web
// budget), see the runs, follow one's progress live, and read its report, rendered from Markdown,
// with every citation linked to the record it quotes.
import type { WebActionsToday } from "../../identity/web-budgets.service.ts";
import { html, type Html } from "../html.ts";
import { renderMarkdown } from "../markdown.ts";
import { count } from "./format.ts";
import { badge, csrfField, layout, pageHead, pager, when, type Shell } from "./layout.ts";
import { budgetNote } from "./pipeline.ts";

export type ResearchRow = {
  research_id: string;
  status: string;
  query: string;
  executive_summary: string | null;
  created_at: string;
  finished_at: string | null;
  author: string | null;
};

export type ResearchListView = {
  runs: ResearchRow[];
  total: number;
  page: number;
  pageSize: number;
  budget: WebActionsToday;
  form: { query: string; key: string; error: string | null };
  queryMax: number;
};

export function runStatus(status: string): Html {
  return status === "succeeded" ? badge("done", "ok") : status === "failed" ? badge("failed", "bad") : badge(status, "info");
}

function startForm(v: ResearchListView, csrf: string | null): Html {
  return html`<div class="card" data-testid="research-form">
  <h2>Ask a question</h2>
  <form method="post" action="/app/research">
    ${csrfField(csrf)}
    <input type="hidden" name="idempotency_key" value="${v.form.key}">
    <div class="field${v.form.error ? " invalid" : ""}">
      <label for="f-query">Question</label>
      <textarea id="f-query" name="query" maxlength="${v.queryMax}" required placeholder="e.g. Which of our portfolio companies have less than 12 months of runway, and who knows their CEOs?"${v.form.error ? html` aria-invalid="true" aria-describedby="f-query-error"` : ""}>${v.form.query}</textarea>
      ${v.form.error ? html`<div class="error-text" id="f-query-error">${v.form.error}</div>` : ""}
      <div class="hint">Answered from the firm's own decks, data rooms, deal analyses, portfolio metrics, LP book and network, every claim cited. At most two of your runs at a time.</div>
    </div>
    <div class="actions"><span class="grow">${budgetNote(v.budget)}</span><button class="btn" type="submit">Start research</button></div>
  </form>
</div>`;
}

export function researchListPage(shell: Shell, v: ResearchListView): Html {
  const pages = Math.max(1, Math.ceil(v.total / v.pageSize));
  return layout(
    shell,
    html`${pageHead("Research", "Questions answered from the firm's own records, with sources.")}
${startForm(v, shell.csrf)}
<div class="card flush">
  <div class="card-head"><h2>Runs</h2><span class="small muted">${count(v.total)} in your organization</span></div>
  ${v.runs.length
    ? html`<div class="table-wrap"><table data-testid="research-table">
<thead><tr><th>Question</th><th>Status</th><th>Asked by</th><th>Started</th></tr></thead>
<tbody>${v.runs.map(
        (r) => html`<tr data-research-id="${r.research_id}">
  <td><a href="/app/research/${r.research_id}"><strong>${r.query.length > 160 ? `${r.query.slice(0, 160)}…` : r.query}</strong></a>
    ${r.executive_summary ? html`<div class="small muted">${r.executive_summary.length > 220 ? `${r.executive_summary.slice(0, 220)}…` : r.executive_summary}</div>` : ""}</td>
  <td>${runStatus(r.status)}</td>
  <td class="small">${r.author ?? "—"}</td>
  <td class="small">${when(r.created_at)}</td>
</tr>`,
      )}</tbody></table></div>
${pager(v.page, pages, (p) => `/app/research?page=${p}`)}`
    : html`<div class="empty">No research yet: ask the first question above.</div>`}
</div>`,
  );
}

export type CitationView = { n: number; title: string; source_type: string; page: number | null; quote: string; href: string | null };

export type ResearchView = {
  research_id: string;
  status: string;
  progress: Record<string, unknown> | null;
  error: string | null;
  query: string;
  plan: { sub_questions: string[] };
  engine: string | null;
  executive_summary: string | null;
  report_markdown: string | null;
  citations: CitationView[];
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  author: string | null;
};

const SOURCE_LABEL: Record<string, string> = {
  document: "document",
  deal: "deal analysis",
  metric_point: "portfolio metric",
  fund_commitment: "LP commitment",
  person: "person in the network",
};

function citations(v: ResearchView): Html {
  if (v.citations.length === 0) return html``;
  return html`<div class="card" data-testid="citations"><h2>Cited records</h2><ol class="citations">
${v.citations.map(
  (c) => html`<li id="cite-${c.n}" value="${c.n}">
  ${c.href ? html`<a href="${c.href}">${c.title}</a>` : html`<strong>${c.title}</strong>`}${c.page ? `, page ${c.page}` : ""}
  <span class="small muted"> · ${SOURCE_LABEL[c.source_type] ?? c.source_type}</span>
  <div><q>${c.quote}</q></div>
</li>`,
)}
</ol></div>`;
}

export function researchPage(shell: Shell, v: ResearchView): Html {
  const live = v.status === "queued" || v.status === "running";
  return layout(
    shell,
    html`<p class="small"><a href="/app/research">← Research</a></p>
${pageHead(v.query.length > 140 ? `${v.query.slice(0, 140)}…` : v.query, html`${runStatus(v.status)} · asked by ${v.author ?? "someone"} ${when(v.created_at)}${v.engine ? ` · ${v.engine === "builtin" ? "built-in engine" : `engine ${v.engine}`}` : ""}`)}
${live
  ? html`<div class="progress" data-events="/app/research/${v.research_id}/events" data-testid="research-progress" role="status">
  <strong>Researching.</strong> <span data-progress-text>${v.status === "queued" ? "Queued" : "Running"}</span>
  <div class="meter-bar"><span class="w0" data-progress-bar></span></div>
</div>`
  : ""}
${v.status === "failed" ? html`<div class="flash error" role="alert" data-testid="research-error">The run failed: ${v.error ?? "no reason recorded"}</div>` : ""}
${v.query.length > 140 ? html`<div class="card"><h2>Question</h2><p>${v.query}</p></div>` : ""}
<div class="card" data-testid="plan"><h2>Plan</h2><ol>${v.plan.sub_questions.map((q) => html`<li>${q}</li>`)}</ol></div>
${v.report_markdown
  ? html`<div class="card report" data-testid="report">${renderMarkdown(v.report_markdown, v.citations.map((c) => c.n))}</div>`
  : v.executive_summary
    ? html`<div class="card"><h2>Executive summary</h2><p>${v.executive_summary}</p></div>`
    : live ? "" : html`<div class="card"><div class="empty">No report.</div></div>`}
${citations(v)}`,
  );
}
