// `dealgraph import portfolio|metrics|funds`: the portfolio book and the LP funds from CSV files
// (CONTRACT.md, "Import formats"), through the same importers the demo uses. Progress goes to
// stderr; stdout gets one summary line (or one JSON object with --json). A bad file writes nothing
// and fails with one line naming every bad row by file and line.
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { ImportFile, ImportSummary } from "../lib/csv.ts";
import { fundsImporter, type FundFiles } from "../modules/funds/funds.import.ts";
import { portfolioImporter } from "../modules/portfolio/portfolio.import.ts";
import { openDeps } from "./context.ts";
import { parse, required, UsageError, type Io } from "./io.ts";

async function readFile(path: string): Promise<ImportFile> {
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no such file: ${path}`);
  return { name: basename(path), text: await Bun.file(path).text() };
}

export const describeSummary = (s: ImportSummary) =>
  `${s.file}: ${s.rows} row${s.rows === 1 ? "" : "s"}: ${s.inserted} new, ${s.updated} updated, ${s.unchanged} unchanged`;

/** `import portfolio|metrics --org ORG_ID FILE.csv`: one file, one importer. */
function singleFile(kind: "portfolio" | "metrics") {
  return async (args: string[], io: Io) => {
    const { values, positionals } = parse(args, { org: { type: "string" } });
    const org = required("org", values.org);
    if (positionals.length !== 1) throw new UsageError(`usage: dealgraph import ${kind} --org ORG_ID FILE.csv`);
    const file = await readFile(positionals[0]);
    const importer = portfolioImporter(openDeps(io, values));
    const progress = (line: string) => io.err(`[import] ${line}`);
    const started = performance.now();
    const summary = kind === "portfolio" ? importer.importPortfolio(org, file, progress) : importer.importMetrics(org, file, progress);
    const ms = Math.round(performance.now() - started);
    io.out(values.json ? JSON.stringify({ ...summary, ms }) : `${describeSummary(summary)} (${ms} ms)`);
  };
}

export const importPortfolioCommand = singleFile("portfolio");
export const importMetricsCommand = singleFile("metrics");

/** `import funds --org ORG_ID [--commitments F] [--cashflows F] [--marks F]`: one transaction. */
export async function importFundsCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, { org: { type: "string" }, commitments: { type: "string" }, cashflows: { type: "string" }, marks: { type: "string" } });
  const org = required("org", values.org);
  const kinds = ["commitments", "cashflows", "marks"] as const;
  if (positionals.length || !kinds.some((k) => values[k])) {
    throw new UsageError("usage: dealgraph import funds --org ORG_ID [--commitments FILE.csv] [--cashflows FILE.csv] [--marks FILE.csv] (at least one)");
  }
  const files: FundFiles = {};
  for (const k of kinds) if (values[k]) files[k] = await readFile(values[k]!);
  const started = performance.now();
  const summary = fundsImporter(openDeps(io, values)).importFunds(org, files, (line) => io.err(`[import] ${line}`));
  const ms = Math.round(performance.now() - started);
  const parts = kinds.filter((k) => summary[k]).map((k) => describeSummary(summary[k]!));
  io.out(values.json ? JSON.stringify({ ...summary, ms }) : `${parts.join("; ")} (${ms} ms)`);
}
