// Issue 27, finding 2 (budgets): actions are counted per user, not per key. A member who makes
// more keys (the web app lets any member make keys) gets no more actions: the user's keys,
// connected apps and web sessions spend one count a day, each within its own limit. The request
// budget stays per key (CONTRACT.md: "Auth counting").
import { describe, expect, test } from "bun:test";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import { webBudgets } from "../../../src/modules/identity/web-budgets.service.ts";
import { seededApp } from "../../helpers/app.ts";

const analyze = (t: ReturnType<typeof seededApp>["t"], secret: string, name: string) =>
  t.request("POST", "/api/v1/founders/analyze", { key: secret, body: { name } });

describe("actions budgets per user", () => {
  test("a second and third key of the same user share the first one's daily actions; the web app too", async () => {
    const { t, f } = seededApp();
    const keys = apiKeysService(t.deps);
    const alice = f.users.alice.id;
    const mine = [keys.create({ userId: alice, scope: "write", name: "k1", dailyActions: 3 }), keys.create({ userId: alice, scope: "write", name: "k2", dailyActions: 3 }), keys.create({ userId: alice, scope: "write", name: "k3", dailyActions: 3 })];
    const statuses: number[] = [];
    let n = 0;
    for (const k of mine) for (let i = 0; i < 2; i++) statuses.push((await analyze(t, k.secret, `Founder ${n++}`)).status);
    // Three actions a day for the user, however many keys: the fourth is refused on any key.
    expect(statuses).toEqual([202, 202, 202, 429, 429, 429]);
    const refused = await analyze(t, mine[2].secret, "Founder x");
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toMatch(/^Daily actions limit of 3 reached for this API key's user \(a user's API keys, connected apps and web sessions share one count of actions a day\)/);
    expect(refused.headers.get("retry-after")).toBeString();
    // The web app counts the same actions: 3 of its 25 are spent.
    expect(webBudgets(t.deps).today(alice).used).toBe(3);
    // Another user's keys are untouched.
    expect((await analyze(t, f.keys.otherOrgWrite.secret, "Founder y")).status).toBe(202);
  });

  test("actions started in the web app count against the user's keys", async () => {
    const { t, f } = seededApp();
    const alice = f.users.alice.id;
    const key = apiKeysService(t.deps).create({ userId: alice, scope: "write", name: "k", dailyActions: 2 });
    t.deps.db.transaction(() => webBudgets(t.deps).chargeOne(alice));
    t.deps.db.transaction(() => webBudgets(t.deps).chargeOne(alice));
    const res = await analyze(t, key.secret, "Founder z");
    expect(res.status).toBe(429);
    expect(res.headers.get("x-actions-remaining")).toBe("0");
  });

  test("the request budget stays per key", async () => {
    const { t, f } = seededApp();
    const keys = apiKeysService(t.deps);
    const a = keys.create({ userId: f.users.alice.id, scope: "read", name: "a", dailyRequests: 1 });
    const b = keys.create({ userId: f.users.alice.id, scope: "read", name: "b", dailyRequests: 1 });
    expect((await t.request("GET", "/api/v1/me", { key: a.secret })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/me", { key: a.secret })).status).toBe(429);
    expect((await t.request("GET", "/api/v1/me", { key: b.secret })).status).toBe(200);
  });
});
