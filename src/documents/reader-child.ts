// The document child: a separate process of the same program (`dealgraph __read-document`, or
// `bun src/main.ts __read-document`) that reads ONE untrusted file and exits. It does the work that
// can take a parser seconds or gigabytes (pdf.js on a PDF, the ZIP check and the XML of an Office
// file, a large CSV), so the server's event loop never does; reader.ts starts it with its limits
// (src/lib/child-job.ts) and turns whatever happens into a clear error. Its console is silenced:
// pdf.js logs a line per odd page, and nothing but the answer may reach stdout.
import { setPriority } from "node:os";
import { ChildRefusal, serveChildJob } from "../lib/child-job.ts";
import type { ZipLimits } from "./zip.ts";

/** The hidden command a child of this program is started with (src/cli/index.ts dispatches it). */
export const READ_COMMAND = "__read-document";

export type ReadOp =
  /** Text per page of a PDF; `ocr`: what OCR may do for it (pages, time altogether). */
  | { op: "pdf"; path: string; ocrTimeoutMs?: number; ocr?: OcrLimits }
  /** Text of a DOCX (one page), PPTX (a page per slide) or XLSX (a page per sheet) from its XML. */
  | { op: "ooxml"; path: string; kind: "docx" | "pptx" | "xlsx" }
  /** The ZIP check a DOCX/PPTX passes before LibreOffice may open it (and a PPTX's slide count). */
  | { op: "zip-check"; path: string; kind: "docx" | "pptx" }
  /** CSV rows as sentences, one page. */
  | { op: "csv"; path: string }
  /** Plain text or Markdown, one page. */
  | { op: "text"; path: string };

export type ReadLimits = { maxPages: number; maxTextBytes: number; zip: ZipLimits };

/** OCR's bounds for one file: pages, and processor time altogether (a file needing more is refused, never cut). */
export type OcrLimits = { maxPages: number; budgetMs: number };

/**
 * `ocrSlots`: lock files, one per Tesseract run the server allows at once across all its readers
 * (reader.ts); each run holds one (flock) while it works.
 */
export type ReadRequest = ReadOp & { limits: ReadLimits; ocrSlots?: string[] };

/** A refusal with words for the user: the file, not the reader, is the problem. */
class Refused extends ChildRefusal {}

const pageCount = (n: number) => `${n.toLocaleString("en-US")} page${n === 1 ? "" : "s"}`;

function capPages(count: number, what: string, limits: ReadLimits): void {
  if (count > limits.maxPages) {
    throw new Refused(`The ${what} has ${pageCount(count)}; at most ${limits.maxPages.toLocaleString("en-US")} are read, so it was refused (split it, or send the part that matters)`);
  }
}

/**
 * What the child tells the parent while it reads: OCR about to read `pages` pages, each within
 * `ms`, all within `budgetMs` (the parent reserves them against the organization's daily bound,
 * and may refuse).
 */
export type ReadEvent = { ocr: { pages: number; ms: number; budgetMs: number } };

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

async function pdfPages(path: string, ocrTimeoutMs: number | undefined, ocrLimits: OcrLimits | undefined, limits: ReadLimits, emit: (event: ReadEvent) => void): Promise<string[]> {
  const pdf = await import("./pdf-text.ts");
  const { DEFAULT_OCR_TIMEOUT_MS, OCR_MAX_MS_PER_DOCUMENT, OCR_MAX_PAGES } = await import("./ocr.ts");
  const bound: OcrLimits = ocrLimits ?? { maxPages: OCR_MAX_PAGES, budgetMs: OCR_MAX_MS_PER_DOCUMENT };
  try {
    return await pdf.pdfPages(new Uint8Array(await Bun.file(path).arrayBuffer()), ocrTimeoutMs, {
      checkPages: (count) => capPages(count, "PDF", limits),
      ocrMaxPages: bound.maxPages,
      ocrBudgetMs: bound.budgetMs,
      onOcr: (pages) => {
        if (pages > bound.maxPages) {
          throw new Refused(
            `The file has ${pageCount(pages)} without usable text (page images, or fonts without a usable encoding); OCR reads at most ${pageCount(bound.maxPages)} of one file, so it was refused (send a version with selectable text, or the part that matters)`,
          );
        }
        // OCR is the slow part: it yields to every other read and to the server (Tesseract inherits it).
        try {
          setPriority(0, 19);
        } catch {
          // not permitted: the priority the parent gave
        }
        // OCR has its own limit per page and altogether: the parent adds it to the read's time limit.
        emit({ ocr: { pages, ms: ocrTimeoutMs ?? DEFAULT_OCR_TIMEOUT_MS, budgetMs: bound.budgetMs } });
      },
      onOcrOverrun: (read, of) => {
        throw new Refused(
          `OCR of the file took more than ${seconds(bound.budgetMs)} of processor time (${read} of its ${pageCount(of)} without usable text read), the most one file may take, so it was refused (send a version with selectable text, or fewer pages)`,
        );
      },
    });
  } catch (error) {
    if (error instanceof pdf.PdfTextError) throw new Refused(error.message);
    throw error;
  }
}

async function officeText() {
  const [office, zip] = await Promise.all([import("./office-text.ts"), import("./zip.ts")]);
  return { ...office, ...zip };
}

/** A PPTX's slides, counted from its directory before any slide is read. */
function slideCount(names: string[]): number {
  return names.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length;
}

async function ooxmlPages(path: string, kind: "docx" | "pptx" | "xlsx", limits: ReadLimits): Promise<string[]> {
  const office = await officeText();
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
  try {
    if (kind === "pptx") capPages(slideCount(office.zipDirectory(bytes, limits.zip).map((e) => e.name)), "presentation", limits);
    const read = { docx: office.docxPages, pptx: office.pptxPages, xlsx: office.xlsxPages }[kind];
    const pages = read(bytes, limits.zip);
    capPages(pages.length, kind === "xlsx" ? "workbook (a page per sheet)" : "document", limits);
    return pages;
  } catch (error) {
    if (error instanceof office.OfficeTextError || error instanceof office.ZipError) throw new Refused(error.message);
    throw error;
  }
}

async function zipCheck(path: string, kind: "docx" | "pptx", limits: ReadLimits): Promise<string[]> {
  const office = await officeText();
  try {
    const entries = office.checkZip(new Uint8Array(await Bun.file(path).arrayBuffer()), limits.zip);
    if (kind === "pptx") capPages(slideCount(entries.map((e) => e.name)), "presentation", limits);
  } catch (error) {
    if (error instanceof office.ZipError) throw new Refused(error.message);
    throw error;
  }
  return [];
}

async function run(request: ReadRequest, emit: (event: ReadEvent) => void): Promise<string[]> {
  switch (request.op) {
    case "pdf":
      if (request.ocrSlots?.length) (await import("./ocr.ts")).useOcrSlots(request.ocrSlots);
      return pdfPages(request.path, request.ocrTimeoutMs, request.ocr, request.limits, emit);
    case "ooxml":
      return ooxmlPages(request.path, request.kind, request.limits);
    case "zip-check":
      return zipCheck(request.path, request.kind, request.limits);
    case "csv":
      return (await officeText()).csvPages(await Bun.file(request.path).text());
    case "text":
      return [await Bun.file(request.path).text()];
  }
}

/** What a page list weighs as the parent will receive it (UTF-8). */
const textBytes = (pages: string[]) => pages.reduce((n, p) => n + Buffer.byteLength(p), 0);

/** The child's whole life: one read, its pages or its refusal. Returns the exit code. */
export function readDocumentChild(): Promise<number> {
  return serveChildJob(async (input, emit) => {
    const request = input as ReadRequest;
    const pages = await run(request, emit);
    const size = textBytes(pages);
    if (size > request.limits.maxTextBytes) {
      throw new Refused(
        `The file's text is ${Math.ceil(size / 1024 / 1024)} MB; at most ${Math.floor(request.limits.maxTextBytes / 1024 / 1024)} MB of text is read from one file, so it was refused (split it)`,
      );
    }
    return pages;
  }, "The file could not be read");
}
