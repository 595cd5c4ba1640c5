// Investor updates (CONTRACT.md, "Investor updates"): recognition, figures with their periods and
// quotes, forecasts and quoted messages left out, conflicts to review, idempotence by Message-ID,
// GET /api/v1/portfolio/updates (auth, scoping, filters, 422s), the metric history's source and
// evidence, the review queue's decisions, the webhook event and the ask tool's reported figures.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { MetricHistoryModel } from "../../../src/modules/portfolio/portfolio.model.ts";
import { UpdateListModel } from "../../../src/modules/updates/updates.model.ts";
import { updatesRecognition } from "../../../src/modules/updates/updates.recognise.ts";
import { updatesService } from "../../../src/modules/updates/updates.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { holdingId, importPortfolioBook } from "../../helpers/book.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { eml } from "../../helpers/updates.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
  importPortfolioBook(t.deps, f.orgs.acme.id);
  importPortfolioBook(t.deps, f.orgs.globex.id);
}

const OCTOBER = eml({
  from: "Jane Doe <jane@acme.com>",
  subject: "Acme Robotics - October 2024 update",
  date: "Tue, 05 Nov 2024 09:00:00 +0000",
  id: "<oct-2024@acme.com>",
  body: [
    "Hi all,",
    "",
    "Here is our October update.",
    "",
    "- ARR grew 12% MoM to $1.5M (up from $1.34M in September).",
    "- Net burn was $180k; cash in bank $3.4M.",
    "- Team is now 42 FTEs. We hired 3 people this month.",
    "- We expect to reach $2M ARR by end of Q2 2025.",
    "",
    "Best,",
    "Jane",
    "",
    "On Mon, Oct 7, 2024 at 9:00 AM Jane <jane@acme.com> wrote:",
    "> ARR was $1.34M, cash $3.6M",
  ].join("\n"),
});

const ingest = (raw: string, orgId = f.orgs.acme.id) => updatesService(t.deps).ingest(orgId, raw, { userId: f.users.alice.id, origin: "import" });
const list = (query = "", key = f.keys.read.secret) => t.request("GET", `/api/v1/portfolio/updates${query}`, { key });

describe("reading an update", () => {
  test("figures with value, currency, period and quote; forecasts, changes, earlier and quoted figures left out", async () => {
    setup();
    const r = await ingest(OCTOBER);
    expect(r.outcome).toBe("applied");
    const res = await list();
    expect(res.status).toBe(200);
    expect(Value.Check(UpdateListModel, res.json)).toBe(true);
    const [u] = res.json.updates;
    expect(u).toMatchObject({ company_id: holdingId(t.deps, f.orgs.acme.id), company_name: "Acme Robotics", from: "jane@acme.com", period_end: "2024-10-31" });
    const figures = Object.fromEntries(u.figures.map((x: any) => [x.metric, x]));
    expect(Object.keys(figures).sort()).toEqual(["arr", "cash", "headcount", "monthly_burn"]);
    expect(figures.arr).toMatchObject({ value: 1_500_000, currency: "USD", period_end: "2024-10-31", status: "applied", reason: null, quote: "ARR grew 12% MoM to $1.5M (up from $1.34M in September).", source: { message_id: "<oct-2024@acme.com>", document_id: null, page: null } });
    expect(figures.monthly_burn.value).toBe(180_000);
    expect(figures.cash.value).toBe(3_400_000);
    expect(figures.headcount).toMatchObject({ value: 42, unit: "people", currency: null });
  });

  test("an applied figure is a metric point from the update, with its quote; imported points say so", async () => {
    setup();
    const r = await ingest(OCTOBER);
    const id = holdingId(t.deps, f.orgs.acme.id);
    const res = await t.request("GET", `/api/v1/portfolio/companies/${id}/metrics?metric=arr`, { key: f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(Value.Check(MetricHistoryModel, res.json)).toBe(true);
    const points = res.json.points;
    expect(points[0]).toMatchObject({ statement_date: "2024-01-31T00:00:00.000Z", source: "import", evidence: null });
    expect(points.at(-1)).toMatchObject({
      value: 1_500_000,
      statement_date: "2024-10-31T00:00:00.000Z",
      kind: "actual",
      source: "investor_update",
      evidence: { update_id: r.outcome === "applied" ? r.updateId : "", quote: "ARR grew 12% MoM to $1.5M (up from $1.34M in September)." },
    });
  });

  test("the same message twice (imported, then synced) applies once", async () => {
    setup();
    expect((await ingest(OCTOBER)).outcome).toBe("applied");
    const again = await updatesService(t.deps).ingest(f.orgs.acme.id, OCTOBER, { userId: f.users.bob.id, origin: "sync" });
    expect(again).toEqual({ outcome: "duplicate", messageId: "<oct-2024@acme.com>" });
    expect((await list()).json.total).toBe(1);
  });

  test("a different actual already in the book sends the figure to review with the reason", async () => {
    setup();
    const raw = eml({ from: "jane@acme.com", subject: "February 2024 numbers", date: "Mon, 04 Mar 2024 09:00:00 +0000", id: "<feb@acme.com>", body: "February 2024 update:\nARR: $1.25M\nNet burn: $150k" });
    await ingest(raw);
    const figures = (await list()).json.updates[0].figures;
    expect(figures.find((x: any) => x.metric === "arr")).toMatchObject({ status: "needs_review", period_end: "2024-02-29", reason: "the book already has 1,200,000 USD for this period (imported)" });
    // The same value as the book's actual is that actual: applied, nothing rewritten.
    expect(figures.find((x: any) => x.metric === "monthly_burn")).toMatchObject({ status: "applied", value: 150_000 });
  });

  test("no period written: every figure waits for review, and nothing is applied", async () => {
    setup();
    await ingest(eml({ from: "jane@acme.com", subject: "Quick numbers", date: "Mon, 04 Nov 2024 09:00:00 +0000", id: "<np@acme.com>", body: "Quick update on our metrics:\nARR: $1.6M\nCash: $3.1M" }));
    const figures = (await list()).json.updates[0].figures;
    expect(figures.map((x: any) => [x.metric, x.status, x.period_end, x.reason])).toEqual([
      ["arr", "needs_review", null, "the update names no period"],
      ["cash", "needs_review", null, "the update names no period"],
    ]);
  });

  test("an HTML table: each period's column, never the plan or the change", async () => {
    setup();
    const html = `<p>Our Q3 2024 update.</p><table><tr><th></th><th>Sep 2024</th><th>Aug 2024</th><th>MoM</th><th>Plan Sep</th></tr>
      <tr><td>MRR</td><td>$110,000</td><td>$100,000</td><td>+10%</td><td>$120,000</td></tr>
      <tr><td>Customers</td><td>64</td><td>60</td><td>+6.7%</td><td>70</td></tr></table>`;
    await ingest(eml({ from: "jane@acme.com", subject: "Q3 2024 update", date: "Fri, 04 Oct 2024 09:00:00 +0000", id: "<q3@acme.com>", body: "Our Q3 2024 update (see the table).", html }));
    const figures = (await list()).json.updates[0].figures.map((x: any) => [x.metric, x.value, x.period_end, x.status]);
    expect(figures).toEqual([
      ["mrr", 110_000, "2024-09-30", "applied"],
      ["mrr", 100_000, "2024-08-31", "applied"],
      ["customers", 64, "2024-09-30", "applied"],
      ["customers", 60, "2024-08-31", "applied"],
    ]);
  });

  test("number styles as people write them", async () => {
    setup();
    const body = ["Monatsupdate Oktober 2024", "Umsatz im Oktober: 1,2 Mio. €", "Liquidität: 1.234.567 €", "Burn: €85k pro Monat", "MRR: 120K €", "Mitarbeitende: 23"].join("\n");
    await ingest(eml({ from: "anna@echelle.fr", subject: "Update", date: "Mon, 04 Nov 2024 09:00:00 +0000", id: "<de@echelle.fr>", body }));
    const figures = (await list()).json.updates[0].figures.map((x: any) => [x.metric, x.value, x.currency, x.unit]);
    expect(figures).toEqual([
      ["revenue", 1_200_000, "EUR", "month"],
      ["cash", 1_234_567, "EUR", null],
      ["monthly_burn", 85_000, "EUR", null],
      ["mrr", 120_000, "EUR", null],
      ["headcount", 23, null, "people"],
    ]);
  });
});

describe("recognition", () => {
  test("mail from no holding's domain is not an update; a listed sender is", async () => {
    setup();
    const raw = eml({ from: "founder@gmail.com", subject: "October 2024 update", date: "Tue, 05 Nov 2024 09:00:00 +0000", id: "<g@gmail.com>", body: "October 2024 update\nARR: $1.1M\nCash: $2M" });
    expect((await ingest(raw)).outcome).toBe("not_an_update");
    const bolt = holdingId(t.deps, f.orgs.acme.id, "Bolt Payments");
    updatesRecognition(t.deps).addSender(f.orgs.acme.id, bolt, "Founder@Gmail.com");
    const r = await ingest(raw);
    expect(r).toMatchObject({ outcome: "applied", companyId: bolt });
  });

  test("a partner's forward counts with the original sender; a stranger's does not", async () => {
    setup();
    const forward = (from: string, id: string) =>
      eml({
        from,
        subject: "Fwd: Acme Robotics - October 2024 update",
        date: "Wed, 06 Nov 2024 09:00:00 +0000",
        id,
        body: ["FYI, strong month. I think they are at $2M ARR really.", "", "---------- Forwarded message ---------", "From: Jane Doe <jane@acme.com>", "Date: Tue, 5 Nov 2024", "Subject: October 2024 update", "", "October 2024 update", "ARR: $1.5M", "Cash: $3.4M"].join("\n"),
      });
    const r = await ingest(forward("Bob Baker <bob@acme.vc>", "<fwd1@acme.vc>"));
    expect(r).toMatchObject({ outcome: "applied", companyId: holdingId(t.deps, f.orgs.acme.id) });
    const u = (await list()).json.updates[0];
    expect(u.from).toBe("jane@acme.com");
    // The partner's own estimate in the forwarding note is no figure.
    expect(u.figures.map((x: any) => [x.metric, x.value])).toEqual([["arr", 1_500_000], ["cash", 3_400_000]]);
    expect((await ingest(forward("mallory@evil.example", "<fwd2@evil.example>"))).outcome).toBe("not_an_update");
  });
});

describe("GET /api/v1/portfolio/updates", () => {
  test("filters by company and status, pages, and scopes to the org", async () => {
    setup();
    await ingest(OCTOBER);
    await ingest(eml({ from: "jane@acme.com", subject: "Numbers", date: "Mon, 04 Nov 2024 10:00:00 +0000", id: "<np@acme.com>", body: "Our metrics update:\nARR: $1.6M\nCash: $3.1M" }));
    const acme = holdingId(t.deps, f.orgs.acme.id);
    const all = await list(`?company_id=${acme}`);
    expect(all.json).toMatchObject({ total: 2, limit: 50, offset: 0, has_more: false, scope: "org" });
    const review = await list("?status=needs_review");
    expect(review.json.total).toBe(1);
    expect(review.json.updates[0].figures.every((x: any) => x.status === "needs_review")).toBe(true);
    const page = await list("?limit=1&offset=0");
    expect(page.json).toMatchObject({ total: 2, has_more: true });
    expect(page.json.updates).toHaveLength(1);
    // Another org's company: 404; the other org sees none of these updates.
    expect((await list(`?company_id=${holdingId(t.deps, f.orgs.globex.id)}`)).status).toBe(404);
    expect((await list("", f.keys.otherOrgWrite.secret)).json.total).toBe(0);
  });

  test("bad parameters are 422 with their location; no key is 401", async () => {
    setup();
    for (const q of ["?status=done", "?limit=0", "?limit=201", "?offset=-1", "?company_id=not-a-uuid"]) {
      const res = await list(q);
      expect(res.status).toBe(422);
      expect(res.json.detail[0].loc[0]).toBe("query");
    }
    expect((await t.request("GET", "/api/v1/portfolio/updates")).status).toBe(401);
  });
});

describe("the review queue", () => {
  test("accept writes the actual, a corrected period applies on accept, reject takes back a point it wrote", async () => {
    setup();
    await ingest(eml({ from: "jane@acme.com", subject: "Numbers", date: "Mon, 04 Nov 2024 10:00:00 +0000", id: "<np@acme.com>", body: "Our metrics update:\nARR: $1.6M\nCash: $3.1M" }));
    const svc = updatesService(t.deps);
    const [arr, cash] = (await list()).json.updates[0].figures;
    expect(() => svc.review(f.orgs.acme.id, f.users.alice.id, arr.figure_id, { decision: "accept" })).toThrow(/no period/);
    svc.review(f.orgs.acme.id, f.users.alice.id, arr.figure_id, { decision: "period", periodEnd: "2024-10-31" });
    expect(svc.review(f.orgs.acme.id, f.users.alice.id, arr.figure_id, { decision: "accept" })).toMatchObject({ status: "applied", period_end: "2024-10-31" });
    const id = holdingId(t.deps, f.orgs.acme.id);
    const history = async () => (await t.request("GET", `/api/v1/portfolio/companies/${id}/metrics?metric=arr&from=2024-10-01`, { key: f.keys.read.secret })).json.points;
    expect(await history()).toMatchObject([{ value: 1_600_000, source: "investor_update" }]);
    svc.review(f.orgs.acme.id, f.users.alice.id, arr.figure_id, { decision: "reject" });
    expect(await history()).toEqual([]);
    expect(svc.review(f.orgs.acme.id, f.users.alice.id, cash.figure_id, { decision: "reject" })).toMatchObject({ status: "rejected" });
    // Another org's figure is not found.
    expect(() => svc.review(f.orgs.globex.id, f.users.carol.id, cash.figure_id, { decision: "accept" })).toThrow(/No update figure/);
  });
});

describe("the webhook event and the ask tool's figures", () => {
  test("portfolio.update.received is in the outbox; reportedFigures gives the applied figures with their quotes", async () => {
    setup();
    const r = await ingest(OCTOBER);
    if (r.outcome !== "applied") throw new Error("not applied");
    const events = t.deps.db.$client.query<{ event: string; entity_id: string; result_url: string }, []>("SELECT event, entity_id, result_url FROM outbox_events").all();
    expect(events).toEqual([{ event: "portfolio.update.received", entity_id: r.updateId, result_url: `/api/v1/portfolio/updates?company_id=${r.companyId}` }]);
    const figures = updatesService(t.deps).reportedFigures(f.orgs.acme.id, r.companyId, { since: "2024-10-01" });
    expect(figures.map((x) => [x.metric, x.value, x.period_end])).toEqual([
      ["arr", 1_500_000, "2024-10-31"],
      ["cash", 3_400_000, "2024-10-31"],
      ["headcount", 42, "2024-10-31"],
      ["monthly_burn", 180_000, "2024-10-31"],
    ]);
    expect(figures[0]).toMatchObject({ quote: "ARR grew 12% MoM to $1.5M (up from $1.34M in September).", received_at: "2024-11-05T09:00:00.000Z", company_name: "Acme Robotics" });
  });
});
