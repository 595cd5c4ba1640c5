// How warm a relationship is, from what a firm's mail and calendar actually show. Pure functions
// of a relationship's aggregates and the clock, so every score is explainable and decays with time.
//
// - Activity: each touch adds a weight (an email either way 1, a meeting 2.5) that halves every
//   90 days; the decayed sum is kept incrementally (`decayedScore` at `scoreAt`).
// - Reciprocity: two-way relationships are worth more than one-way ones; meetings count both ways.
// - Recency: warmth leans on how recently the two were in touch (30-day half-life).
import type { RowOf } from "../../db/rows.ts";
import type { relationships } from "./network.tables.ts";

export const ACTIVITY_HALF_LIFE_DAYS = 90;
export const RECENCY_HALF_LIFE_DAYS = 30;
export const TOUCH_WEIGHT = { sent: 1, received: 1, meeting: 2.5 } as const;
const DAY_MS = 86_400_000;

export type Direction = keyof typeof TOUCH_WEIGHT;

/** The aggregates of a relationship (its row's touch columns) every score is computed from. */
export type Aggregates = Pick<
  RowOf<typeof relationships>,
  "firstTouchAt" | "lastTouchAt" | "lastTouchDirection" | "sentCount" | "receivedCount" | "meetingCount" | "decayedScore" | "scoreAt"
>;

const decay = (days: number, halfLife: number) => Math.pow(0.5, days / halfLife);

/** Adds one touch to the aggregates, in any order of time (the decayed sum is order-free). */
export function addTouch(a: Aggregates, at: Date, direction: Direction): void {
  const w = TOUCH_WEIGHT[direction];
  const iso = at.toISOString();
  if (direction === "sent") a.sentCount++;
  else if (direction === "received") a.receivedCount++;
  else a.meetingCount++;
  if (!a.firstTouchAt || iso < a.firstTouchAt) a.firstTouchAt = iso;
  if (!a.lastTouchAt || iso >= a.lastTouchAt) {
    a.lastTouchAt = iso;
    a.lastTouchDirection = direction;
  }
  if (!a.scoreAt) {
    a.decayedScore = w;
    a.scoreAt = iso;
    return;
  }
  const ref = Date.parse(a.scoreAt);
  const t = at.getTime();
  if (t <= ref) a.decayedScore += w * decay((ref - t) / DAY_MS, ACTIVITY_HALF_LIFE_DAYS);
  else {
    a.decayedScore = a.decayedScore * decay((t - ref) / DAY_MS, ACTIVITY_HALF_LIFE_DAYS) + w;
    a.scoreAt = iso;
  }
}

export const touchCount = (a: Aggregates) => a.sentCount + a.receivedCount + a.meetingCount;

/** 1 when both sides write (or meet) about equally, 0 when it only ever goes one way. */
export function twoWayRatio(a: Aggregates): number {
  const out = a.sentCount + a.meetingCount;
  const back = a.receivedCount + a.meetingCount;
  if (out + back === 0) return 0;
  return (2 * Math.min(out, back)) / (out + back);
}

function activityNow(a: Aggregates, now: Date): number {
  if (!a.scoreAt) return 0;
  const days = Math.max(0, (now.getTime() - Date.parse(a.scoreAt)) / DAY_MS);
  return a.decayedScore * decay(days, ACTIVITY_HALF_LIFE_DAYS);
}

export function daysSinceLastTouch(a: Aggregates, now: Date): number | null {
  if (!a.lastTouchAt) return null;
  return Math.floor(Math.max(0, now.getTime() - Date.parse(a.lastTouchAt)) / DAY_MS);
}

/** 0-100; null when there has never been a touch. */
export function strength(a: Aggregates, now: Date): number | null {
  if (touchCount(a) === 0) return null;
  const activity = 1 - Math.exp(-activityNow(a, now) / 6);
  return Math.round(100 * activity * (0.55 + 0.45 * twoWayRatio(a)) * 10) / 10;
}

/** 0-1: strength tempered by how recently they were in touch. */
export function warmth(a: Aggregates, now: Date): number | null {
  const s = strength(a, now);
  if (s === null) return null;
  const recency = decay((now.getTime() - Date.parse(a.lastTouchAt!)) / DAY_MS, RECENCY_HALF_LIFE_DAYS);
  return Math.round(((s / 100) * (0.6 + 0.4 * Math.min(1, recency))) * 1000) / 1000;
}

export type RelationshipLabel = "strong" | "moderate" | "weak" | "dormant";

export function label(s: number | null): RelationshipLabel | null {
  if (s === null) return null;
  if (s >= 60) return "strong";
  if (s >= 30) return "moderate";
  if (s >= 8) return "weak";
  return "dormant";
}

/** What made a path warm, in figures a partner can check against their own inbox. */
export function signals(a: Aggregates, now: Date) {
  if (touchCount(a) === 0) return null;
  return {
    first_touch_at: a.firstTouchAt,
    last_touch_at: a.lastTouchAt,
    last_touch_by: a.lastTouchDirection === "sent" ? "owner" : a.lastTouchDirection === "received" ? "contact" : "meeting",
    days_since_last_touch: daysSinceLastTouch(a, now),
    emails_sent: a.sentCount,
    emails_received: a.receivedCount,
    meetings: a.meetingCount,
    two_way_ratio: Math.round(twoWayRatio(a) * 100) / 100,
  };
}
