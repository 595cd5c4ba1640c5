// GET /api/v1/deals reads analysis_status from the deals row (kept by triggers on action_runs) and
// pages from deals_org_list_idx. These tests hold it to what the list has always meant: the status
// of the deal's latest run, through every transition the action engine makes, and check that the
// statements stay on the index (a plan that scans deals or sorts them would undo the speed-up).
import { describe, expect, test } from "bun:test";
import { sweepStaleRuns } from "../../../src/modules/actions/actions.sweep.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { DEAL_ANALYSIS, dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
}

const sqlite = () => t.deps.db.$client;

/** A deal through the real submission path (its first run queued); `name` is its company. */
function submit(name: string, secret = f.keys.write.secret) {
  return dealsService(t.deps).submit(principalOf(t.deps, secret), { companyName: name, kind: "company", source: "upload", targetKey: nameTarget(name) }, () => {}, {});
}

/** What the list meant before the column: the latest run's status, by a subquery per deal. */
function reference(orgId: string) {
  return sqlite()
    .query<{ id: string; status: string | null }, [string]>(
      `SELECT d.id, (SELECT status FROM action_runs a WHERE a.subject_id = d.id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) AS status
       FROM deals d WHERE d.org_id = ? ORDER BY d.created_at DESC, d.id DESC`,
    )
    .all(orgId);
}

async function listed(qs = "") {
  const res = await t.request("GET", `/api/v1/deals?${qs.includes("limit=") ? "" : "limit=200"}${qs}`, { key: f.keys.read.secret });
  expect(res.status).toBe(200);
  return res.json as { total: number; deals: { deal_id: string; analysis_status: string | null }[] };
}

/** The API's list, unfiltered and by each status, agrees with the reference. */
async function agreesWithReference() {
  const want = reference(f.orgs.acme.id);
  const all = await listed();
  expect(all.deals.map((d) => [d.deal_id, d.analysis_status])).toEqual(want.map((r) => [r.id, r.status]));
  for (const status of ["queued", "running", "succeeded", "failed"]) {
    const some = await listed(`&status=${status}`);
    const ids = want.filter((r) => r.status === status).map((r) => r.id);
    expect(some.deals.map((d) => d.deal_id), status).toEqual(ids);
    expect(some.total, status).toBe(ids.length);
  }
}

describe("GET /api/v1/deals: analysis_status follows the latest run", () => {
  test("through queued, running, succeeded and failed, a second run, the stale sweep, and another org's runs", async () => {
    setup();
    const actions = actionsService(t.deps);
    const a = submit("Alpha");
    t.clock.advance(1000);
    const b = submit("Beta");
    t.clock.advance(1000);
    const c = submit("Gamma");
    await agreesWithReference();
    expect((await listed("&status=queued")).total).toBe(3);

    actions.start(a.run.id);
    actions.succeed(a.run.id);
    actions.start(b.run.id);
    await agreesWithReference();
    expect((await listed("&status=running")).deals.map((d) => d.deal_id)).toEqual([b.dealId]);

    // A second run of a finished deal (a data-room pass) is the latest: its status is the deal's.
    t.clock.advance(1000);
    const second = sqlite().transaction(() => actions.dispatch(principalOf(t.deps, f.keys.write.secret), DEAL_ANALYSIS, a.dealId, { data_room: true }))();
    await agreesWithReference();
    expect((await listed("&status=queued")).deals.map((d) => d.deal_id)).toEqual([c.dealId, a.dealId]);
    actions.start(second.run.id);
    actions.fail(second.run.id, "A data-room file could not be read");
    await agreesWithReference();

    // The sweep fails a run that stopped reporting; the list sees it.
    t.clock.advance((t.deps.config.staleRunSeconds + 60) * 1000);
    expect(sweepStaleRuns(t.deps).failed).toBe(1);
    await agreesWithReference();
    expect((await listed("&status=failed")).deals.map((d) => d.deal_id)).toEqual([b.dealId, a.dealId]);

    // Another org's deals and runs change nothing here.
    const other = submit("Alpha", f.keys.otherOrgWrite.secret);
    actions.start(other.run.id);
    await agreesWithReference();
    expect((await listed()).total).toBe(3);
  });

  test("two runs created in the same instant: the larger id is the latest, as before", async () => {
    setup();
    const actions = actionsService(t.deps);
    const deal = submit("Tie");
    actions.start(deal.run.id);
    actions.succeed(deal.run.id);
    const again = sqlite().transaction(() => actions.dispatch(principalOf(t.deps, f.keys.write.secret), DEAL_ANALYSIS, deal.dealId, {}))();
    // Same created_at for both (the test clock did not move): order by id decides.
    expect(sqlite().query("SELECT COUNT(DISTINCT created_at) AS n FROM action_runs WHERE subject_id = ?").get(deal.dealId)).toEqual({ n: 1 });
    await agreesWithReference();
    // A run deleted (its user removed, say): the deal falls back to the run before it, or to none.
    sqlite().query("DELETE FROM action_runs WHERE id = ?").run(again.run.id);
    await agreesWithReference();
    sqlite().query("DELETE FROM action_runs WHERE subject_id = ?").run(deal.dealId);
    await agreesWithReference();
    expect((await listed()).deals[0].analysis_status).toBeNull();
  });

  test("paging, filters and name search page newest first, and the count matches", async () => {
    setup();
    const names = ["Ledgerly", "Payly", "ledger_box", "Harbor 100%", "Acme"];
    const ids = names.map((n) => {
      t.clock.advance(1000);
      return submit(n).dealId;
    });
    const newestFirst = [...ids].reverse();
    expect((await listed("&limit=2&offset=1")).deals.map((d) => d.deal_id)).toEqual(newestFirst.slice(1, 3));
    const page = await t.request("GET", "/api/v1/deals?limit=2&offset=4", { key: f.keys.read.secret });
    expect(page.json).toMatchObject({ total: 5, has_more: false });
    expect(page.json.deals.map((d: any) => d.deal_id)).toEqual(newestFirst.slice(4));
    expect((await listed("&q=LEDGER")).deals.map((d) => d.deal_id)).toEqual([ids[2], ids[0]]);
    // LIKE wildcards in the search are plain characters.
    expect((await listed("&q=_")).deals.map((d) => d.deal_id)).toEqual([ids[2]]);
    expect((await listed("&q=100%25")).deals.map((d) => d.deal_id)).toEqual([ids[3]]);
    const row = (await listed("&q=Acme")).deals[0];
    expect(Object.keys(row).sort()).toEqual(["analysis_status", "company_name", "created_at", "deal_id", "domain", "kind", "score", "source", "stage", "updated_at", "website"]);
  });
});

describe("the list's statements stay on the index", () => {
  test("count and page: no scan of deals, no sort, no JSON read; the triggers that keep the status exist", () => {
    setup();
    const triggers = sqlite().query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'deals_analysis_status_%' ORDER BY name").all();
    expect(triggers.map((r) => r.name)).toEqual(["deals_analysis_status_deal_insert", "deals_analysis_status_run_delete", "deals_analysis_status_run_insert", "deals_analysis_status_run_update"]);
    // Capture the statements the service runs, then ask SQLite how it would run each.
    const seen: string[] = [];
    const db = sqlite();
    const query = db.query.bind(db);
    db.query = ((sql: string) => (seen.push(sql), query(sql))) as typeof db.query;
    try {
      for (const filters of [{}, { status: "failed" as const }, { stage: "ic" }, { kind: "fund" as const }, { q: "ledger" }, { status: "succeeded" as const, kind: "company" as const, q: "a" }]) {
        dealsService(t.deps).list(f.orgs.acme.id, { limit: 50, offset: 100, ...filters });
      }
    } finally {
      db.query = query;
    }
    expect(seen.length).toBe(12);
    for (const sql of seen) {
      const plan = db
        .query<{ detail: string }, Record<string, string | number>>(`EXPLAIN QUERY PLAN ${sql}`)
        .all({ org: "o", limit: 1, offset: 0, status: "failed", stage: "ic", kind: "fund", q: "%a%" })
        .map((p) => p.detail)
        .join(" | ");
      expect(plan, sql).toMatch(/USING COVERING INDEX deals_org_list_idx|USING COVERING INDEX deals_org_target_idx/);
      expect(plan, sql).not.toMatch(/SCAN d\b|action_runs/);
      // Only the page itself (at most `limit` rows, already read in order) may be sorted again.
      expect(plan.split("SCAN page")[0], sql).not.toMatch(/TEMP B-TREE/);
      expect(sql).not.toMatch(/\bd\.\*|analysis\b(?!_status)|facts/);
    }
  });
});
