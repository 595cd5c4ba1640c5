import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { wrapDrizzle } from "../../../src/db/client.ts";
import { createDeps } from "../../../src/deps.ts";
import { chargeAction } from "../../../src/modules/identity/budgets.http.ts";
import { ApiError } from "../../../src/http/errors.ts";
import { silentLog } from "../../../src/lib/log.ts";
import { budgetsService } from "../../../src/modules/identity/budgets.service.ts";
import { seededApp, serveApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup(opts: TestAppOptions = {}) {
  ({ t, f } = seededApp(opts));
}

const setLimits = (keyId: string, requests: number | null, actions: number | null = null) =>
  t.deps.db.$client.query("UPDATE api_keys SET daily_requests = ?, daily_actions = ? WHERE id = ?").run(requests, actions, keyId);

const me = (key: string) => t.request("GET", "/api/v1/me", { key });

describe("request budget headers", () => {
  test("a success carries the limit, what is left and the seconds to UTC midnight", async () => {
    setup({ clock: new TestClock("2026-11-22T23:59:00.000Z") });
    const first = await me(f.keys.read.secret);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("5000");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4999");
    expect(first.headers.get("x-ratelimit-reset")).toBe("60");
    const second = await me(f.keys.read.secret);
    expect(second.headers.get("x-ratelimit-remaining")).toBe("4998");
  });

  test("each key has its own budget; the CLI's per-key override is honoured", async () => {
    setup();
    setLimits(f.keys.read.id, 3);
    expect((await me(f.keys.read.secret)).headers.get("x-ratelimit-limit")).toBe("3");
    expect((await me(f.keys.write.secret)).headers.get("x-ratelimit-remaining")).toBe("4999");
  });

  test("errors after authentication count too: 404, 422, 403 all spend budget", async () => {
    setup();
    setLimits(f.keys.read.id, 10);
    expect((await t.request("GET", "/api/v1/keys/not-a-uuid", { key: f.keys.read.secret })).status).toBe(404);
    expect((await t.request("DELETE", `/api/v1/keys/${f.keys.read.id}`, { key: f.keys.read.secret })).status).toBe(403);
    const r = await t.request("POST", `/api/v1/keys/${f.keys.write.id}/rotate`, { key: f.keys.write.secret, rawBody: "{" });
    expect(r.status).toBe(422);
    expect((await me(f.keys.read.secret)).headers.get("x-ratelimit-remaining")).toBe("7");
  });

  test("requests that fail authentication spend nothing", async () => {
    setup();
    await t.request("GET", "/api/v1/me", { key: f.keys.revoked.secret });
    await t.request("GET", "/api/v1/me", { key: f.keys.unknown.secret });
    const usage = budgetsService(t.deps).usageToday([{ keyId: f.keys.revoked.id }]);
    expect(usage.get(f.keys.revoked.id)).toEqual({ requests: 0, actions: 0 });
  });
});

describe("429 when the daily request budget is spent", () => {
  test("refuses with Retry-After until midnight; refused requests are not counted", async () => {
    setup({ clock: new TestClock("2026-11-22T18:00:00.000Z") });
    setLimits(f.keys.read.id, 2);
    expect((await me(f.keys.read.secret)).status).toBe(200);
    const last = await me(f.keys.read.secret);
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    for (let i = 0; i < 3; i++) {
      const refused = await me(f.keys.read.secret);
      expect(refused.status).toBe(429);
      expect(refused.json.detail).toBe(
        "Daily request limit of 2 reached for this API key; it resets at 00:00 UTC (in 21600 seconds).",
      );
      expect(refused.headers.get("retry-after")).toBe("21600");
      expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(refused.headers.get("x-request-id")).toBeTruthy();
    }
    expect(budgetsService(t.deps).usageToday([{ keyId: f.keys.read.id }]).get(f.keys.read.id)?.requests).toBe(2);
  });

  test("the budget resets at UTC midnight by the clock, not before", async () => {
    const clock = new TestClock("2026-11-22T23:59:58.000Z");
    setup({ clock });
    setLimits(f.keys.read.id, 1);
    expect((await me(f.keys.read.secret)).status).toBe(200);
    clock.advance(1000); // 23:59:59
    const refused = await me(f.keys.read.secret);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    clock.advance(1000); // 00:00:00 the next day
    const fresh = await me(f.keys.read.secret);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(fresh.headers.get("x-ratelimit-reset")).toBe("86400");
  });

  test("a budget of 0 refuses every request", async () => {
    setup();
    setLimits(f.keys.read.id, 0);
    expect((await me(f.keys.read.secret)).status).toBe(429);
  });
});

describe("exact under concurrency", () => {
  test("over a real listening server, a budget of N admits exactly N of many concurrent requests", async () => {
    setup({ file: true });
    const N = 40;
    setLimits(f.keys.read.id, N);
    const url = `${serveApp(t)}/api/v1/me`;
    const statuses = await Promise.all(Array.from({ length: N + 25 }, () => fetch(url, { headers: { "x-api-key": f.keys.read.secret } }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(N);
    expect(statuses.filter((s) => s === 429).length).toBe(25);
    const next = await fetch(url, { headers: { "x-api-key": f.keys.read.secret } });
    expect(next.status).toBe(429);
  });

  test("two processes' connections on one database file share one exact budget", async () => {
    setup({ file: true });
    const N = 50;
    setLimits(f.keys.read.id, N);
    // A second connection to the same file stands for a second server process.
    const other = new Database(join(t.dataDir!, "dealgraph.db"));
    other.exec("PRAGMA busy_timeout = 5000");
    const otherDeps = createDeps({ db: wrapDrizzle(other), config: t.deps.config, clock: t.clock, log: silentLog });
    const a = budgetsService(t.deps);
    const b = budgetsService(otherDeps);
    let admitted = 0;
    for (let i = 0; i < 80; i++) {
      const svc = i % 2 === 0 ? a : b;
      if (svc.countRequest({ keyId: f.keys.read.id }, N).allowed) admitted++;
    }
    other.close();
    expect(admitted).toBe(N);
  });

  test("worker threads racing on one file admit exactly N", async () => {
    setup({ file: true });
    const N = 100;
    const path = join(t.dataDir!, "dealgraph.db");
    const workerUrl = new URL("../../helpers/budget-worker.ts", import.meta.url).href;
    const results = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<number>((resolve, reject) => {
            const w = new Worker(workerUrl);
            w.onmessage = (e) => {
              resolve(e.data as number);
              w.terminate();
            };
            w.onerror = (e) => reject(e);
            w.postMessage({ path, keyId: f.keys.read.id, limit: N, attempts: 60, at: t.clock.now().toISOString() });
          }),
      ),
    );
    expect(results.reduce((x, y) => x + y, 0)).toBe(N);
  });
});

describe("actions budget", () => {
  test("charges up to the limit, then refuses; a rolled-back dispatch costs nothing", () => {
    setup();
    const budgets = budgetsService(t.deps);
    setLimits(f.keys.write.id, null, 2);
    // A dispatch that fails after charging rolls the charge back with it.
    expect(() =>
      t.deps.db.transaction(() => {
        expect(budgets.chargeAction({ keyId: f.keys.write.id }, 2).allowed).toBe(true);
        throw new Error("dispatch failed");
      }),
    ).toThrow("dispatch failed");
    expect(budgets.usageToday([{ keyId: f.keys.write.id }]).get(f.keys.write.id)?.actions ?? 0).toBe(0);
    const first = budgets.chargeAction({ keyId: f.keys.write.id }, 2);
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(budgets.chargeAction({ keyId: f.keys.write.id }, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(budgets.chargeAction({ keyId: f.keys.write.id }, 2)).toMatchObject({ allowed: false, remaining: 0 });
    // Actions and requests are separate counters.
    expect(budgets.usageToday([{ keyId: f.keys.write.id }]).get(f.keys.write.id)).toMatchObject({ actions: 2, requests: 0 });
  });

  test("the default is 25 actions a day, reset at UTC midnight", () => {
    const clock = new TestClock("2026-11-22T10:00:00.000Z");
    setup({ clock });
    const budgets = budgetsService(t.deps);
    const limit = t.deps.config.defaultDailyActions;
    expect(limit).toBe(25);
    const results = Array.from({ length: 30 }, () => budgets.chargeAction({ keyId: f.keys.write.id }, limit).allowed);
    expect(results.filter(Boolean).length).toBe(25);
    clock.set("2026-11-23T00:00:00.000Z");
    expect(budgets.chargeAction({ keyId: f.keys.write.id }, limit)).toMatchObject({ allowed: true, remaining: 24, resetSeconds: 86400 });
  });
});

describe("chargeAction (the HTTP side every action route uses)", () => {
  test("returns X-Actions-* for the 202, and over the limit throws a 429 that says so", () => {
    setup({ clock: new TestClock("2026-11-22T20:00:00.000Z") });
    const key = { keyId: f.keys.write.id, dailyActions: 1 };
    const headers = t.deps.db.transaction(() => chargeAction(t.deps, key));
    expect(headers).toEqual({ "X-Actions-Limit": "1", "X-Actions-Remaining": "0" });
    let refused: ApiError | null = null;
    try {
      t.deps.db.transaction(() => chargeAction(t.deps, key));
    } catch (e) {
      refused = e as ApiError;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused!.status).toBe(429);
    expect(refused!.detail).toBe("Daily actions limit of 1 reached for this API key; it resets at 00:00 UTC (in 14400 seconds).");
    expect(refused!.headers).toEqual({ "X-Actions-Limit": "1", "X-Actions-Remaining": "0", "Retry-After": "14400" });
  });
});

describe("a rotation chain spends one budget (the budget owner's)", () => {
  test("rotating a key (overlap 0) does not reset the day: the new key continues the old one's counts", async () => {
    setup({ clock: new TestClock("2026-11-22T12:00:00.000Z") });
    setLimits(f.keys.write.id, 4, 1);
    // One action spent with the old key (the actions budget is 1).
    expect(t.deps.db.transaction(() => chargeAction(t.deps, { keyId: f.keys.write.id, budgetOwnerId: f.keys.write.id, dailyActions: 1 }))).toEqual({
      "X-Actions-Limit": "1",
      "X-Actions-Remaining": "0",
    });
    expect((await me(f.keys.write.secret)).headers.get("x-ratelimit-remaining")).toBe("3");
    const rotated = await t.request("POST", `/api/v1/keys/${f.keys.write.id}/rotate`, { key: f.keys.write.secret, body: { overlap_hours: 0 } });
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get("x-ratelimit-remaining")).toBe("2");
    // The new key shows the chain's usage today, and its own last use (none yet).
    expect(rotated.json.key.usage_today).toEqual({ requests: { used: 2, limit: 4 }, actions: { used: 1, limit: 1 } });
    expect(rotated.json.key.last_used_at).toBeNull();
    const next = rotated.json.secret as string;
    const first = await me(next);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(first.json.key.usage_today.requests).toEqual({ used: 3, limit: 4 });
    expect((await me(next)).headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await me(next)).status).toBe(429);
    // The actions budget spent by the old key stays spent for the new one.
    const newKeyId = rotated.json.key.key_id as string;
    const owner = t.deps.db.$client.query<{ budget_owner_id: string }, [string]>("SELECT budget_owner_id FROM api_keys WHERE id = ?").get(newKeyId)!.budget_owner_id;
    expect(owner).toBe(f.keys.write.id);
    expect(budgetsService(t.deps).chargeAction({ keyId: newKeyId, budgetOwnerId: owner }, 1)).toMatchObject({ allowed: false });
  });

  test("a chain rotated twice, with the overlap keys used at once, admits exactly the limit", async () => {
    setup({ clock: new TestClock("2026-11-22T12:00:00.000Z") });
    setLimits(f.keys.write.id, 30);
    const second = await t.request("POST", `/api/v1/keys/${f.keys.write.id}/rotate`, { key: f.keys.write.secret, body: { overlap_hours: 1 } });
    const third = await t.request("POST", `/api/v1/keys/${second.json.key.key_id}/rotate`, { key: second.json.secret, body: { overlap_hours: 1 } });
    expect(third.status).toBe(201);
    // Three live keys of one chain, 40 requests racing across them: 30 - 2 (the rotations) admitted.
    const keys = [f.keys.write.secret, second.json.secret as string, third.json.secret as string];
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => me(keys[i % 3]).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(28);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
    // Each key keeps its own row (its own last use); the budget is their sum.
    const rows = t.deps.db.$client.query<{ n: number; total: number }, []>("SELECT COUNT(*) AS n, SUM(requests) AS total FROM key_usage").get()!;
    expect(rows).toEqual({ n: 3, total: 30 });
  });
});
