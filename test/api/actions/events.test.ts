// Run event streams over a real listening server, read as a client reads them.
import { afterEach, describe, expect, test } from "bun:test";
import { openStreamCount } from "../../../src/http/sse.ts";
import { runEvents } from "../../../src/modules/actions/actions.events.ts";
import { actionsService, runTopic, statusView, type Run } from "../../../src/modules/actions/actions.service.ts";
import { seededApp, serveApp, type TestApp } from "../../helpers/app.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";
import { readFrames } from "../../helpers/sse.ts";

let t: TestApp;
let f: Fixture;
let base = "";
const readRuns = new Map<string, Run>();
afterEach(() => readRuns.clear());

const KIND = { kind: "test_analysis", eventPrefix: "test.analysis", resultUrl: (id: string) => `/api/v1/tests/${id}` };

function setup(env: Record<string, string> = {}) {
  ({ t, f } = seededApp({ env }));
  const actions = actionsService(t.deps);
  const principal = principalOf(t.deps, f.keys.write.secret);
  // The route shape every action's /events endpoint has; mounted here on the real app.
  t.app.get("/test/runs/:id/events", ({ params }) => runEvents(t.deps, principal, actions.get(params.id)!, {}, (r) => statusView(r, t.clock.now())));
  // The same, with the run as a route read it a moment before the stream starts.
  t.app.get("/test/read-runs/:id/events", ({ params }) => runEvents(t.deps, principal, readRuns.get(params.id)!, {}, (r) => statusView(r, t.clock.now())));
  base = serveApp(t);
  const run = t.deps.db.transaction(() => actions.dispatch(principal, KIND, "deal-9", {})).run;
  return { actions, run };
}

const url = (id: string) => `${base}/test/runs/${id}/events`;

describe("run event streams", () => {
  test("the current state first, a progress on every change, done with the result URL, then the stream closes", async () => {
    const { actions, run } = setup();
    const res = await fetch(url(run.id));
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = await readFrames(res, {
      // Drive the run as a runner would, one step per frame received.
      onFrame: (_frame, all) => {
        if (all.length === 1) actions.start(run.id);
        if (all.length === 2) actions.progress(run.id, { stage: "extract" });
        if (all.length === 3) {
          actions.progress(run.id, { stage: "extract" }); // no change: no event
          actions.progress(run.id, { stage: "score" });
        }
        if (all.length === 4) actions.succeed(run.id);
      },
    });
    expect(frames.map((f) => f.event)).toEqual(["progress", "progress", "progress", "progress", "progress", "done"]);
    expect(frames[0].data).toMatchObject({ status: "queued", progress: null });
    expect(frames[1].data).toMatchObject({ status: "running", progress: { stage: "starting" } });
    expect(frames[2].data.progress).toEqual({ stage: "extract" });
    expect(frames[3].data.progress).toEqual({ stage: "score" });
    expect(frames[4].data).toMatchObject({ status: "succeeded", progress: null, error: null });
    expect(frames[5].data).toEqual({ status: "succeeded", result_url: "/api/v1/tests/deal-9" });
    expect(openStreamCount(t.deps, f.keys.write.id)).toBe(0);
  });

  test("a stream opened after the run ended: its terminal state, done, close", async () => {
    const { actions, run } = setup();
    actions.start(run.id);
    actions.fail(run.id, "The document host refused the link");
    const frames = await readFrames(await fetch(url(run.id)));
    expect(frames).toEqual([
      { event: "progress", data: expect.objectContaining({ status: "failed", error: "The document host refused the link" }) },
      { event: "done", data: { status: "failed", result_url: "/api/v1/tests/deal-9" } },
    ]);
  });

  test("keep-alive comments while nothing changes", async () => {
    const { run } = setup({ DEALGRAPH_SSE_KEEPALIVE_SECONDS: "0.05" });
    const controller = new AbortController();
    const res = await fetch(url(run.id), { signal: controller.signal });
    const frames = await readFrames(res, { maxMs: 300 });
    controller.abort();
    expect(frames[0].event).toBe("progress");
    expect(frames.filter((f) => f.comment === "keep-alive").length).toBeGreaterThanOrEqual(2);
  });

  test("the per-key cap on open streams: 429 over it, and a closed stream frees its slot", async () => {
    const { run } = setup({ DEALGRAPH_SSE_MAX_STREAMS_PER_KEY: "2" });
    const a = new AbortController();
    const b = new AbortController();
    const first = await fetch(url(run.id), { signal: a.signal });
    const second = await fetch(url(run.id), { signal: b.signal });
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await fetch(url(run.id));
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("5");
    expect(((await third.json()) as any).detail).toMatch(/already has 2 open event streams/);
    a.abort();
    await first.body?.cancel().catch(() => {});
    for (let i = 0; i < 50 && openStreamCount(t.deps, f.keys.write.id) > 1; i++) await Bun.sleep(20);
    expect(openStreamCount(t.deps, f.keys.write.id)).toBe(1);
    const fourth = await fetch(url(run.id));
    expect(fourth.status).toBe(200);
    b.abort();
    await fourth.body?.cancel();
  });

  test("a run gone between the route's read and the stream's start: `error` with a detail, then the stream closes and frees its slot", async () => {
    const { run } = setup();
    readRuns.set(run.id, actionsService(t.deps).get(run.id)!);
    t.deps.db.$client.query("DELETE FROM action_runs WHERE id = ?").run(run.id);
    const res = await fetch(`${base}/test/read-runs/${run.id}/events`);
    expect(res.status).toBe(200);
    const frames = await readFrames(res);
    expect(frames).toEqual([{ event: "error", data: { detail: "The stream could not start; poll the status URL instead." } }]);
    expect(openStreamCount(t.deps, f.keys.write.id)).toBe(0);
    expect(t.deps.bus.listenerCount(runTopic(run.id))).toBe(0);
  });
});
