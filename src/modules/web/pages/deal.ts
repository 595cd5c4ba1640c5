// One deal: its facts, round and team; the overall score and every section with its score, summary
// and the evidence quotes behind it (each linked to the document page or web address it came
// from); its documents and data-room files by category; live progress while it is analysed; and
// the form that adds data-room files (an action, within the member's daily web budget).
import type { Evidence, Section } from "../../../engines/deal-engine.ts";
import type { statusView } from "../../actions/actions.service.ts";
import type { DealDocument, dealsService } from "../../deals/deals.service.ts";
import type { WebActionsToday } from "../../identity/web-budgets.service.ts";
import { html, type Html } from "../html.ts";
import { money, outLink, scorePill, size, words } from "./format.ts";
import { badge, csrfField, layout, pageHead, when, type Shell } from "./layout.ts";
import { budgetNote, dealName, runBadge, stageForm, stageLabel } from "./pipeline.ts";

export type DealDocumentRow = Omit<DealDocument, "deal_id" | "sha256" | "pages">;

type DealDetail = ReturnType<ReturnType<typeof dealsService>["detail"]>;

export type DealView = {
  /** The deal's record in the full view, with its analysis (null before the first). */
  deal: Omit<DealDetail, "analysis"> & { analysis: { engine: string; summary: string; sections: Section[]; completed_at: string } | null };
  /** The latest run's status read (null: never analysed). */
  run: ReturnType<typeof statusView> | null;
  documents: DealDocumentRow[];
  budget: WebActionsToday;
};

const docHref = (dealId: string, documentId: string, page: number | null, quote?: string) =>
  `/app/deals/${dealId}/documents/${documentId}${quote ? `?${new URLSearchParams({ quote })}` : ""}${page ? `#page-${page}` : ""}`;

function evidenceSource(dealId: string, e: Evidence, files: Map<string, string>): Html {
  if (e.document_id) {
    const name = files.get(e.document_id) ?? "a document";
    return html`<a class="src" href="${docHref(dealId, e.document_id, e.page, e.quote)}">${name}${e.page ? `, page ${e.page}` : ""}</a>`;
  }
  if (e.url) return html`<span class="src">${outLink(e.url)}</span>`;
  return html`<span class="src">source not recorded</span>`;
}

function section(dealId: string, s: Section, files: Map<string, string>): Html {
  return html`<div class="section" id="section-${s.key}" data-section="${s.key}">
  <div class="section-head"><h3>${s.title}</h3>${scorePill(s.score, s.unavailable_reason)}</div>
  ${s.summary ? html`<p>${s.summary}</p>` : ""}
  ${s.unavailable_reason ? html`<p class="unavailable">Not scored: ${s.unavailable_reason}</p>` : ""}
  ${s.evidence.length
    ? html`<ul class="evidence">${s.evidence.map((e) => html`<li><q>${e.quote}</q>${evidenceSource(dealId, e, files)}</li>`)}</ul>`
    : ""}
</div>`;
}

function progressBox(v: DealView): Html {
  const run = v.run;
  if (!run || (run.status !== "queued" && run.status !== "running")) return html``;
  const stage =
    run.status === "queued"
      ? run.waiting_for === "email_verification"
        ? "Waiting for the document host's email verification"
        : run.waiting_for === "analysis_pass"
          ? "Queued: the data-room files are read once the analysis under way has finished"
          : "Queued"
      : "Running";
  return html`<div class="progress" data-events="/app/deals/${v.deal.deal_id}/events" data-testid="analysis-progress" role="status">
  <strong>Analysis in progress.</strong> <span data-progress-text>${stage}</span>
  <div class="meter-bar"><span class="w0" data-progress-bar></span></div>
</div>`;
}

function facts(v: DealView): Html {
  const c = v.deal.company;
  const r = v.deal.round;
  if (!v.deal.analysis) {
    return html`<div class="card" data-testid="deal-facts">
  <h2>Company</h2>
  <dl class="kv">
    <dt>Website</dt><dd>${outLink(c.website ?? v.deal.website)}</dd>
    <dt>Source</dt><dd>${words(v.deal.source)} · added ${when(v.deal.created_at, true)}</dd>
  </dl>
  <p class="muted small">The company, its round and its team appear here once the analysis has read the material.</p>
</div>`;
  }
  return html`<div class="card" data-testid="deal-facts">
  <h2>Company</h2>
  ${c.description ? html`<p>${c.description}</p>` : html`<p class="muted">No description in the material.</p>`}
  <dl class="kv">
    <dt>Website</dt><dd>${outLink(c.website ?? v.deal.website)}</dd>
    <dt>Sector</dt><dd>${c.sector ? words(c.sector) : html`<span class="muted">not stated</span>`}</dd>
    <dt>Location</dt><dd>${c.location ?? html`<span class="muted">not stated</span>`}</dd>
    <dt>Founded</dt><dd>${c.founded_year ?? html`<span class="muted">not stated</span>`}</dd>
    <dt>Source</dt><dd>${words(v.deal.source)} · added ${when(v.deal.created_at, true)}</dd>
  </dl>
</div>
<div class="card" data-testid="deal-round">
  <h2>Round</h2>
  <dl class="kv">
    <dt>Stage</dt><dd>${r.stage ?? html`<span class="muted">not stated</span>`}</dd>
    <dt>Raising</dt><dd>${money(r.amount, r.currency, { compact: false, reason: "not stated in the material" })}</dd>
    <dt>Pre-money</dt><dd>${money(r.pre_money_valuation, r.currency, { compact: false, reason: "not stated in the material" })}</dd>
  </dl>
</div>
<div class="card" data-testid="deal-team">
  <h2>Team</h2>
  ${v.deal.team.length
    ? html`<ul class="plain">${v.deal.team.map(
        (m) => html`<li><strong>${m.name}</strong>${m.title ? html`, ${m.title}` : ""}${m.linkedin_url ? html` · ${outLink(m.linkedin_url, "LinkedIn")}` : ""}</li>`,
      )}</ul>`
    : html`<p class="muted">No team named in the material.</p>`}
</div>`;
}

function documentsCard(v: DealView, csrf: string | null): Html {
  const d = v.deal;
  const busy = v.run?.status === "queued" || v.run?.status === "running";
  return html`<div class="card flush" data-testid="deal-documents">
  <div class="card-head"><h2>Documents</h2><span class="small muted">${v.documents.length} file${v.documents.length === 1 ? "" : "s"}</span></div>
  ${v.documents.length
    ? html`<div class="table-wrap"><table class="compact">
<thead><tr><th>File</th><th>Category</th><th class="num">Pages</th><th class="num">Size</th></tr></thead>
<tbody>${v.documents.map(
        (doc) => html`<tr data-document-id="${doc.document_id}">
  <td><a href="/app/deals/${d.deal_id}/documents/${doc.document_id}">${doc.filename}</a>
    <div class="small muted">${doc.kind === "primary_upload" ? "deck" : "data room"}${doc.folder ? html` · ${doc.folder}` : ""}${doc.status === "failed" ? html` · ${badge("unreadable", "bad")}` : doc.status === "received" ? html` · ${badge("not read yet", "info")}` : ""}</div></td>
  <td>${doc.category ? badge(words(doc.category)) : html`<span class="muted">—</span>`}</td>
  <td class="num">${doc.page_count ?? "—"}</td>
  <td class="num nw">${size(doc.size_bytes)}</td>
</tr>`,
      )}</tbody></table></div>`
    : html`<div class="empty">${d.source === "website" ? "Analysed from its website: no documents." : "No documents."}</div>`}
  <div class="card-body">
    <form method="post" action="/app/deals/${d.deal_id}/documents" enctype="multipart/form-data" data-testid="data-room-form">
      ${csrfField(csrf)}
      <div class="field"><label for="f-files">Add data-room files (up to 20; PDF, Office, CSV, text; 50 MB each)</label>
        <input id="f-files" type="file" name="files" multiple required></div>
      <div class="field"><label for="f-folder">Folder (optional)</label><input id="f-folder" type="text" name="folder" maxlength="255" placeholder="e.g. Legal"></div>
      <button class="btn secondary" type="submit"${busy ? html` title="The analysis under way finishes first; then the deal is analysed again with these files"` : ""}>Upload and re-analyse</button>
    </form>
    ${budgetNote(v.budget)}
  </div>
</div>`;
}

export function dealPage(shell: Shell, v: DealView): Html {
  const d = v.deal;
  const a = d.analysis;
  const files = new Map(v.documents.map((doc) => [doc.document_id, doc.filename]));
  const failed = v.run?.status === "failed";
  const aside = html`<div class="actions"><span class="small muted">Stage</span>${stageForm(d, shell.csrf, `/app/deals/${d.deal_id}`, false)}</div>`;
  const subtitle = html`${d.kind === "fund" ? html`${badge("LP fund", "info")} ` : ""}${d.domain ?? ""}${d.domain ? " · " : ""}${stageLabel(d.stage)}${d.analysis_status !== "succeeded" ? html` ${runBadge(d.analysis_status)}` : ""}`;
  return layout(
    shell,
    html`<p class="small"><a href="/app/deals">← Pipeline</a></p>
${pageHead(dealName(d), subtitle, aside)}
${progressBox(v)}
${failed ? html`<div class="flash error" role="alert" data-testid="analysis-error">The last analysis failed${v.run?.finished_at ? html` (${when(v.run.finished_at)})` : ""}: ${v.run?.error ?? "no reason recorded"}</div>` : ""}
<div class="two-col">
  <div>
    <div class="card" data-testid="deal-score">
      <div class="assessment">
        ${scorePill(d.score, a ? "No overall score: no section could be scored from the material" : "Not analysed yet", true)}
        <div>
          <h2>Assessment</h2>
          ${a
            ? html`<p>${a.summary}</p>
          <p class="small muted">Confidence ${d.score_confidence !== null ? `${Math.round(d.score_confidence * 100)}%` : "—"} (share of sections with evidence) · ${a.engine === "builtin" ? "built-in engine" : `engine ${a.engine}`} · ${when(a.completed_at)}</p>`
            : html`<p class="muted">No analysis yet.</p>`}
        </div>
      </div>
      ${a
        ? html`<div class="section-scores">${a.sections.map(
            (s) => html`<a href="#section-${s.key}" class="section-score"><span>${s.title}</span>${scorePill(s.score, s.unavailable_reason)}</a>`,
          )}</div>`
        : ""}
    </div>
    ${a ? html`<div class="card" data-testid="deal-sections"><h2>Sections</h2>${a.sections.map((s) => section(d.deal_id, s, files))}</div>` : ""}
  </div>
  <div>
    ${facts(v)}
    ${documentsCard(v, shell.csrf)}
  </div>
</div>`,
  );
}
