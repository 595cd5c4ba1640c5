// Webhook delivery beyond one happy path: who receives what (registration time, deletion, orgs),
// restarts mid-schedule (a new process on the same database file and key file), a lease left by a
// killed worker, stop() mid-attempt, rotation with both signatures during the overlap, manual
// redelivery, the concurrency bound, and the server's fast path.
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { join } from "node:path";
import { webhookDelivery } from "../../jobs/webhook-delivery.ts";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { createDispatcher } from "../../src/modules/webhooks/webhooks.delivery.ts";
import { seededApp, type TestApp } from "../helpers/app.ts";
import { TestClock } from "../helpers/clock.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { driveSchedule, finishRun, ledger, register, startReceiver, verifies, type Receiver } from "../helpers/webhooks.ts";

let t: TestApp;
let f: Fixture;
const receivers: Receiver[] = [];
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  setSystemTime();
  for (const c of cleanups.splice(0).reverse()) await c();
  receivers.splice(0).forEach((r) => r.stop());
});

function setup(opts: { file?: boolean; env?: Record<string, string> } = {}) {
  ({ t, f } = seededApp({ file: opts.file, clock: new TestClock(new Date()), env: { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1", ...opts.env } }));
}

function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = startReceiver(answer);
  receivers.push(r);
  return r;
}

/** A receiver answering 204, and a promise of its first request. */
function receiverWithFirst() {
  let arrived!: () => void;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const r = receiver(() => (arrived(), new Response(null, { status: 204 })));
  return { r, first };
}

/** A second "process": its own connection to the same database file, same data dir (key file) and clock. */
function secondProcess(): Deps {
  const sqlite = openSqlite(join(t.dataDir!, "dealgraph.db"), { busyTimeoutMs: 2000 });
  cleanups.push(() => sqlite.close());
  return createDeps({ db: wrapDrizzle(sqlite), config: t.deps.config, clock: t.clock, log: silentLog });
}

const runJob = (deps: Deps = t.deps) => webhookDelivery.runOnce(deps);
const rows = () => t.deps.db.$client.query<{ id: string; status: string; attempts: number; lease_until: string | null; next_attempt_at: string | null }, []>(
  "SELECT id, status, attempts, lease_until, next_attempt_at FROM webhook_deliveries ORDER BY created_at, id",
).all();

describe("who receives an event", () => {
  test("every endpoint of the org registered by then, each with its own delivery id; not later ones, not other orgs", async () => {
    setup();
    const a = receiver();
    const b = receiver();
    const late = receiver();
    const theirs = receiver();
    const hookA = await register(t, f, a.url());
    const hookB = await register(t, f, b.url());
    await register(t, f, theirs.url(), f.keys.otherOrgWrite.secret);
    t.clock.advance(1000);
    finishRun(t, f);
    t.clock.advance(1000);
    await register(t, f, late.url());
    t.clock.advance(1000);
    finishRun(t, f, { org: "globex" });
    await runJob();

    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(1);
    expect(a.received[0].headers["webhook-id"]).not.toBe(b.received[0].headers["webhook-id"]);
    expect(JSON.parse(a.received[0].body).data).toEqual(JSON.parse(b.received[0].body).data);
    expect(late.received).toHaveLength(0);
    // the other org's endpoint got its own org's event only
    expect(theirs.received).toHaveLength(1);
    expect((await ledger(t, f, hookA.id)).map((d) => d.delivery_id)).toEqual([a.received[0].headers["webhook-id"]]);
    expect((await ledger(t, f, hookB.id)).map((d) => d.delivery_id)).toEqual([b.received[0].headers["webhook-id"]]);
  });

  test("DELETE mid-schedule cancels the pending delivery: no further attempts", async () => {
    setup();
    const r = receiver(() => new Response(null, { status: 500 }));
    const hook = await register(t, f, r.url());
    finishRun(t, f);
    await runJob();
    expect(rows()[0]).toMatchObject({ status: "pending", attempts: 1 });
    expect((await t.request("DELETE", `/api/v1/webhooks/${hook.id}`, { key: f.keys.write.secret })).status).toBe(204);
    expect(rows()[0]).toMatchObject({ status: "failed", next_attempt_at: null });
    t.clock.advanceHours(1);
    finishRun(t, f);
    await driveSchedule(t);
    expect(r.received).toHaveLength(1);
    expect(rows()).toHaveLength(1);
  });
});

describe("restarts", () => {
  test("a new process on the same files resumes the pending delivery mid-schedule, same id, same secret", async () => {
    setup({ file: true });
    const r = receiver((n) => new Response(null, { status: n <= 2 ? 503 : 200 }));
    const hook = await register(t, f, r.url());
    finishRun(t, f);
    await runJob();
    t.clock.set(rows()[0].next_attempt_at!);
    await runJob();
    expect(rows()[0]).toMatchObject({ status: "pending", attempts: 2 });

    // "kill" the first process: nothing of its memory survives; the next one only has the files
    const next = secondProcess();
    t.clock.set(rows()[0].next_attempt_at!);
    expect(await runJob(next)).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(1);
    expect(r.received.every((x) => verifies(hook.secret, x))).toBe(true);
    expect(rows()[0]).toMatchObject({ status: "succeeded", attempts: 3, next_attempt_at: null });
  });

  test("a lease left by a killed worker holds the delivery until it lapses, then it is taken up", async () => {
    setup({ file: true, env: { DEALGRAPH_WEBHOOK_TIMEOUT_SECONDS: "5" } });
    const r = receiver();
    await register(t, f, r.url());
    finishRun(t, f);
    createDispatcher(t.deps).fanOut();
    // the dead worker claimed it (its lease: timeout + 15 s) and never answered
    const lease = new Date(t.clock.now().getTime() + 20_000).toISOString();
    t.deps.db.$client.query("UPDATE webhook_deliveries SET lease_until = ?").run(lease);
    const next = secondProcess();
    expect(await runJob(next)).toMatchObject({ attempted: 0 });
    t.clock.set(lease);
    expect(await runJob(next)).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(r.received).toHaveLength(1);
  });

  test("stop() mid-attempt releases the delivery without recording an attempt; the next run delivers it", async () => {
    setup({ file: true });
    let hold = true;
    const r = receiver(async () => {
      while (hold) await Bun.sleep(10);
      return new Response(null, { status: 200 });
    });
    await register(t, f, r.url());
    finishRun(t, f);
    const running = createDispatcher(t.deps).run(20);
    while (r.received.length === 0) await Bun.sleep(5);
    await running.stop();
    expect(rows()[0]).toMatchObject({ status: "pending", attempts: 0, lease_until: null });
    hold = false;
    expect(await runJob(secondProcess())).toMatchObject({ attempted: 1, succeeded: 1 });
    // at least once: the receiver saw the same id twice and deduplicates on it
    expect(r.received.map((x) => x.headers["webhook-id"])).toEqual([rows()[0].id, rows()[0].id]);
  });
});

describe("secret rotation", () => {
  test("during the overlap both signatures are sent (either secret verifies); after it, only the new one", async () => {
    setup();
    const r = receiver();
    const hook = await register(t, f, r.url());
    const rotated = await t.request("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: f.keys.write.secret, body: { overlap_hours: 1 } });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.json.secret;
    finishRun(t, f);
    await runJob();
    const during = r.received[0];
    const sigs = during.headers["webhook-signature"].split(" ");
    expect(sigs).toHaveLength(2);
    expect(sigs.every((s) => /^v1,[A-Za-z0-9+/]{43}=$/.test(s))).toBe(true);
    expect(verifies(fresh, during)).toBe(true);
    expect(verifies(hook.secret, during)).toBe(true);

    t.clock.advance(3600_000 + 1000);
    finishRun(t, f);
    await runJob();
    const after = r.received[1];
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(hook.secret, after)).toBe(false);
  });
});

describe("redelivery", () => {
  test("re-queues one delivery now with a fresh schedule; same webhook-id; every attempt stays in the ledger", async () => {
    setup();
    const r = receiver((n) => new Response(null, { status: n === 1 ? 410 : 200 }));
    const hook = await register(t, f, r.url());
    finishRun(t, f);
    await runJob();
    const [gone] = await ledger(t, f, hook.id);
    expect(gone).toMatchObject({ status: "failed", attempts: 1, last_response_code: 410 });

    const res = await t.request("POST", `/api/v1/webhooks/${hook.id}/deliveries/${gone.delivery_id}/redeliver`, { key: f.keys.write.secret });
    expect(res.status).toBe(202);
    expect(res.json.delivery).toMatchObject({ delivery_id: gone.delivery_id, status: "pending", attempts: 1, next_attempt_at: t.clock.now().toISOString() });
    await runJob();
    expect(r.received.map((x) => x.headers["webhook-id"])).toEqual([gone.delivery_id, gone.delivery_id]);
    expect((await ledger(t, f, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 2, last_response_code: 200, next_attempt_at: null });
    const detail = await t.request("GET", `/api/v1/webhooks/${hook.id}/deliveries/${gone.delivery_id}`, { key: f.keys.read.secret });
    expect(detail.json.delivery.attempts_log.map((a: { response_code: number; outcome: string }) => [a.response_code, a.outcome])).toEqual([
      [410, "failed"],
      [200, "succeeded"],
    ]);
  });

  test("while an attempt is in flight: 409 with Retry-After, nothing changes, no second send; once it ends, redelivery works", async () => {
    setup();
    let hold = true;
    const r = receiver(async (n) => {
      while (n === 1 && hold) await Bun.sleep(5);
      return new Response(null, { status: n === 1 ? 500 : 200 });
    });
    const hook = await register(t, f, r.url());
    finishRun(t, f);
    const first = createDispatcher(t.deps).drain();
    while (r.received.length === 0) await Bun.sleep(5);
    const [leased] = rows();
    expect(leased).toMatchObject({ status: "pending", attempts: 0, lease_until: expect.any(String) });

    const redeliver = () => t.request("POST", `/api/v1/webhooks/${hook.id}/deliveries/${leased.id}/redeliver`, { key: f.keys.write.secret });
    const refused = await redeliver();
    expect(refused.status).toBe(409);
    // the lease: the receiver timeout (10 s) + 15 s, and the clock has not moved
    expect(refused.headers.get("retry-after")).toBe("25");
    expect(refused.json).toEqual({ detail: "An attempt of this delivery is in flight; try again in 25 s" });
    expect(rows()[0]).toEqual(leased);
    // another worker finds nothing to send meanwhile
    expect(await createDispatcher(t.deps).drain()).toMatchObject({ attempted: 0 });

    hold = false;
    expect(await first).toMatchObject({ attempted: 1, retrying: 1 });
    const [afterAttempt] = await ledger(t, f, hook.id);
    expect(afterAttempt).toMatchObject({ status: "pending", attempts: 1, last_response_code: 500 });
    expect(afterAttempt.next_attempt_at! > t.clock.now().toISOString()).toBe(true);

    const queued = await redeliver();
    expect(queued.status).toBe(202);
    expect(queued.json.delivery).toMatchObject({ status: "pending", attempts: 1, next_attempt_at: t.clock.now().toISOString() });
    expect(await runJob()).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(r.received.map((x) => x.headers["webhook-id"])).toEqual([leased.id, leased.id]);
  });
});

describe("throughput and latency mechanics", () => {
  test("concurrency is bounded: never more attempts in flight than allowed, and all are delivered", async () => {
    setup();
    let inFlight = 0;
    let peak = 0;
    const r = receiver(async () => {
      peak = Math.max(peak, ++inFlight);
      await Bun.sleep(30);
      inFlight--;
      return new Response(null, { status: 200 });
    });
    await register(t, f, r.url());
    for (let i = 0; i < 24; i++) finishRun(t, f);
    const stats = await createDispatcher(t.deps, { concurrency: 4 }).drain();
    expect(stats).toMatchObject({ fannedOut: 24, attempted: 24, succeeded: 24 });
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThan(1);
    expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(24);
  });

  // (How fast is measured by scripts/bench/webhooks.ts, not asserted here.)
  // (No deadline either: the test's own timeout fails it if the request never comes.)
  test("the server's fast path: a run finished in this process is delivered on its bus notice, not by the poll", async () => {
    setup();
    const { r, first } = receiverWithFirst();
    await register(t, f, r.url());
    const running = createDispatcher(t.deps).run(600_000); // the poll will not come round during this test
    cleanups.push(() => running.stop());
    finishRun(t, f);
    expect(r.received).toHaveLength(0);
    await first;
    expect(r.received).toHaveLength(1);
  });

  test("an event written without a bus notice (another process) is found by the poll", async () => {
    setup();
    const { r, first } = receiverWithFirst();
    await register(t, f, r.url());
    const running = createDispatcher(t.deps).run(50);
    cleanups.push(() => running.stop());
    t.deps.db.$client
      .query("INSERT INTO outbox_events (id, org_id, event, entity_id, result_url, run_id, created_at) VALUES (?, ?, 'research.completed', ?, ?, ?, ?)")
      .run(crypto.randomUUID(), f.orgs.acme.id, "r-1", "/api/v1/research/r-1", crypto.randomUUID(), t.clock.now().toISOString());
    await first;
    expect(JSON.parse(r.received[0].body)).toMatchObject({ event: "research.completed", data: { entity_id: "r-1", result_url: "/api/v1/research/r-1" } });
  });
});
