// The deal_analysis action: read the deal's material (extracting and converting documents on the
// way), run the deal engine, store its facts and scored sections.
import type { Deps } from "../../deps.ts";
import type { SourcePage } from "../../engines/deal-engine.ts";
import { dealEngine } from "../../engines/select.ts";
import { blobPath } from "../../lib/blobs.ts";
import { RunError, type Handler } from "../actions/runner.ts";
import { ConversionError } from "../documents/convert.ts";
import { extractPages, ExtractionError } from "../documents/extract.ts";
import { CONTENT_TYPES, type FileKind } from "../documents/file-type.ts";
import { readDocumentLink } from "./deals.document-link.ts";
import { dealsService } from "./deals.service.ts";
import { readWebsite } from "./deals.website.ts";

type Input = { website_url?: string; document_url?: string; detect_kind?: boolean };

type DocRow = { id: string; sha256: string; content_type: string; filename: string; pages: string | null };

const kindOfContentType = Object.fromEntries(Object.entries(CONTENT_TYPES).map(([k, v]) => [v, k as FileKind]));

export function dealAnalysisHandler(deps: Deps): Handler {
  const deals = dealsService(deps);
  const engine = dealEngine(deps);
  const sqlite = deps.db.$client;
  const docsOf = sqlite.query<DocRow, [string]>("SELECT id, sha256, content_type, filename, pages FROM deal_documents WHERE deal_id = ? ORDER BY uploaded_at, id");
  const saveText = sqlite.query("UPDATE deal_documents SET pages = ?, page_count = ?, status = 'extracted' WHERE id = ?");
  const markFailed = sqlite.query("UPDATE deal_documents SET status = 'failed' WHERE id = ?");

  return async ({ run, progress }) => {
    progress({ stage: "fetch" });
    const deal = deals.mustGet(run.orgId, run.subjectId);
    const input = run.input as Input;
    const pages: SourcePage[] = [];
    if (input.website_url) pages.push(...(await readWebsite(deps, input.website_url)).pages);
    else if (input.document_url) pages.push(...(await readDocumentLink(deps, deal, input.document_url)));
    const docs = input.website_url || input.document_url ? [] : docsOf.all(deal.id);
    if (pages.length === 0 && docs.length === 0) throw new RunError("The deal has no material to analyse");
    for (const [i, doc] of docs.entries()) {
      let texts: string[];
      if (doc.pages) texts = JSON.parse(doc.pages);
      else {
        progress({ stage: "extract", document: i + 1, documents: docs.length });
        try {
          texts = await extractPages(blobPath(deps.config.dataDir, doc.sha256), kindOfContentType[doc.content_type] ?? "unknown");
        } catch (error) {
          markFailed.run(doc.id);
          if (error instanceof ConversionError || error instanceof ExtractionError) throw new RunError(`${doc.filename}: ${error.message}`);
          throw error;
        }
        saveText.run(JSON.stringify(texts), texts.length, doc.id);
      }
      texts.forEach((text, p) => pages.push({ documentId: doc.id, url: null, page: p + 1, text }));
    }
    if (!pages.some((p) => p.text.trim().length > 0)) {
      throw new RunError("No text could be read from the material (is it a scanned deck without a text layer?)");
    }
    const analysis = await engine.analyze({
      pages,
      hints: { companyName: deal.company_name, website: deal.website, kind: input.detect_kind ? null : deal.kind },
      progress: (stage) => progress({ stage }),
    });
    deals.storeAnalysis(deal.id, analysis);
  };
}
