// A run's event stream: the current state first, a `progress` on every change, `done` with the
// result URL when it ends, then the stream closes. A run that already ended: one `progress` (its
// terminal state), `done`, close.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { eventStream } from "../../http/sse.ts";
import { actionsService, runTopic, type Run } from "./actions.service.ts";

const terminal = (run: Run) => run.status === "succeeded" || run.status === "failed";

/** @param view the payload of a `progress` event: the same as the action's status read. */
export function runEvents(deps: Deps, principal: Principal, run: Run, headers: Record<string, string>, view: (run: Run) => unknown): Response {
  const actions = actionsService(deps);
  return eventStream(deps, principal.keyId, headers, (stream) => {
    let last = "";
    const emit = (r: Run) => {
      const payload = view(r);
      const text = JSON.stringify(payload);
      if (text !== last) {
        last = text;
        stream.send({ event: "progress", data: payload });
      }
      if (terminal(r)) {
        stream.send({ event: "done", data: { status: r.status, result_url: r.resultUrl } });
        stream.close();
      }
    };
    const unsubscribe = deps.bus.subscribe<Run>(runTopic(run.id), emit);
    // Re-read after subscribing, so a change between the caller's read and now is not missed. A run
    // gone meanwhile ends the stream with `error` (what eventStream sends when start throws).
    const current = actions.get(run.id);
    if (!current) {
      unsubscribe();
      throw new Error(`The run ${run.id} no longer exists`);
    }
    emit(current);
    return unsubscribe;
  });
}
