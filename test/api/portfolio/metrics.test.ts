// GET /api/v1/portfolio/companies/{company_id}/metrics: one metric's dated history, actuals and
// budgets marked, oldest first, within from/to; 404 for any id the org cannot see.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { MetricHistoryModel } from "../../../src/modules/portfolio/portfolio.model.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { holdingId } from "../../helpers/book.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
let acme: string;

function setup() {
  ({ t, f } = seededApp());
  acme = holdingId(t.deps, f.orgs.acme.id);
}
const history = (id: string, query: string, key = f.keys.read.secret) => t.request("GET", `/api/v1/portfolio/companies/${id}/metrics${query}`, { key });
const dates = (body: any) => body.points.map((p: any) => `${p.statement_date.slice(0, 10)} ${p.kind} ${p.value}`);

describe("history", () => {
  test("every point of the metric, oldest first; at one date the actual before the budget", async () => {
    setup();
    const res = await history(acme, "?metric=arr");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      company_id: acme,
      metric: "arr",
      points: [
        { value: 1_000_000, unit: "usd", currency: "USD", statement_date: "2024-01-31T00:00:00.000Z", kind: "actual", source: "import", evidence: null },
        { value: 1_200_000, unit: "usd", currency: "USD", statement_date: "2024-02-29T00:00:00.000Z", kind: "actual", source: "import", evidence: null },
        { value: 1_300_000, unit: "usd", currency: "USD", statement_date: "2024-02-29T00:00:00.000Z", kind: "budget", source: "import", evidence: null },
        { value: 1_500_000, unit: "usd", currency: "USD", statement_date: "2024-03-31T00:00:00.000Z", kind: "budget", source: "import", evidence: null },
      ],
      scope: "org",
      as_of: "2026-11-22T12:00:00.000Z",
    });
    expect([...Value.Errors(MetricHistoryModel, res.json)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("the company's other holding reads the same history (metrics belong to the company)", async () => {
    setup();
    const acme2 = holdingId(t.deps, f.orgs.acme.id, "Acme Robotics", "Fund II");
    const res = await history(acme2, "?metric=arr");
    expect(res.json.company_id).toBe(acme2);
    expect(res.json.points.length).toBe(4);
  });

  test("from and to are inclusive days", async () => {
    setup();
    expect(dates((await history(acme, "?metric=arr&from=2024-02-01")).json)).toEqual(["2024-02-29 actual 1200000", "2024-02-29 budget 1300000", "2024-03-31 budget 1500000"]);
    expect(dates((await history(acme, "?metric=arr&to=2024-02-29")).json)).toEqual(["2024-01-31 actual 1000000", "2024-02-29 actual 1200000", "2024-02-29 budget 1300000"]);
    expect(dates((await history(acme, "?metric=arr&from=2024-02-29&to=2024-02-29")).json)).toEqual(["2024-02-29 actual 1200000", "2024-02-29 budget 1300000"]);
    expect((await history(acme, "?metric=arr&from=2025-01-01")).json.points).toEqual([]);
  });

  test("the metric key is case-insensitive; a metric with no points is an empty history, not an error", async () => {
    setup();
    const upper = await history(acme, "?metric=ARR");
    expect(upper.json.metric).toBe("arr");
    expect(upper.json.points.length).toBe(4);
    expect((await history(acme, "?metric=runway_months")).json.points).toEqual([
      { value: 18, unit: "months", currency: null, statement_date: "2024-02-29T00:00:00.000Z", kind: "actual", source: "import", evidence: null },
    ]);
    const none = await history(acme, "?metric=nps");
    expect(none.status).toBe(200);
    expect(none.json.points).toEqual([]);
  });
});

describe("bad requests", () => {
  test("metric is required; dates must be real days; to may not come before from (422 naming the parameter)", async () => {
    setup();
    const cases: [string, string][] = [
      ["", "metric"],
      ["?metric=", "metric"],
      ["?metric=%20%20", "metric"], // blank once trimmed
      ["?metric=%09", "metric"],
      ["?metric=arr&from=2024-13-01", "from"],
      ["?metric=arr&from=2026-02-31", "from"],
      ["?metric=arr&to=2026-02-31", "to"],
      ["?metric=arr&to=2024-04-31", "to"],
      ["?metric=arr&from=2023-02-29", "from"],
      ["?metric=arr&to=yesterday", "to"],
      ["?metric=arr&from=2024-03-01&to=2024-02-01", "to"],
    ];
    for (const [query, param] of cases) {
      const res = await history(acme, query);
      expect(res.status, query).toBe(422);
      expect(res.json.detail, query).toEqual([{ loc: ["query", param], msg: expect.any(String), type: expect.any(String) }]);
    }
    expect((await history(acme, "?metric=%20%20")).json.detail[0].msg).toBe("metric must not be blank");
  });

  test("an unknown id, a non-UUID id, and another organization's holding are 404", async () => {
    setup();
    const globexHolding = holdingId(t.deps, f.orgs.globex.id);
    for (const id of ["0198a3c2-0000-7000-8000-000000000000", "not-a-uuid", "1", globexHolding]) {
      const res = await history(id, "?metric=arr");
      expect(res.status, id).toBe(404);
      // a malformed id may be refused before the service looks (CONTRACT: any non-UUID id is 404)
      expect(res.json.detail).toMatch(/^[0-9a-f-]{36}$/.test(id) ? /No portfolio company/ : /No portfolio company|no such/);
    }
    // ...while the owning org reads it
    expect((await history(globexHolding, "?metric=arr", f.keys.otherOrgWrite.secret)).status).toBe(200);
  });
});
