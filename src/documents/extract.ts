// Text out of a document, page by page: PDF directly (pdf.js, its text items joined by their
// layout, and pages without usable text read by OCR where Tesseract is installed: pdf-text.ts);
// DOCX/PPTX/XLSX from their XML parts (or, for a primary upload, through LibreOffice's PDF so pages
// are real pages); DOC/PPT/XLS through LibreOffice; plain text and Markdown as one page; CSV as one
// page of row sentences. Every parse of the file's bytes happens in a document child process
// (reader.ts), held to a time limit, a memory limit and a page cap; LibreOffice runs sandboxed
// (convert.ts). This module only decides what runs where, so the server's event loop never parses
// a file itself.
import { ConversionError, convertToPdfFile, type ConvertOptions } from "./convert.ts";
import { isOffice, type FileKind } from "./file-type.ts";
import { DEFAULT_OCR_TIMEOUT_MS } from "./ocr.ts";
import { readInChild, ReadError, READ_LIMITS, type ReaderLimits } from "./reader.ts";

export class ExtractionError extends Error {}

/** A read in the child; its refusal becomes an ExtractionError with the same words. */
async function read(op: Parameters<typeof readInChild>[0], limits: ReaderLimits): Promise<string[]> {
  try {
    return await readInChild(op, limits);
  } catch (error) {
    if (error instanceof ReadError) throw new ExtractionError(error.message);
    throw error;
  }
}

/**
 * The one ZIP check (every part really inflated, against its declared size) and, for a PPTX, the
 * slide count against the page cap: what a DOCX/PPTX passes before LibreOffice may open it, and
 * what the upload door asks before it accepts one.
 */
export async function checkOfficeFile(path: string, kind: "docx" | "pptx", limits: ReaderLimits = READ_LIMITS): Promise<void> {
  await read({ op: "zip-check", path, kind }, limits);
}

/**
 * @param via "pdf" converts DOCX/PPTX to PDF first (the primary deck, whose page numbers matter);
 * "xml" reads OOXML directly (the data room: DOCX one page, PPTX one per slide, XLSX one per sheet).
 * @param convert where LibreOffice works (the data dir's conversionRoot, so the document-conversion
 * job can clean up after a crash), its time limit (which bounds each OCR'd page's too) and the data
 * dir it must not see (conversionOptions builds all three).
 */
export async function extractPages(
  path: string,
  kind: FileKind,
  via: "pdf" | "xml",
  convert: ConvertOptions & { workRoot: string },
  limits: ReaderLimits = READ_LIMITS,
): Promise<string[]> {
  const ocrTimeoutMs = Math.min(convert.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS, DEFAULT_OCR_TIMEOUT_MS);
  if (kind === "pdf") return read({ op: "pdf", path, ocrTimeoutMs }, limits);
  if ((kind === "docx" || kind === "pptx" || kind === "xlsx") && (via === "xml" || kind === "xlsx")) return read({ op: "ooxml", path, kind }, limits);
  if (isOffice(kind) || kind === "xls") {
    // LibreOffice expands whatever a ZIP really holds: the same check as the XML path, first.
    if (kind === "docx" || kind === "pptx") await checkOfficeFile(path, kind, limits);
    return convertToPdfFile(path, kind, convert, (pdf) => read({ op: "pdf", path: pdf, ocrTimeoutMs }, limits));
  }
  if (kind === "csv") return read({ op: "csv", path }, limits);
  if (kind === "text" || kind === "markdown") return read({ op: "text", path }, limits);
  throw new ExtractionError(`Files of this type (${kind}) cannot be read`);
}

export { ConversionError };
