// `dealgraph import updates --user USER_ID FILE...`: founders' updates forwarded by hand (.eml
// files, or .mbox files of several), read into the portfolio book of the user's organization as
// synced mail is (CONTRACT.md, "Investor updates"). Each update is its own transaction, so an
// import stopped anywhere keeps what it wrote and a rerun adds only the rest (Message-IDs).
// Progress on stderr; a file that cannot be read is named with its reason and the others go on.
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import { orgsService } from "../modules/identity/orgs.service.ts";
import { updatesService, type IngestResult } from "../modules/updates/updates.service.ts";
import { openDeps } from "./context.ts";
import { parse, required, UsageError, type Io } from "./io.ts";

export const USAGE = "usage: dealgraph import updates --user USER_ID FILE.eml|FILE.mbox ...";

/** A file past this is refused (an mbox is read whole); a message past MAX_MESSAGE_BYTES is named and passed over. */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;
const MAX_MESSAGE_BYTES = 50 * 1024 * 1024;

/** The messages of an mbox file (RFC 4155 separators with a time of day; mboxrd escapes undone). */
export function mboxMessages(raw: Buffer): Buffer[] {
  const text = raw.toString("latin1");
  const starts: number[] = [];
  const re = /^From \S+ .*\b\d{1,2}:\d{2}.*$/gm;
  for (const m of text.matchAll(re)) starts.push(m.index!);
  if (starts.length === 0 || text.slice(0, starts[0]).trim() !== "") throw new Error("not an mbox file (it does not begin with a 'From ' separator line)");
  return starts.map((start, i) => {
    const bodyStart = text.indexOf("\n", start) + 1;
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    return Buffer.from(text.slice(bodyStart, end).replace(/^>(>*From )/gm, "$1"), "latin1");
  });
}

export async function importUpdatesCommand(args: string[], io: Io): Promise<void> {
  const { values, positionals } = parse(args, { user: { type: "string" } });
  const userId = required("user", values.user);
  if (positionals.length === 0) throw new UsageError(USAGE);
  for (const path of positionals) {
    if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no such file: ${path}`);
    if (![".eml", ".mbox", ".mbx", ""].includes(extname(path).toLowerCase())) throw new UsageError(`${path}: not an .eml or .mbox file`);
  }
  const deps = openDeps(io, values);
  const user = orgsService(deps).mustGetUser(userId);
  if (!user.orgId) throw new UsageError(`user ${userId} belongs to no organization`);
  const updates = updatesService(deps);
  const totals = { messages: 0, updates: 0, duplicates: 0, not_updates: 0, applied: 0, needs_review: 0, failed: 0 };
  const failures: string[] = [];
  const started = performance.now();
  for (const [fileIndex, path] of positionals.entries()) {
    let messages: Buffer[];
    try {
      if (statSync(path).size > MAX_FILE_BYTES) throw new Error("larger than 1 GB: split it (one .mbox per year, say)");
      const raw = readFileSync(path);
      const ext = extname(path).toLowerCase();
      const isMbox = ext === ".mbox" || ext === ".mbx" || (ext === "" && raw.subarray(0, 5).equals(Buffer.from("From ")));
      messages = isMbox ? mboxMessages(raw) : [raw];
    } catch (error) {
      totals.failed++;
      failures.push(`${path}: ${(error as Error).message}`);
      io.err(`[import] ${path}: ${(error as Error).message}`);
      continue;
    }
    for (const [i, raw] of messages.entries()) {
      const where = messages.length > 1 ? `${path} message ${i + 1}` : path;
      totals.messages++;
      let result: IngestResult;
      try {
        if (raw.byteLength > MAX_MESSAGE_BYTES) throw new Error("the message is larger than 50 MB, so it was not read");
        result = await updates.ingest(user.orgId, raw, { userId, origin: "import" });
      } catch (error) {
        totals.failed++;
        failures.push(`${where}: ${(error as Error).message}`);
        io.err(`[import] ${where}: ${(error as Error).message}`);
        continue;
      }
      if (result.outcome === "applied") {
        totals.updates++;
        totals.applied += result.counts.applied;
        totals.needs_review += result.counts.needs_review;
        for (const p of result.problems) io.err(`[import] ${where}: ${p}`);
      } else if (result.outcome === "duplicate") totals.duplicates++;
      else totals.not_updates++;
      if (totals.messages % 25 === 0) io.err(`[import] ${totals.messages} messages read (${fileIndex + 1}/${positionals.length} files): ${totals.updates} updates, ${totals.applied} figures applied, ${totals.needs_review} to review`);
    }
  }
  const ms = Math.round(performance.now() - started);
  const line = `${totals.messages} message${totals.messages === 1 ? "" : "s"}: ${totals.updates} new updates (${totals.applied} figures applied, ${totals.needs_review} to review), ${totals.duplicates} already imported, ${totals.not_updates} not from a holding${totals.failed ? `, ${totals.failed} failed` : ""} (${ms} ms)`;
  io.out(values.json ? JSON.stringify({ ...totals, failures, ms }) : line);
  if (totals.failed) throw new Error(`${totals.failed} file${totals.failed === 1 ? "" : "s"} or message${totals.failed === 1 ? "" : "s"} could not be imported: ${failures[0]}${failures.length > 1 ? " (and more, above)" : ""}`);
}
