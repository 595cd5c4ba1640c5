// The retry schedule and the meaning of a receiver's answer, without a network.
import { describe, expect, test } from "bun:test";
import { backoffMs, classify, JITTER, MAX_ATTEMPTS, nextStep, parseRetryAfter, WINDOW_MS } from "../../src/modules/webhooks/webhooks.schedule.ts";
import { signatureHeader, newWebhookSecret, secretKeyBytes } from "../../src/modules/webhooks/webhooks.secrets.ts";
import { Webhook } from "standardwebhooks";

describe("backoff", () => {
  test("doubles from about 1.76 s; the 10 nominal delays add up to 30 minutes", () => {
    const nominal = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => backoffMs(i + 1, 1, () => 0.5));
    expect(nominal[0]).toBeCloseTo(WINDOW_MS / 1023, 6);
    for (let i = 1; i < nominal.length; i++) expect(nominal[i] / nominal[i - 1]).toBeCloseTo(2, 9);
    expect(nominal.reduce((a, b) => a + b, 0)).toBeCloseTo(WINDOW_MS, 3);
  });
  test("jitter stays within its band; the scale multiplies every delay", () => {
    const n = backoffMs(4, 1, () => 0.5);
    expect(backoffMs(4, 1, () => 0)).toBeCloseTo(n * (1 - JITTER), 6);
    expect(backoffMs(4, 1, () => 0.999999)).toBeCloseTo(n * (1 + JITTER), 1);
    expect(backoffMs(4, 0.001, () => 0.5)).toBeCloseTo(n * 0.001, 9);
    const seen = new Set(Array.from({ length: 50 }, () => backoffMs(3, 1)));
    expect(seen.size).toBeGreaterThan(40);
  });
});

describe("classify", () => {
  test.each([
    [200, "succeeded"], [201, "succeeded"], [204, "succeeded"], [299, "succeeded"],
    [301, "retry"], [302, "retry"], [304, "retry"], [307, "retry"], [308, "retry"],
    [400, "failed"], [401, "failed"], [403, "failed"], [404, "failed"], [410, "failed"], [413, "failed"], [422, "failed"], [499, "failed"],
    [408, "retry"], [429, "retry"], [500, "retry"], [502, "retry"], [503, "retry"], [504, "retry"], [null, "retry"],
  ] as const)("%p -> %s", (status, outcome) => expect(classify(status)).toBe(outcome));
});

describe("Retry-After", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  test("seconds, an HTTP date, garbage", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 22 Nov 2026 12:01:30 GMT", now)).toBe(90_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("1.5", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe("nextStep", () => {
  const start = new Date("2026-11-22T12:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);
  const base = { roundStartedAt: start, now: at(10_000), retryAfterMs: null, scale: 1, random: () => 0.5 };
  test("success and final 4xx end the delivery; the 11th failure too", () => {
    expect(nextStep({ ...base, outcome: "succeeded", roundAttempts: 1 })).toEqual({ status: "succeeded", nextAttemptAt: null });
    expect(nextStep({ ...base, outcome: "failed", roundAttempts: 1 })).toEqual({ status: "failed", nextAttemptAt: null });
    expect(nextStep({ ...base, outcome: "retry", roundAttempts: 11 })).toEqual({ status: "failed", nextAttemptAt: null });
    expect(nextStep({ ...base, outcome: "retry", roundAttempts: 10 }).status).toBe("pending");
  });
  test("a retry waits the backoff; a Retry-After inside the window is used as given (unscaled)", () => {
    expect(nextStep({ ...base, outcome: "retry", roundAttempts: 2 }).nextAttemptAt).toEqual(at(10_000 + backoffMs(2, 1, () => 0.5)));
    expect(nextStep({ ...base, scale: 0.01, outcome: "retry", roundAttempts: 1, retryAfterMs: 5000 }).nextAttemptAt).toEqual(at(15_000));
    expect(nextStep({ ...base, outcome: "retry", roundAttempts: 1, retryAfterMs: 0 }).nextAttemptAt).toEqual(at(10_000));
  });
  test("a Retry-After past the window is held to the window's end, or the backoff when that is later", () => {
    expect(nextStep({ ...base, outcome: "retry", roundAttempts: 1, retryAfterMs: 86_400_000 }).nextAttemptAt).toEqual(at(WINDOW_MS));
    const late = { ...base, now: at(WINDOW_MS + 60_000) };
    expect(nextStep({ ...late, outcome: "retry", roundAttempts: 9, retryAfterMs: 86_400_000 }).nextAttemptAt).toEqual(
      at(WINDOW_MS + 60_000 + backoffMs(9, 1, () => 0.5)),
    );
  });
});

test("signatures: v1,<base64 HMAC-SHA256>, one per secret, verified by standardwebhooks", () => {
  const a = newWebhookSecret();
  const b = newWebhookSecret();
  expect(secretKeyBytes(a)).toHaveLength(32);
  const ts = Math.floor(Date.now() / 1000);
  const body = '{"event":"research.completed"}';
  const header = signatureHeader([a, b], "msg_1", ts, body);
  expect(header.split(" ")).toHaveLength(2);
  const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(ts), "webhook-signature": header };
  expect(new Webhook(a).verify(body, headers)).toEqual({ event: "research.completed" });
  expect(new Webhook(b).verify(body, headers)).toEqual({ event: "research.completed" });
  expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  expect(signatureHeader([a], "msg_1", ts, body)).toBe(new Webhook(a).sign("msg_1", new Date(ts * 1000), body));
});
