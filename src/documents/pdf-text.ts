// Text per page of a PDF, as read in the document child (reader-child.ts), never in the server:
// pdf.js (unpdf) with its text items joined by their layout (pdf-layout.ts), and a page without
// usable text (an image, a font without a usable encoding) read by OCR when Tesseract is installed
// (ocr.ts). The page count is checked (`checkPages`) before a single page is read; pdf.js's
// warnings are off (it would log a line per odd page).
import { getDocumentProxy } from "unpdf";
import { ownCpuMs } from "../lib/cpu-time.ts";
import { textProblem } from "../lib/text-quality.ts";
import { DEFAULT_OCR_TIMEOUT_MS, findTesseract, OCR_MAX_PAGES, recognise, RENDERABLE, renderPage } from "./ocr.ts";
import { layoutText, type PositionedText } from "./pdf-layout.ts";

export class PdfTextError extends Error {}

export type PdfReadOptions = {
  /** Throws to refuse a document by its page count, before any page is read. */
  checkPages?: (count: number) => void;
  /** Told how many pages need OCR before any is read (each within `ocrTimeoutMs`); throws to refuse the document. */
  onOcr?: (pages: number) => void;
  /** The processor time OCR of this document may take altogether (Tesseract's included); past it `onOcrOverrun` is called (and throws to refuse). */
  ocrBudgetMs?: number;
  onOcrOverrun?: (read: number, of: number) => void;
  /** Pages OCR may read (default OCR_MAX_PAGES); the caller refuses more through onOcr. */
  ocrMaxPages?: number;
};

/**
 * Each page's text with its layout kept: lines, spaces and separate boxes where the page has them.
 * A page whose text is no text (textProblem) is read by OCR when Tesseract is installed; a page OCR
 * cannot read either keeps what it had, and the engines say it was not read.
 */
export async function pdfPages(bytes: Uint8Array, ocrTimeoutMs = DEFAULT_OCR_TIMEOUT_MS, opts: PdfReadOptions = {}): Promise<string[]> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes, { ...RENDERABLE, verbosity: 0 } as typeof RENDERABLE);
  } catch (error) {
    throw new PdfTextError(`The PDF could not be read (${(error as Error).message || "corrupt file"})`);
  }
  opts.checkPages?.(pdf.numPages);
  const pages: string[] = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(layoutText(content.items.filter((i): i is PositionedText & typeof i => "str" in i), page.getViewport({ scale: 1 }).transform));
      page.cleanup();
    }
  } catch (error) {
    throw new PdfTextError(`The PDF could not be read (${(error as Error).message || "corrupt file"})`);
  }
  const unread = pages.flatMap((text, i) => (textProblem(text) ? [i + 1] : []));
  if (unread.length && findTesseract()) {
    // The caller refuses a document needing more OCR than it allows (onOcr throws); without a
    // caller's say, at most OCR_MAX_PAGES are read.
    opts.onOcr?.(unread.length);
    const ocr = unread.slice(0, opts.ocrMaxPages ?? OCR_MAX_PAGES);
    // Processor time, not the clock's: OCR runs at the lowest priority, and on a busy machine a page
    // may wait for a core far longer than Tesseract works on it (ownCpuMs counts Tesseract's runs).
    const clock = ownCpuMs() === null ? () => performance.now() : () => ownCpuMs() ?? 0;
    const started = clock();
    for (const [i, n] of ocr.entries()) {
      const left = opts.ocrBudgetMs === undefined ? Infinity : opts.ocrBudgetMs - (clock() - started);
      if (left <= 0) opts.onOcrOverrun?.(i, ocr.length);
      try {
        const text = await recognise(await renderPage(pdf, n), Math.max(1000, Math.min(ocrTimeoutMs, left)));
        if (!textProblem(text)) pages[n - 1] = text;
      } catch {
        // A page OCR cannot read (too slow, a drawing pdf.js cannot paint) stays unread, and the engines say so.
      }
    }
  }
  return pages;
}
