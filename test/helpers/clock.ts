import type { Clock } from "../../src/lib/clock.ts";

/** A clock tests move by hand: budgets reset, keys expire and cadences lapse without waiting. */
export class TestClock implements Clock {
  private t: number;
  constructor(start: string | Date = "2026-11-22T12:00:00.000Z") {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  set(at: string | Date): void {
    this.t = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.t += ms;
  }
  advanceHours(h: number): void {
    this.advance(h * 3600_000);
  }
}
