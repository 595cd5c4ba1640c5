// Whose work a piece of background work is (an action run's organization and user), carried
// through every await of the run without passing it down each call (AsyncLocalStorage): the action
// runner sets it around a handler, and what the handler reaches deep down reads it. The document
// reader uses it to share its child processes fairly between organizations (child-job.ts) and to
// hold OCR to the organization's daily bound (the runner's `ocr` allowance). Work outside a run
// (the CLI, an upload's door checks) has no context and gets the per-upload bounds alone.
import { AsyncLocalStorage } from "node:async_hooks";

/** What OCR may do for the document being read, and the organization's daily reservation. */
export type OcrAllowance = {
  /** Pages of one file OCR may read; a file needing more is refused with a reason. */
  pagesPerUpload: number;
  /** Time OCR of one file may take altogether; past it the file is refused with a reason. */
  msPerUpload: number;
  /** Reserves `pages` of the organization's daily OCR pages: null when granted, else why not. */
  reserve?: (pages: number) => string | null;
};

export type WorkContext = {
  /** Whose turn it is in shared pools: the organization. */
  tenant: string;
  user?: string;
  ocr?: OcrAllowance;
};

const storage = new AsyncLocalStorage<WorkContext>();

/** Runs `fn` (and everything it awaits) as `ctx`'s work. */
export function runAsWork<T>(ctx: WorkContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The work being done now, or null outside any run. */
export function currentWork(): WorkContext | null {
  return storage.getStore() ?? null;
}
