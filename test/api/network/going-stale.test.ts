import { describe, expect, test } from "bun:test";
import { findJob } from "../../../jobs/index.ts";
import { cadenceOf } from "../../../src/modules/network/network.cadence.ts";
import { networkSignals } from "../../../src/modules/network/network.signals.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";

let t: TestApp;
let f: Fixture;

const stale = (key = f.keys.read.secret, qs = "") => t.request("GET", `/api/v1/network/signals/going-stale${qs}`, { key });
const learn = () => findJob("cadence-learning")!.runOnce(t.deps);

describe("cadence learning", () => {
  test("the cadence is the 75th percentile of gaps between distinct days, within 7..365", () => {
    expect(cadenceOf([0, 10, 20, 30, 40])).toBe(10);
    expect(cadenceOf([0, 7, 14, 30, 37])).toBe(7); // gaps 7,7,16,7 -> sorted 7,7,7,16 -> p75 = 7
    expect(cadenceOf([0, 7, 14, 30, 46])).toBe(16); // gaps 7,7,16,16 -> p75 = 16
    expect(cadenceOf([0, 1, 2, 3, 25])).toBe(7); // bounded below
    expect(cadenceOf([0, 400, 800, 1200])).toBe(365); // bounded above
  });

  test("too thin a history teaches nothing", () => {
    expect(cadenceOf([0, 10, 20])).toBeNull(); // three days
    expect(cadenceOf([0, 5, 10, 15])).toBeNull(); // under three weeks
  });

  test("the job stores learned cadences, leaves thin histories null, and is idempotent", async () => {
    ({ t, f } = seededApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") }));
    const alice = f.users.alice.id;
    knows(t.deps, alice, { email: "weekly@a.com" }, thread(10, 7, 1)); // every 7 days
    knows(t.deps, alice, { email: "monthly@a.com" }, thread(6, 30, 2));
    knows(t.deps, alice, { email: "thin@a.com" }, thread(3, 30, 2));
    // Same-day touches count as one day in touch.
    knows(t.deps, alice, { email: "burst@a.com" }, [...thread(5, 14, 3), ...thread(5, 14, 3)]);
    const first = await learn();
    expect(first).toMatchObject({ relationships: 4, learned: 3, changed: 3, cleared: 0 });
    const learned = Object.fromEntries(
      t.deps.db.$client
        .query<{ email: string; c: number | null }, []>("SELECT e.email, r.learned_cadence_days AS c FROM relationships r JOIN person_emails e ON e.person_id = r.person_id")
        .all()
        .map((r) => [r.email, r.c]),
    );
    expect(learned).toEqual({ "weekly@a.com": 7, "monthly@a.com": 30, "thin@a.com": null, "burst@a.com": 14 });
    expect(await learn()).toMatchObject({ learned: 3, changed: 0, cleared: 0 });
    // Two years on, the history has aged out of the window: the cadences are cleared, not kept.
    t.clock.set("2028-12-01T00:00:00.000Z");
    expect(await learn()).toMatchObject({ learned: 0, cleared: 3 });
  });
});

describe("GET /api/v1/network/signals/going-stale", () => {
  function setup() {
    ({ t, f } = seededApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") }));
    const alice = f.users.alice.id;
    knows(t.deps, alice, { email: "weekly@a.com", name: "Wendy Weekly" }, thread(10, 7, 20)); // learned 7, 20 days silent: 2.86x
    knows(t.deps, alice, { email: "monthly@a.com", name: "Mo Monthly" }, thread(6, 30, 45)); // learned 30, 45 days: 1.5x
    knows(t.deps, alice, { email: "fresh@a.com", name: "Fresh Fred" }, thread(10, 7, 3)); // learned 7, 3 days: fine
    knows(t.deps, alice, { email: "nocadence@a.com" }, thread(2, 30, 200)); // thin: never listed
    knows(t.deps, f.users.bob.id, { email: "weekly@a.com" }, thread(10, 7, 60)); // Bob's own, not Alice's
  }

  test("lists relationships past their learned cadence, most overdue relative to cadence first, with total", async () => {
    setup();
    await learn();
    const res = await stale();
    expect(res.status).toBe(200);
    expect(res.json.scope).toBe("key_user");
    expect(res.json.total).toBe(2);
    expect(res.json.signals).toEqual([
      { contact_id: expect.any(String), name: "Wendy Weekly", email: "weekly@a.com", days_since_last_touch: 20, effective_cadence_days: 7, source: "learned", last_touch_at: "2026-11-02T12:00:00.000Z" },
      { contact_id: expect.any(String), name: "Mo Monthly", email: "monthly@a.com", days_since_last_touch: 45, effective_cadence_days: 30, source: "learned", last_touch_at: "2026-10-08T12:00:00.000Z" },
    ]);
  });

  test("a declared cadence beats the learned one; 0 clears it", async () => {
    setup();
    await learn();
    const signals = networkSignals(t.deps);
    signals.declareCadence(f.users.alice.id, "monthly@a.com", 10); // 45 / 10 = 4.5x: now first
    signals.declareCadence(f.users.alice.id, "weekly@a.com", 90); // no longer overdue
    signals.declareCadence(f.users.alice.id, "nocadence@a.com", 100); // 200 days > 100: listed
    let res = await stale();
    expect(res.json.signals.map((s: any) => [s.email, s.effective_cadence_days, s.source])).toEqual([
      ["monthly@a.com", 10, "declared"],
      ["nocadence@a.com", 100, "declared"],
    ]);
    expect(res.json.signals[1].name).toBe("nocadence@a.com"); // no display name: the address
    signals.declareCadence(f.users.alice.id, "weekly@a.com", 0);
    res = await stale();
    expect(res.json.signals.map((s: any) => s.email)).toEqual(["monthly@a.com", "weekly@a.com", "nocadence@a.com"]);
  });

  test("strictly greater than the cadence, in whole days, moving with the clock", async () => {
    setup();
    await learn();
    networkSignals(t.deps).declareCadence(f.users.alice.id, "fresh@a.com", 5);
    t.clock.set("2026-11-24T11:59:59.000Z"); // 4 days 23:59:59 since the last touch
    expect((await stale()).json.signals.map((s: any) => s.email)).not.toContain("fresh@a.com");
    t.clock.set("2026-11-25T12:00:00.000Z"); // exactly 6 days
    const res = await stale();
    expect(res.json.signals.find((s: any) => s.email === "fresh@a.com")).toMatchObject({ days_since_last_touch: 6, effective_cadence_days: 5 });
  });

  test("a snoozed relationship is hidden until the snooze ends", async () => {
    setup();
    await learn();
    networkSignals(t.deps).snooze(f.users.alice.id, "weekly@a.com", "2026-12-01");
    expect((await stale()).json).toMatchObject({ total: 1, signals: [{ email: "monthly@a.com" }] });
    t.clock.set("2026-12-01T12:00:00.000Z");
    // weekly 29/7 = 4.1, monthly 54/30 = 1.8, and by now fresh too: 12/7 = 1.7
    expect((await stale()).json.signals.map((s: any) => s.email)).toEqual(["weekly@a.com", "monthly@a.com", "fresh@a.com"]);
  });

  test("limit cuts the list, not the total; bad limits are 422", async () => {
    setup();
    await learn();
    const res = await stale(f.keys.read.secret, "?limit=1");
    expect(res.json.signals.length).toBe(1);
    expect(res.json.total).toBe(2);
    for (const bad of ["0", "201", "many"]) {
      const r = await stale(f.keys.read.secret, `?limit=${bad}`);
      expect(r.status).toBe(422);
      expect(r.json.detail[0].loc).toEqual(["query", "limit"]);
    }
  });

  test("another organization's user sees nothing of it", async () => {
    setup();
    await learn();
    expect((await stale(f.keys.otherOrgWrite.secret)).json).toMatchObject({ signals: [], total: 0 });
  });

  test("cadence and snooze refuse what they cannot apply", () => {
    setup();
    const signals = networkSignals(t.deps);
    expect(() => signals.declareCadence(f.users.alice.id, "stranger@nowhere.com", 10)).toThrow(/No relationship/);
    expect(() => signals.declareCadence(f.users.alice.id, "not-an-email", 10)).toThrow(/Not an email/);
    expect(() => signals.declareCadence(f.users.alice.id, "weekly@a.com", -1)).toThrow(/whole number/);
    expect(() => signals.snooze(f.users.alice.id, "weekly@a.com", "next week")).toThrow(/Not a date/);
    // Impossible calendar days are refused, not rolled over into the next month.
    for (const day of ["2026-02-31", "2026-02-29", "2026-13-01", "2026-04-31T09:00:00Z", "2026-03-01T10:00"]) {
      expect(() => signals.snooze(f.users.alice.id, "weekly@a.com", day), day).toThrow(/Not a date/);
    }
    const stored = () => t.deps.db.$client.query<{ s: string | null }, []>("SELECT snoozed_until AS s FROM relationships WHERE snoozed_until IS NOT NULL").all();
    expect(stored()).toEqual([]);
    expect(signals.snooze(f.users.alice.id, "weekly@a.com", "2028-02-29")).toEqual({ snoozed_until: "2028-02-29T00:00:00.000Z" });
    expect(signals.snooze(f.users.alice.id, "weekly@a.com", "2027-03-01T10:00:00+01:00")).toEqual({ snoozed_until: "2027-03-01T09:00:00.000Z" });
    // Carol (Globex) cannot reach Acme's person through the same address.
    expect(() => signals.declareCadence(f.users.carol.id, "weekly@a.com", 10)).toThrow(/No relationship/);
  });
});
