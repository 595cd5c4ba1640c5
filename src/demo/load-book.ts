// The demo firm's book: its holdings, monthly metrics and LP funds, generated as CSV files
// (scripts/gen-book.ts) and loaded through the real importers, as `dealgraph import` would.
import { basename } from "node:path";
import { generateBook, writeBook } from "./book.ts";
import type { Deps } from "../deps.ts";
import type { ImportFile, ImportSummary } from "../lib/csv.ts";
import { fundsImporter } from "../modules/funds/funds.import.ts";
import { portfolioImporter } from "../modules/portfolio/portfolio.import.ts";

const n = (x: number) => x.toLocaleString("en-US");
const read = async (path: string): Promise<ImportFile> => ({ name: basename(path), text: await Bun.file(path).text() });
const line = (s: ImportSummary, what: string) => `${s.file}: ${n(s.inserted)} ${what}`;

export async function loadDemoBook(deps: Deps, org: { id: string; name: string }, sourceDir: string, progress: (line: string) => void): Promise<void> {
  const started = performance.now();
  const { csv } = generateBook({ seed: 7, asOf: deps.clock.now(), firmName: org.name });
  const paths = await writeBook(sourceDir, csv);
  const quiet = () => {};
  const portfolio = portfolioImporter(deps);
  progress(line(portfolio.importPortfolio(org.id, await read(paths.portfolio), quiet), "holdings"));
  progress(line(portfolio.importMetrics(org.id, await read(paths.metrics), quiet), "metric values"));
  const funds = fundsImporter(deps).importFunds(
    org.id,
    { commitments: await read(paths.commitments), cashflows: await read(paths.cashflows), marks: await read(paths.marks) },
    quiet,
  );
  progress(`${line(funds.commitments!, "LP commitments")}, ${line(funds.cashflows!, "cashflows")}, ${line(funds.marks!, "quarterly marks")}`);
  progress(`book loaded in ${Math.round(performance.now() - started)} ms`);
}
