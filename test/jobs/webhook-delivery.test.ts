// The webhook-delivery job against a real receiver on 127.0.0.1 (private networks allowed, which is
// what lets a loopback URL be registered over http): signatures verified with `standardwebhooks`,
// the thin payload, the ledger, and the retry rules answer by answer, with the schedule driven by
// the test clock (the real DEALGRAPH_WEBHOOK_RETRY_SCALE of 1: 11 attempts over about 30 minutes).
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { seededApp, type TestApp } from "../helpers/app.ts";
import { TestClock } from "../helpers/clock.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import {
  closedPort,
  deliveryDetail,
  driveSchedule,
  finishRun,
  ledger,
  outboxEventOf,
  register,
  startReceiver,
  type Receiver,
  type Received,
} from "../helpers/webhooks.ts";
import { webhookDelivery } from "../../jobs/webhook-delivery.ts";
import { backoffMs, JITTER } from "../../src/modules/webhooks/webhooks.schedule.ts";

let t: TestApp;
let f: Fixture;
let receiver: Receiver | null = null;
afterEach(() => {
  setSystemTime();
  receiver?.stop();
  receiver = null;
});

function setup(env: Record<string, string> = {}) {
  // The clock starts at the real time so the receiver-side timestamp check of standardwebhooks holds.
  ({ t, f } = seededApp({ clock: new TestClock(new Date()), env: { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1", ...env } }));
}

/** Verifies a received request as a Standard Webhooks receiver would, at the time it was signed. */
function verify(secret: string, r: Received): unknown {
  setSystemTime(new Date(Number(r.headers["webhook-timestamp"]) * 1000));
  try {
    return new Webhook(secret).verify(r.body, r.headers);
  } finally {
    setSystemTime();
  }
}

const runJob = () => webhookDelivery.runOnce(t.deps);

describe("a delivery", () => {
  test("the thin payload, signed per Standard Webhooks; webhook-id = payload id = delivery_id; ledger succeeded", async () => {
    setup();
    receiver = startReceiver();
    const hook = await register(t, f, receiver.url());
    t.clock.advance(1000);
    const run = finishRun(t, f, { subject: "0190f3c8-7d2b-7000-8000-000000000001" });
    const event = outboxEventOf(t, run.id);
    expect(await runJob()).toMatchObject({ fannedOut: 1, attempted: 1, succeeded: 1 });

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    expect(got).toMatchObject({ method: "POST", path: "/hook" });
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-timestamp"]).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const payload = JSON.parse(got.body);
    expect(payload).toEqual({
      event: "deal.analysis.completed",
      id: got.headers["webhook-id"],
      created_at: event.created_at,
      data: { entity_id: "0190f3c8-7d2b-7000-8000-000000000001", result_url: "/api/v1/deals/0190f3c8-7d2b-7000-8000-000000000001" },
    });
    expect(Object.keys(payload)).toEqual(["event", "id", "created_at", "data"]);
    expect(verify(hook.secret, got)).toEqual(payload);

    // a forged or altered message fails verification
    expect(() => verify(hook.secret, { ...got, body: got.body.replace("completed", "failed") })).toThrow();
    expect(() => verify("whsec_" + Buffer.alloc(32, 1).toString("base64"), got)).toThrow();

    const [row] = await ledger(t, f, hook.id);
    expect(row).toEqual({
      delivery_id: payload.id,
      webhook_id: hook.id,
      event: "deal.analysis.completed",
      entity_id: "0190f3c8-7d2b-7000-8000-000000000001",
      result_url: "/api/v1/deals/0190f3c8-7d2b-7000-8000-000000000001",
      status: "succeeded",
      attempts: 1,
      last_response_code: 204,
      last_error: null,
      last_attempt_at: t.clock.now().toISOString(),
      next_attempt_at: null,
      created_at: t.clock.now().toISOString(),
    } as never);
    const detail = await deliveryDetail(t, f, hook.id, payload.id);
    expect(detail.attempts_log).toEqual([
      { attempt: 1, attempted_at: t.clock.now().toISOString(), duration_ms: expect.any(Number), response_code: 204, error: null, outcome: "succeeded" },
    ] as never);
    // nothing more to do
    expect(await runJob()).toMatchObject({ fannedOut: 0, attempted: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  test("a failed run is a .failed event", async () => {
    setup();
    receiver = startReceiver();
    const hook = await register(t, f, receiver.url());
    finishRun(t, f, { outcome: "failed" });
    await runJob();
    expect(JSON.parse(receiver.received[0].body).event).toBe("deal.analysis.failed");
    expect((await ledger(t, f, hook.id))[0].event).toBe("deal.analysis.failed");
  });
});

describe("retries", () => {
  test("500 every time: 11 attempts over about 30 minutes, doubling delays with jitter, one webhook-id, then failed", async () => {
    setup();
    receiver = startReceiver(() => new Response("down", { status: 500 }));
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    const started = t.clock.now().getTime();
    await driveSchedule(t);

    expect(receiver.received).toHaveLength(11);
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    for (const r of receiver.received) expect(verify(hook.secret, r)).toEqual(JSON.parse(r.body));

    const [row] = await ledger(t, f, hook.id);
    expect(row).toMatchObject({ delivery_id: [...ids][0], status: "failed", attempts: 11, last_response_code: 500, next_attempt_at: null });
    expect(row.last_error).toMatch(/500/);
    const log = (await deliveryDetail(t, f, hook.id, row.delivery_id)).attempts_log;
    expect(log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(log.map((a) => a.outcome)).toEqual([...Array(10).fill("retry"), "failed"]);
    const times = log.map((a) => new Date(a.attempted_at).getTime());
    for (let k = 1; k < times.length; k++) {
      const nominal = backoffMs(k, 1, () => 0.5);
      const delay = times[k] - times[k - 1];
      expect(delay).toBeGreaterThanOrEqual(nominal * (1 - JITTER) - 1);
      expect(delay).toBeLessThanOrEqual(nominal * (1 + JITTER) + 1);
    }
    const total = times[10] - started;
    expect(total).toBeGreaterThan(30 * 60_000 * (1 - JITTER));
    expect(total).toBeLessThan(30 * 60_000 * (1 + JITTER));
  });

  test("500, 500, then 200: succeeded on the third attempt with the same id", async () => {
    setup();
    receiver = startReceiver((n) => new Response(null, { status: n < 3 ? 500 : 200 }));
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await driveSchedule(t);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect((await ledger(t, f, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 3, last_response_code: 200, next_attempt_at: null });
  });

  const finals = [400, 401, 403, 404, 410, 422];
  test.each(finals)("%d is final: one attempt, failed, next_attempt_at null", async (status) => {
    setup();
    receiver = startReceiver(() => new Response("no", { status }));
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    expect(await driveSchedule(t)).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect((await ledger(t, f, hook.id))[0]).toMatchObject({ status: "failed", attempts: 1, last_response_code: status, next_attempt_at: null });
  });

  const retried: [number, Record<string, string>][] = [
    [408, {}],
    [429, {}],
    [502, {}],
    [503, {}],
    [302, { location: "/elsewhere" }],
    [301, { location: "http://10.0.0.1/" }],
    [307, { location: "/elsewhere" }],
  ];
  test.each(retried)("%d is retried like a 5xx (a redirect is never followed)", async (status, headers) => {
    setup();
    receiver = startReceiver((n) => (n === 1 ? new Response(null, { status, headers }) : new Response(null, { status: 200 })));
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await runJob();
    const [first] = await ledger(t, f, hook.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, last_response_code: status });
    expect(first.next_attempt_at! > t.clock.now().toISOString()).toBe(true);
    if (status >= 300 && status < 400) expect(first.last_error).toMatch(/Redirect not followed/);
    await driveSchedule(t);
    expect(receiver.received.map((r) => r.path)).toEqual(["/hook", "/hook"]);
    expect((await ledger(t, f, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 2, last_response_code: 200 });
  });

  test("429 with Retry-After: the next attempt comes exactly then, not scaled", async () => {
    setup({ DEALGRAPH_WEBHOOK_RETRY_SCALE: "0.01" });
    receiver = startReceiver((n) => (n === 1 ? new Response(null, { status: 429, headers: { "retry-after": "7" } }) : new Response(null, { status: 200 })));
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await runJob();
    const [row] = await ledger(t, f, hook.id);
    expect(row.next_attempt_at).toBe(new Date(t.clock.now().getTime() + 7000).toISOString());
    t.clock.advance(6999);
    expect(await runJob()).toMatchObject({ attempted: 0 });
    t.clock.advance(1);
    expect(await runJob()).toMatchObject({ attempted: 1, succeeded: 1 });
  });

  test("503 with a Retry-After date is honoured; one beyond the 30-minute window is held to the window's end", async () => {
    setup();
    const at = () => new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000 + 90_000).toUTCString();
    receiver = startReceiver((n) =>
      n === 1
        ? new Response(null, { status: 503, headers: { "retry-after": at() } })
        : new Response(null, { status: 429, headers: { "retry-after": "86400" } }),
    );
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    const roundStart = t.clock.now().getTime();
    await runJob();
    const first = (await ledger(t, f, hook.id))[0];
    expect(new Date(first.next_attempt_at!).getTime()).toBe(Date.parse(at()));
    t.clock.set(first.next_attempt_at!);
    await runJob();
    const second = (await ledger(t, f, hook.id))[0];
    expect(second.attempts).toBe(2);
    expect(second.next_attempt_at).toBe(new Date(roundStart + 30 * 60_000).toISOString());
  });

  /**
   * A receiver that never answers in time: each request waits until its client goes away (the
   * abort is what it records), or gives up after a minute. `handled` resolves per request.
   */
  function silentReceiver(answerFrom = Infinity) {
    const aborted: boolean[] = [];
    const pending: Promise<void>[] = [];
    const r = startReceiver(async (n, req) => {
      if (n >= answerFrom) return new Response(null, { status: 200 });
      let done!: () => void;
      pending.push(new Promise<void>((resolve) => (done = resolve)));
      aborted[n - 1] = await new Promise<boolean>((resolve) => {
        const giveUp = setTimeout(() => resolve(false), 60_000);
        req.signal.addEventListener("abort", () => (clearTimeout(giveUp), resolve(true)), { once: true });
      });
      done();
      return new Response(null, { status: 200 });
    });
    return { r, aborted, handled: () => Promise.all(pending) };
  }

  test("a receiver slower than DEALGRAPH_WEBHOOK_TIMEOUT_SECONDS: the attempt times out (the request is aborted) and is retried", async () => {
    setup({ DEALGRAPH_WEBHOOK_TIMEOUT_SECONDS: "0.2" });
    const silent = silentReceiver(2);
    receiver = silent.r;
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await runJob();
    const [row] = await ledger(t, f, hook.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_response_code: null, last_error: "No complete answer within 200 ms" });
    // the receiver saw its request abandoned: the client hung up instead of waiting for the answer
    await silent.handled();
    expect(silent.aborted).toEqual([true]);
    await driveSchedule(t);
    expect((await ledger(t, f, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  test("a receiver that never answers in time: 11 attempts, each a recorded timeout and an aborted request, then failed", async () => {
    setup({ DEALGRAPH_WEBHOOK_TIMEOUT_SECONDS: "0.05", DEALGRAPH_WEBHOOK_RETRY_SCALE: "0.001" });
    const silent = silentReceiver();
    receiver = silent.r;
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await driveSchedule(t);
    await silent.handled();
    expect(receiver.received).toHaveLength(11);
    expect(silent.aborted).toEqual(Array(11).fill(true));
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const [row] = await ledger(t, f, hook.id);
    expect(row).toMatchObject({ status: "failed", attempts: 11, last_response_code: null, last_error: "No complete answer within 50 ms", next_attempt_at: null });
    const log = (await deliveryDetail(t, f, hook.id, row.delivery_id)).attempts_log;
    expect(log.map((a) => [a.response_code, a.error, a.outcome])).toEqual([
      ...Array(10).fill([null, "No complete answer within 50 ms", "retry"]),
      [null, "No complete answer within 50 ms", "failed"],
    ]);
  });

  const alwaysRetried: [number, Record<string, string>][] = [
    [302, { location: "/elsewhere" }],
    [408, {}],
    [429, {}],
  ];
  test.each(alwaysRetried)("%d every time: 11 attempts, then failed with that code", async (status, headers) => {
    setup({ DEALGRAPH_WEBHOOK_RETRY_SCALE: "0.001" });
    receiver = startReceiver(() => new Response(null, { status, headers }));
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await driveSchedule(t);
    expect(receiver.received.map((r) => r.path)).toEqual(Array(11).fill("/hook")); // the redirect was never followed
    const [row] = await ledger(t, f, hook.id);
    expect(row).toMatchObject({ status: "failed", attempts: 11, last_response_code: status, next_attempt_at: null });
    const log = (await deliveryDetail(t, f, hook.id, row.delivery_id)).attempts_log;
    expect(log.map((a) => [a.response_code, a.outcome])).toEqual([...Array(10).fill([status, "retry"]), [status, "failed"]]);
  });

  test("connection refused: every attempt fails and is recorded, 11 in all", async () => {
    setup();
    const hook = await register(t, f, `http://127.0.0.1:${closedPort()}/hook`);
    finishRun(t, f);
    await driveSchedule(t);
    const [row] = await ledger(t, f, hook.id);
    expect(row).toMatchObject({ status: "failed", attempts: 11, last_response_code: null, next_attempt_at: null });
    expect(row.last_error).toMatch(/Could not connect/);
    const log = (await deliveryDetail(t, f, hook.id, row.delivery_id)).attempts_log;
    expect(log).toHaveLength(11);
    expect(log.every((a) => a.response_code === null && /Could not connect/.test(a.error ?? ""))).toBe(true);
  });
});
