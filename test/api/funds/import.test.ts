// Import of commitments, cashflows and marks: problems of every file reported at once by file and
// line, nothing written from a failing import (commitments included), re-imports idempotent.
import { describe, expect, test } from "bun:test";
import { fundsImporter, type FundFiles } from "../../../src/modules/funds/funds.import.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { CASHFLOWS_CSV, COMMITMENTS_CSV, FUNDS_AS_OF, importError, importFundsBook, MARKS_CSV } from "../../helpers/book.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
function setup() {
  ({ t, f } = seededApp({ clock: new TestClock(FUNDS_AS_OF) }));
}

const files = (csv: { commitments?: string; cashflows?: string; marks?: string }): FundFiles => ({
  ...(csv.commitments !== undefined && { commitments: { name: "commitments.csv", text: csv.commitments } }),
  ...(csv.cashflows !== undefined && { cashflows: { name: "cashflows.csv", text: csv.cashflows } }),
  ...(csv.marks !== undefined && { marks: { name: "marks.csv", text: csv.marks } }),
});
const importFunds = (csv: Parameters<typeof files>[0]) => fundsImporter(t.deps).importFunds(f.orgs.acme.id, files(csv));
const positions = async () => (await t.request("GET", "/api/v1/funds/positions", { key: f.keys.read.secret })).json.positions;

describe("errors", () => {
  test("a missing required column is named", async () => {
    setup();
    const e = importError(() => importFunds({ cashflows: "fund_name,cashflow_date,type\nAlpha,2021-01-01,call\n" }));
    expect(e.message).toBe("cashflows.csv: nothing imported: line 1: missing required column amount (the header has: fund_name, cashflow_date, type)");
  });

  test("bad rows of every file are reported together, by file and line, and nothing is written", async () => {
    setup();
    const e = importError(() =>
      importFunds({
        commitments: "fund_name,vintage_year,commitment,currency\nAlpha Fund I,2021,1000000,USD\nBeta,20x0,0,US\n",
        cashflows: "fund_name,cashflow_date,type,amount\nAlpha Fund I,2021-01-01,call,400000\nAlpha Fund I,2021-01-01,refund,-5\n",
        marks: "fund_name,mark_date,nav\nAlpha Fund I,2022-12-31,-1\n",
      }),
    );
    expect(e.problems.map((p) => [p.file, p.line, p.column])).toEqual([
      ["commitments.csv", 3, "commitment"],
      ["commitments.csv", 3, "vintage_year"],
      ["commitments.csv", 3, "currency"],
      ["cashflows.csv", 3, "type"],
      ["cashflows.csv", 3, "amount"],
      ["marks.csv", 2, "nav"],
    ]);
    expect(e.message).toStartWith("commitments.csv, cashflows.csv, marks.csv: 3 bad rows, nothing imported: commitments.csv line 3: commitment must be greater than 0, got 0;");
    expect(await positions()).toEqual([]);
  });

  test("a cashflow or mark of a fund with no commitment fails the whole import, commitments included", async () => {
    setup();
    const e = importError(() =>
      importFunds({
        commitments: COMMITMENTS_CSV,
        cashflows: CASHFLOWS_CSV + "Zulu Fund,2021-06-01,call,5000,\n",
        marks: MARKS_CSV + "Yankee Fund,2022-12-31,100\n",
      }),
    );
    expect(e.problems).toEqual([
      { file: "cashflows.csv", line: 7, column: "fund_name", message: 'no commitment to fund "Zulu Fund" (import its commitment first, or with --commitments)' },
      { file: "marks.csv", line: 7, column: "fund_name", message: 'no commitment to fund "Yankee Fund" (import its commitment first, or with --commitments)' },
    ]);
    expect(await positions()).toEqual([]);
  });

  test("a currency other than the commitment's is refused", async () => {
    setup();
    importFunds({ commitments: COMMITMENTS_CSV });
    const e = importError(() => importFunds({ cashflows: "fund_name,cashflow_date,type,amount,currency\nAlpha Fund I,2021-01-01,call,400000,EUR\n" }));
    expect(e.problems[0]).toMatchObject({ line: 2, column: "currency", message: "currency EUR is not the currency of the commitment to Alpha Fund I (USD)" });
  });

  test("the same cashflow or mark twice in one file is an error naming the first line", () => {
    setup();
    const e = importError(() =>
      importFunds({
        commitments: COMMITMENTS_CSV,
        cashflows: "fund_name,cashflow_date,type,amount\nAlpha Fund I,2021-01-01,call,400000\nAlpha Fund I,2021-01-01,CALL,400000.00\n",
        marks: "fund_name,mark_date,nav\nAlpha Fund I,2022-12-31,1\nAlpha Fund I,2022-12-31,2\n",
      }),
    );
    expect(e.problems.map((p) => [p.file, p.line, p.message])).toEqual([
      ["cashflows.csv", 3, "call of 400000 to Alpha Fund I on 2021-01-01 is already on line 2 of this file"],
      ["marks.csv", 3, "mark of Alpha Fund I on 2022-12-31 is already on line 2 of this file"],
    ]);
  });
});

describe("re-imports", () => {
  test("the same files again change nothing", async () => {
    setup();
    const first = importFundsBook(t.deps, f.orgs.acme.id);
    expect([first.commitments!.inserted, first.cashflows!.inserted, first.marks!.inserted]).toEqual([3, 5, 5]);
    const before = await positions();
    const again = importFundsBook(t.deps, f.orgs.acme.id);
    expect(again).toEqual({
      commitments: { file: "commitments.csv", rows: 3, inserted: 0, updated: 0, unchanged: 3 },
      cashflows: { file: "cashflows.csv", rows: 5, inserted: 0, updated: 0, unchanged: 5 },
      marks: { file: "marks.csv", rows: 5, inserted: 0, updated: 0, unchanged: 5 },
    });
    expect(await positions()).toEqual(before);
  });

  test("changed rows update in place; new ones add; a file alone adds to what is there", async () => {
    setup();
    importFundsBook(t.deps, f.orgs.acme.id);
    const ids = Object.fromEntries((await positions()).map((p: any) => [p.fund_name, p.commitment_id]));
    expect(
      importFunds({
        commitments: COMMITMENTS_CSV.replace("Beta Growth II,2020,200000", "Beta Growth II,2020,250000"),
        marks: "fund_name,mark_date,nav\nBeta Growth II,2023-01-01,125000\n",
      }),
    ).toMatchObject({ commitments: { updated: 1, unchanged: 2 }, marks: { updated: 1, inserted: 0 } });
    expect(importFunds({ cashflows: "fund_name,cashflow_date,type,amount\nBeta Growth II,2023-02-01,distribution,25000\n" })).toEqual({
      cashflows: { file: "cashflows.csv", rows: 1, inserted: 1, updated: 0, unchanged: 0 },
    });
    const beta = (await positions()).find((p: any) => p.fund_name === "Beta Growth II");
    expect(beta).toMatchObject({
      commitment_id: ids["Beta Growth II"],
      commitment: 250_000,
      called: 100_000,
      distributed: 25_000,
      nav: 100_000, // 125,000 (2023-01-01) - 25,000 distributed after it
      nav_date: "2023-02-01",
      unfunded: 150_000,
      tvpi: 1.25, // (25,000 + 100,000) / 100,000
      dpi: 0.25,
      rvpi: 1,
    });
  });

  test("a re-import without the currency or vintage_year column (or with an empty cell) keeps the stored values", async () => {
    setup();
    importFundsBook(t.deps, f.orgs.acme.id);
    expect(importFunds({ commitments: "fund_name,commitment\nAlpha Fund I,1000000\nBeta Growth II,210000\n" })).toEqual({
      commitments: { file: "commitments.csv", rows: 2, inserted: 0, updated: 1, unchanged: 1 },
    });
    expect(importFunds({ commitments: "fund_name,vintage_year,commitment,currency\nGamma Seed III,,150000,\n" }).commitments).toMatchObject({ unchanged: 1 });
    const byFund = Object.fromEntries((await positions()).map((p: any) => [p.fund_name, [p.vintage_year, p.commitment, p.currency]]));
    expect(byFund).toEqual({ "Alpha Fund I": [2021, 1_000_000, "USD"], "Beta Growth II": [2020, 210_000, "USD"], "Gamma Seed III": [2021, 150_000, "USD"] });
  });

  test("a currency may be set where there was none, or changed while the commitment has no cashflows or marks", async () => {
    setup();
    importFunds({ commitments: "fund_name,commitment\nHotel,1000\nIndia,2000\n", cashflows: "fund_name,cashflow_date,type,amount\nHotel,2021-01-01,call,100\n" });
    expect(importFunds({ commitments: "fund_name,commitment,currency\nHotel,1000,EUR\nIndia,2000,GBP\n" }).commitments).toMatchObject({ updated: 2 });
    expect(importFunds({ commitments: "fund_name,commitment,currency\nIndia,2000,CHF\n" }).commitments).toMatchObject({ updated: 1 });
    expect((await positions()).map((p: any) => [p.fund_name, p.currency])).toEqual([["Hotel", "EUR"], ["India", "CHF"]]);
  });

  test("changing the currency of a commitment with cashflows or marks in it is refused for that line; nothing of the import is written", async () => {
    setup();
    importFundsBook(t.deps, f.orgs.acme.id);
    const before = await positions();
    const e = importError(() =>
      importFunds({
        commitments: "fund_name,commitment,currency\nAlpha Fund I,1000000,EUR\nGamma Seed III,150000,GBP\nJuliet,5000,EUR\n",
        cashflows: "fund_name,cashflow_date,type,amount\nJuliet,2022-01-01,call,100\n",
      }),
    );
    expect(e.problems).toEqual([
      { file: "commitments.csv", line: 2, column: "currency", message: 'the commitment to "Alpha Fund I" is in USD and has 3 cashflows and 2 marks in USD; its currency cannot change to EUR' },
      { file: "commitments.csv", line: 3, column: "currency", message: 'the commitment to "Gamma Seed III" is in USD and has 1 cashflow and 1 mark in USD; its currency cannot change to GBP' },
    ]);
    expect(e.message).toStartWith("commitments.csv: 2 bad rows, nothing imported: line 2: the commitment to");
    expect(await positions()).toEqual(before);
  });
});
