// XIRR: the annual rate at which dated cashflows' net present value is 0, with time in years of
// 365 days from the first flow (as spreadsheets compute it). Flows are first netted per day into a
// NetFlows (ascending days, one amount a day); pooling many commitments merges their NetFlows.
import { round } from "../../lib/figures.ts";

/** A dated amount from the LP's side: negative paid in (a call), positive received. */
export type Flow = { date: string; amount: number };
/** Flows netted per day: `days` ascending (days since 1970-01-01), one amount each. */
export type NetFlows = { days: number[]; amounts: number[] };

const DAY_MS = 86_400_000;
const dayCache = new Map<string, number>();

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (cached: a book has a few thousand distinct days). */
export function dayNumber(date: string): number {
  let d = dayCache.get(date);
  if (d === undefined) {
    d = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
    if (dayCache.size < 200_000) dayCache.set(date, d);
  }
  return d;
}

/** The `YYYY-MM-DD` date of a day number. */
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Nets (day, amount) pairs per day, in day order, whatever order they come in. */
export function netFlows(days: number[], amounts: number[]): NetFlows {
  let order: number[] | null = null;
  for (let i = 1; i < days.length; i++) {
    if (days[i] < days[i - 1]) {
      order = days.map((_, k) => k).sort((a, b) => days[a] - days[b]);
      break;
    }
  }
  const out: NetFlows = { days: [], amounts: [] };
  for (let k = 0; k < days.length; k++) {
    const i = order ? order[k] : k;
    const n = out.days.length;
    if (n && out.days[n - 1] === days[i]) out.amounts[n - 1] += amounts[i];
    else {
      out.days.push(days[i]);
      out.amounts.push(amounts[i]);
    }
  }
  return out;
}

/** Above this span of days, merging falls back from an array indexed by day to a Map. */
const DENSE_MERGE_MAX_SPAN = 1_000_000;

/**
 * Several NetFlows as one (the pooled flows of several commitments): summed per day into an array
 * indexed by day (a book spans a few thousand days), then compacted in day order.
 */
export function mergeNetFlows(parts: NetFlows[]): NetFlows {
  let first = Infinity;
  let last = -Infinity;
  for (const p of parts) {
    if (p.days.length === 0) continue;
    first = Math.min(first, p.days[0]);
    last = Math.max(last, p.days[p.days.length - 1]);
  }
  const out: NetFlows = { days: [], amounts: [] };
  if (first > last) return out;
  if (last - first > DENSE_MERGE_MAX_SPAN) {
    const byDay = new Map<number, number>();
    for (const p of parts) for (let i = 0; i < p.days.length; i++) byDay.set(p.days[i], (byDay.get(p.days[i]) ?? 0) + p.amounts[i]);
    out.days = [...byDay.keys()].sort((a, b) => a - b);
    out.amounts = out.days.map((d) => byDay.get(d)!);
    return out;
  }
  const sums = new Float64Array(last - first + 1);
  const seen = new Uint8Array(last - first + 1);
  for (const p of parts) {
    for (let i = 0; i < p.days.length; i++) {
      sums[p.days[i] - first] += p.amounts[i];
      seen[p.days[i] - first] = 1;
    }
  }
  for (let k = 0; k < sums.length; k++) {
    if (seen[k]) {
      out.days.push(first + k);
      out.amounts.push(sums[k]);
    }
  }
  return out;
}

/**
 * The rate, at 6 decimals, or null when there is none: no money both paid in and received, or no
 * root between -99.9999% and 10^6. Newton's method from a guess made of the multiple and the
 * money-weighted holding time (a few steps for a fund's flows), else a bracketed bisection.
 */
export function solveXirr(net: NetFlows): number | null {
  const n = net.days.length;
  const t = new Float64Array(n);
  const a = net.amounts;
  let paid = 0;
  let received = 0;
  let paidTime = 0;
  let receivedTime = 0;
  let scale = 0;
  for (let i = 0; i < n; i++) {
    t[i] = (net.days[i] - net.days[0]) / 365;
    scale += Math.abs(a[i]);
    if (a[i] < 0) {
      paid -= a[i];
      paidTime -= a[i] * t[i];
    } else {
      received += a[i];
      receivedTime += a[i] * t[i];
    }
  }
  if (paid === 0 || received === 0) return null;
  const npv = (r: number) => {
    const L = Math.log1p(r);
    let v = 0;
    for (let i = 0; i < n; i++) v += a[i] * Math.exp(-t[i] * L);
    return v;
  };

  const held = receivedTime / received - paidTime / paid;
  let r = held > 0.01 ? Math.pow(received / paid, 1 / held) - 1 : 0.1;
  if (!(r > -0.99 && r < 100)) r = 0.1;
  for (let iter = 0; iter < 50; iter++) {
    const L = Math.log1p(r);
    let v = 0;
    let dv = 0;
    for (let i = 0; i < n; i++) {
      const disc = a[i] * Math.exp(-t[i] * L);
      v += disc;
      dv -= t[i] * disc;
    }
    dv /= 1 + r;
    if (!Number.isFinite(v) || !Number.isFinite(dv) || dv === 0) break;
    const next = r - v / dv;
    if (!(next > -1)) break;
    const done = Math.abs(next - r) < 1e-10;
    r = next;
    if (done) break;
  }
  if (r > -1 && Number.isFinite(r) && Math.abs(npv(r)) <= 1e-7 * scale) return round(r, 6);

  const grid = [-0.999999, -0.99, -0.9, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 1, 2, 5, 10, 100, 1000, 1e6];
  for (let i = 0; i + 1 < grid.length; i++) {
    let lo = grid[i];
    let hi = grid[i + 1];
    let flo = npv(lo);
    if (!Number.isFinite(flo) || Math.sign(flo) === Math.sign(npv(hi))) continue;
    for (let k = 0; k < 200 && hi - lo > 1e-13; k++) {
      const mid = (lo + hi) / 2;
      const fm = npv(mid);
      if (Math.sign(fm) === Math.sign(flo)) [lo, flo] = [mid, fm];
      else hi = mid;
    }
    return round((lo + hi) / 2, 6);
  }
  return null;
}

/** XIRR of dated flows in any order; flows on one day are netted first. */
export function xirr(flows: Flow[]): number | null {
  return solveXirr(netFlows(flows.map((f) => dayNumber(f.date)), flows.map((f) => f.amount)));
}
