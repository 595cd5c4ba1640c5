// The event-loop lag log (DEALGRAPH_LOG_EVENT_LOOP_LAG_MS): a stretch the thread is held is
// reported with what was under way; nothing is reported while the loop turns freely.
import { expect, test } from "bun:test";
import { loadConfig, ConfigError } from "../../src/config.ts";
import { noteChild, noteRunStage, watchEventLoop, type LagReport } from "../../src/lib/event-loop-lag.ts";

test("a 200 ms synchronous stretch is reported with the runs' stages and the children under way", async () => {
  const reports: LagReport[] = [];
  const watch = watchEventLoop(100, (r) => reports.push(r));
  noteRunStage("run-1", "deal_analysis:extract");
  noteChild(1);
  try {
    await Bun.sleep(30); // the timer has fired at least once
    Bun.sleepSync(200);
    await Bun.sleep(30);
  } finally {
    watch.stop();
    noteRunStage("run-1", null);
    noteChild(-1);
  }
  expect(reports.length).toBeGreaterThanOrEqual(1);
  const worst = reports.reduce((a, b) => (b.lag_ms > a.lag_ms ? b : a));
  expect(worst.lag_ms).toBeGreaterThanOrEqual(150);
  expect(worst.stages).toEqual(["deal_analysis:extract"]);
  expect(worst.children).toBe(1);
});

test("DEALGRAPH_LOG_EVENT_LOOP_LAG_MS: off unless set, a whole number of ms when set", () => {
  expect(loadConfig({}).eventLoopLagLogMs).toBeNull();
  expect(loadConfig({ DEALGRAPH_LOG_EVENT_LOOP_LAG_MS: "50" }).eventLoopLagLogMs).toBe(50);
  expect(() => loadConfig({ DEALGRAPH_LOG_EVENT_LOOP_LAG_MS: "soon" })).toThrow(ConfigError);
  expect(() => loadConfig({ DEALGRAPH_LOG_EVENT_LOOP_LAG_MS: "0" })).toThrow(/DEALGRAPH_LOG_EVENT_LOOP_LAG_MS must be an integer >= 1/);
});
