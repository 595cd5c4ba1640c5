// GET /api/v1/funds/cashflows and /api/v1/funds/marks: the ledger and each commitment's NAV/TVPI
// trace, with the fund filter and org isolation.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { CashflowsModel, MarksModel } from "../../../src/modules/funds/funds.model.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { FUNDS_AS_OF, importFundsBook } from "../../helpers/book.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp({ clock: new TestClock(FUNDS_AS_OF) }));
  importFundsBook(t.deps, f.orgs.acme.id);
}
const get = async (path: string, key = f.keys.read.secret) => {
  const res = await t.request("GET", path, { key });
  expect(res.status, res.text).toBe(200);
  return res.json;
};

describe("GET /api/v1/funds/cashflows", () => {
  test("the whole ledger, oldest first, amounts positive with their direction and currency", async () => {
    setup();
    const body = await get("/api/v1/funds/cashflows");
    expect(body).toMatchObject({ scope: "org", as_of: FUNDS_AS_OF });
    expect(body.cashflows.map((c: any) => [c.cashflow_date, c.fund_name, c.type, c.amount, c.currency])).toEqual([
      ["2021-01-01", "Alpha Fund I", "call", 400_000, "USD"],
      ["2021-01-01", "Beta Growth II", "call", 100_000, "USD"],
      ["2021-01-01", "Gamma Seed III", "call", 100_000, "USD"],
      ["2022-01-01", "Alpha Fund I", "distribution", 110_000, "USD"],
      ["2023-01-01", "Alpha Fund I", "call", 100_000, "USD"],
    ]);
    const positions = (await get("/api/v1/funds/positions")).positions;
    const idOf = Object.fromEntries(positions.map((p: any) => [p.fund_name, p.commitment_id]));
    for (const c of body.cashflows) {
      expect(c.commitment_id).toBe(idOf[c.fund_name]);
      expect(c.cashflow_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(new Set(body.cashflows.map((c: any) => c.cashflow_id)).size).toBe(5);
    expect([...Value.Errors(CashflowsModel, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("ties on a date go by fund name, then type and amount; names are escaped; an unknown currency is null; the usual headers", async () => {
    ({ t, f } = seededApp({ clock: new TestClock(FUNDS_AS_OF) }));
    const quoted = 'Quote "Q" \\ Fünd';
    importFundsBook(t.deps, f.orgs.acme.id, {
      commitments: `fund_name,commitment,currency\nZed,1000,EUR\n"${quoted.replaceAll('"', '""')}",1000,\nAlpha,1000,USD\n`,
      cashflows: [
        "fund_name,cashflow_date,type,amount",
        "Zed,2021-03-01,call,5",
        "Alpha,2021-03-01,distribution,1",
        "Alpha,2021-03-01,call,20.005",
        "Alpha,2021-03-01,call,3",
        `"${quoted.replaceAll('"', '""')}",2021-03-01,call,7`,
        "Zed,2020-12-31,distribution,9",
        "",
      ].join("\n"),
      marks: "fund_name,mark_date,nav\n",
    });
    const res = await t.request("GET", "/api/v1/funds/cashflows", { key: f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    expect(res.json.cashflows.map((c: any) => [c.cashflow_date, c.fund_name, c.type, c.amount, c.currency])).toEqual([
      ["2020-12-31", "Zed", "distribution", 9, "EUR"],
      ["2021-03-01", "Alpha", "call", 3, "USD"],
      ["2021-03-01", "Alpha", "call", 20.01, "USD"], // to the cent, half away from zero
      ["2021-03-01", "Alpha", "distribution", 1, "USD"],
      ["2021-03-01", quoted, "call", 7, null],
      ["2021-03-01", "Zed", "call", 5, "EUR"],
    ]);
    expect([...Value.Errors(CashflowsModel, res.json)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect((await get(`/api/v1/funds/cashflows?fund_name=${encodeURIComponent(quoted)}`)).cashflows.map((c: any) => c.amount)).toEqual([7]);
  });

  test("fund_name filters exactly", async () => {
    setup();
    expect((await get("/api/v1/funds/cashflows?fund_name=Alpha%20Fund%20I")).cashflows.map((c: any) => c.amount)).toEqual([400_000, 110_000, 100_000]);
    expect((await get("/api/v1/funds/cashflows?fund_name=Alpha")).cashflows).toEqual([]);
  });

  test("another organization's ledger is not visible", async () => {
    setup();
    expect((await get("/api/v1/funds/cashflows", f.keys.otherOrgWrite.secret)).cashflows).toEqual([]);
  });
});

describe("GET /api/v1/funds/marks", () => {
  test("each commitment's marks with what was called and distributed by then, and TVPI", async () => {
    setup();
    const body = await get("/api/v1/funds/marks");
    expect(body.marks.map((m: any) => [m.fund_name, m.currency, m.points])).toEqual([
      [
        "Alpha Fund I",
        "USD",
        [
          // 390,000 / 400,000
          { mark_date: "2021-12-31", nav: 390_000, called_to_date: 400_000, distributed_to_date: 0, tvpi: 0.975 },
          // (110,000 + 363,000) / 400,000: the 2023 call came after this mark
          { mark_date: "2022-09-30", nav: 363_000, called_to_date: 400_000, distributed_to_date: 110_000, tvpi: 1.1825 },
        ],
      ],
      [
        "Beta Growth II",
        "USD",
        [
          { mark_date: "2022-06-30", nav: 105_000, called_to_date: 100_000, distributed_to_date: 0, tvpi: 1.05 },
          { mark_date: "2023-01-01", nav: 121_000, called_to_date: 100_000, distributed_to_date: 0, tvpi: 1.21 },
        ],
      ],
      ["Gamma Seed III", "USD", [{ mark_date: "2023-01-01", nav: 144_000, called_to_date: 100_000, distributed_to_date: 0, tvpi: 1.44 }]],
    ]);
    expect([...Value.Errors(MarksModel, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("a commitment without marks has an empty trace; the filter is exact; other orgs see nothing", async () => {
    setup();
    importFundsBook(t.deps, f.orgs.acme.id, { commitments: "fund_name,commitment\nHotel Fund,1000\n", cashflows: "fund_name,cashflow_date,type,amount\n", marks: "fund_name,mark_date,nav\n" });
    expect((await get("/api/v1/funds/marks?fund_name=Hotel%20Fund")).marks).toEqual([
      { commitment_id: expect.any(String), fund_name: "Hotel Fund", currency: null, points: [] },
    ]);
    expect((await get("/api/v1/funds/marks", f.keys.otherOrgWrite.secret)).marks).toEqual([]);
  });
});
