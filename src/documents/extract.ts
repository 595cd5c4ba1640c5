// Text out of a document, page by page: PDF directly (unpdf, its text items joined by their layout:
// pdf-layout.ts), and a PDF page without usable text (an image, a font without a usable encoding)
// read by OCR when Tesseract is installed (ocr.ts); DOCX/PPTX/XLSX from their XML parts (or, for a
// primary upload, through LibreOffice's PDF so pages are real pages); DOC/PPT/XLS through
// LibreOffice; plain text and Markdown as one page; CSV as one page of row sentences.
import { getDocumentProxy } from "unpdf";
import { ConversionError, convertToPdf, type ConvertOptions } from "./convert.ts";
import { isOffice, type FileKind } from "./file-type.ts";
import { textProblem } from "../lib/text-quality.ts";
import { DEFAULT_OCR_TIMEOUT_MS, findTesseract, OCR_MAX_PAGES, recognise, RENDERABLE, renderPage } from "./ocr.ts";
import { layoutText, type PositionedText } from "./pdf-layout.ts";

// The Office readers (and fflate under them) load on the first Office or CSV file, not at start-up.
const officeText = () => import("./office-text.ts");

export class ExtractionError extends Error {}

/**
 * Each page's text with its layout kept (pdf-layout.ts): lines, spaces and separate boxes where the
 * page has them. A page whose text is no text (textProblem) is read by OCR when Tesseract is
 * installed; a page OCR cannot read either keeps what it had, and the engines say it was not read.
 */
export async function pdfPages(bytes: Uint8Array, ocrTimeoutMs = DEFAULT_OCR_TIMEOUT_MS): Promise<string[]> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  const pages: string[] = [];
  try {
    pdf = await getDocumentProxy(bytes, RENDERABLE);
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(layoutText(content.items.filter((i): i is PositionedText & typeof i => "str" in i), page.getViewport({ scale: 1 }).transform));
      page.cleanup();
    }
  } catch (error) {
    throw new ExtractionError(`The PDF could not be read (${(error as Error).message ?? "corrupt file"})`);
  }
  const unread = pages.flatMap((text, i) => (textProblem(text) ? [i + 1] : []));
  if (unread.length && findTesseract()) {
    for (const n of unread.slice(0, OCR_MAX_PAGES)) {
      try {
        const text = await recognise(await renderPage(pdf, n), ocrTimeoutMs);
        if (!textProblem(text)) pages[n - 1] = text;
      } catch {
        // A page OCR cannot read (too slow, a drawing pdf.js cannot paint) stays unread, and the engines say so.
      }
    }
  }
  return pages;
}

/**
 * @param via "pdf" converts DOCX/PPTX to PDF first (the primary deck, whose page numbers matter);
 * "xml" reads OOXML directly (the data room: DOCX one page, PPTX one per slide, XLSX one per sheet).
 * @param convert where LibreOffice works (the data dir's conversionRoot, so the document-conversion
 * job can clean up after a crash) and its time limit.
 */
export async function extractPages(path: string, kind: FileKind, via: "pdf" | "xml", convert: ConvertOptions & { workRoot: string }): Promise<string[]> {
  const ocrTimeoutMs = Math.min(convert.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS, DEFAULT_OCR_TIMEOUT_MS);
  if (kind === "pdf") return pdfPages(new Uint8Array(await Bun.file(path).arrayBuffer()), ocrTimeoutMs);
  if ((kind === "docx" || kind === "pptx" || kind === "xlsx") && (via === "xml" || kind === "xlsx")) {
    const office = await officeText();
    const fromXml = { docx: office.docxPages, pptx: office.pptxPages, xlsx: office.xlsxPages };
    try {
      return fromXml[kind](new Uint8Array(await Bun.file(path).arrayBuffer()));
    } catch (error) {
      if (error instanceof office.OfficeTextError) throw new ExtractionError(error.message);
      throw error;
    }
  }
  if (isOffice(kind) || kind === "xls") {
    // LibreOffice expands whatever a ZIP really holds: the same caps as the XML path, checked first.
    if (kind === "docx" || kind === "pptx") {
      const office = await officeText();
      try {
        office.verifyZipExpansion(new Uint8Array(await Bun.file(path).arrayBuffer()));
      } catch (error) {
        if (error instanceof office.OfficeTextError) throw new ExtractionError(error.message);
        throw error;
      }
    }
    return pdfPages(await convertToPdf(path, kind, convert), ocrTimeoutMs);
  }
  if (kind === "csv") return (await officeText()).csvPages(await Bun.file(path).text());
  if (kind === "text" || kind === "markdown") return [await Bun.file(path).text()];
  throw new ExtractionError(`Files of this type (${kind}) cannot be read`);
}

export { ConversionError };
