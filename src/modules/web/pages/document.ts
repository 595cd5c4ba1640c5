// One document of a deal: what it is (category, folder, pages, size) and its text page by page, as
// the engines read it, with an evidence quote marked where it was found (#page-N anchors), and a
// download of the original file.
import type { DealDocument } from "../../deals/deals.service.ts";
import { html, type Html } from "../html.ts";
import { size, words } from "./format.ts";
import { badge, layout, pageHead, when, type Shell } from "./layout.ts";
import { dealName } from "./pipeline.ts";

export type DocumentView = {
  deal: { deal_id: string; company_name: string | null; domain: string | null };
  doc: DealDocument & { pageTexts: string[] | null };
  /** An evidence quote to mark (from the deal page's link). */
  quote: string | null;
};

/** The page's text with the first occurrence of the quote marked; every piece escaped. */
function marked(text: string, quote: string | null): Html {
  const needle = quote?.replace(/^…|…$/g, "").trim();
  const at = needle ? text.indexOf(needle) : -1;
  if (!needle || at < 0) return html`${text}`;
  return html`${text.slice(0, at)}<mark>${needle}</mark>${text.slice(at + needle.length)}`;
}

export function documentPage(shell: Shell, v: DocumentView): Html {
  const d = v.doc;
  const base = `/app/deals/${v.deal.deal_id}`;
  return layout(
    shell,
    html`<p class="small"><a href="${base}">← ${dealName(v.deal)}</a></p>
${pageHead(d.filename, html`${d.kind === "primary_upload" ? "Deck" : "Data-room file"}${d.folder ? html` in ${d.folder}` : ""} · ${d.category ? badge(words(d.category)) : "no category"}`,
  html`<a class="btn secondary" href="${base}/documents/${d.document_id}/file" data-testid="download">Download original</a>`)}
<div class="card">
  <dl class="kv">
    <dt>Type</dt><dd>${d.content_type}</dd>
    <dt>Size</dt><dd>${size(d.size_bytes)}</dd>
    <dt>Pages</dt><dd>${d.page_count ?? "—"}</dd>
    <dt>Uploaded</dt><dd>${when(d.uploaded_at)}</dd>
    <dt>SHA-256</dt><dd class="mono small">${d.sha256}</dd>
    <dt>Text</dt><dd>${d.status === "extracted" ? "read" : d.status === "failed" ? badge("could not be read", "bad") : badge("not read yet", "info")}</dd>
  </dl>
</div>
${d.pageTexts && d.pageTexts.length
  ? html`<div data-testid="document-pages">${d.pageTexts.map(
      (text, i) => html`<section class="doc-page" id="page-${i + 1}"><h3>Page ${i + 1}</h3>${text.trim() ? marked(text, v.quote) : html`<span class="muted">No text on this page.</span>`}</section>`,
    )}</div>`
  : html`<div class="card"><div class="empty">No text has been read from this file${d.status === "received" ? " yet" : ""}.</div></div>`}`,
  );
}
