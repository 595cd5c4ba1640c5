// GET /api/v1/portfolio/companies: the whole org book, every figure and null rule against the
// book in test/helpers/book.ts, filters, paging, 422s, and org isolation.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { HoldingListModel } from "../../../src/modules/portfolio/portfolio.model.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { importPortfolioBook } from "../../helpers/book.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
  importPortfolioBook(t.deps, f.orgs.acme.id);
}
const list = (query = "") => t.request("GET", `/api/v1/portfolio/companies${query}`, { key: f.keys.read.secret });
const names = (body: any) => body.companies.map((c: any) => `${c.name} / ${c.fund_name}`);

describe("the book", () => {
  test("every holding, ordered by name then fund, with the page's envelope", async () => {
    setup();
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ scope: "org", total: 6, limit: 50, offset: 0, has_more: false, as_of: "2026-11-22T12:00:00.000Z" });
    expect(names(res.json)).toEqual([
      "Acme Robotics / Fund I",
      "Acme Robotics / Fund II",
      "Bolt Payments / Fund I",
      "Cedar Health / Fund I",
      "Delta AI / Fund II",
      "Échelle / Fund II",
    ]);
    expect([...Value.Errors(HoldingListModel, res.json)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("a holding's fields as imported, its multiple, and the same company across funds", async () => {
    setup();
    const [acme1, acme2] = (await list()).json.companies;
    expect(acme1).toEqual({
      company_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Acme Robotics",
      website: "acme.com",
      sector: "Robotics",
      stage: "series_a",
      status: "active",
      fund_name: "Fund I",
      holding_type: "direct_company",
      investment_date: "2020-03-15",
      ownership_percentage: 12.5,
      invested: 2_000_000,
      current_valuation: 5_000_000,
      currency: "USD",
      value_multiple: 2.5, // 5,000,000 / 2,000,000
      position_count: 2, // acme.com and https://www.acme.com/ are one company, held by Fund I and Fund II
      metrics: {
        // the latest actual of each metric: Feb's 1,200,000, not March's later budget of 1,500,000
        arr: { value: 1_200_000, unit: "usd", currency: "USD", statement_date: "2024-02-29T00:00:00.000Z" },
        monthly_burn: { value: 150_000, unit: "usd", currency: "USD", statement_date: "2024-02-29T00:00:00.000Z" },
        runway_months: { value: 18, unit: "months", currency: null, statement_date: "2024-02-29T00:00:00.000Z" },
      },
    });
    expect(acme2).toMatchObject({ website: "https://www.acme.com/", value_multiple: 1, position_count: 2 }); // 3,000,000 / 3,000,000
    expect(acme2.metrics).toEqual(acme1.metrics);
  });

  test("null rules: missing figures are null, never 0; a multiple needs both inputs; no metrics is {}", async () => {
    setup();
    const byName = Object.fromEntries((await list()).json.companies.map((c: any) => [c.name, c]));
    // valuation not in the ledger
    expect(byName["Bolt Payments"]).toMatchObject({ invested: 1_500_000, current_valuation: null, value_multiple: null, ownership_percentage: null });
    // neither figure in the ledger, and no currency
    expect(byName["Cedar Health"]).toMatchObject({ invested: null, current_valuation: null, value_multiple: null, currency: null, metrics: {} });
    // a valuation of 0 is a fact (written off), so the multiple is 0
    expect(byName["Delta AI"]).toMatchObject({ invested: 1_000_000, current_valuation: 0, value_multiple: 0, metrics: {} });
    expect(byName["Échelle"]).toMatchObject({ currency: "EUR", value_multiple: 1.5 }); // 1,200,000 / 800,000
  });

  test("metrics: the latest actual by statement time (time zones counted); a budget-only metric is absent", async () => {
    setup();
    const bolt = (await list("?q=bolt")).json.companies[0];
    expect(bolt.metrics).toEqual({
      // 2024-01-31T09:30+01:00 is 08:30 UTC, after 2023-12-31
      arr: { value: 450_000, unit: "usd", currency: "USD", statement_date: "2024-01-31T08:30:00.000Z" },
    });
  });

  test("an empty book is an empty page", async () => {
    ({ t, f } = seededApp());
    const res = await list();
    expect(res.json).toMatchObject({ companies: [], total: 0, has_more: false });
  });
});

describe("filters", () => {
  test("status", async () => {
    setup();
    expect(names((await list("?status=active")).json)).toEqual(["Acme Robotics / Fund I", "Acme Robotics / Fund II", "Bolt Payments / Fund I", "Échelle / Fund II"]);
    expect(names((await list("?status=exited")).json)).toEqual(["Cedar Health / Fund I"]);
    expect((await list("?status=written_off")).json).toMatchObject({ total: 1, companies: [{ name: "Delta AI" }] });
  });

  test("fund_name is exact", async () => {
    setup();
    expect(names((await list("?fund_name=Fund%20II")).json)).toEqual(["Acme Robotics / Fund II", "Delta AI / Fund II", "Échelle / Fund II"]);
    expect((await list("?fund_name=fund%20ii")).json.total).toBe(0);
    expect((await list("?fund_name=Fund")).json.total).toBe(0);
  });

  test("q is a case-insensitive search in the name, also beyond ASCII", async () => {
    setup();
    expect((await list("?q=ACME")).json.total).toBe(2);
    expect((await list("?q=payments")).json.total).toBe(1);
    expect(names((await list(`?q=${encodeURIComponent("ÉCH")}`)).json)).toEqual(["Échelle / Fund II"]);
    expect((await list("?q=zzz")).json).toMatchObject({ total: 0, companies: [] });
  });

  test("filters combine, and total counts what they match", async () => {
    setup();
    const res = await list("?status=active&fund_name=Fund%20I&q=a");
    // active in Fund I with an "a" in the name: Acme Robotics, Bolt Payments
    expect(res.json).toMatchObject({ total: 2, has_more: false });
    expect(names(res.json)).toEqual(["Acme Robotics / Fund I", "Bolt Payments / Fund I"]);
  });
});

describe("paging", () => {
  test("limit and offset walk the book; has_more is false on the last page", async () => {
    setup();
    const seen: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const page = (await list(`?limit=4&offset=${offset}`)).json;
      expect(page).toMatchObject({ total: 6, limit: 4, offset });
      seen.push(...names(page));
      if (!page.has_more) break;
      expect(page.companies.length).toBe(4);
    }
    expect(seen.length).toBe(6);
    expect(new Set(seen).size).toBe(6);
  });

  test("an offset past the end is an empty page that still says the total", async () => {
    setup();
    expect((await list("?offset=6")).json).toMatchObject({ companies: [], total: 6, has_more: false, offset: 6 });
    expect((await list("?offset=1000&limit=200")).json).toMatchObject({ companies: [], total: 6, limit: 200 });
  });

  test("limit 1 and 200 are allowed; outside 1-200, a negative offset, or a bad status are 422 naming the parameter", async () => {
    setup();
    expect((await list("?limit=1")).json).toMatchObject({ limit: 1, has_more: true, companies: [{ name: "Acme Robotics" }] });
    expect((await list("?limit=200")).status).toBe(200);
    const cases: [string, string, string][] = [
      ["?limit=0", "limit", "greater_than_equal"],
      ["?limit=201", "limit", "less_than_equal"],
      ["?limit=ten", "limit", "int_parsing"],
      ["?offset=-1", "offset", "greater_than_equal"],
      ["?status=paused", "status", "enum"],
    ];
    for (const [query, param, type] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.json.detail, query).toEqual([{ loc: ["query", param], msg: expect.any(String), type }]);
    }
  });
});

describe("org isolation", () => {
  test("another organization never sees this book, and its own book is its own", async () => {
    setup();
    const other = await t.request("GET", "/api/v1/portfolio/companies", { key: f.keys.otherOrgWrite.secret });
    expect(other.json).toMatchObject({ total: 0, companies: [] });
    importPortfolioBook(t.deps, f.orgs.globex.id, {
      portfolio: "name,website,sector,stage,status,fund_name,holding_type,investment_date\nAcme Robotics,acme.com,Robotics,seed,active,Globex I,direct_company,2021-01-01\n",
      metrics: "",
    });
    const globex = (await t.request("GET", "/api/v1/portfolio/companies", { key: f.keys.otherOrgWrite.secret })).json;
    // same website, but Acme's holdings and metrics are not Globex's
    expect(globex.companies).toEqual([expect.objectContaining({ fund_name: "Globex I", position_count: 1, metrics: {}, invested: null })]);
    expect((await list()).json.total).toBe(6);
  });
});
