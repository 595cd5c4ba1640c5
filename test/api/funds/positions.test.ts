// GET /api/v1/funds/positions: each commitment's figures and the pooled totals, against values
// worked out by hand for the book in test/helpers/book.ts (read at FUNDS_AS_OF). Year fractions are
// whole: 2021-01-01, 2022-01-01 and 2023-01-01 are 365 days apart.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { PositionsModel } from "../../../src/modules/funds/funds.model.ts";
import { fundsService } from "../../../src/modules/funds/funds.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { CASHFLOWS_CSV, COMMITMENTS_CSV, FUNDS_AS_OF, importFundsBook, MARKS_CSV } from "../../helpers/book.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup(extra: { commitments?: string; cashflows?: string; marks?: string } = {}) {
  setupBook({
    commitments: COMMITMENTS_CSV + (extra.commitments ?? ""),
    cashflows: CASHFLOWS_CSV + (extra.cashflows ?? ""),
    marks: MARKS_CSV + (extra.marks ?? ""),
  });
}
/** A book of its own instead of the standard one. */
function setupBook(book: { commitments: string; cashflows: string; marks: string }) {
  ({ t, f } = seededApp({ clock: new TestClock(FUNDS_AS_OF) }));
  importFundsBook(t.deps, f.orgs.acme.id, book);
}
const positions = async (query = "", key = f.keys.read.secret) => {
  const res = await t.request("GET", `/api/v1/funds/positions${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.json;
};
const byFund = (body: any) => Object.fromEntries(body.positions.map((p: any) => [p.fund_name, p]));

// The three USD positions of the standard book, each worked out in its comments.
const ALPHA = {
  fund_name: "Alpha Fund I",
  vintage_year: 2021,
  currency: "USD",
  commitment: 1_000_000,
  called: 500_000, // 400,000 (2021-01-01) + 100,000 (2023-01-01)
  distributed: 110_000, // 2022-01-01
  nav: 463_000, // last mark 363,000 (2022-09-30) + the 100,000 called after it
  nav_date: "2023-01-01", // the last cashflow rolled into the NAV
  last_mark_date: "2022-09-30",
  unfunded: 500_000, // 1,000,000 - 500,000
  tvpi: 1.146, // (110,000 + 463,000) / 500,000
  dpi: 0.22, // 110,000 / 500,000
  rvpi: 0.926, // 463,000 / 500,000
  irr: 0.1, // -400,000 | +110,000 | -100,000 + 463,000 = +363,000: -400 + 110/1.1 + 363/1.21 = 0
  data_quality_flags: ["cashflows_after_last_mark"],
};
const BETA = {
  fund_name: "Beta Growth II",
  vintage_year: 2020,
  currency: "USD",
  commitment: 200_000,
  called: 100_000,
  distributed: 0,
  nav: 121_000, // the 2023-01-01 mark; nothing after it
  nav_date: "2023-01-01",
  last_mark_date: "2023-01-01",
  unfunded: 100_000,
  tvpi: 1.21, // 121,000 / 100,000
  dpi: 0,
  rvpi: 1.21,
  irr: 0.1, // -100,000 then +121,000 two years later: 1.1^2 = 1.21
  data_quality_flags: [],
};
const GAMMA = {
  fund_name: "Gamma Seed III",
  vintage_year: 2021,
  currency: "USD",
  commitment: 150_000,
  called: 100_000,
  distributed: 0,
  nav: 144_000,
  nav_date: "2023-01-01",
  last_mark_date: "2023-01-01",
  unfunded: 50_000,
  tvpi: 1.44,
  dpi: 0,
  rvpi: 1.44,
  irr: 0.2, // 1.2^2 = 1.44
  data_quality_flags: [],
};
const USD_TOTALS = {
  currency: "USD",
  commitment: 1_350_000, // 1,000,000 + 200,000 + 150,000
  called: 700_000, // 500,000 + 100,000 + 100,000
  distributed: 110_000,
  nav: 728_000, // 463,000 + 121,000 + 144,000
  nav_date: "2023-01-01",
  unfunded: 650_000, // 1,350,000 - 700,000
  tvpi: 1.1971, // 838,000 / 700,000 = 1.19714...
  dpi: 0.1571, // 110,000 / 700,000 = 0.15714...
  rvpi: 1.04, // 728,000 / 700,000
  // -600,000 (2021) | +110,000 (2022) | -100,000 + 728,000 = +628,000 (2023): with x = 1/(1+r),
  // 628x^2 + 110x - 600 = 0, x = (-110 + sqrt(12,100 + 1,507,200)) / 1,256 = 0.8937889, r = 0.1188324
  irr: 0.118832,
  position_count: 3,
  data_quality_flags: ["cashflows_after_last_mark"],
};

/** Totals with nothing pooled: no positions, or more than one currency. */
const NO_FIGURES = {
  currency: null,
  commitment: null,
  called: null,
  distributed: null,
  nav: null,
  nav_date: null,
  unfunded: null,
  tvpi: null,
  dpi: null,
  rvpi: null,
  irr: null,
};

describe("positions and totals", () => {
  test("each commitment's figures and the pooled totals, worked out by hand", async () => {
    setup();
    const body = await positions();
    expect(body).toMatchObject({ scope: "org", as_of: FUNDS_AS_OF });
    expect(body.positions).toEqual([
      { commitment_id: expect.any(String), ...ALPHA },
      { commitment_id: expect.any(String), ...BETA },
      { commitment_id: expect.any(String), ...GAMMA },
    ]);
    expect(body.totals).toEqual(USD_TOTALS);
    expect(body.totals_by_currency).toEqual([{ ...USD_TOTALS, commitment_id: null }]);
    expect([...Value.Errors(PositionsModel, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("a mark older than 180 days (by the clock) is flagged stale", async () => {
    setup();
    t.clock.set("2023-03-30T00:00:00Z"); // Alpha's mark of 2022-09-30 is now 181 days old; the others 88
    const body = await positions();
    expect(byFund(body)["Alpha Fund I"].data_quality_flags).toEqual(["cashflows_after_last_mark", "stale_nav"]);
    expect(byFund(body)["Beta Growth II"].data_quality_flags).toEqual([]);
    expect(body.totals.data_quality_flags).toEqual(["cashflows_after_last_mark", "stale_nav"]);
    expect(body.as_of).toBe("2023-03-30T00:00:00.000Z");
  });

  test("fund_name filters to one commitment, and the totals are its own", async () => {
    setup();
    const body = await positions("?fund_name=Beta%20Growth%20II");
    expect(body.positions).toEqual([{ commitment_id: expect.any(String), ...BETA }]);
    const { fund_name, vintage_year, last_mark_date, commitment_id, ...figures } = { ...BETA, commitment_id: "" };
    expect(body.totals).toEqual({ ...figures, position_count: 1 });
    // exact match only
    expect((await positions("?fund_name=beta%20growth%20ii")).positions).toEqual([]);
  });

  test("an empty book (or a fund filter matching nothing): no positions, totals all null", async () => {
    setup();
    const body = await positions("?fund_name=Nope");
    expect(body.positions).toEqual([]);
    expect(body.totals_by_currency).toEqual([]);
    expect(body.totals).toEqual({ ...NO_FIGURES, position_count: 0, data_quality_flags: [] });
    const empty = await t.request("GET", "/api/v1/funds/positions?fund_name=", { key: f.keys.read.secret });
    expect(empty.status).toBe(422);
    expect(empty.json.detail[0].loc).toEqual(["query", "fund_name"]);
  });
});

describe("null rules and flags", () => {
  test("a commitment without a mark: NAV, TVPI, RVPI and IRR null (flagged), and the pooled ones too", async () => {
    setup({ commitments: "Delta Venture IV,2022,100000,USD\n", cashflows: "Delta Venture IV,2022-06-01,call,40000,USD\nDelta Venture IV,2022-12-01,distribution,10000,\n" });
    const body = await positions();
    expect(byFund(body)["Delta Venture IV"]).toMatchObject({
      called: 40_000,
      distributed: 10_000,
      nav: null,
      nav_date: null,
      last_mark_date: null,
      unfunded: 60_000,
      tvpi: null,
      dpi: 0.25, // 10,000 / 40,000: known without a NAV
      rvpi: null,
      irr: null,
      data_quality_flags: ["no_mark"],
    });
    expect(body.totals).toMatchObject({
      currency: "USD",
      commitment: 1_450_000,
      called: 740_000, // 700,000 + 40,000: sums of the ledger stay known
      distributed: 120_000,
      nav: null, // one NAV missing: the pooled NAV is missing
      nav_date: null,
      unfunded: 710_000,
      tvpi: null,
      dpi: 0.1622, // 120,000 / 740,000 = 0.162162...
      rvpi: null,
      irr: null,
      position_count: 4,
      data_quality_flags: ["cashflows_after_last_mark", "no_mark"],
    });
  });

  test("a commitment with no cashflows: called 0 (flagged no_cashflows), unfunded = commitment, ratios null, IRR null (flagged)", async () => {
    setup({ commitments: "Echo Fund,2024,300000,USD\n", marks: "Echo Fund,2023-01-01,0\n" });
    expect(byFund(await positions())["Echo Fund"]).toMatchObject({
      called: 0,
      distributed: 0,
      unfunded: 300_000,
      nav: 0,
      tvpi: null, // (0 + 0) / 0 called
      dpi: null,
      rvpi: null,
      irr: null,
      data_quality_flags: ["irr_not_computable", "no_cashflows"],
    });
    // one fund's totals are its own: the same nulls and flags
    expect((await positions("?fund_name=Echo%20Fund")).totals).toMatchObject({ called: 0, tvpi: null, dpi: null, rvpi: null, irr: null, data_quality_flags: ["irr_not_computable", "no_cashflows"] });
  });

  test("called above the commitment is flagged and unfunded goes negative", async () => {
    setup({ commitments: "Foxtrot,2021,50000,USD\n", cashflows: "Foxtrot,2021-01-01,call,60000,\n", marks: "Foxtrot,2023-01-01,60000\n" });
    expect(byFund(await positions())["Foxtrot"]).toMatchObject({ called: 60_000, unfunded: -10_000, tvpi: 1, irr: 0, data_quality_flags: ["called_above_commitment"] });
  });

  test("mixed currencies are never summed: totals null with a flag, per-currency totals beside them", async () => {
    setup({ commitments: "Delta Europe I,2022,100000,EUR\n", cashflows: "Delta Europe I,2022-01-01,call,50000,EUR\n", marks: "Delta Europe I,2022-12-31,60000\n" });
    const body = await positions();
    const eur = {
      currency: "EUR",
      commitment: 100_000,
      called: 50_000,
      distributed: 0,
      nav: 60_000,
      nav_date: "2022-12-31",
      unfunded: 50_000,
      tvpi: 1.2,
      dpi: 0,
      rvpi: 1.2,
      irr: 0.200601, // -50,000 then +60,000 364 days later: 1.2^(365/364) - 1 = 0.2006012
      position_count: 1,
      data_quality_flags: [],
    };
    expect(byFund(body)["Delta Europe I"]).toMatchObject({ currency: "EUR", irr: 0.200601 });
    expect(body.totals_by_currency).toEqual([eur, USD_TOTALS].map((g) => ({ ...g, commitment_id: null })));
    expect(body.totals).toEqual({ ...NO_FIGURES, position_count: 4, data_quality_flags: ["cashflows_after_last_mark", "mixed_currency"] });
  });

  test("a commitment without a currency is not pooled with USD", async () => {
    setup({ commitments: "Golf Partners,2021,10000,\n", cashflows: "Golf Partners,2021-01-01,call,10000,\n", marks: "Golf Partners,2023-01-01,12100\n" });
    const body = await positions();
    const golf = byFund(body)["Golf Partners"];
    expect(golf).toMatchObject({ currency: null, irr: 0.1, tvpi: 1.21, data_quality_flags: ["unknown_currency"] });
    expect(body.totals).toEqual({ ...NO_FIGURES, position_count: 4, data_quality_flags: ["cashflows_after_last_mark", "mixed_currency", "unknown_currency"] });
    expect(body.totals_by_currency.map((g: any) => [g.currency, g.commitment_id, g.called, g.position_count, g.data_quality_flags])).toEqual([
      ["USD", null, 700_000, 3, ["cashflows_after_last_mark"]],
      [null, golf.commitment_id, 10_000, 1, ["unknown_currency"]],
    ]);
    expect([...Value.Errors(PositionsModel, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  // The audit's book: two commitments with no currency. Each is its own (they may be USD and EUR).
  const UNKNOWN_BOOK = {
    commitments: "fund_name,commitment,currency\nX,1000,\nY,2000,\n",
    cashflows: "fund_name,cashflow_date,type,amount\nX,2021-01-01,call,100\nY,2021-01-01,call,200\n",
    marks: "fund_name,mark_date,nav\nX,2022-01-01,110\nY,2022-01-01,220\n",
  };
  const ownFigures = (commitment: number, called: number, nav: number) => ({
    currency: null,
    commitment,
    called,
    distributed: 0,
    nav,
    nav_date: "2022-01-01",
    unfunded: commitment - called,
    tvpi: 1.1,
    dpi: 0,
    rvpi: 1.1,
    irr: 0.1,
    data_quality_flags: ["stale_nav", "unknown_currency"], // marks of 2022-01-01, read on 2023-02-15
    position_count: 1,
  });

  test("two commitments of unknown currency are never pooled with each other: totals null, mixed_currency, one entry each", async () => {
    setupBook(UNKNOWN_BOOK);
    const body = await positions();
    expect(body.positions.map((p: any) => [p.fund_name, p.currency, p.called, p.nav, p.tvpi, p.irr])).toEqual([
      ["X", null, 100, 110, 1.1, 0.1],
      ["Y", null, 200, 220, 1.1, 0.1],
    ]);
    expect(body.totals).toEqual({ ...NO_FIGURES, position_count: 2, data_quality_flags: ["mixed_currency", "stale_nav", "unknown_currency"] });
    const [x, y] = body.positions.map((p: any) => p.commitment_id);
    expect(body.totals_by_currency).toEqual([
      { ...ownFigures(1000, 100, 110), commitment_id: x },
      { ...ownFigures(2000, 200, 220), commitment_id: y },
    ]);
    expect([...Value.Errors(PositionsModel, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("one commitment of unknown currency alone: the totals are its own figures (nothing is pooled), flagged unknown_currency", async () => {
    setupBook(UNKNOWN_BOOK);
    const only = await positions("?fund_name=Y");
    expect(only.totals).toEqual(ownFigures(2000, 200, 220));
    expect(only.totals_by_currency).toEqual([{ ...ownFigures(2000, 200, 220), commitment_id: only.positions[0].commitment_id }]);
  });
});

describe("org isolation", () => {
  test("another organization sees none of this book; the same fund name is its own commitment", async () => {
    setup();
    expect((await positions("", f.keys.otherOrgWrite.secret)).positions).toEqual([]);
    importFundsBook(t.deps, f.orgs.globex.id, { commitments: "fund_name,commitment,currency\nAlpha Fund I,5000,USD\n", cashflows: "fund_name,cashflow_date,type,amount\n", marks: "fund_name,mark_date,nav\n" });
    const globex = await positions("", f.keys.otherOrgWrite.secret);
    expect(globex.positions).toEqual([expect.objectContaining({ fund_name: "Alpha Fund I", commitment: 5000, called: 0 })]);
    expect(byFund(await positions())["Alpha Fund I"]).toMatchObject({ commitment: 1_000_000, called: 500_000 });
  });
});

describe("fund names", () => {
  test("the org's fund names in order, the same ones positions reads (another org's not among them)", async () => {
    setup();
    const names = fundsService(t.deps).fundNames(f.orgs.acme.id);
    expect(names).toEqual((await positions()).positions.map((p: any) => p.fund_name).sort());
    expect(names.length).toBeGreaterThan(1);
    expect(fundsService(t.deps).fundNames(f.orgs.globex.id)).toEqual([]);
  });
});
