// The action engine against a test kind of action: dispatch and the actions budget, the runner's
// transitions and outbox events, bounded concurrency, crash recovery and the stale-run sweep.
import { describe, expect, test } from "bun:test";
import { findJob } from "../../../jobs/index.ts";
import type { Principal } from "../../../src/modules/identity/auth.macro.ts";
import { ApiError } from "../../../src/http/errors.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { RunError } from "../../../src/lib/run-error.ts";
import { recoverInterruptedRuns, type Handler } from "../../../src/modules/actions/runner.ts";
import { seededApp, testRunner, type TestApp } from "../../helpers/app.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

const KIND = { kind: "test_analysis", eventPrefix: "test.analysis", resultUrl: (id: string) => `/api/v1/tests/${id}` };

function setup(env: Record<string, string> = {}) {
  ({ t, f } = seededApp({ file: true, env }));
}

const principal = (): Principal => principalOf(t.deps, f.keys.write.secret);

const dispatch = (subject: string = crypto.randomUUID(), p = principal()) =>
  t.deps.db.transaction(() => actionsService(t.deps).dispatch(p, KIND, subject, { url: "https://example.com" }));

const outbox = () => t.deps.db.$client.query<{ event: string; entity_id: string; result_url: string; run_id: string }, []>("SELECT event, entity_id, result_url, run_id FROM outbox_events ORDER BY seq").all();
const actionsUsed = () => t.deps.db.$client.query<{ n: number }, [string]>("SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage WHERE key_id = ?").get(f.keys.write.id)!.n;

describe("dispatch", () => {
  test("queues a run and charges one action in the caller's transaction; the 202 headers carry X-Actions-*", () => {
    setup();
    const { run, headers } = dispatch("subject-1");
    expect(run).toMatchObject({ status: "queued", kind: KIND.kind, subjectId: "subject-1", userId: f.users.alice.id, orgId: f.orgs.acme.id, attempts: 0 });
    expect(headers).toEqual({ "X-Actions-Limit": "25", "X-Actions-Remaining": "24" });
    expect(actionsUsed()).toBe(1);
  });

  test("a dispatch rolled back with its caller costs nothing and leaves no run", () => {
    setup();
    expect(() =>
      t.deps.db.transaction(() => {
        actionsService(t.deps).dispatch(principal(), KIND, "s", {});
        throw new Error("the deal could not be created");
      }),
    ).toThrow();
    expect(actionsUsed()).toBe(0);
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM action_runs").get()).toEqual({ n: 0 });
  });

  test("with the actions budget spent: 429 with Retry-After and X-Actions-*, and no run", () => {
    setup();
    t.deps.db.$client.query("UPDATE api_keys SET daily_actions = 1 WHERE id = ?").run(f.keys.write.id);
    dispatch();
    let refused: ApiError | null = null;
    try {
      dispatch();
    } catch (e) {
      refused = e as ApiError;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.headers).toMatchObject({ "X-Actions-Limit": "1", "X-Actions-Remaining": "0", "Retry-After": expect.stringMatching(/^\d+$/) });
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM action_runs").get()).toEqual({ n: 1 });
  });
});

describe("the runner", () => {
  test("queued -> running -> succeeded, with progress on the way and a .completed event in the outbox", async () => {
    setup();
    const seen: string[] = [];
    const handler: Handler = async ({ run, progress }) => {
      seen.push(actionsService(t.deps).get(run.id)!.status);
      progress({ stage: "fetch" });
      seen.push(JSON.stringify(actionsService(t.deps).get(run.id)!.progress));
      progress({ stage: "score", percent: 80 });
    };
    const { run } = dispatch("deal-1");
    const runner = testRunner(t, new Map([[KIND.kind, handler]]), { pollMs: 10_000 });
    runner.pump();
    await runner.idle();
    expect(seen).toEqual(["running", '{"stage":"fetch"}']);
    const done = actionsService(t.deps).get(run.id)!;
    expect(done).toMatchObject({ status: "succeeded", progress: null, error: null, attempts: 1 });
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    expect(outbox()).toEqual([{ event: "test.analysis.completed", entity_id: "deal-1", result_url: "/api/v1/tests/deal-1", run_id: run.id }]);
  });

  test("a RunError fails the run with its message; anything else fails it without internals; both write .failed", async () => {
    setup();
    const a = dispatch("a").run;
    const b = dispatch("b").run;
    const handler: Handler = async ({ run }) => {
      if (run.subjectId === "a") throw new RunError("The website did not answer within 10 seconds");
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /srv/engine.ts:42");
    };
    const runner = testRunner(t, new Map([[KIND.kind, handler]]), { pollMs: 10_000 });
    await runner.idle();
    expect(actionsService(t.deps).get(a.id)).toMatchObject({ status: "failed", error: "The website did not answer within 10 seconds" });
    const failed = actionsService(t.deps).get(b.id)!;
    expect(failed.status).toBe("failed");
    expect(failed.error).not.toContain("engine.ts");
    expect(failed.error).toMatch(/internal error/);
    expect(outbox().map((e) => e.event)).toEqual(["test.analysis.failed", "test.analysis.failed"]);
  });

  test("never runs more than its concurrency at once, and runs everything queued", async () => {
    setup();
    let running = 0;
    let peak = 0;
    const handler: Handler = async () => {
      running++;
      peak = Math.max(peak, running);
      await Bun.sleep(20);
      running--;
    };
    for (let i = 0; i < 7; i++) dispatch();
    const runner = testRunner(t, new Map([[KIND.kind, handler]]), { concurrency: 2, perOrg: 2, pollMs: 10_000 });
    await runner.idle();
    expect(peak).toBe(2);
    expect(t.deps.db.$client.query("SELECT status, COUNT(*) AS n FROM action_runs GROUP BY status").all()).toEqual([{ status: "succeeded", n: 7 }]);
  });

  test("a run dispatched while the runner is up starts without waiting for the poll", async () => {
    setup();
    let ran = 0;
    const runner = testRunner(t, new Map([[KIND.kind, async () => void ran++]]), { pollMs: 60_000 });
    dispatch();
    await Bun.sleep(50);
    await runner.idle();
    expect(ran).toBe(1);
  });
});

describe("crash recovery", () => {
  test("a run a crash left running is queued again and completes; one interrupted twice is failed with a .failed event", async () => {
    setup();
    const once = dispatch("once").run;
    const twice = dispatch("twice").run;
    const actions = actionsService(t.deps);
    // The crash: both were taken (twice already for the second) and the process died.
    actions.start(once.id);
    actions.start(twice.id);
    t.deps.db.$client.query("UPDATE action_runs SET attempts = 2 WHERE id = ?").run(twice.id);
    let ran: string[] = [];
    const runner = testRunner(t, new Map([[KIND.kind, async ({ run }) => void ran.push(run.subjectId)]]), { pollMs: 10_000 });
    await runner.idle();
    expect(ran).toEqual(["once"]);
    expect(actions.get(once.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(actions.get(twice.id)).toMatchObject({ status: "failed", error: expect.stringMatching(/interrupted by a restart 2 times/) });
    expect(outbox().map((e) => `${e.entity_id}:${e.event}`).sort()).toEqual(["once:test.analysis.completed", "twice:test.analysis.failed"]);
  });
});

describe("crash recovery, restart by restart", () => {
  test("taken, crash, restart (queued again); taken, crash, restart: failed with that reason, and its .failed event is written", () => {
    setup();
    const actions = actionsService(t.deps);
    const { run } = dispatch("two-crashes");
    // First life: a runner takes the run, the process dies with it running; the next start requeues it.
    expect(actions.start(run.id)).not.toBeNull();
    expect(recoverInterruptedRuns(t.deps)).toEqual({ requeued: 1, failed: 0 });
    expect(actions.get(run.id)).toMatchObject({ status: "queued", attempts: 1 });
    expect(outbox()).toEqual([]);
    // Second life: taken again, killed again; the start after that gives up on it, saying why.
    expect(actions.start(run.id)).not.toBeNull();
    expect(recoverInterruptedRuns(t.deps)).toEqual({ requeued: 0, failed: 1 });
    expect(actions.get(run.id)).toMatchObject({ status: "failed", attempts: 2, error: "The run was interrupted by a restart 2 times and was not retried again" });
    // The event the webhook dispatcher delivers.
    expect(outbox()).toEqual([expect.objectContaining({ entity_id: "two-crashes", event: "test.analysis.failed", run_id: run.id })]);
  });
});

describe("stale-run-sweep", () => {
  test("fails running runs without a heartbeat for DEALGRAPH_STALE_RUN_SECONDS, and writes their .failed events", async () => {
    setup({ DEALGRAPH_STALE_RUN_SECONDS: "60" });
    const actions = actionsService(t.deps);
    const stale = dispatch("stale").run;
    const fresh = dispatch("fresh").run;
    const queued = dispatch("queued").run;
    actions.start(stale.id);
    actions.start(fresh.id);
    t.clock.advance(61_000);
    actions.heartbeat(fresh.id);
    const result = await findJob("stale-run-sweep")!.runOnce(t.deps);
    expect(result).toEqual({ failed: 1, expired: 0 });
    expect(actions.get(stale.id)).toMatchObject({ status: "failed", error: expect.stringMatching(/more than 60 seconds/) });
    expect(actions.get(fresh.id)!.status).toBe("running");
    expect(actions.get(queued.id)!.status).toBe("queued");
    expect(outbox()).toEqual([expect.objectContaining({ entity_id: "stale", event: "test.analysis.failed" })]);
    // A late finish of the swept run changes nothing.
    expect(actions.succeed(stale.id)).toBeNull();
    expect(actions.get(stale.id)!.status).toBe("failed");
  });
});

describe("wait steps", () => {
  /** A dispatched run set waiting, its wait step claimed by a runner (as the runner does before taking the step). */
  function waitingRunWithClaimedStep() {
    const { run } = dispatch();
    t.deps.db.$client.query("UPDATE action_runs SET waiting_for = 'email_verification' WHERE id = ?").run(run.id);
    const staleBefore = new Date(t.deps.clock.now().getTime() - 60_000);
    expect(actionsService(t.deps).claimWaitStep(run.id, staleBefore)).not.toBeNull();
    return run.id;
  }

  test("what the step brings back is kept when what the run waited for arrived while the step ran", () => {
    setup();
    const actions = actionsService(t.deps);
    const id = waitingRunWithClaimedStep();
    // The verification arrives first (it clears waiting_for), then the step ends with the host's cookies.
    expect(actions.resume(id, { gate: { verification_url_sealed: "v1:link" } })).not.toBeNull();
    const ended = actions.endWaitStep(id, { gate: { cookies_sealed: "v1:cookies", outcome: "verification_sent" } }, false);
    expect(ended).toMatchObject({ status: "queued", waitingFor: null });
    expect(actions.get(id)!.input.gate).toEqual({ verification_url_sealed: "v1:link", cookies_sealed: "v1:cookies", outcome: "verification_sent" });
    // And the run is ready: a runner takes it.
    expect(actions.start(id)).toMatchObject({ status: "running" });
  });

  test("in the usual order the step's end marks it done and the run keeps waiting; a run no longer queued is left alone", () => {
    setup();
    const actions = actionsService(t.deps);
    const id = waitingRunWithClaimedStep();
    const ended = actions.endWaitStep(id, { gate: { cookies_sealed: "v1:cookies" } }, false);
    expect(ended).toMatchObject({ status: "queued", waitingFor: "email_verification" });
    expect(actions.get(id)!.input).toMatchObject({ gate: { cookies_sealed: "v1:cookies" }, wait_step: { done_at: expect.any(String) } });
    expect(actions.start(id)).toBeNull(); // still waiting

    const failed = waitingRunWithClaimedStep();
    expect(actions.fail(failed, "expired", "queued")).not.toBeNull();
    const input = actions.get(failed)!.input;
    expect(actions.endWaitStep(failed, { gate: { cookies_sealed: "late" } }, true)).toBeNull();
    expect(actions.get(failed)).toMatchObject({ status: "failed", input });
  });
});
