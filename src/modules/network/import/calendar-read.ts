// Reading untrusted calendars without risking the server: each read runs in a calendar child
// (calendar-child.ts, through src/lib/child-job.ts), so a file whose series expand to millions of
// occurrences or a parser that spins costs that child, never the event loop that answers requests.
// The limits (README "Connected mailboxes and calendars"):
//   - 60 s and 512 MB of resident memory per read, after which the child is killed and the read
//     refused with that reason; at most two reads at once, further reads wait their turn;
//   - past occurrences per series and per calendar object (CALENDAR_CAPS), enforced in the child:
//     the latest count, the earlier ones are refused with a reason the caller records and shows.
import { ChildJobError, formatBytes, formatMs, runChildJob, type ChildLimits } from "../../../lib/child-job.ts";
import type { Expansion, Occurrence } from "../../../lib/icalendar-recurrence.ts";
import type { CalendarEvent } from "../../../lib/icalendar.ts";
import {
  readDavReply,
  READ_CALENDAR_COMMAND,
  type CalendarCaps,
  type CalendarObjectRead,
  type CalendarReadRequest,
  type CalendarReadResult,
  type CalendarSource,
  type CompactExpansion,
  type DavReply,
  type DavResponseRead,
} from "./calendar-child.ts";

export type { CalendarCaps, CalendarObjectRead, DavReply, DavResponseRead } from "./calendar-child.ts";

/**
 * Past occurrences counted per series (one UID) and per calendar object (a subscription's file, a
 * CalDAV resource, an imported file): a daily meeting of four years, a busy calendar of several.
 */
export const CALENDAR_CAPS: CalendarCaps = { perSeries: 1_000, perObject: 5_000 };

export const CALENDAR_CHILD_LIMITS: Omit<ChildLimits, "maxOutputBytes"> = { timeoutMs: 60_000, memoryBytes: 512 * 1024 * 1024, concurrency: 2 };

/** `import calendar` (the command line, a file the operator chose): a bigger file, more time and memory. */
export const IMPORT_CHILD_LIMITS: Omit<ChildLimits, "maxOutputBytes"> = { timeoutMs: 120_000, memoryBytes: 1024 * 1024 * 1024, concurrency: 1 };
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** The calendar child's answer (capped occurrences) is never larger than this. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** A read that gave nothing: stopped by a limit, or a file refused whole. The message is for the user. */
export class CalendarReadError extends Error {}

/** Reads calendars in a child; throws CalendarReadError. */
export async function readCalendars(
  source: CalendarSource,
  opts: { timeZone: string | null; now: Date; caps?: CalendarCaps; limits?: Omit<ChildLimits, "maxOutputBytes"> },
): Promise<CalendarReadResult> {
  const request: CalendarReadRequest = { source, timeZone: opts.timeZone, now: opts.now.getTime(), caps: opts.caps ?? CALENDAR_CAPS };
  const limits = opts.limits ?? CALENDAR_CHILD_LIMITS;
  try {
    return await runChildJob<CalendarReadResult>(READ_CALENDAR_COMMAND, request, { ...limits, maxOutputBytes: MAX_OUTPUT_BYTES });
  } catch (error) {
    if (!(error instanceof ChildJobError)) throw error;
    const message = {
      time: () => `reading the calendar took longer than ${formatMs(limits.timeoutMs)}, so it was stopped (such a calendar is refused)`,
      memory: () => `reading the calendar needed more than ${formatBytes(limits.memoryBytes)} of memory, so it was stopped (such a calendar is refused)`,
      output: () => `the calendar's occurrences came to more than ${formatBytes(MAX_OUTPUT_BYTES)}, so it was refused`,
      crash: () => `the calendar could not be read (the reader: ${error.message})`,
      failed: () => error.message,
    }[error.reason]();
    throw new CalendarReadError(message);
  }
}

/** A WebDAV reply up to this size is read in the server (a few milliseconds); a larger one in the child. */
export const DAV_INLINE_BYTES = 256 * 1024;

/** A WebDAV reply (PROPFIND, sync-collection) read into responses: in the child when it is large. Throws CalendarReadError. */
export async function readDav(url: string, response: DavReply): Promise<DavResponseRead[]> {
  if (response.body.length <= DAV_INLINE_BYTES) return readDavReply(url, response);
  const read = await readCalendars({ kind: "dav", url, response }, { timeZone: null, now: new Date(0) });
  return read.dav ?? [];
}

/** The expansion the recording rules take, from the child's compact one. */
export function expansionOf(compact: CompactExpansion): Expansion {
  const occurrences: Occurrence[] = compact.occurrences.map((o) => ({ uid: compact.uids[o.u], recurrenceId: o.r, seriesStart: o.s, start: o.t, ...compact.details[o.d] }));
  // Only their lines are read (skip reports).
  const stub = (line: number) => ({ line }) as CalendarEvent;
  return { occurrences, errors: [], superseded: compact.superseded.map(stub), futureSeries: compact.futureSeries.map(stub), nextStart: compact.nextStart };
}

/** Past occurrences in a read (what it costs to record it). */
export const occurrenceCount = (read: CalendarObjectRead) => read.expansion?.occurrences.length ?? 0;
