// Text per page of a PDF, as read in the document child (reader-child.ts), never in the server:
// pdf.js (unpdf) with its text items joined by their layout (pdf-layout.ts), and a page without
// usable text (an image, a font without a usable encoding) read by OCR when Tesseract is installed
// (ocr.ts). The page count is checked (`checkPages`) before a single page is read; pdf.js's
// warnings are off (it would log a line per odd page).
import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
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
  // Pages whose text layer is only a footer or a page number over a picture that fills much of the
  // page: a slide exported as an image with the template's footer kept as text.
  const candidates: number[] = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = layoutText(content.items.filter((i): i is PositionedText & typeof i => "str" in i), page.getViewport({ scale: 1 }).transform);
      pages.push(text);
      if (!textProblem(text) && fewWords(text) && (await largestImageShare(page)) >= LARGE_IMAGE_SHARE) candidates.push(n);
      page.cleanup();
    }
  } catch (error) {
    throw new PdfTextError(`The PDF could not be read (${(error as Error).message || "corrupt file"})`);
  }
  const unread = pages.flatMap((text, i) => (textProblem(text) ? [i + 1] : []));
  const pictured = candidates.filter((n) => onlyRunning(pages, n - 1));
  const maxPages = opts.ocrMaxPages ?? OCR_MAX_PAGES;
  // The pictured pages are read only within the pages OCR may read: they never get a document refused.
  const extra = pictured.slice(0, Math.max(0, maxPages - unread.length));
  if ((unread.length || extra.length) && findTesseract()) {
    // The caller refuses a document needing more OCR than it allows (onOcr throws); without a
    // caller's say, at most OCR_MAX_PAGES are read.
    opts.onOcr?.(unread.length + extra.length);
    const ocr = unread.slice(0, maxPages);
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
    // Then the pictured pages, while the budget lasts (past it they keep their footer: no refusal).
    for (const n of extra) {
      const left = opts.ocrBudgetMs === undefined ? Infinity : opts.ocrBudgetMs - (clock() - started);
      if (left <= 1000) break;
      try {
        const text = await recognise(await renderPage(pdf, n), Math.min(ocrTimeoutMs, left));
        // The picture's words replace the footer only when they are text and say more than it.
        if (!textProblem(text) && letters(text) >= 2 * letters(pages[n - 1]) + 20) pages[n - 1] = text;
      } catch {
        // The footer stays the page's text.
      }
    }
  }
  return pages;
}

const LARGE_IMAGE_SHARE = 0.3;
const lineKey = (line: string) => line.trim().replace(/\d+/g, "#").replace(/\s+/g, " ").toLowerCase();
/** Whether every line of a page is a number or a line other pages carry too (a footer, a header). */
function onlyRunning(pages: string[], i: number): boolean {
  const lines = pages[i].split("\n").map(lineKey).filter((l) => /\p{L}/u.test(l));
  return lines.every((l) => pages.filter((p, k) => k !== i && p.split("\n").some((o) => lineKey(o) === l)).length >= 2);
}
const letters = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;
/** A text layer of a line or two: a footer, a page number, a logo's words. */
const fewWords = (text: string) => text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length <= 10;

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>["getPage"]>>;
/**
 * The largest share of the page one image covers, from the page's drawing operations: an image is
 * painted into the unit square, so its area is the determinant of the transform in force then.
 */
async function largestImageShare(page: PdfPage): Promise<number> {
  const { OPS } = await getResolvedPDFJS();
  const [x0, y0, x1, y1] = page.view;
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  if (!pageArea) return 0;
  const list = await page.getOperatorList();
  const painted = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageXObjectRepeat, OPS.paintImageMaskXObject].filter((n) => n !== undefined));
  const det = (m: number[]) => m[0] * m[3] - m[1] * m[2];
  let scale = 1;
  const stack: number[] = [];
  let best = 0;
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(scale);
    else if (fn === OPS.restore) scale = stack.pop() ?? 1;
    else if (fn === OPS.transform && args) scale *= det(args as number[]);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(scale);
      const matrix = args?.[0];
      if (Array.isArray(matrix) && matrix.length === 6) scale *= det(matrix as number[]);
    } else if (fn === OPS.paintFormXObjectEnd) scale = stack.pop() ?? 1;
    else if (painted.has(fn)) best = Math.max(best, Math.min(1, Math.abs(scale) / pageArea));
  }
  return best;
}
