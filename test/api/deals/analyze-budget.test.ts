// POST /api/v1/deals/analyze with the key's actions budget spent: 429 with the X-Actions-* headers
// and Retry-After, and nothing created (no deal, no run, no charge), for websites and document
// links alike; the key's other budget (requests) still counts the request.
import { describe, expect, test } from "bun:test";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup(dailyActions: number) {
  ({ t, f } = seededApp());
  t.deps.db.$client.query("UPDATE api_keys SET daily_actions = ? WHERE id = ?").run(dailyActions, f.keys.write.id);
}

const count = (sql: string) => (t.deps.db.$client.query(sql).get() as { n: number }).n;
const state = () => ({ deals: count("SELECT COUNT(*) AS n FROM deals"), runs: count("SELECT COUNT(*) AS n FROM action_runs"), actions: count("SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage") });

describe("POST /api/v1/deals/analyze with the actions budget spent", () => {
  for (const [what, body] of [
    ["a website", { website_url: "https://acme.example/" }],
    ["a document link with a password", { document_url: "https://docsend.com/view/abc123", company_name: "Acme", document_password: "s3cret" }],
  ] as const) {
    test(`${what}: 429 with X-Actions-* and Retry-After; no deal, no run, no charge`, async () => {
      setup(1);
      const first = await t.request("POST", "/api/v1/deals/analyze", { key: f.keys.write.secret, body: { website_url: "https://first.example/" } });
      expect(first.status).toBe(202);
      expect(first.headers.get("x-actions-remaining")).toBe("0");
      const before = state();
      const requestsBefore = count("SELECT COALESCE(SUM(requests), 0) AS n FROM key_usage");

      const res = await t.request("POST", "/api/v1/deals/analyze", { key: f.keys.write.secret, body });
      expect(res.status).toBe(429);
      expect(res.json.detail).toMatch(/action/i);
      expect(res.headers.get("x-actions-limit")).toBe("1");
      expect(res.headers.get("x-actions-remaining")).toBe("0");
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(state()).toEqual(before);
      // The request itself still counted against the request budget (CONTRACT.md).
      expect(count("SELECT COALESCE(SUM(requests), 0) AS n FROM key_usage")).toBe(requestsBefore + 1);
      // Nothing of the refused submission is readable either.
      expect((await t.request("GET", "/api/v1/deals", { key: f.keys.read.secret })).json.total).toBe(1);
    });
  }

  test("a budget of zero: the very first submission is refused the same way", async () => {
    setup(0);
    const res = await t.request("POST", "/api/v1/deals/analyze", { key: f.keys.write.secret, body: { website_url: "https://acme.example/" } });
    expect(res.status).toBe(429);
    expect(res.headers.get("x-actions-limit")).toBe("0");
    expect(state()).toEqual({ deals: 0, runs: 0, actions: 0 });
  });
});
