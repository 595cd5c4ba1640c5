// Server-sent event streams read as a client reads them: frames of `event:`, JSON `data:` and `:`
// comments (keep-alives), in order, from a live response or from a stream's whole text.

export type Frame = { event?: string; data?: any; comment?: string };

function parseFrame(raw: string): Frame {
  const frame: Frame = {};
  for (const line of raw.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    else if (line.startsWith("event: ")) frame.event = line.slice(7);
    else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6));
  }
  return frame;
}

/** The frames of a stream that has ended (its whole text, e.g. `await res.text()` after `done`). */
export function framesOf(text: string): Frame[] {
  return text
    .split("\n\n")
    .filter((raw) => raw.trim() !== "")
    .map(parseFrame);
}

/**
 * Reads a live stream's frames until it ends or `maxMs` pass (a stream that never ends is cut
 * there). `onFrame` sees each frame as it arrives, with those before it, and may drive what the
 * server sends next.
 */
export async function readFrames(res: Response, o: { onFrame?: (frame: Frame, all: Frame[]) => void; maxMs?: number } = {}): Promise<Frame[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = "";
  const deadline = Date.now() + (o.maxMs ?? 5000);
  while (Date.now() < deadline) {
    const { value, done } = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => ({ value: undefined, done: true }))]);
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      frames.push(frame);
      o.onFrame?.(frame, frames);
    }
  }
  reader.releaseLock();
  return frames;
}
