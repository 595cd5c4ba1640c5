// Imports a user's mail, calendar and contacts into the network graph (issue 3, CONTRACT.md
// "Import formats"). Each import is read and written in one SQLite transaction with one graph
// writer: a file that fails (ImportError, naming the file and line) writes nothing (in a folder
// of .eml files, the other files are still imported and the failed ones reported), and a
// relationship's aggregates are written once per file. Re-importing changes nothing: messages
// and events are keyed by Message-ID / UID, contacts fill the same person. A mail import may
// also hand some messages whole to an inbox hook (another module acting on mail it recognises,
// e.g. a document host's verification mail, a founder's update); the importer knows nothing of what it does.
import { readFileSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { Deps } from "../../../deps.ts";
import { CalendarFileError, parseCalendar } from "../../../lib/icalendar.ts";
import { expandOccurrences, type Expansion } from "../../../lib/icalendar-recurrence.ts";
import { isTimeZoneName, orgsService } from "../../identity/orgs.service.ts";
import { graphWriter, type GraphWriter } from "../network.graph.ts";
import { CalendarReadError, expansionOf, IMPORT_CHILD_LIMITS, IMPORT_MAX_BYTES, readCalendars, type CalendarCaps } from "./calendar-read.ts";
import { calendarSignal } from "./calendar-signal.ts";
import { emlFiles, readEmlHeaders } from "./eml.ts";
import { emptyStats, fileFailed, ImportError, itemFailed, notPerson, skip, type ImportKind, type ImportStats } from "./errors.ts";
import { header, mailboxes, type HeaderBlock } from "./headers.ts";
import { mailSignal } from "./mail-signal.ts";
import { MAX_WHOLE_MESSAGE_BYTES, readMbox } from "./mbox.ts";
import { readContacts, writeContacts } from "./contacts.ts";

export { ImportError, type ImportStats } from "./errors.ts";

export type ImportOptions = {
  userId: string;
  /** The user's other addresses (their own email is always theirs). */
  aliases?: string[];
  path: string;
  /** Called every `progressEvery` items read, and once at the end. */
  onProgress?: (stats: ImportStats, done: boolean) => void;
  progressEvery?: number;
  /** Mail only: messages handed whole to another module (the relationship rules apply to them as to any other). */
  inbox?: InboxHook;
  /**
   * Mail only: which messages the inbox hook gets whole, when the hook's owner decides it from
   * more than the sender's domain (the updates module: a member's forward too); by default `inboxWants`.
   */
  wantsWhole?: (block: HeaderBlock) => boolean;
  /** Calendar only: the IANA zone floating times and all-day dates are read in; else the user's own setting, else UTC. */
  timeZone?: string;
};

/**
 * Asks for the whole of the messages from some senders. The sender's domain is checked first
 * (on the From header's text, then its parsed address), so the rest of the mailbox costs next to
 * nothing; only messages `wants` takes are read whole.
 */
export type InboxHook = {
  /** Lower-case domains (their subdomains included) whose senders' mail may be wanted. */
  senderDomains: readonly string[];
  /** From the addresses (lower case) of a message from one of those domains: is it wanted whole? */
  wants(sender: string, recipients: string[]): boolean;
  /**
   * A wanted message as stored (RFC 5322 bytes; an mbox message's escapes undone; none longer than
   * 2 MB), in file order. Called inside the import's transaction, which cannot wait: keep it and
   * act on it once the import has returned. `where` names it as the import's reports do ("FILE:LINE").
   */
  message(raw: Buffer, where?: string): void;
};

const inDomain = (email: string, domain: string) => email.endsWith(`@${domain}`) || email.endsWith(`.${domain}`);

/** Whether the hook wants this message whole: the From header's text first, the parsed addresses only for its senders. */
export function inboxWants(hook: InboxHook, block: HeaderBlock): boolean {
  const from = header(block, "from")?.value.toLowerCase();
  if (!from || !hook.senderDomains.some((d) => from.includes(d))) return false;
  const sender = mailboxes(block, "from")[0]?.email;
  if (!sender || !hook.senderDomains.some((d) => inDomain(sender, d))) return false;
  return hook.wants(sender, mailboxes(block, "to", "cc", "bcc", "delivered-to", "x-original-to").map((m) => m.email));
}

/** An .eml file whole (a leading mbox separator line, which some tools write, dropped); null when too long. */
function wholeEml(path: string): Buffer | null {
  if (statSync(path).size > MAX_WHOLE_MESSAGE_BYTES) return null;
  const raw = readFileSync(path);
  return raw.subarray(0, 5).toString("latin1") === "From " ? raw.subarray(raw.indexOf(10) + 1) : raw;
}

function statOrFail(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ImportError(path, null, code === "ENOENT" ? "no such file or folder" : `cannot be read (${code ?? (error as Error).message})`);
  }
}

/**
 * One message's headers through the relationship rules (mail-signal.ts) into the graph: file
 * imports and synced mailboxes alike. `where(line)` names the message in a skip report.
 */
export function recordMessage(writer: GraphWriter, stats: ImportStats, block: HeaderBlock, now: Date, where: (line: number) => string): void {
  stats.read++;
  const signal = mailSignal(block, writer.isOwn, now);
  if (signal.notPersons) for (const reason of signal.notPersons) notPerson(stats, reason);
  if ("skip" in signal) skip(stats, signal.skip, where(signal.line ?? block.line));
  else if (writer.interaction(signal.interaction)) stats.imported++;
}

/**
 * A calendar's occurrences (icalendar-recurrence.ts) through the meeting rules (calendar-signal.ts)
 * into the graph: file imports and synced calendars alike. `file` names the source in reports.
 */
export function recordOccurrences(writer: GraphWriter, stats: ImportStats, expansion: Expansion, now: Date, file: string, tick: () => void = () => {}): void {
  stats.occurrences ??= 0;
  for (const e of expansion.superseded) skip(stats, "superseded", `${file}:${e.line}`);
  for (const e of expansion.futureSeries) skip(stats, "future", `${file}:${e.line}`);
  for (const occurrence of expansion.occurrences) {
    stats.occurrences++;
    const signal = calendarSignal(occurrence, writer.isOwn, now);
    for (const reason of signal.notPersons) notPerson(stats, reason);
    if ("skip" in signal) skip(stats, signal.skip, `${file}:${occurrence.line}`);
    else if (writer.interaction(signal.interaction)) stats.imported++;
    tick();
  }
}

/**
 * Runs `body` with a fresh graph writer in one transaction (taken for writing at once), then
 * flushes; `after` (a sync's own bookkeeping: how far it got) is written in the same transaction.
 */
export function inTransaction(
  deps: Deps,
  kind: ImportKind,
  opts: Pick<ImportOptions, "userId" | "aliases" | "onProgress">,
  body: (writer: GraphWriter, stats: ImportStats) => void,
  after?: (stats: ImportStats) => void,
): ImportStats {
  const started = performance.now();
  const stats = emptyStats(kind, opts.userId);
  deps.db.transaction(
    () => {
      const writer = graphWriter(deps, opts.userId, opts.aliases ?? []);
      body(writer, stats);
      writer.flush();
      stats.duplicates = writer.stats.duplicates;
      stats.persons_created = writer.stats.personsCreated;
      stats.relationships_created = writer.stats.relationshipsCreated;
      after?.(stats);
    },
    { behavior: "immediate" },
  );
  stats.ms = Math.round(performance.now() - started);
  opts.onProgress?.(stats, true);
  return stats;
}

function ticker(opts: ImportOptions, stats: ImportStats, count = () => stats.read) {
  const every = opts.progressEvery ?? 10_000;
  const started = performance.now();
  return () => {
    if (opts.onProgress && count() % every === 0) {
      stats.ms = Math.round(performance.now() - started);
      opts.onProgress(stats, false);
    }
  };
}

/**
 * An mbox file, a single .eml file, or a folder of .eml files. An mbox (or a single .eml) that is
 * not mail fails as a whole; in a folder each .eml file is its own unit: one that cannot be read
 * as mail is reported (`failed_files`, `errors`) with nothing of it written, the others are imported.
 */
export function importMail(deps: Deps, opts: ImportOptions): ImportStats {
  const info = statOrFail(opts.path);
  const now = deps.clock.now();
  const files = info.isDirectory() ? emlFiles(opts.path) : null;
  if (files?.length === 0) throw new ImportError(opts.path, null, "the folder holds no .eml files");
  return inTransaction(deps, "mail", opts, (writer, stats) => {
    const tick = ticker(opts, stats);
    const { inbox } = opts;
    const wants = opts.wantsWhole ?? ((block: HeaderBlock) => inboxWants(inbox!, block));
    /** Records the message's relationship signal; true when the inbox hook wants it whole. */
    const take = (file: string) => (block: HeaderBlock) => {
      recordMessage(writer, stats, block, now, (line) => `${file}:${line}`);
      tick();
      return inbox !== undefined && wants(block);
    };
    const takeEml = (file: string, block: HeaderBlock) => {
      if (!take(file)(block)) return;
      const raw = wholeEml(file);
      if (raw) inbox!.message(raw, `${file}:${block.line}`);
    };
    if (files) {
      for (const file of files) {
        stats.files++;
        let block: HeaderBlock;
        try {
          // Read before anything of it is written: a file that is not mail writes nothing.
          block = readEmlHeaders(file);
        } catch (error) {
          if (!(error instanceof ImportError)) throw error;
          fileFailed(stats, error);
          continue;
        }
        takeEml(file, block);
      }
    } else if (extname(opts.path).toLowerCase() === ".eml") {
      stats.files = 1;
      takeEml(opts.path, readEmlHeaders(opts.path));
    } else {
      stats.files = 1;
      readMbox(opts.path, take(opts.path), opts.path, inbox && ((raw, block) => inbox.message(raw, `${opts.path}:${block.line}`)));
    }
  });
}

/** The zone a user's floating calendar times are read in: the one given, else the user's setting. */
function floatingZone(deps: Deps, opts: ImportOptions): string | null {
  if (opts.timeZone !== undefined) {
    if (!isTimeZoneName(opts.timeZone)) throw new ImportError(opts.path, null, `--time-zone ${JSON.stringify(opts.timeZone.slice(0, 60))} is not an IANA time zone name (e.g. Europe/Paris)`);
    return opts.timeZone;
  }
  return orgsService(deps).getUser(opts.userId)?.timeZone ?? null;
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ImportError(path, null, `cannot be read (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
}

/**
 * An iCalendar file: each event once, each series at every past occurrence (with its exceptions).
 * An event that cannot be read is reported at its line (`failed_items`, `errors`) and the others
 * are imported; only a file that is no calendar at all fails as a whole.
 */
export function importCalendar(deps: Deps, opts: ImportOptions): ImportStats {
  const info = statOrFail(opts.path);
  if (info.isDirectory()) throw new ImportError(opts.path, null, "is a folder; give an .ics file");
  const now = deps.clock.now();
  const timeZone = floatingZone(deps, opts);
  let parsed;
  try {
    parsed = parseCalendar(readText(opts.path), { timeZone });
  } catch (error) {
    if (!(error instanceof CalendarFileError)) throw error;
    throw new ImportError(opts.path, error.line, error.reason);
  }
  const expansion = expandOccurrences(parsed.events, now.getTime());
  const file = opts.path;
  return inTransaction(deps, "calendar", opts, (writer, stats) => {
    stats.files = 1;
    stats.read = parsed.events.length + parsed.errors.length;
    stats.occurrences = 0;
    stats.time_zones = parsed.times;
    stats.floating_time_zone = parsed.floatingZone;
    for (const e of [...parsed.errors, ...expansion.errors].sort((a, b) => a.line - b.line)) itemFailed(stats, file, e.line, e.reason);
    recordOccurrences(writer, stats, expansion, now, file, ticker(opts, stats, () => stats.occurrences!));
  });
}

/**
 * `import calendar` from the command line: like importCalendar, but the file is read and expanded
 * in the calendar child (calendar-read.ts: its time and memory limits, at most IMPORT_MAX_BYTES)
 * and capped there (by default the latest 1,000 past occurrences per series and 5,000 per file
 * count); the refused ones are counted in `refused`, with why in `refusals`.
 */
export async function importCalendarFile(deps: Deps, opts: ImportOptions & { caps?: CalendarCaps }): Promise<ImportStats> {
  const info = statOrFail(opts.path);
  if (info.isDirectory()) throw new ImportError(opts.path, null, "is a folder; give an .ics file");
  const now = deps.clock.now();
  const timeZone = floatingZone(deps, opts);
  let read;
  try {
    // The child works in the temp dir: the path must not be relative.
    read = (await readCalendars({ kind: "file", path: resolve(opts.path), maxBytes: IMPORT_MAX_BYTES }, { timeZone, now, caps: opts.caps, limits: IMPORT_CHILD_LIMITS })).objects[0];
  } catch (error) {
    if (error instanceof CalendarReadError) throw new ImportError(opts.path, null, error.message.replace(`${resolve(opts.path)}: `, ""));
    throw error;
  }
  if (!read.expansion) throw new ImportError(opts.path, read.errors[0]?.line ?? null, read.errors[0]?.reason ?? "is not an iCalendar file");
  const expansion = expansionOf(read.expansion);
  const file = opts.path;
  return inTransaction(deps, "calendar", opts, (writer, stats) => {
    stats.files = 1;
    stats.read = read.events;
    stats.occurrences = 0;
    stats.time_zones = read.times;
    stats.floating_time_zone = read.floatingZone;
    stats.refused = read.refused;
    stats.refusals = read.refusals.map((line) => line.replace(resolve(opts.path), file));
    for (const e of read.errors) itemFailed(stats, file, e.line, e.reason);
    recordOccurrences(writer, stats, expansion, now, file, ticker(opts, stats, () => stats.occurrences!));
  });
}

/** `vcard` by extension (.vcf, .vcard) or `csv` (.csv); otherwise by the first line. */
export function contactsFormat(path: string, firstLine: string): "vcard" | "csv" {
  const ext = extname(path).toLowerCase();
  if (ext === ".vcf" || ext === ".vcard") return "vcard";
  if (ext === ".csv") return "csv";
  return /^\uFEFF?\s*BEGIN:VCARD\s*$/i.test(firstLine) ? "vcard" : "csv";
}

/**
 * A vCard or contacts CSV file (the contract's columns, or a LinkedIn, Google or Outlook export):
 * persons and the user's (touch-less) relationships with them. A card or row that cannot be read
 * is reported at its line and the others are imported.
 */
export function importContacts(deps: Deps, opts: ImportOptions): ImportStats {
  const info = statOrFail(opts.path);
  if (info.isDirectory()) throw new ImportError(opts.path, null, "is a folder; give a .vcf or .csv file");
  const bytes = readFileSync(opts.path);
  const read = readContacts(bytes, opts.path, contactsFormat(opts.path, bytes.subarray(0, 200).toString("latin1").split(/\r?\n/, 1)[0]));
  return inTransaction(deps, "contacts", opts, (writer, stats) => {
    stats.files = 1;
    for (const e of read.errors) itemFailed(stats, opts.path, e.line, e.reason);
    writeContacts(deps, writer, read.cards, stats, opts.path, ticker(opts, stats));
  });
}
