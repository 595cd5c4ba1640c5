// What a network import reports: the one error that fails a file (naming the file and the line a
// person will find the problem on in an editor), and the counts of a finished import.
import type { TimeReading } from "../../../lib/icalendar.ts";
import type { NonPersonReason } from "../network.identity.ts";

/** A file that cannot be imported. Nothing of it was written. */
export class ImportError extends Error {
  constructor(
    readonly file: string,
    /** 1-based line of the file; null when the problem is the file as a whole. */
    readonly line: number | null,
    readonly reason: string,
  ) {
    // One line, whatever the file held (a quoted CSV header may carry a newline).
    super(`${file}${line === null ? "" : `:${line}`}: ${reason.replace(/\r\n|\r|\n/g, "\\n")}`);
    this.name = "ImportError";
  }
}

export type LineProblem = { line: number; message: string };

/** Fails the file at its first bad line, saying how many more there are and where. */
export function failOnProblems(file: string, problems: LineProblem[], unit = "row"): void {
  if (problems.length === 0) return;
  const [first, ...rest] = [...problems].sort((a, b) => a.line - b.line);
  const lines = rest.slice(0, 10).map((p) => p.line).join(", ");
  const more = rest.length ? ` (and ${rest.length} more bad ${unit}${rest.length === 1 ? "" : "s"}: line${rest.length === 1 ? "" : "s"} ${lines}${rest.length > 10 ? ", ..." : ""})` : "";
  throw new ImportError(file, first.line, `${first.message}${more}`);
}

/** Why a message, event or card was read but recorded nothing: never an error. */
export type SkipReason =
  | "not_addressed_to_user"
  | "mailing_list"
  | "bulk"
  | "automated"
  | "auto_reply"
  | "delivery_report"
  | "spam_report"
  | "read_receipt"
  | "role_address"
  | "group_calendar"
  | "superseded"
  | "too_many_participants"
  | "no_sender"
  | "no_other_participants"
  | "not_attended_by_user"
  | "cancelled"
  | "declined"
  | "future"
  | "no_date"
  | "no_email"
  | "own_address";

export type ImportKind = "mail" | "calendar" | "contacts";


export type ImportStats = {
  kind: ImportKind;
  user_id: string;
  /** Files read (an mbox, each .eml of a folder, an .ics, a .vcf or .csv). */
  files: number;
  /** Messages, events or contact cards/rows read. */
  read: number;
  /** Recorded now (new interactions, or contacts written). */
  imported: number;
  /** Already imported before (same Message-ID or event UID): nothing changed. */
  duplicates: number;
  skipped: number;
  skipped_by_reason: Partial<Record<SkipReason, number>>;
  /** Where each skip reason was first met (`FILE:LINE`), so an unusable message can be found. */
  first_skipped_at: Partial<Record<SkipReason, string>>;
  /** Files of a folder that could not be read as mail: reported, nothing of them written, the others imported. */
  failed_files: number;
  /** Events, cards or CSV rows that could not be read: each reported, nothing of it written, the others imported. */
  failed_items: number;
  /** `FILE:LINE: reason` of each failed file or item (the first MAX_ERRORS). */
  errors: string[];
  /** Participants and senders that are not persons (a list, a group calendar, a role address, a room), left out: by what they are. */
  not_persons: Partial<Record<NonPersonReason, number>>;
  persons_created: number;
  relationships_created: number;
  ms: number;
  /** Calendar: the occurrences weighed (an event once, a series at each past instance); each imported, a duplicate or skipped. */
  occurrences?: number;
  /** Calendar: how the start times were read (UTC, IANA zone, the file's VTIMEZONE, a Windows name, a floating time...). */
  time_zones?: TimeReading;
  /** Calendar: the zone floating times and all-day dates were read in (`--time-zone`, else the user's, else UTC). */
  floating_time_zone?: string;
  /** Calendar (`import calendar`): past occurrences refused by the caps per series and per file, and why. */
  refused?: number;
  refusals?: string[];
};

export function emptyStats(kind: ImportKind, userId: string): ImportStats {
  return {
    kind,
    user_id: userId,
    files: 0,
    read: 0,
    imported: 0,
    duplicates: 0,
    skipped: 0,
    skipped_by_reason: {},
    first_skipped_at: {},
    failed_files: 0,
    failed_items: 0,
    errors: [],
    not_persons: {},
    persons_created: 0,
    relationships_created: 0,
    ms: 0,
  };
}

export const MAX_ERRORS = 100;

/** Counts a skipped item; `where` (`FILE:LINE`) is kept for the first of each reason. */
export function skip(stats: ImportStats, reason: SkipReason, where?: string): void {
  stats.skipped++;
  stats.skipped_by_reason[reason] = (stats.skipped_by_reason[reason] ?? 0) + 1;
  if (where && !stats.first_skipped_at[reason]) stats.first_skipped_at[reason] = where;
}

/** One event, card or row that could not be read: counted and reported at its line, the import goes on. */
export function itemFailed(stats: ImportStats, file: string, line: number | null, reason: string): void {
  stats.failed_items++;
  if (stats.errors.length < MAX_ERRORS) stats.errors.push(new ImportError(file, line, reason).message);
}

/** A participant left out because it is no person. */
export function notPerson(stats: ImportStats, reason: NonPersonReason): void {
  stats.not_persons[reason] = (stats.not_persons[reason] ?? 0) + 1;
}

/** A file of a folder that failed on its own: counted and reported, the import goes on. */
export function fileFailed(stats: ImportStats, error: ImportError): void {
  stats.failed_files++;
  if (stats.errors.length < MAX_ERRORS) stats.errors.push(error.message);
}
