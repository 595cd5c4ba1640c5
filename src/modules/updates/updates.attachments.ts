// An update's attachments (PDF, XLSX, CSV, DOCX, PPTX) read as data-room files are: by the
// document reader, in its child process, under its limits (src/documents/reader.ts). Each file
// is written to the data dir's temp folder for the child and removed after. A file the reader
// refuses is a problem of the update, said with the reader's reason; the rest is still read.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../../deps.ts";
import { conversionOptions } from "../../documents/convert.ts";
import { extractPages } from "../../documents/extract.ts";
import { detectFileKind, type FileKind } from "../../documents/file-type.ts";
import { newId } from "../../lib/ids.ts";
import type { MailAttachment } from "./updates.mail.ts";
import type { Page } from "./updates.read.ts";

const READ_KINDS: FileKind[] = ["pdf", "xlsx", "csv", "docx", "pptx", "text", "markdown"];
/** Larger attachments are not read (the upload door's bound for data-room files). */
const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

/** An attachment's id in a figure's source: its position in the message and its file name. */
export const attachmentId = (index: number, filename: string) => `attachment-${index + 1}:${filename}`;

export async function readAttachments(deps: Deps, attachments: MailAttachment[]): Promise<{ pages: Page[]; problems: string[] }> {
  const pages: Page[] = [];
  const problems: string[] = [];
  if (attachments.length === 0) return { pages, problems };
  const dir = join(deps.config.dataDir, "tmp", "updates");
  for (const [i, a] of attachments.entries()) {
    if (/^image\//.test(a.mimeType) || a.content.byteLength === 0) continue;
    const kind = detectFileKind(a.content, a.filename);
    if (!READ_KINDS.includes(kind)) continue;
    const documentId = attachmentId(i, a.filename);
    if (a.content.byteLength > MAX_ATTACHMENT_BYTES) {
      problems.push(`${a.filename}: larger than 50 MB, not read`);
      continue;
    }
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${newId()}.${kind === "markdown" ? "md" : kind === "text" ? "txt" : kind}`);
    try {
      writeFileSync(path, a.content);
      const texts = await extractPages(path, kind, "xml", conversionOptions(deps.config.dataDir));
      texts.forEach((text, p) => pages.push({ documentId, page: texts.length > 1 || kind === "pdf" || kind === "pptx" || kind === "xlsx" ? p + 1 : null, lines: text.split(/\r?\n/) }));
    } catch (error) {
      problems.push(`${a.filename}: ${(error as Error).message}`);
    } finally {
      rmSync(path, { force: true });
    }
  }
  return { pages, problems };
}
