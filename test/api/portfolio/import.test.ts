// Imports of the portfolio and metrics CSVs: every bad row reported by line, nothing written from
// a failing file, re-imports idempotent (upsert by natural key), companies matched by website or name.
import { describe, expect, test } from "bun:test";
import { portfolioImporter } from "../../../src/modules/portfolio/portfolio.import.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { importError, importPortfolioBook, METRICS_CSV, PORTFOLIO_CSV } from "../../helpers/book.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
function setup() {
  ({ t, f } = seededApp());
}

const HEADER = "name,website,sector,stage,status,fund_name,holding_type,investment_date,ownership_percentage,invested,current_valuation,currency";
const portfolio = (text: string) => portfolioImporter(t.deps).importPortfolio(f.orgs.acme.id, { name: "portfolio.csv", text });
const metrics = (text: string) => portfolioImporter(t.deps).importMetrics(f.orgs.acme.id, { name: "metrics.csv", text });
const book = async () => (await t.request("GET", "/api/v1/portfolio/companies", { key: f.keys.read.secret })).json;

describe("portfolio CSV", () => {
  test("a missing required column is named, and nothing is written", async () => {
    setup();
    const e = importError(() => portfolio("name,sector,stage,status,holding_type,investment_date\nAcme,AI,seed,active,direct_company,2020-01-01\n"));
    expect(e.message).toBe(
      "portfolio.csv: nothing imported: line 1: missing required columns website, fund_name (the header has: name, sector, stage, status, holding_type, investment_date)",
    );
    expect((await book()).total).toBe(0);
  });

  test("every bad row is reported by its line (a quoted newline counts), and the good rows are not written", async () => {
    setup();
    const text = [
      HEADER,
      '"Acme\nRobotics",acme.com,Robotics,seed,active,Fund I,direct_company,2020-01-01,,,,', // lines 2-3, fine
      "Bolt,boltpay.io,Fintech,seed,paused,Fund I,direct_company,2020-01-01,,,,", // line 4: status
      "Cedar,cedar.health,Health,seed,active,Fund I,direct_company,2020-02-30,,-5,abc,usd", // line 5: date, invested, valuation
      "Delta,not a website,AI,seed,active,Fund I,direct_company,2020-01-01,150,,,", // line 6: website, ownership
      ",delta.ai,AI,,active,,direct_company,2020-01-01,,,,", // line 7: name, stage, fund_name
      "Echo,echo.io,AI,seed,active,Fund I,direct_company,2020-01-01,,,,", // line 8, fine
    ].join("\n");
    const e = importError(() => portfolio(text));
    expect(e.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [4, "status", 'status "paused" is not one of active, exited, written_off'],
      [5, "investment_date", 'investment_date "2020-02-30" is not a date (YYYY-MM-DD)'],
      [5, "invested", "invested must be at least 0, got -5"],
      [5, "current_valuation", 'current_valuation "abc" is not a number'],
      [6, "website", 'website "not a website" is not a web address'],
      [6, "ownership_percentage", "ownership_percentage must be at most 100, got 150"],
      [7, "name", "name is required"],
      [7, "stage", "stage is required"],
      [7, "fund_name", "fund_name is required"],
    ]);
    expect(e.message).toStartWith("portfolio.csv: 4 bad rows, nothing imported: line 4: status");
    expect((await book()).total).toBe(0);
  });

  test("the same holding twice in one file is an error naming the first line", () => {
    setup();
    const e = importError(() =>
      portfolio(`${HEADER}\nAcme,acme.com,AI,seed,active,Fund I,direct_company,2020-01-01,,,,\nACME,acme.com,AI,seed,active,Fund I,direct_company,2020-01-01,,,,\n`),
    );
    expect(e.problems).toEqual([{ file: "portfolio.csv", line: 3, message: "holding ACME in Fund I is already on line 2 of this file" }]);
  });

  test("re-importing the same file changes nothing; a changed row updates in place (same company_id)", async () => {
    setup();
    expect(portfolio(PORTFOLIO_CSV)).toEqual({ file: "portfolio.csv", rows: 6, inserted: 6, updated: 0, unchanged: 0 });
    const before = await book();
    expect(portfolio(PORTFOLIO_CSV)).toEqual({ file: "portfolio.csv", rows: 6, inserted: 0, updated: 0, unchanged: 6 });
    expect(await book()).toEqual(before);

    // Bolt gets a valuation; a new holding arrives; the name's case changes nothing of identity
    const changed = PORTFOLIO_CSV.replace("2021-01-10,,1500000,,USD", "2021-01-10,,1500000,4500000,USD").replace("Cedar Health,", "CEDAR HEALTH,") +
      "Foxtrot,foxtrot.dev,Developer tools,seed,active,Fund II,direct_company,2024-05-01,,250000,250000,USD\n";
    expect(portfolio(changed)).toEqual({ file: "portfolio.csv", rows: 7, inserted: 1, updated: 2, unchanged: 4 });
    const after = await book();
    expect(after.total).toBe(7);
    const id = (body: any, name: string) => body.companies.find((c: any) => c.name.toLowerCase() === name.toLowerCase()).company_id;
    expect(id(after, "Bolt Payments")).toBe(id(before, "Bolt Payments"));
    expect(id(after, "Cedar Health")).toBe(id(before, "Cedar Health"));
    expect(after.companies.find((c: any) => c.name === "Bolt Payments")).toMatchObject({ current_valuation: 4_500_000, value_multiple: 3 }); // 4.5M / 1.5M
  });

  test("a position_count column is read past: the count is derived", async () => {
    setup();
    portfolio(`name,website,sector,stage,status,fund_name,holding_type,investment_date,position_count\nAcme,acme.com,AI,seed,active,Fund I,direct_company,2020-01-01,99\n`);
    expect((await book()).companies[0].position_count).toBe(1);
  });

  test("an unknown organization is refused before the file is read", () => {
    setup();
    expect(() => portfolioImporter(t.deps).importPortfolio("0198a3c2-0000-7000-8000-000000000000", { name: "p.csv", text: PORTFOLIO_CSV })).toThrow(/No organization/);
  });
});

describe("metrics CSV", () => {
  test("re-import is idempotent; a changed value updates; kind defaults to actual", async () => {
    setup();
    importPortfolioBook(t.deps, f.orgs.acme.id, { portfolio: PORTFOLIO_CSV, metrics: "" });
    expect(metrics(METRICS_CSV)).toEqual({ file: "metrics.csv", rows: 9, inserted: 9, updated: 0, unchanged: 0 });
    expect(metrics(METRICS_CSV)).toEqual({ file: "metrics.csv", rows: 9, inserted: 0, updated: 0, unchanged: 9 });
    expect(metrics("company,metric,value,statement_date\nacme.com,arr,1250000,2024-02-29\n")).toMatchObject({ inserted: 0, updated: 1, unchanged: 0 });
    const acme = (await book()).companies[0];
    // no unit or currency in the new row: the update says so, and nothing is carried over by default
    expect(acme.metrics.arr).toEqual({ value: 1_250_000, unit: null, currency: null, statement_date: "2024-02-29T00:00:00.000Z" });
  });

  test("bad rows by line: unknown company, bad key, value, date, kind; nothing written", async () => {
    setup();
    importPortfolioBook(t.deps, f.orgs.acme.id, { portfolio: PORTFOLIO_CSV, metrics: "" });
    const e = importError(() =>
      metrics(
        [
          "company,metric,value,unit,currency,statement_date,kind",
          "acme.com,arr,100,,USD,2024-01-31,actual", // fine
          "Zeta Labs,arr,100,,USD,2024-01-31,", // unknown company
          "Acme Robotics,Net Revenue,100,,USD,2024-01-31,", // bad key
          "Acme Robotics,arr,1.2M,,USD,2024-01-31,", // bad value
          "Acme Robotics,arr,100,,USD,31/01/2024,", // bad date
          "Acme Robotics,arr,100,,USD,2024-01-31,forecast", // bad kind
          "acme.com,arr,100,,USD,2024-01-31,actual", // the same point as line 2
        ].join("\n"),
      ),
    );
    expect(e.problems.map((p) => [p.line, p.column ?? null])).toEqual([
      [3, "company"],
      [4, "metric"],
      [5, "value"],
      [6, "statement_date"],
      [7, "kind"],
      [8, null],
    ]);
    expect(e.problems[0].message).toBe('company "Zeta Labs" is no holding\'s name or website (import the portfolio first)');
    expect(e.problems[5].message).toBe("actual arr of acme.com at 2024-01-31T00:00:00.000Z is already on line 2 of this file");
    expect((await book()).companies[0].metrics).toEqual({});
  });

  test("a name shared by holdings of different companies is ambiguous; their websites are not", async () => {
    setup();
    portfolio(`${HEADER}\nNova,nova.com,AI,seed,active,Fund I,direct_company,2020-01-01,,,,\nNova,nova.io,Health,seed,active,Fund II,direct_company,2021-01-01,,,,\n`);
    const e = importError(() => metrics("company,metric,value,statement_date\nnova,arr,1,2024-01-31\n"));
    expect(e.problems[0]).toMatchObject({
      line: 2,
      column: "company",
      message: 'company "nova" matches holdings of 2 different companies (nova.com in Fund I, nova.io in Fund II): give the website instead',
    });
    expect(metrics("company,metric,value,statement_date\nhttps://nova.io/,arr,1,2024-01-31\nNOVA.COM,arr,2,2024-01-31\n")).toMatchObject({ inserted: 2 });
    const byWebsite = Object.fromEntries((await book()).companies.map((c: any) => [c.website, c.metrics.arr.value]));
    expect(byWebsite).toEqual({ "nova.com": 2, "nova.io": 1 });
  });

  test("one company held by two funds (one website) is one match: by name or website, its metrics show on both holdings", async () => {
    setup();
    portfolio(`${HEADER}\nNova,nova.com,AI,seed,active,Fund I,direct_company,2020-01-01,,,,\nnova,https://www.nova.com/,AI,series_a,active,Fund II,direct_company,2022-01-01,,,,\n`);
    expect(metrics("company,metric,value,statement_date\nNova,arr,5,2024-01-31\nwww.nova.com,headcount,7,2024-01-31\n")).toMatchObject({ inserted: 2 });
    const shown = (await book()).companies.map((c: any) => [c.fund_name, c.position_count, c.metrics.arr.value, c.metrics.headcount.value]);
    expect(shown).toEqual([
      ["Fund I", 2, 5, 7],
      ["Fund II", 2, 5, 7],
    ]);
  });

  test("a value that is one company's website and another holding's name is ambiguous, naming both; the website with its scheme is not", async () => {
    setup();
    portfolio(`${HEADER}\nNova,nova.com,AI,seed,active,Fund I,direct_company,2020-01-01,,,,\nnova.com,novacom.io,Telecom,seed,active,Fund II,direct_company,2021-01-01,,,,\n`);
    const e = importError(() => metrics("company,metric,value,statement_date\nnova.com,arr,1,2024-01-31\n"));
    expect(e.problems).toEqual([
      {
        file: "metrics.csv",
        line: 2,
        column: "company",
        message:
          'company "nova.com" matches holdings of 2 different companies (nova.com in Fund I by website, novacom.io in Fund II by name): write the website with its scheme (https://nova.com) for the company at that website, or that company\'s own website for the other',
      },
    ]);
    expect((await book()).companies.every((c: any) => Object.keys(c.metrics).length === 0)).toBe(true);
    expect(metrics("company,metric,value,statement_date\nhttps://nova.com,arr,1,2024-01-31\nnovacom.io,arr,2,2024-01-31\n")).toMatchObject({ inserted: 2 });
    const byWebsite = Object.fromEntries((await book()).companies.map((c: any) => [c.website, c.metrics.arr.value]));
    expect(byWebsite).toEqual({ "nova.com": 1, "novacom.io": 2 });
  });
});
