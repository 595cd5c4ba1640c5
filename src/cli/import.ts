// `dealgraph import ...`: every importer of CONTRACT.md, dispatched by what is imported. Each
// family keeps its command code in its own file: the network (a user's mail, calendar and
// contacts) in import-network.ts, the firm's book (portfolio, metrics, funds) in import-book.ts.
import { UsageError, type Io } from "./io.ts";

/** The `import` lines of the top-level usage text. */
export const USAGE_LINES = [
  "dealgraph import mail --user USER_ID [--alias EMAIL ...] PATH   (an mbox file, or a folder of .eml files)",
  "dealgraph import calendar --user USER_ID [--alias EMAIL ...] [--max-occurrences N] FILE.ics",
  "dealgraph import contacts --user USER_ID FILE.vcf|FILE.csv",
  "dealgraph import portfolio --org ORG_ID FILE.csv",
  "dealgraph import metrics --org ORG_ID FILE.csv",
  "dealgraph import funds --org ORG_ID [--commitments FILE.csv] [--cashflows FILE.csv] [--marks FILE.csv]",
  "dealgraph import updates --user USER_ID FILE.eml|FILE.mbox ...   (founders' updates into the portfolio book)",
];

export async function importCommand(args: string[], io: Io): Promise<void> {
  const [what, ...rest] = args;
  switch (what) {
    case "mail":
    case "calendar":
    case "contacts":
      // Loaded here, not at the top: the top-level usage text reads this file's USAGE_LINES.
      await (await import("./import-network.ts")).importNetworkCommand(what, rest, io);
      return;
    case "portfolio":
      return (await import("./import-book.ts")).importPortfolioCommand(rest, io);
    case "metrics":
      return (await import("./import-book.ts")).importMetricsCommand(rest, io);
    case "funds":
      return (await import("./import-book.ts")).importFundsCommand(rest, io);
    case "updates":
      return (await import("./import-updates.ts")).importUpdatesCommand(rest, io);
    default:
      throw new UsageError(
        `${what === undefined ? "what to import is missing" : `unknown import ${JSON.stringify(what)}`}: mail, calendar, contacts, portfolio, metrics, funds or updates`,
      );
  }
}
