// The `portfolio.update.received` webhook (CONTRACT.md, "Investor updates": `update_id`,
// `company_id`, counts by status) delivered to a real receiver on 127.0.0.1 by the real
// webhook-delivery job: the counts are the update's figures by status as the API lists them, a
// redelivery sends the same payload, another org's endpoint hears nothing, and a run's events keep
// the thin payload of the spec (`entity_id`, `result_url` only).
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { webhookDelivery } from "../../../jobs/webhook-delivery.ts";
import { updatesService } from "../../../src/modules/updates/updates.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { holdingId, importPortfolioBook } from "../../helpers/book.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { eml } from "../../helpers/updates.ts";
import { finishRun, ledger, register, startReceiver, type Received, type Receiver } from "../../helpers/webhooks.ts";

let t: TestApp;
let f: Fixture;
let receivers: Receiver[] = [];
afterEach(() => {
  setSystemTime();
  for (const r of receivers) r.stop();
  receivers = [];
});

function setup() {
  // The clock starts at the real time so the receiver-side timestamp check of standardwebhooks holds.
  ({ t, f } = seededApp({ clock: new TestClock(new Date()), env: { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } }));
  importPortfolioBook(t.deps, f.orgs.acme.id);
  importPortfolioBook(t.deps, f.orgs.globex.id);
}

function receiver(answer?: (n: number) => Response) {
  const r = startReceiver(answer ? (n) => answer(n) : undefined);
  receivers.push(r);
  return r;
}

/** The payload as a Standard Webhooks receiver verifies it, at the time it was signed. */
function verified(secret: string, r: Received): any {
  setSystemTime(new Date(Number(r.headers["webhook-timestamp"]) * 1000));
  try {
    return new Webhook(secret).verify(r.body, r.headers);
  } finally {
    setSystemTime();
  }
}

// February 2024: the book (helpers/book.ts) already has ARR 1.2M for it, so the update's $1.25M
// goes to review; its burn and headcount are applied.
const FEBRUARY = eml({
  from: "Jane Doe <jane@acme.com>",
  subject: "Acme Robotics - February 2024 update",
  date: "Mon, 04 Mar 2024 09:00:00 +0000",
  id: "<feb-2024-hook@acme.com>",
  body: "February 2024 update:\nARR: $1.25M\nNet burn: $150k\nTeam: 31 people",
});

describe("portfolio.update.received", () => {
  test("carries update_id, company_id and the update's counts by status; a redelivery carries the same", async () => {
    setup();
    const r = receiver((n) => new Response(null, { status: n === 1 ? 410 : 204 }));
    const other = receiver();
    const hook = await register(t, f, r.url());
    await register(t, f, other.url(), f.keys.otherOrgWrite.secret);
    t.clock.advance(1000);
    const result = await updatesService(t.deps).ingest(f.orgs.acme.id, FEBRUARY, { userId: f.users.alice.id, origin: "import" });
    if (result.outcome !== "applied") throw new Error(`not applied: ${JSON.stringify(result)}`);
    await webhookDelivery.runOnce(t.deps);

    // The update's figures by status, as the API lists them.
    const listed = await t.request("GET", `/api/v1/portfolio/updates?company_id=${result.companyId}`, { key: f.keys.read.secret });
    const update = listed.json.updates.find((u: any) => u.update_id === result.updateId);
    const byStatus = { applied: 0, needs_review: 0, rejected: 0 } as Record<string, number>;
    for (const x of update.figures) byStatus[x.status]++;
    expect(byStatus).toEqual({ applied: 2, needs_review: 1, rejected: 0 });

    expect(r.received).toHaveLength(1);
    const payload = verified(hook.secret, r.received[0]);
    expect(payload).toEqual({
      event: "portfolio.update.received",
      id: r.received[0].headers["webhook-id"],
      created_at: expect.any(String),
      data: {
        entity_id: result.updateId,
        result_url: `/api/v1/portfolio/updates?company_id=${result.companyId}`,
        update_id: result.updateId,
        company_id: holdingId(t.deps, f.orgs.acme.id),
        counts: byStatus,
      },
    });
    expect(result.counts).toEqual(byStatus as typeof result.counts);
    // Another org's endpoint hears nothing of it.
    expect(other.received).toHaveLength(0);

    // The receiver answered 410: the delivery failed; redelivered, the same payload (same id) arrives.
    const [gone] = await ledger(t, f, hook.id);
    expect(gone).toMatchObject({ event: "portfolio.update.received", entity_id: result.updateId, status: "failed", last_response_code: 410 });
    const res = await t.request("POST", `/api/v1/webhooks/${hook.id}/deliveries/${gone.delivery_id}/redeliver`, { key: f.keys.write.secret });
    expect(res.status).toBe(202);
    await webhookDelivery.runOnce(t.deps);
    expect(r.received).toHaveLength(2);
    expect(verified(hook.secret, r.received[1])).toEqual(payload);

    // The same message again is a duplicate: no second event.
    expect((await updatesService(t.deps).ingest(f.orgs.acme.id, FEBRUARY, { userId: f.users.bob.id, origin: "sync" })).outcome).toBe("duplicate");
    await webhookDelivery.runOnce(t.deps);
    expect(r.received).toHaveLength(2);
  });

  test("a run's events keep the thin payload: entity_id and result_url only", async () => {
    setup();
    const r = receiver();
    const hook = await register(t, f, r.url());
    t.clock.advance(1000);
    finishRun(t, f, { subject: "0190f3c8-7d2b-7000-8000-000000000002" });
    await webhookDelivery.runOnce(t.deps);
    expect(verified(hook.secret, r.received[0]).data).toEqual({ entity_id: "0190f3c8-7d2b-7000-8000-000000000002", result_url: "/api/v1/deals/0190f3c8-7d2b-7000-8000-000000000002" });
  });
});
