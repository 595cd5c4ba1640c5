// POST /api/v1/deals/{deal_id}/documents: the data room. Up to 20 files streamed to disk, each
// judged by its content, given a folder and a first category from its name, stored
// content-addressed, and a data-room analysis pass dispatched, all or nothing.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { ApiError, invalid } from "../../http/errors.ts";
import { discard, MB, readMultipart } from "../../http/multipart.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { tempDir } from "../../lib/blobs.ts";
import { classifyDocument } from "../../documents/classify.ts";
import { findLibreOffice } from "../../documents/convert.ts";
import { CONTENT_TYPES, detectFileKind, isDataRoomKind, isLegacyOffice } from "../../documents/file-type.ts";
import { DataRoomAcceptedResponse, DataRoomBodyDoc } from "./deals.model.ts";
import { dealsService, type DataRoomFile } from "./deals.service.ts";

export const DATA_ROOM_MAX_FILES = 20;
export const DATA_ROOM_MAX_BYTES = 50 * MB;
const FOLDER_MAX = 255;
const SEGMENT_MAX = 100;
const FILENAME_MAX = 200;

/** A folder path made safe: no `.`/`..`, no leading slash, no control characters, bounded. Null when empty. */
export function cleanFolder(...parts: (string | null | undefined)[]): string | null {
  const segments = parts
    .flatMap((p) => (p ?? "").split(/[\\/]+/))
    .map((s) => s.replace(/[\x00-\x1f\x7f]/g, "").trim().slice(0, SEGMENT_MAX).trim())
    .filter((s) => s !== "" && s !== "." && s !== "..");
  let folder = "";
  for (const s of segments) {
    if (folder.length + s.length + 1 > FOLDER_MAX) break;
    folder = folder ? `${folder}/${s}` : s;
  }
  return folder || null;
}

/** "Legal/SHA.pdf" -> folder "Legal", name "SHA.pdf" (either slash). */
export function splitPath(raw: string): { dir: string | null; name: string } {
  const parts = raw.split(/[\\/]+/);
  const name = (parts.pop() ?? "").replace(/[\x00-\x1f\x7f]/g, "").trim().slice(-FILENAME_MAX);
  return { dir: parts.length ? parts.join("/") : null, name: name && name !== "." && name !== ".." ? name : "upload" };
}

export function dealDataRoomRoutes(deps: Deps) {
  const deals = dealsService(deps);

  return new Elysia({ prefix: "/api/v1/deals" }).use(authPlugin(deps)).post(
    "/:deal_id/documents",
    async ({ principal, params, request, set }) => {
      // Cheap refusals before the body is read: an unknown deal, a deal being analysed.
      const deal = deals.mustGet(principal.orgId, params.deal_id);
      deals.assertNotAnalysing(principal.orgId, deal.id);
      const { fields, files } = await readMultipart(request, { dir: tempDir(deps.config.dataDir), maxFileBytes: DATA_ROOM_MAX_BYTES, maxFiles: DATA_ROOM_MAX_FILES, preservePath: true });
      try {
        const given = files.filter((f) => f.field === "files" || f.field === "files[]");
        if (given.length === 0) throw invalid(["body", "files"], "Field required: one or more files", "missing");
        const folderField = fields.folder;
        if (folderField !== undefined && folderField.length > FOLDER_MAX) {
          throw invalid(["body", "folder"], `String should have at most ${FOLDER_MAX} characters`, "string_too_long");
        }
        const accepted: DataRoomFile[] = [];
        let legacy = false;
        for (const file of given) {
          const { dir, name } = splitPath(file.filename);
          const kind = detectFileKind(new Uint8Array(await Bun.file(file.path).arrayBuffer()), name);
          if (!isDataRoomKind(kind)) {
            throw new ApiError(415, `${name} is not a PDF, DOC/DOCX, PPT/PPTX, XLS/XLSX, CSV, plain text or Markdown file (judged by its content, not its name); nothing was stored.`);
          }
          legacy ||= isLegacyOffice(kind);
          const folder = cleanFolder(folderField, dir);
          // A first category from the name; the analysis pass refines it with the text.
          const category = classifyDocument(name, folder, "").category;
          accepted.push({ path: file.path, sha256: file.sha256, size: file.size, filename: name, folder, category, contentType: CONTENT_TYPES[kind] });
        }
        if (legacy && !findLibreOffice()) {
          throw new ApiError(503, "DOC/PPT/XLS files need LibreOffice, which is not installed on this server; upload PDF or DOCX/PPTX/XLSX, or retry once it is installed.", {
            "Retry-After": "3600",
          });
        }
        const result = deals.addDataRoom(principal, deal.id, accepted);
        set.status = 202;
        Object.assign(set.headers, result.headers);
        return {
          deal_id: deal.id,
          files_received: accepted.length,
          status: "queued" as const,
          documents_url: `/api/v1/deals/${deal.id}/documents`,
          status_url: `/api/v1/deals/${deal.id}/analysis`,
          result_url: `/api/v1/deals/${deal.id}`,
          existing: false,
          as_of: deps.clock.now().toISOString(),
        };
      } finally {
        discard(files); // adopted files have moved; this removes only what was refused or ignored
      }
    },
    {
      auth: "write",
      parse: "none", // streamed by readMultipart, never buffered whole
      detail: {
        operationId: "addDealDocuments",
        tags: ["Deals"],
        summary: "Add data-room files to a deal (up to 20, 50 MB each; 413 over, 415 for other types, 409 while it is being analysed); they are classified and the deal re-analysed",
        requestBody: { required: true, content: { "multipart/form-data": { schema: JSON.parse(JSON.stringify(DataRoomBodyDoc)) } } },
        responses: jsonResponses({ 202: DataRoomAcceptedResponse }),
      },
    },
  );
}
