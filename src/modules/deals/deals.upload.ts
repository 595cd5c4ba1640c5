// POST /deals/analyze/upload after the body is on disk: the fields checked, the file judged by its
// content (415), a ZIP-based deck held to the ZIP check before LibreOffice could ever see it (422:
// every part really inflated against its declared size, in a document child process, so the
// event loop is never the one inflating; a PPTX's slides counted against the page cap),
// LibreOffice present for Office decks (503), then the deal created and its analysis dispatched in
// one transaction that stores the file last. Every refusal leaves no row, no charge and no blob;
// the route removes the temp file whatever happens.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { ApiError, invalid } from "../../http/errors.ts";
import type { Multipart } from "../../http/multipart.ts";
import { newId } from "../../lib/ids.ts";
import { findLibreOffice } from "../../documents/convert.ts";
import { checkOfficeFile, ExtractionError } from "../../documents/extract.ts";
import { CONTENT_TYPES, detectFileKind, isOffice } from "../../documents/file-type.ts";
import { dealsService, nameTarget } from "./deals.service.ts";

const COMPANY_NAME_MAX = 200;

export async function submitUpload(deps: Deps, principal: Principal, { fields, files }: Multipart) {
  const file = files.find((f) => f.field === "file");
  if (!file) throw invalid(["body", "file"], "Field required", "missing");
  const kind = fields.kind ?? "company";
  if (kind !== "company" && kind !== "fund") throw invalid(["body", "kind"], "Input should be 'company' or 'fund'", "enum");
  const companyName = fields.company_name?.trim() || null;
  if (companyName && companyName.length > COMPANY_NAME_MAX) {
    throw invalid(["body", "company_name"], `String should have at most ${COMPANY_NAME_MAX} characters`, "string_too_long");
  }
  const type = detectFileKind(new Uint8Array(await Bun.file(file.path).arrayBuffer()), file.filename);
  if (type !== "pdf" && !isOffice(type)) {
    throw new ApiError(415, `${file.filename} is not a PDF, PPT/PPTX or DOC/DOCX file (judged by its content, not its name).`);
  }
  if (type === "docx" || type === "pptx") {
    try {
      await checkOfficeFile(file.path, type);
    } catch (error) {
      if (error instanceof ExtractionError) throw invalid(["body", "file"], `${file.filename}: ${error.message}`, "value_error");
      throw error;
    }
  }
  if (isOffice(type) && !findLibreOffice()) {
    throw new ApiError(503, "PPT/DOC uploads need LibreOffice, which is not installed on this server; upload a PDF, or retry once it is installed.", { "Retry-After": "3600" });
  }
  const insertDocument = deps.db.$client.query(
    `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, status, uploaded_at)
     VALUES (?, ?, ?, ?, 'primary_upload', ?, ?, ?, 'received', ?)`,
  );
  return dealsService(deps).submit(
    principal,
    { companyName, kind, source: "upload", targetKey: companyName ? nameTarget(companyName) : `file:${file.sha256}` },
    (dealId) => insertDocument.run(newId(), principal.orgId, dealId, file.filename, CONTENT_TYPES[type], file.size, file.sha256, deps.clock.now().toISOString()),
    { document: file.sha256 },
    { files: [file] },
  );
}
