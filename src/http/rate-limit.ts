// A per-client request limit in memory: at most `limit` requests per key (a client address) in a
// fixed window of `windowMs`, by the clock it is given. One server serves a data dir (the serve
// lock), so memory is the whole truth; a restart forgets the counts, which only forgives.

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimiter = { take(key: string): RateDecision };

/** Keys kept before finished windows are swept out (a flood of addresses cannot grow it without end). */
const SWEEP_AT = 10_000;

export function windowLimiter(opts: { limit: number; windowMs: number; now: () => number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      const now = opts.now();
      if (windows.size >= SWEEP_AT) for (const [k, w] of windows) if (now - w.start >= opts.windowMs) windows.delete(k);
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs) windows.set(key, (w = { start: now, count: 0 }));
      if (w.count >= opts.limit) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + opts.windowMs - now) / 1000)) };
      w.count++;
      return { allowed: true };
    },
  };
}
