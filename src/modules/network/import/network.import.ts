// Imports a user's mail, calendar and contacts into the network graph (issue 3, CONTRACT.md
// "Import formats"). Each import is read and written in one SQLite transaction with one graph
// writer: a file that fails (ImportError, naming the file and line) writes nothing (in a folder
// of .eml files, the other files are still imported and the failed ones reported), and a
// relationship's aggregates are written once per file. Re-importing changes nothing: messages
// and events are keyed by Message-ID / UID, contacts fill the same person.
import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import type { Deps } from "../../../deps.ts";
import { graphWriter, type GraphWriter } from "../network.graph.ts";
import { calendarSignal } from "./calendar-signal.ts";
import { parseContactsCsv } from "./contacts-csv.ts";
import { emlFiles, readEmlHeaders } from "./eml.ts";
import { emptyStats, fileFailed, ImportError, skip, type ImportKind, type ImportStats } from "./errors.ts";
import type { HeaderBlock } from "./headers.ts";
import { readIcs } from "./ics.ts";
import { mailSignal } from "./mail-signal.ts";
import { readMbox } from "./mbox.ts";
import { parseVcards, type ContactCard } from "./vcard.ts";

export { ImportError, type ImportStats } from "./errors.ts";

export type ImportOptions = {
  userId: string;
  /** The user's other addresses (their own email is always theirs). */
  aliases?: string[];
  path: string;
  /** Called every `progressEvery` items read, and once at the end. */
  onProgress?: (stats: ImportStats, done: boolean) => void;
  progressEvery?: number;
};

function statOrFail(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ImportError(path, null, code === "ENOENT" ? "no such file or folder" : `cannot be read (${code ?? (error as Error).message})`);
  }
}

/** Runs `body` with a fresh graph writer in one transaction (taken for writing at once), then flushes. */
function inTransaction(deps: Deps, kind: ImportKind, opts: ImportOptions, body: (writer: GraphWriter, stats: ImportStats) => void): ImportStats {
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
    },
    { behavior: "immediate" },
  );
  stats.ms = Math.round(performance.now() - started);
  opts.onProgress?.(stats, true);
  return stats;
}

function ticker(opts: ImportOptions, stats: ImportStats) {
  const every = opts.progressEvery ?? 10_000;
  const started = performance.now();
  return () => {
    if (opts.onProgress && stats.read % every === 0) {
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
    const isOwn = (email: string) => writer.isOwn(email);
    const take = (file: string) => (block: HeaderBlock) => {
      stats.read++;
      const signal = mailSignal(block, isOwn, now);
      if ("skip" in signal) skip(stats, signal.skip, `${file}:${signal.line ?? block.line}`);
      else if (writer.interaction(signal.interaction)) stats.imported++;
      tick();
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
        take(file)(block);
      }
    } else if (extname(opts.path).toLowerCase() === ".eml") {
      stats.files = 1;
      take(opts.path)(readEmlHeaders(opts.path));
    } else {
      stats.files = 1;
      readMbox(opts.path, take(opts.path));
    }
  });
}

/** An iCalendar file. */
export function importCalendar(deps: Deps, opts: ImportOptions): ImportStats {
  const info = statOrFail(opts.path);
  if (info.isDirectory()) throw new ImportError(opts.path, null, "is a folder; give an .ics file");
  const now = deps.clock.now();
  return inTransaction(deps, "calendar", opts, (writer, stats) => {
    stats.files = 1;
    const tick = ticker(opts, stats);
    const isOwn = (email: string) => writer.isOwn(email);
    for (const event of readIcs(opts.path)) {
      stats.read++;
      const signal = calendarSignal(event, isOwn, now);
      if ("skip" in signal) skip(stats, signal.skip, `${opts.path}:${event.line}`);
      else if (writer.interaction(signal.interaction)) stats.imported++;
      tick();
    }
  });
}

/** `vcard` by extension (.vcf, .vcard) or `csv` (.csv); otherwise by the first line. */
export function contactsFormat(path: string, firstLine: string): "vcard" | "csv" {
  const ext = extname(path).toLowerCase();
  if (ext === ".vcf" || ext === ".vcard") return "vcard";
  if (ext === ".csv") return "csv";
  return /^\uFEFF?\s*BEGIN:VCARD\s*$/i.test(firstLine) ? "vcard" : "csv";
}

/** A vCard or contacts CSV file: persons and the user's (touch-less) relationships with them. */
export function importContacts(deps: Deps, opts: ImportOptions): ImportStats {
  const info = statOrFail(opts.path);
  if (info.isDirectory()) throw new ImportError(opts.path, null, "is a folder; give a .vcf or .csv file");
  return inTransaction(deps, "contacts", opts, (writer, stats) => {
    stats.files = 1;
    const content = readFileSync(opts.path, "utf8");
    const firstLine = content.slice(0, 200).split(/\r?\n/, 1)[0];
    const cards = contactsFormat(opts.path, firstLine) === "vcard" ? parseVcards(content, opts.path) : parseContactsCsv(content, opts.path);
    const tick = ticker(opts, stats);
    const known = deps.db.$client.query<{ person_id: string }, [string, string]>("SELECT person_id FROM person_emails WHERE org_id = ? AND email = ?");
    const addEmail = deps.db.$client.query("INSERT OR IGNORE INTO person_emails (org_id, email, person_id) VALUES (?, ?, ?)");
    for (const card of cards) {
      stats.read++;
      writeCard(writer, card, stats, known, addEmail, `${opts.path}:${card.line}`);
      tick();
    }
  });
}

function writeCard(
  writer: GraphWriter,
  card: ContactCard,
  stats: ImportStats,
  known: { get(org: string, email: string): { person_id: string } | null },
  addEmail: { run(org: string, email: string, person: string): unknown },
  where: string,
) {
  const emails = card.emails.filter((e) => !writer.isOwn(e));
  if (card.emails.length === 0) return skip(stats, "no_email", where);
  if (emails.length === 0) return skip(stats, "own_address", where);
  // The card's facts go to the person already known by one of its addresses, if any; its other
  // addresses become that person's too (unless another person has them already).
  const primary = emails.find((e) => known.get(writer.orgId, e)) ?? emails[0];
  const id = writer.contact({ email: primary, name: card.name, title: card.title, company: card.company, linkedinUrl: card.linkedinUrl, location: card.location });
  if (!id) return skip(stats, "no_email", where);
  for (const e of emails) if (e !== primary) addEmail.run(writer.orgId, e, id);
  stats.imported++;
}
