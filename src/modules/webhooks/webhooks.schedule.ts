// When to try a delivery again, and what a receiver's answer means. Pure functions: the dispatcher
// applies them, tests check them without a network.

export const MAX_ATTEMPTS = 11;
/** The span of one delivery's schedule: 10 doubling delays add up to 30 minutes. */
export const WINDOW_MS = 30 * 60_000;
const BASE_DELAY_MS = WINDOW_MS / (2 ** (MAX_ATTEMPTS - 1) - 1);
/** Each delay is its nominal value times a factor in [1 - JITTER, 1 + JITTER). */
export const JITTER = 0.2;

/**
 * The delay after the `attemptsMade`-th failed attempt of a schedule (1-based): about 1.76 s,
 * 3.5 s, 7 s ... 15 min, so the 11th attempt comes about 30 minutes after the first. Scaled by
 * DEALGRAPH_WEBHOOK_RETRY_SCALE.
 */
export function backoffMs(attemptsMade: number, scale: number, random: () => number = Math.random): number {
  const nominal = BASE_DELAY_MS * 2 ** (Math.max(1, attemptsMade) - 1);
  return nominal * (1 - JITTER + 2 * JITTER * random()) * scale;
}

/** Seconds or an HTTP date; null when absent or unreadable. Never negative. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at) || !/[a-z]/i.test(v)) return null;
  return Math.max(0, at - now.getTime());
}

export type Outcome = "succeeded" | "retry" | "failed";

/**
 * 2xx: delivered. 3xx: a failed attempt (redirects are never followed), retried. 408 and 429:
 * retried like a 5xx. Any other 4xx: final. No answer at all (timeout, refused, blocked): retried.
 */
export function classify(status: number | null): Outcome {
  if (status === null) return "retry";
  if (status >= 200 && status < 300) return "succeeded";
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return "failed";
  return "retry";
}

export type NextStep = { status: "succeeded" | "failed" | "pending"; nextAttemptAt: Date | null };

/**
 * What follows an attempt. `roundAttempts` counts this attempt. A Retry-After (429/503) is used as
 * given, not scaled, as long as it lands inside the schedule's window (scaled); past the window the
 * retry comes at the window's end or the ordinary backoff, whichever is later (never later than asked).
 */
export function nextStep(input: {
  outcome: Outcome;
  roundAttempts: number;
  roundStartedAt: Date;
  now: Date;
  retryAfterMs: number | null;
  scale: number;
  random?: () => number;
}): NextStep {
  if (input.outcome === "succeeded") return { status: "succeeded", nextAttemptAt: null };
  if (input.outcome === "failed" || input.roundAttempts >= MAX_ATTEMPTS) return { status: "failed", nextAttemptAt: null };
  const now = input.now.getTime();
  const backoff = now + backoffMs(input.roundAttempts, input.scale, input.random);
  if (input.retryAfterMs === null) return { status: "pending", nextAttemptAt: new Date(backoff) };
  const windowEnd = input.roundStartedAt.getTime() + WINDOW_MS * input.scale;
  const asked = now + input.retryAfterMs;
  return { status: "pending", nextAttemptAt: new Date(Math.min(asked, Math.max(windowEnd, backoff))) };
}
