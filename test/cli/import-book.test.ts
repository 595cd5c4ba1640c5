// `dealgraph import portfolio|metrics|funds` in process on a temp data dir: progress on stderr, one
// summary line (or JSON) on stdout, one-line errors naming file and line, nothing written from a
// bad file; and the demo's generated book, which must import cleanly and be deterministic.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateBook, writeBook } from "../../src/demo/book.ts";
import { CASHFLOWS_CSV, COMMITMENTS_CSV, MARKS_CSV, METRICS_CSV, PORTFOLIO_CSV } from "../helpers/book.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function workspace() {
  const dataDir = tempDataDir();
  const files = mkdtempSync(join(tmpdir(), "dealgraph-csv-"));
  dirs.push(dataDir, files);
  const org = (await cli(dataDir, "admin", "org", "create", "--name", "Acme Ventures", "--json")).json.org_id as string;
  const file = (name: string, text: string) => {
    const path = join(files, name);
    writeFileSync(path, text);
    return path;
  };
  return { dataDir, org, file };
}

describe("import portfolio and metrics", () => {
  test("--json prints the summary; progress goes to stderr; a second run changes nothing", async () => {
    const w = await workspace();
    const portfolio = w.file("portfolio.csv", PORTFOLIO_CSV);
    const first = await cli(w.dataDir, "import", "portfolio", "--org", w.org, portfolio, "--json");
    expect(first.code).toBe(0);
    expect(first.json).toEqual({ file: "portfolio.csv", rows: 6, inserted: 6, updated: 0, unchanged: 0, ms: expect.any(Number) });
    expect(first.stderr).toBe("[import] portfolio.csv: 6 holdings read and valid");
    const again = await cli(w.dataDir, "import", "portfolio", "--org", w.org, portfolio);
    expect(again.stdout).toMatch(/^portfolio\.csv: 6 rows: 0 new, 0 updated, 6 unchanged \(\d+ ms\)$/);
    const metrics = await cli(w.dataDir, "import", "metrics", "--org", w.org, w.file("metrics.csv", METRICS_CSV));
    expect(metrics.code).toBe(0);
    expect(metrics.stdout).toMatch(/^metrics\.csv: 9 rows: 9 new, 0 updated, 0 unchanged/);
  });

  test("a bad file fails with one line naming file and line, exit 1, and writes nothing", async () => {
    const w = await workspace();
    const bad = w.file("holdings.csv", PORTFOLIO_CSV.replace("2021-01-10", "2021-13-10").replace("Fund II,direct_company,2020-11-20", "Fund II,,2020-11-20"));
    const res = await cli(w.dataDir, "import", "portfolio", "--org", w.org, bad);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toBe(
      'error: holdings.csv: 2 bad rows, nothing imported: line 4: investment_date "2021-13-10" is not a date (YYYY-MM-DD); line 6: holding_type is required',
    );
    // nothing was written: the good file afterwards inserts all six
    const good = await cli(w.dataDir, "import", "portfolio", "--org", w.org, w.file("p.csv", PORTFOLIO_CSV), "--json");
    expect(good.json.inserted).toBe(6);
  });

  test("wrong command lines are exit 2; an unknown organization is exit 1", async () => {
    const w = await workspace();
    const path = w.file("portfolio.csv", PORTFOLIO_CSV);
    const cases: [string[], number, RegExp][] = [
      [["import", "portfolio", path], 2, /--org is required/],
      [["import", "portfolio", "--org", w.org], 2, /usage: dealgraph import portfolio --org ORG_ID FILE\.csv/],
      [["import", "metrics", "--org", w.org, "/nonexistent/m.csv"], 2, /no such file: \/nonexistent\/m\.csv/],
      [["import", "funds", "--org", w.org], 2, /at least one/],
      [["import", "portfolio", "--org", "0198a3c2-0000-7000-8000-000000000000", path], 1, /No organization with id/],
    ];
    for (const [argv, code, message] of cases) {
      const res = await cli(w.dataDir, ...argv);
      expect(res.code, argv.join(" ")).toBe(code);
      expect(res.stderr.split("\n").length, argv.join(" ")).toBe(1);
      expect(res.stderr, argv.join(" ")).toMatch(message);
    }
  });
});

describe("import funds", () => {
  test("three files in one import, --json with one summary per file", async () => {
    const w = await workspace();
    const args = ["--commitments", w.file("c.csv", COMMITMENTS_CSV), "--cashflows", w.file("f.csv", CASHFLOWS_CSV), "--marks", w.file("m.csv", MARKS_CSV)];
    const res = await cli(w.dataDir, "import", "funds", "--org", w.org, ...args, "--json");
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      commitments: { file: "c.csv", rows: 3, inserted: 3, updated: 0, unchanged: 0 },
      cashflows: { file: "f.csv", rows: 5, inserted: 5, updated: 0, unchanged: 0 },
      marks: { file: "m.csv", rows: 5, inserted: 5, updated: 0, unchanged: 0 },
      ms: expect.any(Number),
    });
    expect(res.stderr.split("\n")).toEqual(["[import] c.csv: 3 commitments read", "[import] f.csv: 5 cashflows read", "[import] m.csv: 5 marks read"]);
    const again = await cli(w.dataDir, "import", "funds", "--org", w.org, ...args);
    expect(again.stdout).toMatch(/^c\.csv: 3 rows: 0 new, 0 updated, 3 unchanged; f\.csv: 5 rows: 0 new, 0 updated, 5 unchanged; m\.csv: 5 rows: 0 new, 0 updated, 5 unchanged/);
  });

  test("a cashflow of an unknown fund fails the whole import, naming file and line", async () => {
    const w = await workspace();
    const res = await cli(
      w.dataDir,
      "import",
      "funds",
      "--org",
      w.org,
      "--commitments",
      w.file("c.csv", COMMITMENTS_CSV),
      "--cashflows",
      w.file("f.csv", "fund_name,cashflow_date,type,amount\nOmega,2021-01-01,call,5\n"),
    );
    expect(res.code).toBe(1);
    expect(res.stderr.split("\n").at(-1)).toBe('error: f.csv: 1 bad row, nothing imported: line 2: no commitment to fund "Omega" (import its commitment first, or with --commitments)');
    const commitments = await cli(w.dataDir, "import", "funds", "--org", w.org, "--commitments", w.file("c2.csv", COMMITMENTS_CSV), "--json");
    expect(commitments.json.commitments.inserted).toBe(3); // the failed import wrote none of them
  });
});

describe("the demo's generated book", () => {
  const asOf = new Date("2026-11-22T12:00:00Z");

  test("is deterministic for a seed and a date, and another seed makes another book", () => {
    expect(generateBook({ seed: 7, asOf })).toEqual(generateBook({ seed: 7, asOf }));
    expect(generateBook({ seed: 8, asOf }).csv.portfolio).not.toBe(generateBook({ seed: 7, asOf }).csv.portfolio);
  });

  test("is realistic in size and imports cleanly through the CLI", async () => {
    const w = await workspace();
    const { csv, counts } = generateBook({ seed: 7, asOf });
    expect(counts.holdings).toBeGreaterThanOrEqual(20);
    expect(counts.commitments).toBeGreaterThanOrEqual(5);
    expect(counts.metricPoints).toBeGreaterThan(2000);
    expect(counts.marks).toBeGreaterThan(100);
    const paths = await writeBook(join(w.dataDir, "book"), csv);
    const portfolio = await cli(w.dataDir, "import", "portfolio", "--org", w.org, paths.portfolio, "--json");
    expect(portfolio.json).toMatchObject({ inserted: counts.holdings });
    const metrics = await cli(w.dataDir, "import", "metrics", "--org", w.org, paths.metrics, "--json");
    expect(metrics.json).toMatchObject({ inserted: counts.metricPoints });
    const funds = await cli(w.dataDir, "import", "funds", "--org", w.org, "--commitments", paths.commitments, "--cashflows", paths.cashflows, "--marks", paths.marks, "--json");
    expect(funds.json).toMatchObject({ commitments: { inserted: counts.commitments }, cashflows: { inserted: counts.cashflows }, marks: { inserted: counts.marks } });
  });
});
