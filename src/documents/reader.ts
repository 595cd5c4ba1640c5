// Reading an untrusted file without risking the server: each read runs in its own child process
// (reader-child.ts, through src/lib/child-job.ts), so a file that makes a parser spin for a minute
// or ask for gigabytes costs that child, never the event loop that answers requests. One child per
// file: a parser one file subverted never sees the next (another org's) file. The limits:
//   - 60 s of CPU time (the child's and Tesseract's; wall-clock time only as a ceiling several times
//     that, for a reader that hangs) and 512 MB of resident memory per read, after which the child
//     is killed: a cheap file whose reader waited for a core on a busy machine is not refused;
//   - 500 pages (PDF pages, slides, sheets) and 16 MB of text per file, enforced in the child, so
//     an oversized file is refused with a reason instead of being silently cut;
//   - OCR within its per-file bounds (pages, seconds) and, in an action run, the organization's
//     daily OCR pages (actions/ocr-budget.ts): a file past either is refused with the reason;
//   - at most three reads at once, at most two of one organization; further reads wait their
//     turn, the organization with the fewest running first (src/lib/child-job.ts);
//   - Tesseract runs (one thread each) on every core but one at most, across all reads: one at a
//     time on 2 cores, so OCR never holds both while the server waits (OCR_CONCURRENCY).
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChildJobError, ChildRefusal, formatBytes, formatMs, runChildJob, type ChildLimits } from "../lib/child-job.ts";
import { currentWork } from "../lib/work-context.ts";
import { OCR_MAX_MS_PER_DOCUMENT, OCR_MAX_PAGES } from "./ocr.ts";
import { READ_COMMAND, type OcrLimits, type ReadEvent, type ReadLimits, type ReadOp, type ReadRequest } from "./reader-child.ts";
import { ZIP_LIMITS } from "./zip.ts";

export class ReadError extends Error {}

/** Tesseract runs at once across this server's readers: every core but one, which stays the server's. */
export const OCR_CONCURRENCY = Math.max(1, availableParallelism() - 1);
let slotFiles: string[] | null = null;
/**
 * The lock files each Tesseract run holds one of (ocr.ts), made once per process and removed at its
 * exit; those of a process that was killed (its pid in the dir's name, and gone) are removed here.
 */
function ocrSlots(): string[] {
  if (slotFiles) return slotFiles;
  for (const name of readdirSync(tmpdir())) {
    const pid = /^dealgraph-ocr-slots-(\d+)-/.exec(name)?.[1];
    if (pid && !existsSync(`/proc/${pid}`) && process.platform === "linux") rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), `dealgraph-ocr-slots-${process.pid}-`));
  slotFiles = Array.from({ length: OCR_CONCURRENCY }, (_, i) => join(dir, `slot-${i}`));
  for (const file of slotFiles) writeFileSync(file, "");
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return slotFiles;
}

export type ReaderLimits = ReadLimits & Omit<ChildLimits, "maxOutputBytes">;

export const READ_LIMITS: ReaderLimits = {
  timeoutMs: 60_000,
  memoryBytes: 512 * 1024 * 1024,
  maxPages: 500,
  maxTextBytes: 16 * 1024 * 1024,
  zip: ZIP_LIMITS,
  concurrency: 3,
};

/**
 * Runs one read in a child and returns its pages, or throws ReadError with words for the user
 * (the run's or the document's error).
 */
export async function readInChild(op: ReadOp, limits: ReaderLimits = READ_LIMITS): Promise<string[]> {
  // The child works in the temp dir: a path relative to the server's directory means nothing there.
  // In an action run, OCR's per-file bounds are the runner's (DEALGRAPH_OCR_*); elsewhere the defaults.
  const work = currentWork();
  const ocrLimits: OcrLimits = work?.ocr ? { maxPages: work.ocr.pagesPerUpload, budgetMs: work.ocr.msPerUpload } : { maxPages: OCR_MAX_PAGES, budgetMs: OCR_MAX_MS_PER_DOCUMENT };
  const request: ReadRequest = {
    ...op,
    ...(op.op === "pdf" ? { ocr: ocrLimits, ocrSlots: ocrSlots() } : {}),
    path: resolve(op.path),
    limits: { maxPages: limits.maxPages, maxTextBytes: limits.maxTextBytes, zip: limits.zip },
  };
  try {
    // JSON escaping can make text up to six times longer (control characters as \u00XX).
    // OCR'd pages get their own CPU time on top of the read's (each is killed past its own limit, all
    // within the file's OCR budget); in an action run, they are first reserved against the
    // organization's daily OCR bound, and a refusal stops the read with its reason.
    const allowOcr = (event: unknown) => {
      const ocr = (event as ReadEvent).ocr;
      if (!ocr) return 0;
      const refused = work?.ocr?.reserve?.(ocr.pages);
      if (refused) throw new ChildRefusal(refused);
      return Math.min(ocr.pages * ocr.ms, ocr.budgetMs) + 5_000;
    };
    return await runChildJob<string[]>(READ_COMMAND, request, { ...limits, maxOutputBytes: limits.maxTextBytes * 6 + 1024 * 1024, maxExtensionMs: ocrLimits.budgetMs + 5_000 }, allowOcr);
  } catch (error) {
    if (!(error instanceof ChildJobError)) throw error;
    const message = {
      time: () =>
        error.limit === "wall"
          ? `Reading the file did not finish within ${formatMs(error.limitMs ?? 0)} although it used little processor time (the reader hung, or the server is overloaded), so it was stopped`
          : `Reading the file took more than ${formatMs(error.limitMs ?? limits.timeoutMs)} of processor time, so it was stopped (such a file is refused)`,
      memory: () => `Reading the file needed more than ${formatBytes(limits.memoryBytes)} of memory, so it was stopped (such a file is refused)`,
      output: () => `The file's text is larger than ${formatBytes(limits.maxTextBytes)}, so it was refused`,
      crash: () => `The file could not be read (the reader: ${error.message})`,
      failed: () => error.message,
    }[error.reason]();
    throw new ReadError(message);
  }
}
