// What held the server's thread: a timer that should fire every 10 ms, and when it fires late by
// more than a threshold, one log line with how late and what was under way then (each action
// run's current stage, the child processes being watched). A diagnosis for an operator (and the
// hostile-uploads bench), off unless DEALGRAPH_LOG_EVENT_LOOP_LAG_MS is set: the timer costs a
// wake-up every 10 ms. A stage is the one the run announced last, so a stretch inside it, or
// ending just as the next began, is named by it.

/** What each run in flight is doing now ("deal_analysis:extract"), by run id. */
const stages = new Map<string, string>();
let childrenRunning = 0;

/** Notes the stage a run has reached (null: the run has ended). */
export function noteRunStage(runId: string, label: string | null): void {
  if (label === null) stages.delete(runId);
  else stages.set(runId, label);
}

/** Notes a watched child process starting (+1) or ending (-1). */
export function noteChild(delta: 1 | -1): void {
  childrenRunning += delta;
}

/** What is under way now. */
export function underWay(): { stages: string[]; children: number } {
  return { stages: [...stages.values()], children: childrenRunning };
}

export type LagReport = { lag_ms: number; stages: string[]; children: number };

/** Calls `report` each time the event loop is late by more than `thresholdMs`. */
export function watchEventLoop(thresholdMs: number, report: (r: LagReport) => void, everyMs = 10): { stop(): void } {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = now - last - everyMs;
    last = now;
    if (lag > thresholdMs) report({ lag_ms: Math.round(lag), ...underWay() });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
