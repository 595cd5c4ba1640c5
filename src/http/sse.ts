// Server-Sent Events with a per-key cap on open streams and keep-alive comments. Domain-free: the
// caller says what to send first and subscribes the stream to whatever it follows.
import { perDeps, type Deps } from "../deps.ts";
import { ApiError } from "./errors.ts";

export type SseEvent = { event: string; data: unknown };

export type StreamControl = {
  send(e: SseEvent): void;
  /** Ends the stream (after what was sent). */
  close(): void;
};

const encoder = new TextEncoder();
const frame = (e: SseEvent) => encoder.encode(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);

const openStreams = perDeps(() => new Map<string, number>());

export function openStreamCount(deps: Deps, keyId: string): number {
  return openStreams(deps).get(keyId) ?? 0;
}

/**
 * A stream for one key. `start` sends the first events and returns an unsubscribe function; the
 * slot is counted against the key's cap until the stream ends, whoever ends it.
 */
export function eventStream(
  deps: Deps,
  keyId: string,
  headers: Record<string, string>,
  start: (stream: StreamControl) => () => void,
): Response {
  const counts = openStreams(deps);
  const cap = deps.config.sseMaxStreamsPerKey;
  const open = counts.get(keyId) ?? 0;
  if (open >= cap) {
    throw new ApiError(429, `This API key already has ${open} open event streams (the limit is ${cap}); close one or poll the status URL.`, {
      "Retry-After": "5",
    });
  }
  counts.set(keyId, open + 1);
  let released = false;
  let unsubscribe: (() => void) | null = null;
  let keepalive: Timer | null = null;
  const release = () => {
    if (released) return;
    released = true;
    counts.set(keyId, (counts.get(keyId) ?? 1) - 1);
    if (counts.get(keyId)! <= 0) counts.delete(keyId);
    if (keepalive) clearInterval(keepalive);
    unsubscribe?.();
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const control: StreamControl = {
        send(e) {
          if (!closed) controller.enqueue(frame(e));
        },
        close() {
          if (closed) return;
          closed = true;
          release();
          controller.close();
        },
      };
      keepalive = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(`: keep-alive\n\n`));
      }, deps.config.sseKeepaliveSeconds * 1000);
      try {
        unsubscribe = start(control);
      } catch (error) {
        control.send({ event: "error", data: { detail: "The stream could not start; poll the status URL instead." } });
        control.close();
        deps.log.error("event stream failed to start", { error: String(error) });
      }
      if (closed) unsubscribe?.();
    },
    cancel() {
      release();
    },
  });

  return new Response(body, {
    headers: {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
