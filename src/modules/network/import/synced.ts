// What a connected mailbox or calendar hands to the network: batches of message headers and of
// calendar objects, read by the very rules of file imports (recordMessage, recordOccurrences: the
// same skips, the same Message-ID and occurrence keys, so a message or meeting seen by both counts
// once) and written in one transaction together with the sync's own bookkeeping (how far it got).
// Neither is ever committed without the other: a sync killed at any point loses nothing and counts
// nothing twice.
import type { Deps } from "../../../deps.ts";
import { CalendarFileError, parseCalendar, type CalendarItemError } from "../../../lib/icalendar.ts";
import { expandOccurrences, type Expansion } from "../../../lib/icalendar-recurrence.ts";
import { orgsService } from "../../identity/orgs.service.ts";
import { itemFailed, type ImportStats } from "./errors.ts";
import { parseHeaderLines, type HeaderBlock } from "./headers.ts";
import { inboxWants, inTransaction, recordMessage, recordOccurrences, type InboxHook } from "./network.import.ts";

export { MAX_WHOLE_MESSAGE_BYTES } from "./mbox.ts";
export type { HeaderBlock } from "./headers.ts";

/** Whose mail or calendar it is: the user, and their other addresses (e.g. a login that is an address). */
export type SyncedUser = { userId: string; aliases: string[] };

/** The header block of a message from the bytes a server returned for its header fields. */
export function headerBlock(raw: Buffer | string): HeaderBlock {
  const text = typeof raw === "string" ? raw : raw.toString("utf8");
  const end = /\r?\n\r?\n/.exec(text);
  return parseHeaderLines((end ? text.slice(0, end.index) : text).split(/\r?\n/), 1);
}

/** Whether a hook (another module acting on mail it recognises) wants this message whole. */
export const wantsWhole = (hook: InboxHook, block: HeaderBlock): boolean => inboxWants(hook, block);

export type SyncedMessage = { block: HeaderBlock; where: string };

/**
 * Records a batch of messages for the user; `after` runs in the same transaction (with the
 * batch's figures) to write how far the sync got.
 */
export function recordSyncedMessages(deps: Deps, user: SyncedUser, messages: SyncedMessage[], after: (stats: ImportStats) => void): ImportStats {
  const now = deps.clock.now();
  return inTransaction(
    deps,
    "mail",
    user,
    (writer, stats) => {
      for (const m of messages) recordMessage(writer, stats, m.block, now, () => m.where);
    },
    after,
  );
}

/** One calendar object (a CalDAV resource, a subscription's file), read and expanded up to now. */
export type SyncedCalendarObject = {
  where: string;
  expansion: Expansion | null;
  /** Events that could not be read, or why the whole object could not. */
  errors: CalendarItemError[];
};

/** The zone the user's floating calendar times are read in (their setting; null: UTC). */
export function userTimeZone(deps: Deps, userId: string): string | null {
  return orgsService(deps).getUser(userId)?.timeZone ?? null;
}

/** Reads an iCalendar text as file imports do: per event, each series at every past occurrence. */
export function readCalendarObject(text: string, where: string, timeZone: string | null, now: Date): SyncedCalendarObject {
  try {
    const parsed = parseCalendar(text, { timeZone });
    const expansion = expandOccurrences(parsed.events, now.getTime());
    return { where, expansion, errors: [...parsed.errors, ...expansion.errors].sort((a, b) => a.line - b.line) };
  } catch (error) {
    if (!(error instanceof CalendarFileError)) throw error;
    return { where, expansion: null, errors: [{ line: error.line ?? 1, reason: error.reason }] };
  }
}

/** Records a batch of calendar objects for the user; `after` runs in the same transaction. */
export function recordSyncedCalendar(deps: Deps, user: SyncedUser, objects: SyncedCalendarObject[], after: (stats: ImportStats) => void): ImportStats {
  const now = deps.clock.now();
  return inTransaction(
    deps,
    "calendar",
    user,
    (writer, stats) => {
      stats.occurrences = 0;
      for (const o of objects) {
        stats.files++;
        for (const e of o.errors) itemFailed(stats, o.where, e.line, e.reason);
        if (o.expansion) recordOccurrences(writer, stats, o.expansion, now, o.where);
      }
      stats.read = stats.occurrences;
    },
    after,
  );
}
