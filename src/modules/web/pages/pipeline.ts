// The pipeline: deals by stage as a board (or one stage, a filter, as a paged list), each with its
// score and round at a glance and a way to move it on; filters for kind, analysis status and name;
// and the form that uploads a new deck (an action, within the member's daily web budget).
import type { WebActionsToday } from "../../identity/web-budgets.service.ts";
import { html, type Html } from "../html.ts";
import { count, money, scorePill } from "./format.ts";
import { badge, csrfField, layout, meter, pageHead, pager, when, type Shell } from "./layout.ts";

export const STAGES = [
  { key: "new", label: "New" },
  { key: "screening", label: "Screening" },
  { key: "diligence", label: "Diligence" },
  { key: "ic", label: "IC" },
  { key: "invested", label: "Invested" },
  { key: "passed", label: "Passed" },
] as const;

export const stageLabel = (stage: string) => STAGES.find((s) => s.key === stage)?.label ?? stage;

export type DealCard = {
  deal_id: string;
  company_name: string | null;
  domain: string | null;
  kind: "company" | "fund";
  stage: string;
  source: string;
  analysis_status: string | null;
  score: number | null;
  created_at: string;
  round: { stage: string | null; amount: number | null; currency: string | null } | null;
};

export type PipelineFilters = { kind: string; status: string; q: string; stage: string };

export type PipelineView = {
  filters: PipelineFilters;
  /** The board: every stage with its newest cards; null in the list (one stage or "all") view. */
  columns: { stage: string; label: string; total: number; deals: DealCard[] }[] | null;
  list: { deals: DealCard[]; total: number; page: number; pageSize: number } | null;
  total: number;
  perColumn: number;
  budget: WebActionsToday;
  /** This page's address, where the stage forms come back to. */
  back: string;
};

const query = (f: Partial<PipelineFilters> & { page?: number; view?: string }) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== "" && !(k === "page" && v === 1)) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
};

export function dealName(d: { company_name: string | null; domain: string | null }): string {
  return d.company_name ?? d.domain ?? "Unnamed deal";
}

export function roundText(r: DealCard["round"]): Html {
  if (!r || (r.stage === null && r.amount === null)) return html`<span class="muted">round not stated</span>`;
  return html`${r.stage ? html`<span>${r.stage}</span>` : ""}${r.stage && r.amount !== null ? " · " : ""}${r.amount !== null ? money(r.amount, r.currency) : ""}`;
}

export function runBadge(status: string | null): Html {
  if (status === "running") return badge("analysing", "info");
  if (status === "queued") return badge("queued", "info");
  if (status === "failed") return badge("analysis failed", "bad");
  return html``;
}

export function stageForm(d: { deal_id: string; stage: string; company_name: string | null; domain: string | null }, csrf: string | null, back: string, small = true): Html {
  return html`<form method="post" action="/app/deals/${d.deal_id}/stage" data-testid="stage-form">
  ${csrfField(csrf)}
  <input type="hidden" name="back" value="${back}">
  <select name="stage" data-autosubmit aria-label="Move ${dealName(d)} to stage">
    ${STAGES.map((s) => html`<option value="${s.key}"${s.key === d.stage ? html` selected` : ""}>${s.label}</option>`)}
  </select>
  <button class="btn ${small ? "small " : ""}secondary js-hide" type="submit">Move</button>
</form>`;
}

function card(d: DealCard, csrf: string | null, back: string): Html {
  return html`<div class="deal-card" data-deal-id="${d.deal_id}" data-testid="deal-card">
  <div class="top">
    <a class="name" href="/app/deals/${d.deal_id}">${dealName(d)}</a>
    ${scorePill(d.score, d.analysis_status === "succeeded" ? "No overall score: the material does not support one" : "Not analysed yet")}
  </div>
  <div class="meta">${d.kind === "fund" ? html`${badge("fund", "info")} ` : ""}${roundText(d.round)}</div>
  ${d.analysis_status !== "succeeded" ? html`<div class="meta">${runBadge(d.analysis_status)}</div>` : ""}
  ${stageForm(d, csrf, back)}
</div>`;
}

function board(v: PipelineView, csrf: string | null): Html {
  return html`<div class="board" data-testid="pipeline-board">
${v.columns!.map(
  (c) => html`<section class="col" data-stage="${c.stage}" aria-label="${c.label}">
  <div class="col-head"><span>${c.label}</span><span class="n" data-testid="stage-total">${count(c.total)}</span></div>
  ${c.deals.map((d) => card(d, csrf, v.back))}
  ${c.total > c.deals.length ? html`<a class="col-more" href="/app/deals${query({ ...v.filters, stage: c.stage })}">All ${count(c.total)} in ${c.label} →</a>` : ""}
  ${c.total === 0 ? html`<div class="small muted col-more">None</div>` : ""}
</section>`,
)}
</div>`;
}

function listTable(v: PipelineView, csrf: string | null): Html {
  const l = v.list!;
  if (l.deals.length === 0) return html`<div class="card"><div class="empty">No deal matches these filters.</div></div>`;
  const pages = Math.max(1, Math.ceil(l.total / l.pageSize));
  return html`<div class="card flush"><div class="table-wrap"><table data-testid="deal-table">
<thead><tr><th>Company</th><th class="num">Score</th><th>Round</th><th>Stage</th><th>Analysis</th><th>Added</th></tr></thead>
<tbody>${l.deals.map(
    (d) => html`<tr data-deal-id="${d.deal_id}">
  <td><a href="/app/deals/${d.deal_id}"><strong>${dealName(d)}</strong></a>${d.kind === "fund" ? html` ${badge("fund", "info")}` : ""}<div class="small muted">${d.domain ?? ""}</div></td>
  <td class="num">${scorePill(d.score)}</td>
  <td class="small">${roundText(d.round)}</td>
  <td>${stageForm(d, csrf, v.back)}</td>
  <td>${d.analysis_status === "succeeded" ? badge("analysed", "ok") : runBadge(d.analysis_status)}</td>
  <td class="small">${when(d.created_at, true)}</td>
</tr>`,
  )}</tbody></table></div>
${pager(l.page, pages, (p) => `/app/deals${query({ ...v.filters, view: "list", page: p })}`, `${count(l.total)} deals`)}</div>`;
}

function select(name: string, label: string, value: string, options: [string, string][]): Html {
  return html`<div class="field"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
  ${options.map(([v, text]) => html`<option value="${v}"${v === value ? html` selected` : ""}>${text}</option>`)}
</select></div>`;
}

function filtersForm(v: PipelineView): Html {
  const f = v.filters;
  return html`<form method="get" action="/app/deals" class="filters" role="search" data-testid="deal-filters">
  <div class="field grow"><label for="f-q">Company</label><input id="f-q" type="search" name="q" value="${f.q}" placeholder="Search by name" maxlength="200"></div>
  ${select("kind", "Kind", f.kind, [["", "Companies and funds"], ["company", "Companies"], ["fund", "Funds"]])}
  ${select("status", "Analysis", f.status, [["", "Any"], ["succeeded", "Analysed"], ["running", "Analysing"], ["queued", "Queued"], ["failed", "Failed"]])}
  ${select("stage", "Stage", f.stage, [["", "Every stage (board)"], ...STAGES.map((s) => [s.key, s.label] as [string, string])])}
  <button class="btn secondary" type="submit">Apply</button>
  ${f.q || f.kind || f.status || f.stage ? html`<a class="btn secondary" href="/app/deals">Clear</a>` : ""}
</form>`;
}

export function budgetNote(b: WebActionsToday): Html {
  return html`<div class="budget-note" data-testid="actions-budget">${meter(b.used, b.limit, "actions")}
  <span>started from the web today (resets 00:00 UTC)</span></div>`;
}

function uploadForm(v: PipelineView, csrf: string | null): Html {
  return html`<details class="menu wide" data-testid="new-deal">
  <summary class="btn">New deal</summary>
  <div class="menu-body">
    <h3>Upload a deck to analyse</h3>
    <form method="post" action="/app/deals/upload" enctype="multipart/form-data" class="upload-row" data-testid="upload-form">
      ${csrfField(csrf)}
      <div class="field"><label for="f-file">Deck (PDF, PPT/PPTX, DOC/DOCX, up to 50 MB)</label>
        <input id="f-file" type="file" name="file" required accept=".pdf,.ppt,.pptx,.doc,.docx,application/pdf"></div>
      <div class="field"><label for="f-company">Company name (optional)</label><input id="f-company" type="text" name="company_name" maxlength="200" placeholder="Read from the deck when empty"></div>
      <div class="field"><label for="f-kind">Kind</label><select id="f-kind" name="kind"><option value="company">Company</option><option value="fund">LP fund</option></select></div>
      <button class="btn block" type="submit">Upload and analyse</button>
    </form>
    ${budgetNote(v.budget)}
  </div>
</details>`;
}

export function pipelinePage(shell: Shell, v: PipelineView): Html {
  const listing = v.columns === null;
  const subtitle = html`${count(v.total)} deal${v.total === 1 ? "" : "s"}${v.filters.q || v.filters.kind || v.filters.status ? " matching" : ""}${v.filters.stage ? html` in ${stageLabel(v.filters.stage)}` : ""}. Scores are 0–100 from the material; n/a where it does not support one.`;
  const toggle = html`<div class="seg" role="group" aria-label="View">
  <a href="/app/deals${query({ ...v.filters, stage: "" })}" class="${listing ? "" : "active"}">Board</a>
  <a href="/app/deals${query({ ...v.filters, view: "list" })}" class="${listing ? "active" : ""}">List</a>
</div>`;
  return layout(
    shell,
    html`${pageHead("Pipeline", subtitle, html`<div class="head-actions">${toggle}${uploadForm(v, shell.csrf)}</div>`)}
<div class="card">${filtersForm(v)}</div>
${listing ? listTable(v, shell.csrf) : board(v, shell.csrf)}`,
  );
}
