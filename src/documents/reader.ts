// Reading an untrusted file without risking the server: each read runs in its own child process
// (reader-child.ts, through src/lib/child-job.ts), so a file that makes a parser spin for a minute
// or ask for gigabytes costs that child, never the event loop that answers requests. One child per
// file: a parser one file subverted never sees the next (another org's) file. The limits:
//   - 60 s and 512 MB of resident memory per read, after which the child is killed;
//   - 500 pages (PDF pages, slides, sheets) and 16 MB of text per file, enforced in the child, so
//     an oversized file is refused with a reason instead of being silently cut;
//   - at most two reads at once; further reads wait their turn.
import { resolve } from "node:path";
import { ChildJobError, formatBytes, formatMs, runChildJob, type ChildLimits } from "../lib/child-job.ts";
import { READ_COMMAND, type ReadEvent, type ReadLimits, type ReadOp, type ReadRequest } from "./reader-child.ts";
import { ZIP_LIMITS } from "./zip.ts";

export class ReadError extends Error {}

export type ReaderLimits = ReadLimits & Omit<ChildLimits, "maxOutputBytes">;

export const READ_LIMITS: ReaderLimits = {
  timeoutMs: 60_000,
  memoryBytes: 512 * 1024 * 1024,
  maxPages: 500,
  maxTextBytes: 16 * 1024 * 1024,
  zip: ZIP_LIMITS,
  concurrency: 2,
};

/**
 * Runs one read in a child and returns its pages, or throws ReadError with words for the user
 * (the run's or the document's error).
 */
export async function readInChild(op: ReadOp, limits: ReaderLimits = READ_LIMITS): Promise<string[]> {
  // The child works in the temp dir: a path relative to the server's directory means nothing there.
  const request: ReadRequest = { ...op, path: resolve(op.path), limits: { maxPages: limits.maxPages, maxTextBytes: limits.maxTextBytes, zip: limits.zip } };
  try {
    // JSON escaping can make text up to six times longer (control characters as \u00XX).
    // OCR'd pages get their own time on top of the read's (each is killed past its own limit).
    const allowOcr = (event: unknown) => ((event as ReadEvent).ocr ? (event as ReadEvent).ocr.pages * (event as ReadEvent).ocr.ms : 0);
    return await runChildJob<string[]>(READ_COMMAND, request, { ...limits, maxOutputBytes: limits.maxTextBytes * 6 + 1024 * 1024 }, allowOcr);
  } catch (error) {
    if (!(error instanceof ChildJobError)) throw error;
    const message = {
      time: () => `Reading the file took longer than ${formatMs(limits.timeoutMs)}, so it was stopped (such a file is refused)`,
      memory: () => `Reading the file needed more than ${formatBytes(limits.memoryBytes)} of memory, so it was stopped (such a file is refused)`,
      output: () => `The file's text is larger than ${formatBytes(limits.maxTextBytes)}, so it was refused`,
      crash: () => `The file could not be read (the reader: ${error.message})`,
      failed: () => error.message,
    }[error.reason]();
    throw new ReadError(message);
  }
}
