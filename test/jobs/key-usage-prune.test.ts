import { afterEach, expect, test } from "bun:test";
import { findJob, jobs, nextRun, startJobs } from "../../jobs/index.ts";
import { budgetsService } from "../../src/modules/identity/budgets.service.ts";
import { webAuth } from "../../src/modules/web/web.auth.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClock } from "../helpers/clock.ts";
import { seedIdentity } from "../helpers/fixtures.ts";

let t: TestApp;
afterEach(() => t?.close());

test("key-usage-prune drops counters older than 400 days and keeps the rest", async () => {
  const clock = new TestClock("2025-01-01T12:00:00.000Z");
  t = createTestApp({ clock });
  const f = seedIdentity(t.deps);
  const budgets = budgetsService(t.deps);
  budgets.countRequest({ keyId: f.keys.read.id }, 10); // 2025-01-01: will be 401 days old
  clock.set("2025-01-03T12:00:00.000Z");
  budgets.countRequest({ keyId: f.keys.read.id }, 10); // 399 days old
  clock.set("2026-02-06T08:00:00.000Z");
  budgets.countRequest({ keyId: f.keys.read.id }, 10); // today
  const job = findJob("key-usage-prune")!;
  expect(await job.runOnce(t.deps)).toEqual({ deleted: 1, web_usage_deleted: 0, sign_in_failures_deleted: 0 });
  const days = t.deps.db.$client.query<{ day: string }, []>("SELECT day FROM key_usage ORDER BY day").all().map((r) => r.day);
  expect(days).toEqual(["2025-01-03", "2026-02-06"]);
  expect(await job.runOnce(t.deps)).toEqual({ deleted: 0, web_usage_deleted: 0, sign_in_failures_deleted: 0 });
  // Last use survives in what is kept.
  expect(budgetsService(t.deps).lastUsed([f.keys.read.id]).get(f.keys.read.id)).toBe("2026-02-06T08:00:00.000Z");
});

test("key-usage-prune also drops web sign-in failures older than a day; a sign-in attempt itself deletes none", async () => {
  const clock = new TestClock("2026-02-05T08:00:00.000Z");
  t = createTestApp({ clock });
  const f = seedIdentity(t.deps);
  const auth = webAuth(t.deps);
  await auth.signInWithPassword("alice@acme.vc", "wrong password", "198.51.100.7");
  clock.set("2026-02-06T08:00:01.000Z"); // just over a day later
  await auth.signInWithPassword("alice@acme.vc", "wrong again", "198.51.100.7");
  await auth.signInWithPassword(f.users.bob.email, "wrong", "198.51.100.8");
  // Pruning is the job's: the attempts above left the day-old failure alone.
  expect(auth.failureCount("alice@acme.vc")).toBe(2);
  expect(await findJob("key-usage-prune")!.runOnce(t.deps)).toEqual({ deleted: 0, web_usage_deleted: 0, sign_in_failures_deleted: 1 });
  expect(auth.failureCount("alice@acme.vc")).toBe(1);
  expect(auth.failureCount(f.users.bob.email)).toBe(1);
  expect(await findJob("key-usage-prune")!.runOnce(t.deps)).toEqual({ deleted: 0, web_usage_deleted: 0, sign_in_failures_deleted: 0 });
});

test("every job has a unique id, a valid UTC cron pattern and a description", () => {
  const ids = jobs.map((j) => j.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const job of jobs) {
    expect(job.description.length).toBeGreaterThan(10);
    expect(nextRun(job, new Date("2026-11-22T00:00:00Z"))).toBeInstanceOf(Date);
  }
  expect(nextRun(findJob("key-usage-prune")!, new Date("2026-11-22T04:00:00Z"))?.toISOString()).toBe("2026-11-23T03:17:00.000Z");
});

test("the schedule runs a job and a failing job does not stop the others", async () => {
  t = createTestApp();
  let ran = 0;
  const running = startJobs(t.deps, [
    { id: "fails", pattern: "* * * * * *", description: "always throws", runOnce: () => { throw new Error("boom"); } },
    { id: "counts", pattern: "* * * * * *", description: "counts its runs", runOnce: () => ({ ran: ++ran }) },
  ]);
  try {
    const deadline = Date.now() + 5000;
    while (ran < 2 && Date.now() < deadline) await Bun.sleep(50);
  } finally {
    running.stop();
  }
  expect(ran).toBeGreaterThanOrEqual(2);
});
