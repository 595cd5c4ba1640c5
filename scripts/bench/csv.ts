// The CSV reader every import file goes through (src/lib/csv.ts), against a bare csv-parse loop
// over the same bytes in the same run, and the portfolio import that sits on it:
//   1. bare: csv-parse/sync `parse()` with its defaults (fields only: no line numbers, no BOM or
//      quote rules of ours, no header handling).
//   2. csv-parse+info: csv-parse with what the reader would need of it (BOM, any mix of line ends,
//      blank lines skipped, rows of any width, a quote inside an unquoted field, each record's end
//      offset to count its lines from): the candidate the issue asked to weigh.
//   3. parseCsv: records with the physical line each starts on, the errors of src/lib/csv.ts.
//   4. readCsvTable: the above plus the header rules and values by column name (what importers call).
//   5. import: `importPortfolio` of the same holdings into a fresh data dir (validation, one
//      transaction of upserts), to show what share of an import the reader is.
// The file is a holdings CSV as a spreadsheet writes it (CRLF; names with commas quoted; a notes
// column with doubled quotes and line breaks inside quotes in one row in ten; a BOM).
// Each reader runs in alternating rounds; the median round is reported.
//
//   bun scripts/bench/csv.ts [--rows 200000] [--rounds 7] [--import-rows 50000]
import { parse } from "csv-parse/sync";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { rng } from "../../src/demo/rng.ts";
import { createDeps } from "../../src/deps.ts";
import { parseCsv, readCsvTable } from "../../src/lib/csv.ts";
import { silentLog } from "../../src/lib/log.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { PORTFOLIO_COLUMNS, portfolioImporter } from "../../src/modules/portfolio/portfolio.import.ts";

const { values: opts } = parseArgs({ options: { rows: { type: "string", default: "200000" }, rounds: { type: "string", default: "7" }, "import-rows": { type: "string", default: "50000" } } });
const ROWS = Number(opts.rows);
const ROUNDS = Number(opts.rounds);
const IMPORT_ROWS = Number(opts["import-rows"]);

const HEADER = "name,website,sector,stage,status,fund_name,holding_type,investment_date,ownership_percentage,invested,current_valuation,currency,notes";

function holdingsCsv(rows: number): string {
  const r = rng(7);
  const lines = [`\uFEFF${HEADER}`];
  for (let i = 0; i < rows; i++) {
    const n = String(i).padStart(6, "0");
    const name = i % 4 === 0 ? `"Company ${n}, Inc."` : `Company ${n} ${r.pick(["Labs", "AI", "Pay", "Health"])}`;
    const notes = i % 10 === 0 ? `"Led by ""Anna""; board seat,\r\nfollow-on in ${2020 + (i % 5)}"` : i % 3 === 0 ? "pro-rata" : "";
    const date = `20${String(15 + (i % 10)).padStart(2, "0")}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
    lines.push(
      [name, `company${n}.com`, r.pick(["Fintech", "Health", "AI infra"]), "series_a", r.pick(["active", "active", "exited"]), `Fund ${1 + (i % 5)}`, "direct_company", date, (r.int(1, 2000) / 100).toFixed(2), String(r.int(100, 9000) * 1000), String(r.int(100, 50000) * 1000), "USD", notes].join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r0 = (x: number) => Math.round(x).toLocaleString("en-US");

const text = holdingsCsv(ROWS);
const bytes = Buffer.byteLength(text);
const readers: Record<string, () => number> = {
  bare: () => (parse(text) as string[][]).length - 1,
  "csv-parse+info": () =>
    parse(text, { bom: true, record_delimiter: ["\r\n", "\n", "\r"], skip_empty_lines: true, relax_column_count: true, relax_quotes: true, info: true }).length - 1,
  parseCsv: () => parseCsv(text, "bench.csv").length - 1,
  readCsvTable: () => readCsvTable(text, "bench.csv", PORTFOLIO_COLUMNS).length,
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(readers).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, read] of Object.entries(readers)) {
    const started = performance.now();
    const rows = read();
    times[name].push(performance.now() - started);
    if (rows !== ROWS) throw new Error(`${name} read ${rows} rows, expected ${ROWS}`);
  }
}

console.log(`sample: ${r0(ROWS)} rows, ${(bytes / 1e6).toFixed(1)} MB; median of ${ROUNDS} alternating rounds`);
const bare = median(times.bare);
for (const name of Object.keys(readers)) {
  const ms = median(times[name]);
  console.log(`${name.padEnd(15)} ${r0((ROWS / ms) * 1000).padStart(10)} rows/s  ${((bytes / 1e6 / ms) * 1000).toFixed(1).padStart(6)} MB/s  ${ms.toFixed(0).padStart(6)} ms  ${(bare / ms).toFixed(2)}x bare speed`);
}

// The import that sits on the reader: the same kind of file, fewer rows (each is an upsert).
const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-csv-"));
try {
  const config = loadConfig({}, { dataDir: dir });
  const deps = createDeps({ db: openDataDir(config).db, config, log: silentLog });
  const org = orgsService(deps).createOrg("Bench Ventures");
  const file = { name: "holdings.csv", text: holdingsCsv(IMPORT_ROWS) };
  const readMs = median([0, 1, 2].map(() => {
    const started = performance.now();
    readCsvTable(file.text, file.name, PORTFOLIO_COLUMNS);
    return performance.now() - started;
  }));
  const started = performance.now();
  const summary = portfolioImporter(deps).importPortfolio(org.id, file);
  const importMs = performance.now() - started;
  if (summary.inserted !== IMPORT_ROWS) throw new Error(`imported ${summary.inserted} of ${IMPORT_ROWS}`);
  console.log(`import          ${r0((IMPORT_ROWS / importMs) * 1000).padStart(10)} rows/s  (${r0(IMPORT_ROWS)} holdings in ${(importMs / 1000).toFixed(2)} s; reading the CSV is ${((readMs / importMs) * 100).toFixed(1)}% of it)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
