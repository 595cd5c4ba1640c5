// `dealgraph import mail|calendar|contacts`: a user's mailbox, calendar or address book into the
// network graph. Progress on stderr for long files; `--json` prints the stats object on stdout.
// A file that cannot be imported at all fails with `error: FILE:LINE: reason` and writes nothing;
// a bad event, card or CSV row (or a bad file of a folder of .eml files) is reported the same way
// on stderr while the others are imported, and the exit code is 1.
// The mail is also the user's connected inbox: a document host's verification mail for a gated
// submission of the user's organization that waits for it completes that verification
// (`verified_document_links`), through the deals module's own completion; and a founder's update
// in it (from a holding's domain or a listed sender, or a member's forward of one) is read into the
// portfolio book by the updates module, as a sync reads it (`investor_updates`: keyed by
// Message-ID, so an update imported again, or also synced, applies once).
import type { Deps } from "../deps.ts";
import type { MailInbox } from "../modules/deals/deals.verification.inbox.ts";
import type { HeaderBlock } from "../modules/network/import/headers.ts";
import type { UpdatesReport } from "../modules/updates/updates.inbox.ts";
import { CALENDAR_CAPS } from "../modules/network/import/calendar-read.ts";
import { importCalendarFile, importContacts, importMail, type ImportOptions, type ImportStats } from "../modules/network/import/network.import.ts";
import { isTimeZoneName, orgsService } from "../modules/identity/orgs.service.ts";
import { openDeps } from "./context.ts";
import { parse, required, UsageError, type Io } from "./io.ts";

export type NetworkImportKind = "mail" | "calendar" | "contacts";

const USAGE: Record<NetworkImportKind, string> = {
  mail: "usage: dealgraph import mail --user USER_ID [--alias EMAIL ...] PATH   (an mbox file, or a folder of .eml files)",
  calendar:
    "usage: dealgraph import calendar --user USER_ID [--alias EMAIL ...] [--time-zone ZONE] [--max-occurrences N] FILE.ics   (ZONE: IANA, for floating times; default the user's time zone, else UTC; N: past occurrences counted per series and per file, default 1,000 and 5,000)",
  contacts: "usage: dealgraph import contacts --user USER_ID [--alias EMAIL ...] FILE.vcf|FILE.csv",
};

const UNIT: Record<NetworkImportKind, string> = { mail: "messages", calendar: "events", contacts: "contacts" };

const n = (x: number) => x.toLocaleString("en-US");

function progressLine(kind: NetworkImportKind, s: ImportStats): string {
  const rate = s.ms > 0 ? Math.round((s.read * 1000) / s.ms) : s.read;
  return `imported ${n(s.imported)} ${UNIT[kind]} (${n(rate)}/s), ${n(s.duplicates)} duplicates, ${n(s.skipped)} skipped`;
}

/** Skips that point at a problem in the input (not at mail that is simply no relationship): say where the first one is. */
const UNUSABLE = new Set(["no_date", "no_sender"]);

/** A mail import's stats, with the gated document analyses its verification mails let proceed and the founders' updates read. */
export type MailImportStats = ImportStats & { verified_document_links: number; investor_updates: Omit<UpdatesReport, "errors" | "problems"> };

function summary(kind: NetworkImportKind, path: string, s: ImportStats | MailImportStats): string {
  const notPersons = Object.entries(s.not_persons)
    .sort((a, b) => b[1]! - a[1]!)
    .map(([reason, count]) => `${n(count!)} ${reason}`)
    .join(", ");
  const reasons = Object.entries(s.skipped_by_reason)
    .sort((a, b) => b[1]! - a[1]!)
    .map(([reason, count]) => {
      const at = UNUSABLE.has(reason) ? s.first_skipped_at[reason as keyof ImportStats["first_skipped_at"]] : undefined;
      return `${n(count!)} ${reason}${at ? ` (first at ${at})` : ""}`;
    })
    .join(", ");
  const failed =
    (s.failed_files ? `; ${n(s.failed_files)} of ${n(s.files)} files failed and wrote nothing` : "") +
    (s.failed_items ? `; ${n(s.failed_items)} ${kind === "calendar" ? "events" : kind === "contacts" ? "contacts" : "items"} could not be read (listed below)` : "");
  const occurrences = s.occurrences !== undefined && s.occurrences !== s.read ? ` (${n(s.occurrences)} occurrences)` : "";
  const refused = s.refused ? `; ${n(s.refused)} past occurrences refused by the limits (listed below)` : "";
  const floating = s.time_zones?.floating ? `; ${n(s.time_zones.floating)} floating times read in ${s.floating_time_zone}` : "";
  const verified = "verified_document_links" in s && s.verified_document_links > 0 ? `; ${n(s.verified_document_links)} gated document link${s.verified_document_links === 1 ? "" : "s"} verified (analysis proceeds)` : "";
  const u = "investor_updates" in s ? s.investor_updates : null;
  const updates = u && u.read > 0 ? `; investor updates: ${n(u.updates)} new (${n(u.applied)} figures applied, ${n(u.needs_review)} to review), ${n(u.duplicates)} already read, ${n(u.not_updates)} of ${n(u.read)} holdings' messages no update` : "";
  return (
    `${path}: ${n(s.read)} ${UNIT[kind]} read${occurrences}, ${n(s.imported)} imported, ${n(s.duplicates)} duplicates, ${n(s.skipped)} skipped` +
    `${reasons ? ` (${reasons})` : ""}${notPersons ? `; not persons: ${notPersons}` : ""}; ${n(s.persons_created)} persons and ${n(s.relationships_created)} relationships created in ${(s.ms / 1000).toFixed(1)} s${floating}${verified}${updates}${refused}${failed}`
  );
}

/**
 * The inbox side of a mail import: the deals module's mailInbox with the updates module's added
 * (withInvestorUpdates, the sync's own); none for a user of no organization.
 */
async function mailInbox(deps: Deps, userId: string, io: Io): Promise<MailInbox & { wantsWhole?: (block: HeaderBlock) => boolean; report: UpdatesReport | null }> {
  // An unknown user, or one of no organization: the importer itself says so.
  const orgId = orgsService(deps).getUser(userId)?.orgId;
  if (!orgId) return { complete: async () => 0, report: null };
  // Loaded only for a mail import: the rest of the command line never needs these modules.
  const { inboxVerification } = await import("../modules/deals/deals.verification.inbox.ts");
  const { withInvestorUpdates } = await import("../modules/updates/updates.inbox.ts");
  // Reading thousands of a holding's messages after the import takes a while: say how far it got.
  const progress = (r: UpdatesReport, total: number) => io.err(`investor updates: read ${n(r.read)} of ${n(total)} holdings' messages, ${n(r.updates)} new updates`);
  return withInvestorUpdates(deps, { orgId, userId }, inboxVerification(deps).mailInbox(orgId), "import", progress);
}

export async function importNetworkCommand(kind: NetworkImportKind, args: string[], io: Io): Promise<ImportStats> {
  const { values, positionals } = parse(args, {
    user: { type: "string" },
    alias: { type: "string", multiple: true },
    ...(kind === "calendar" ? { "time-zone": { type: "string" as const }, "max-occurrences": { type: "string" as const } } : {}),
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `a path is required; ${USAGE[kind]}` : `one path only; ${USAGE[kind]}`);
  const userId = required("user", values.user);
  const timeZone = (values as { "time-zone"?: string })["time-zone"];
  const maxRaw = (values as { "max-occurrences"?: string })["max-occurrences"];
  const max = maxRaw === undefined ? undefined : Number(maxRaw);
  if (max !== undefined && !(Number.isInteger(max) && max >= 1 && max <= 10_000_000)) throw new UsageError(`--max-occurrences must be a whole number from 1 to 10,000,000, got ${JSON.stringify(maxRaw)}`);
  if (timeZone !== undefined && !isTimeZoneName(timeZone)) throw new UsageError(`--time-zone ${JSON.stringify(timeZone)} is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)`);
  const deps = openDeps(io, values);
  try {
    return await importWith(deps, kind, userId, positionals[0], { ...values, timeZone, maxOccurrences: max }, io);
  } finally {
    deps.db.$client.close();
  }
}

async function importWith(
  deps: Deps,
  kind: NetworkImportKind,
  userId: string,
  path: string,
  values: { alias?: string[]; json?: boolean; timeZone?: string; maxOccurrences?: number },
  io: Io,
): Promise<ImportStats> {
  const opts: ImportOptions = { userId, aliases: values.alias ?? [], path, timeZone: values.timeZone, onProgress: (s) => io.err(progressLine(kind, s)) };
  let stats: ImportStats | MailImportStats;
  let updates: UpdatesReport | null = null;
  if (kind === "mail") {
    const inbox = await mailInbox(deps, userId, io);
    const imported = importMail(deps, { ...opts, inbox: inbox.hook, wantsWhole: inbox.wantsWhole });
    const verified = await inbox.complete();
    updates = inbox.report;
    const counts = updates ? { ...updates, errors: undefined, problems: undefined } : { read: 0, updates: 0, applied: 0, needs_review: 0, duplicates: 0, not_updates: 0, failed: 0 };
    stats = { ...imported, verified_document_links: verified, investor_updates: counts };
  } else if (kind === "calendar") {
    // Read in the calendar child, capped (an .ics of a kilobyte can expand to 100,000 meetings).
    const max = values.maxOccurrences;
    stats = await importCalendarFile(deps, { ...opts, caps: max === undefined ? CALENDAR_CAPS : { perSeries: max, perObject: max } });
  } else {
    stats = importContacts(deps, opts);
  }
  io.out(values.json ? JSON.stringify(stats) : summary(kind, path, stats));
  // The files of a folder, or the events, cards and rows, that failed: one line each, and a
  // non-zero exit (the others were imported).
  for (const line of stats.errors) io.err(`error: ${line}`);
  // A founder's update that could not be read, or a part of one (an attachment), at its FILE:LINE.
  for (const line of updates?.problems ?? []) io.err(`warning: ${line}`);
  for (const line of updates?.errors ?? []) io.err(`error: ${line}`);
  const unlisted = stats.failed_files + stats.failed_items - stats.errors.length;
  const more = unlisted > 0 ? ` (${n(unlisted)} not listed)` : "";
  if (stats.failed_files > 0) throw new Error(`${n(stats.failed_files)} of ${n(stats.files)} files could not be imported${more}; the others were`);
  if (stats.refused) {
    for (const line of stats.refusals ?? []) io.err(`refused: ${line}`);
    const caps = values.maxOccurrences === undefined ? `at most ${n(CALENDAR_CAPS.perSeries)} per series and ${n(CALENDAR_CAPS.perObject)} per file` : `at most ${n(values.maxOccurrences)} per series and per file`;
    if (stats.failed_items === 0) {
      throw new Error(`${n(stats.refused)} past occurrences were refused by the limits (${caps}; the latest count); the others were imported. A big calendar you trust: --max-occurrences N raises both`);
    }
  }
  if (stats.failed_items > 0) throw new Error(`${n(stats.failed_items)} ${kind === "calendar" ? "events" : kind === "contacts" ? "contacts" : "items"} could not be imported${more}; the others were`);
  if (updates?.failed) throw new Error(`${n(updates.failed)} investor update${updates.failed === 1 ? "" : "s"} could not be read (listed above); the mail and the other updates were imported`);
  return stats;
}
