// The deal_analysis action: read the deal's material (extracting, converting and OCRing documents on
// the way), run the deal engine, store its facts and scored sections. A data-room pass extracts and
// classifies the new files, then re-analyses the deal over all its readable documents (a fund is
// analysed as a fund: the deal says so, or the material does).
import type { Deps } from "../../deps.ts";
import type { SourcePage } from "../../engines/deal-engine.ts";
import { dealEngine } from "../../engines/select.ts";
import { blobPath } from "../../lib/blobs.ts";
import { RunError } from "../../lib/run-error.ts";
import type { Handler, RunHandlers } from "../actions/runner.ts";
import { classifyDocument } from "../../documents/classify.ts";
import { ConversionError, conversionOptions } from "../../documents/convert.ts";
import { extractPages, ExtractionError } from "../../documents/extract.ts";
import { CONTENT_TYPES, type FileKind } from "../../documents/file-type.ts";
import { readDocumentLink } from "./deals.document-link.ts";
import { documentTextStore } from "./deals.document-text.ts";
import type { DealDocumentRow } from "./deals.queries.ts";
import { DEAL_ANALYSIS, dealsService } from "./deals.service.ts";
import { documentGateStep } from "./deals.verification.service.ts";
import { readWebsite } from "./deals.website.ts";

type Input = { website_url?: string; document_url?: string; detect_kind?: boolean; data_room?: boolean };

/** `extracted`: its pages are stored (1), read from the text store when needed rather than with the row. */
type DocRow = Pick<DealDocumentRow, "id" | "sha256" | "content_type" | "filename" | "folder" | "kind" | "status"> & { extracted: 0 | 1 };

const kindOfContentType = Object.fromEntries(Object.entries(CONTENT_TYPES).map(([k, v]) => [v, k as FileKind]));

export type DealHandlerOptions = { /** LibreOffice's time limit per conversion (tests shorten it). */ conversionTimeoutMs?: number };

export function dealAnalysisHandler(deps: Deps, opts: DealHandlerOptions = {}): Handler {
  const deals = dealsService(deps);
  const engine = dealEngine(deps);
  const sqlite = deps.db.$client;
  const docsOf = sqlite.query<DocRow, [string]>(
    "SELECT id, sha256, content_type, filename, folder, kind, status, pages IS NOT NULL AS extracted FROM deal_documents WHERE deal_id = ? ORDER BY uploaded_at, id",
  );
  // Megabytes of text are written and read off this thread (deals.document-text.ts).
  const textStore = documentTextStore(sqlite, deps.config.busyTimeoutMs);
  const markFailed = sqlite.query("UPDATE deal_documents SET status = 'failed' WHERE id = ?");

  /**
   * The document's pages, extracted once and kept (a data-room file's category with them, from its
   * text); a file that cannot be read is marked `failed`.
   */
  async function textOf(doc: DocRow, classifying: () => void): Promise<string[]> {
    if (doc.extracted) return (await textStore.read(doc.id)) ?? [];
    try {
      const pages = await extractPages(
        blobPath(deps.config.dataDir, doc.sha256),
        kindOfContentType[doc.content_type] ?? "unknown",
        doc.kind === "data_room" ? "xml" : "pdf",
        conversionOptions(deps.config.dataDir, opts.conversionTimeoutMs),
      );
      let category: string | null = null;
      if (doc.kind === "data_room") {
        classifying();
        category = classifyDocument(doc.filename, doc.folder, pages.join("\n")).category;
      }
      await textStore.save(doc.id, pages, category);
      return pages;
    } catch (error) {
      markFailed.run(doc.id);
      if (error instanceof ConversionError || error instanceof ExtractionError) throw new RunError(`${doc.filename}: ${error.message}`);
      throw error;
    }
  }

  return async (ctx) => {
    const { run, signal } = ctx;
    try {
      await analyse(ctx);
    } finally {
      // Files uploaded while this pass ran are read by the pass that waited for it (CONTRACT.md).
      // Not when the runner stops: this run is taken again at the next start and releases it then.
      if (!signal.aborted) deals.releaseWaitingPass(run.orgId, run.subjectId);
    }
  };

  async function analyse({ run, progress, signal }: Parameters<Handler>[0]): Promise<void> {
    const input = run.input as Input;
    // A pass released by the one before it starts once that one has ended (a moment later).
    while (input.data_room && deals.earlierPassLive(run.orgId, run.subjectId, run.id) && !signal.aborted) await Bun.sleep(20);
    progress({ stage: "fetch" });
    const deal = deals.mustGet(run.orgId, run.subjectId);
    const pages: SourcePage[] = [];
    let siteTitle: string | null = null;
    if (input.website_url) {
      const site = await readWebsite(deps, input.website_url, signal);
      pages.push(...site.pages);
      siteTitle = site.title;
    } else if (input.document_url) {
      pages.push(...(await readDocumentLink(deps, deal, input.document_url, run, { signal, conversionTimeoutMs: opts.conversionTimeoutMs })));
    }
    const all = input.website_url || input.document_url ? [] : docsOf.all(deal.id);
    // A data-room pass reads every document still readable; one a past pass could not read stays out.
    // The first pass reads the deck only: data-room files uploaded meanwhile are the next pass's.
    const docs = input.data_room ? all.filter((d) => d.status !== "failed") : all.filter((d) => d.kind !== "data_room");
    if (pages.length === 0 && docs.length === 0) throw new RunError("The deal has no material to analyse");

    const failures: string[] = [];
    for (const [i, doc] of docs.entries()) {
      if (!doc.extracted) progress({ stage: "extract", document: i + 1, documents: docs.length });
      let texts: string[];
      try {
        texts = await textOf(doc, () => progress({ stage: "classify", document: i + 1, documents: docs.length }));
      } catch (error) {
        // The primary deck is the analysis: without it there is nothing to do. Data-room files
        // are all extracted first, so the run's error names every one that could not be read.
        if (!input.data_room || !(error instanceof RunError)) throw error;
        failures.push(error.message);
        continue;
      }
      texts.forEach((text, p) => pages.push({ documentId: doc.id, url: null, page: p + 1, text, name: doc.filename }));
    }
    if (failures.length) {
      // The other files are extracted and kept; the next data-room upload analyses them. The deal's
      // last analysis stands meanwhile rather than being replaced by one that silently misses files.
      throw new RunError(
        `${failures.length === 1 ? "A data-room file" : `${failures.length} data-room files`} could not be read, so the deal was not re-analysed (the other files were extracted and kept): ${failures.join("; ")}`,
      );
    }
    // Material without usable text (page images OCR could not read, fonts without a usable encoding)
    // is analysed all the same: the engine says, section by section, that nothing could be read.
    const analysis = await engine.analyze({
      pages,
      hints: {
        companyName: deal.company_name,
        website: deal.website,
        siteTitle,
        // A fund stays a fund; a company deal's data room may show it is one (fund terms, LPs, prior funds).
        kind: input.detect_kind || (input.data_room && deal.kind !== "fund") ? null : deal.kind,
      },
      progress: (stage) => progress({ stage }),
    });
    deals.storeAnalysis(deal.id, analysis);
  }
}

/** The deals module's action kinds: a gated document link first submits the host's gate while it waits (queued) for the email verification. */
export function dealRunHandlers(deps: Deps, opts: DealHandlerOptions = {}): RunHandlers {
  return [[DEAL_ANALYSIS.kind, Object.assign(dealAnalysisHandler(deps, opts), { waitStep: documentGateStep(deps) })]];
}
