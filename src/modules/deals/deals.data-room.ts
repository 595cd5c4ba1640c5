// The data room after the body is on disk: up to 20 files, each judged by its content, given a
// folder and a first category from its name, then stored content-addressed with a data-room
// analysis pass dispatched, all or nothing. Shared by POST /api/v1/deals/{deal_id}/documents and
// the web app's upload form; the caller removes the temp files whatever happens.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { ApiError, invalid } from "../../http/errors.ts";
import { MB, type Multipart } from "../../http/multipart.ts";
import { classifyDocument } from "../../documents/classify.ts";
import { findLibreOffice } from "../../documents/convert.ts";
import { CONTENT_TYPES, detectFileKind, isDataRoomKind, isLegacyOffice } from "../../documents/file-type.ts";
import { ANALYSIS_PASS, dealsService, type DataRoomFile } from "./deals.service.ts";

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

/**
 * Checks the received files (422 none or a folder too long, 415 a type outside the data room's,
 * 503 legacy Office without LibreOffice) and adds them to the deal with its analysis pass (404,
 * 429 budget); while the deal is being analysed they are read by one more pass after the running
 * one (addDataRoom). Returns the acceptance with the charge's headers (none when the files joined a
 * pass already queued, which costs nothing more).
 */
export async function acceptDataRoom(deps: Deps, principal: Principal, dealId: string, { fields, files }: Multipart) {
  const deals = dealsService(deps);
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
  const result = deals.addDataRoom(principal, dealId, accepted);
  return { dealId: result.dealId, filesReceived: accepted.length, headers: result.headers, afterRunningPass: result.run.waitingFor === ANALYSIS_PASS, joined: result.joined };
}
