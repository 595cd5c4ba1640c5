// `dealgraph import mail|calendar|contacts`: a user's mailbox, calendar or address book into the
// network graph. Progress on stderr for long files; `--json` prints the stats object on stdout.
// A file that cannot be imported fails with `error: FILE:LINE: reason` and writes nothing.
import { importCalendar, importContacts, importMail, type ImportOptions, type ImportStats } from "../modules/network/import/network.import.ts";
import { openDeps } from "./context.ts";
import { parse, required, UsageError, type Io } from "./io.ts";

export type NetworkImportKind = "mail" | "calendar" | "contacts";

const USAGE: Record<NetworkImportKind, string> = {
  mail: "usage: dealgraph import mail --user USER_ID [--alias EMAIL ...] PATH   (an mbox file, or a folder of .eml files)",
  calendar: "usage: dealgraph import calendar --user USER_ID [--alias EMAIL ...] FILE.ics",
  contacts: "usage: dealgraph import contacts --user USER_ID [--alias EMAIL ...] FILE.vcf|FILE.csv",
};

const UNIT: Record<NetworkImportKind, string> = { mail: "messages", calendar: "events", contacts: "contacts" };

const n = (x: number) => x.toLocaleString("en-US");

function progressLine(kind: NetworkImportKind, s: ImportStats): string {
  const rate = s.ms > 0 ? Math.round((s.read * 1000) / s.ms) : s.read;
  return `imported ${n(s.imported)} ${UNIT[kind]} (${n(rate)}/s), ${n(s.duplicates)} duplicates, ${n(s.skipped)} skipped`;
}

function summary(kind: NetworkImportKind, path: string, s: ImportStats): string {
  const reasons = Object.entries(s.skipped_by_reason)
    .sort((a, b) => b[1]! - a[1]!)
    .map(([reason, count]) => `${n(count!)} ${reason}`)
    .join(", ");
  return (
    `${path}: ${n(s.read)} ${UNIT[kind]} read, ${n(s.imported)} imported, ${n(s.duplicates)} duplicates, ${n(s.skipped)} skipped` +
    `${reasons ? ` (${reasons})` : ""}; ${n(s.persons_created)} persons and ${n(s.relationships_created)} relationships created in ${(s.ms / 1000).toFixed(1)} s`
  );
}

export async function importNetworkCommand(kind: NetworkImportKind, args: string[], io: Io): Promise<ImportStats> {
  const { values, positionals } = parse(args, { user: { type: "string" }, alias: { type: "string", multiple: true } });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `a path is required; ${USAGE[kind]}` : `one path only; ${USAGE[kind]}`);
  const userId = required("user", values.user);
  const deps = openDeps(io, values);
  const opts: ImportOptions = {
    userId,
    aliases: values.alias ?? [],
    path: positionals[0],
    onProgress: (s) => io.err(progressLine(kind, s)),
  };
  const run = kind === "mail" ? importMail : kind === "calendar" ? importCalendar : importContacts;
  const stats = run(deps, opts);
  io.out(values.json ? JSON.stringify(stats) : summary(kind, positionals[0], stats));
  return stats;
}
