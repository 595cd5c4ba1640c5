// Every paged route (any GET /api/v1 operation with a limit, offset or cursor parameter, read from
// the OpenAPI document so a new one cannot be missed) on the numbers a fuzzer tries: past the
// safe integer range is 422 naming the parameter, never a 500; an offset past the data is an
// empty page that still counts the total.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { importPortfolioBook } from "../../helpers/book.ts";
import { principalOf, seedIdentity, type Fixture } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";
import { eml } from "../../helpers/updates.ts";
import { seedEndpoint } from "../../helpers/webhooks.ts";
import { updatesService } from "../../../src/modules/updates/updates.service.ts";
import { connectionsLedger } from "../../../src/modules/connections/connections.ledger.ts";
import { connections } from "../../../src/modules/connections/connections.tables.ts";

let t: TestApp;
let f: Fixture;
let webhookId: string;
let connectionId: string;

beforeAll(async () => {
  t = createTestApp();
  f = seedIdentity(t.deps);
  const alice = principalOf(t.deps, f.keys.write.secret);
  for (const name of ["Alpha", "Beta", "Gamma"]) dealsService(t.deps).submit(alice, { companyName: name, kind: "company", source: "upload", targetKey: nameTarget(name) }, () => {}, {});
  importPortfolioBook(t.deps, f.orgs.acme.id);
  for (const i of [1, 2, 3]) knows(t.deps, f.users.alice.id, { email: `p${i}@acme-target.com`, name: `Person ${i}` }, thread(4, 20, 10 * i));
  webhookId = seedEndpoint(t, f.orgs.acme.id).webhookId;
  // One investor update from a holding's domain, so the updates list has a row to page past.
  const update = eml({ from: "Jane Doe <jane@acme.com>", subject: "Acme Robotics - October 2024 update", date: "Tue, 05 Nov 2024 09:00:00 +0000", id: "<paging@acme.com>", body: "Our October update: ARR was $1.5M." });
  await updatesService(t.deps).ingest(f.orgs.acme.id, update, { userId: f.users.alice.id, origin: "import" });
  // A mailbox of Alice's with two ledger rows (two syncs of INBOX, the second with nothing new).
  connectionId = crypto.randomUUID();
  const now = t.deps.clock.now().toISOString();
  t.deps.db.insert(connections).values({ id: connectionId, orgId: f.orgs.acme.id, userId: f.users.alice.id, kind: "mail", source: "imap", account: "alice@acme.vc", accountKey: "alice@acme.vc", secretSealed: "never-opened", createdAt: now, updatedAt: now }).run();
  const ledger = connectionsLedger(t.deps);
  ledger.add({ connectionId, run: "paging-1", folder: "INBOX", uidValidity: "1", uidFrom: 1, uidTo: 3 }, { seen: 3, imported: 3, duplicates: 0, skipped: {}, failed: {} });
  ledger.add({ connectionId, run: "paging-2", folder: "INBOX", uidValidity: "1", uidFrom: 4, uidTo: 3 }, { seen: 0, imported: 0, duplicates: 0, skipped: {}, failed: {} });
});
afterAll(() => t.close());

// The path of each paged operation, with what it needs to answer 200 (a webhook id, a domain).
const PAGED: Record<string, { path: () => string; total?: (body: any) => number; items: string }> = {
  "/api/v1/deals": { path: () => "/api/v1/deals?", total: (b) => b.total, items: "deals" },
  "/api/v1/portfolio/companies": { path: () => "/api/v1/portfolio/companies?", total: (b) => b.total, items: "companies" },
  "/api/v1/portfolio/updates": { path: () => "/api/v1/portfolio/updates?", total: (b) => b.total, items: "updates" },
  "/api/v1/network/who-knows": { path: () => "/api/v1/network/who-knows?domain=acme-target.com&", items: "paths" },
  "/api/v1/network/contacts": { path: () => "/api/v1/network/contacts?", items: "contacts" },
  "/api/v1/network/reach/candidates": { path: () => "/api/v1/network/reach/candidates?", items: "candidates" },
  "/api/v1/network/signals/going-stale": { path: () => "/api/v1/network/signals/going-stale?", items: "contacts" },
  "/api/v1/webhooks/{webhook_id}/deliveries": { path: () => `/api/v1/webhooks/${webhookId}/deliveries?`, items: "deliveries" },
  "/api/v1/me/connections/{connection_id}/ledger": { path: () => `/api/v1/me/connections/${connectionId}/ledger?`, total: (b) => b.total, items: "ledger" },
};

const HUGE = ["9223372036854776000", "1e300", "9007199254740992", "1e17"];

async function pagedOperations(): Promise<{ path: string; params: string[] }[]> {
  const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
  const out: { path: string; params: string[] }[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    const params: string[] = (ops.get?.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name);
    if (params.some((p) => p === "limit" || p === "offset" || p === "cursor")) out.push({ path, params });
  }
  return out;
}

const get = (path: string) => t.request("GET", path, { key: f.keys.write.secret });

describe("every paged route", () => {
  test("is listed here (a new paged route must be added to this table)", async () => {
    expect((await pagedOperations()).map((o) => o.path).sort()).toEqual(Object.keys(PAGED).sort());
  });

  test("a limit or offset past the safe integer range is 422 naming it, and nothing else answers 500", async () => {
    for (const { path, params } of await pagedOperations()) {
      const base = PAGED[path].path();
      expect({ path, status: (await get(base)).status }).toEqual({ path, status: 200 });
      for (const name of params.filter((p) => p === "limit" || p === "offset")) {
        for (const value of HUGE) {
          const res = await get(`${base}${name}=${value}`);
          expect({ path, name, value, status: res.status, loc: res.json?.detail?.[0]?.loc }).toEqual({ path, name, value, status: 422, loc: ["query", name] });
        }
      }
    }
  });

  test("an offset past the data, up to the largest safe integer, is an empty page with the total", async () => {
    for (const { path, params } of await pagedOperations()) {
      if (!params.includes("offset")) continue;
      const { total, items } = PAGED[path];
      const all = (await get(`${PAGED[path].path()}limit=200`)).json;
      const count = total!(all);
      expect(count).toBeGreaterThan(0);
      for (const offset of [count, count + 1, 1_000_000, Number.MAX_SAFE_INTEGER]) {
        const res = await get(`${PAGED[path].path()}offset=${offset}`);
        expect({ path, offset, status: res.status }).toEqual({ path, offset, status: 200 });
        expect(res.json).toMatchObject({ [items]: [], total: count, offset, has_more: false });
      }
      // The last row is still there one before the end.
      expect((await get(`${PAGED[path].path()}offset=${count - 1}`)).json[items]).toHaveLength(1);
    }
  });
});
