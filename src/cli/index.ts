// The command line of CONTRACT.md. Each command group lives in its own file; this one dispatches
// and turns failures into one line on stderr and an exit code.
import { ConfigError } from "../config.ts";
import { READ_COMMAND } from "../documents/reader-child.ts";
import { ANALYZE_DEAL_COMMAND } from "../engines/off-loop.ts";
import { ApiError } from "../http/errors.ts";
import { CONNECTION_USAGE_LINES } from "./connections-usage.ts";
import { GRANT_USAGE } from "./grant-usage.ts";
import { USAGE_LINES as IMPORT_USAGE } from "./import.ts";
import { UsageError, type Io } from "./io.ts";

type Command = (args: string[], io: Io) => Promise<unknown>;

// Loaded on demand: the compiled binary evaluates a dynamically imported module only when it is
// imported, so `serve` never pays for the demo generators (pdf-lib) or the importers at start-up.
const commands: Record<string, { load: () => Promise<Command>; serves?: true }> = {
  serve: { load: async () => (await import("./serve.ts")).serveCommand, serves: true },
  demo: { load: async () => (await import("./demo.ts")).demoCommand, serves: true },
  admin: { load: async () => (await import("./admin.ts")).adminCommand },
  jobs: { load: async () => (await import("./jobs.ts")).jobsCommand },
  deals: { load: async () => (await import("./deals.ts")).dealsCommand },
  network: { load: async () => (await import("./network.ts")).networkCommand },
  portfolio: { load: async () => (await import("./portfolio.ts")).portfolioCommand },
  import: { load: async () => (await import("./import.ts")).importCommand },
  connect: { load: async () => (await import("./connections.ts")).connectCommand },
  connections: { load: async () => (await import("./connections.ts")).connectionsCommand },
  sync: { load: async () => (await import("./connections.ts")).syncCommand },
  backup: { load: async () => (await import("./backup.ts")).backupCommand },
  restore: { load: async () => (await import("./backup.ts")).restoreCommand },
  // Not for people: child processes of the server (src/lib/child-job.ts) reading one file, analysing one deal.
  [READ_COMMAND]: { load: async () => async () => (await import("../documents/reader-child.ts")).readDocumentChild() },
  "__read-calendar": { load: async () => async () => (await import("../modules/network/import/calendar-child.ts")).readCalendarChild() },
  [ANALYZE_DEAL_COMMAND]: { load: async () => async () => (await import("../engines/off-loop.ts")).analyzeDealChild() },
};

export const USAGE = `dealgraph: a venture firm's deal, portfolio and network workspace

usage:
  dealgraph serve [--host H] [--port P]           serve the API and run the jobs
  dealgraph demo [--port P]                       build a demo firm on an empty data dir, print keys, serve
  dealgraph admin org create --name N [--json]
  dealgraph admin user create (--org ORG_ID | --no-org) --email E --name N [--share-network] [--admin] [--json]
  dealgraph admin user share --user USER_ID on|off
  dealgraph admin user operator --user USER_ID on|off   (the server operator: backups in the web app, /readyz details)
  dealgraph admin user password --user USER_ID     (the new password on stdin, at least 10 characters)
  dealgraph admin user link --user USER_ID [--send]   (a one-time web app sign-in link, valid 15 minutes;
                                                    --send emails it to the user)
  dealgraph admin key create --user USER_ID --scope read|write [--name N] [--expires-at ISO]
                             [--daily-requests N] [--daily-actions N] [--json]
  dealgraph admin key revoke KEY_ID
  dealgraph admin key rotate KEY_ID [--overlap-hours H] [--json]
  dealgraph admin key list --user USER_ID [--json]
${GRANT_USAGE.map((line) => `  ${line}`).join("\n")}
  dealgraph deals stage DEAL_ID new|screening|diligence|ic|invested|passed [--json]
  dealgraph deals verify DEAL_ID (--link URL | --email-file FILE.eml) [--json]   (a gated link's email verification)
  dealgraph network cadence --user USER_ID --contact EMAIL --days N   (0 clears)
  dealgraph network snooze --user USER_ID --contact EMAIL --until DATE
  dealgraph jobs list [--json]
  dealgraph jobs run ID [--json]
${IMPORT_USAGE.map((line) => `  ${line}`).join("\n")}
  dealgraph portfolio update-senders add --company COMPANY_ID EMAIL   (also list, remove: a holding's update senders)
${CONNECTION_USAGE_LINES.map((line) => `  ${line}`).join("\n")}
  dealgraph backup [--out FILE] [--json]           a consistent snapshot, its files and the server key, taken online
  dealgraph backup verify FILE [--json]            checksums and the snapshot's integrity_check
  dealgraph restore FILE --data-dir DIR [--json]   into an empty or missing DIR only

every command takes --data-dir DIR (env DEALGRAPH_DATA_DIR, default ./data)`;

/** Runs one command. Returns the exit code, or "serving" when a server keeps the process alive. */
export async function runCli(argv: string[], io: Io): Promise<number | "serving"> {
  const [command, ...rest] = argv;
  try {
    const known = command === undefined ? undefined : Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (known) {
      await (await known.load())(rest, io);
      return known.serves ? "serving" : 0;
    }
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}; run 'dealgraph help'`);
    }
  } catch (error) {
    const oneLine = (line: string) => io.err(line.replace(/\s*\n\s*/g, " "));
    if (error instanceof UsageError || error instanceof ConfigError) {
      oneLine(`error: ${error.message}`);
      return 2;
    }
    if (error instanceof ApiError) {
      const detail = typeof error.detail === "string" ? error.detail : error.detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ");
      oneLine(`error: ${detail}`);
      return 1;
    }
    const e = error as { code?: string; message?: string };
    oneLine(`error: ${e.code ? `${e.code}: ` : ""}${e.message ?? String(error)}`);
    return 1;
  }
}
