// The LP arithmetic, pure and unit-tested: a commitment's figures from its ledger and marks (NAV
// rolled forward, TVPI/DPI/RVPI, net IRR by XIRR), the same figures pooled over several
// commitments of one currency, and each mark's trace. A figure whose input is missing is null,
// and the data-quality flags say why.
import { money, multiple, round } from "../../lib/figures.ts";

export type Cashflow = { date: string; type: "call" | "distribution"; amount: number };
export type Mark = { date: string; nav: number };
/** A dated amount from the LP's side: negative paid in (a call), positive received. */
export type Flow = { date: string; amount: number };

/** A mark older than this many days (against the clock) is flagged `stale_nav`. */
export const STALE_NAV_DAYS = 180;

export type Flag =
  | "no_cashflows"
  | "no_mark"
  | "stale_nav"
  | "cashflows_after_last_mark"
  | "called_above_commitment"
  | "negative_rolled_nav"
  | "irr_not_computable"
  | "unknown_currency"
  | "mixed_currency";

export type Figures = {
  commitment: number | null;
  called: number | null;
  distributed: number | null;
  nav: number | null;
  nav_date: string | null;
  unfunded: number | null;
  tvpi: number | null;
  dpi: number | null;
  rvpi: number | null;
  irr: number | null;
  data_quality_flags: Flag[];
};

/**
 * Figures (rounded for publishing) plus what pooling needs: the unrounded sums and the IRR's flows,
 * NAV included (null when NAV is missing).
 */
export type Computed = {
  figures: Figures & { last_mark_date: string | null };
  raw: { commitment: number; called: number; distributed: number; nav: number | null };
  flows: Flow[] | null;
};

const DAY_MS = 86_400_000;
const days = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

function npv(rate: number, t: number[], a: number[]): number {
  let v = 0;
  for (let i = 0; i < t.length; i++) v += a[i] * Math.pow(1 + rate, -t[i]);
  return v;
}

/**
 * The annual rate r at which the flows' net present value is 0, with time in years of 365 days
 * from the first flow (as spreadsheets' XIRR). Flows on one date are netted first. null when there
 * is no such rate: no paid-in and received flows both, or no root between -99.9999% and 10^6.
 */
export function xirr(flows: Flow[]): number | null {
  const byDate = new Map<string, number>();
  for (const f of flows) byDate.set(f.date, (byDate.get(f.date) ?? 0) + f.amount);
  const dated = [...byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (!dated.some(([, a]) => a < 0) || !dated.some(([, a]) => a > 0)) return null;
  const d0 = days(dated[0][0]);
  const t = dated.map(([d]) => (days(d) - d0) / 365);
  const a = dated.map(([, x]) => x);
  const scale = a.reduce((s, x) => s + Math.abs(x), 0);
  const f = (r: number) => npv(r, t, a);

  // Newton from 10%; its answer is kept only if it is a real root.
  let r = 0.1;
  for (let i = 0; i < 100; i++) {
    let v = 0;
    let dv = 0;
    for (let k = 0; k < t.length; k++) {
      const disc = Math.pow(1 + r, -t[k]);
      v += a[k] * disc;
      dv -= (t[k] * a[k] * disc) / (1 + r);
    }
    if (!Number.isFinite(v) || !Number.isFinite(dv) || dv === 0) break;
    const next = r - v / dv;
    if (!(next > -1)) break;
    if (Math.abs(next - r) < 1e-12) {
      r = next;
      break;
    }
    r = next;
  }
  if (r > -1 && Number.isFinite(r) && Math.abs(f(r)) <= 1e-7 * scale) return round(r, 6);

  // Otherwise bracket a sign change on a grid of rates, then bisect.
  const grid = [-0.999999, -0.99, -0.9, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 1, 2, 5, 10, 100, 1000, 1e6];
  for (let i = 0; i + 1 < grid.length; i++) {
    let lo = grid[i];
    let hi = grid[i + 1];
    let flo = f(lo);
    if (!Number.isFinite(flo) || Math.sign(flo) === Math.sign(f(hi))) continue;
    for (let k = 0; k < 200 && hi - lo > 1e-13; k++) {
      const mid = (lo + hi) / 2;
      const fm = f(mid);
      if (Math.sign(fm) === Math.sign(flo)) [lo, flo] = [mid, fm];
      else hi = mid;
    }
    return round((lo + hi) / 2, 6);
  }
  return null;
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/**
 * One commitment's figures. `cashflows` and `marks` in any order. NAV is the latest mark rolled
 * forward by the cashflows dated after it (calls add, distributions subtract); `nav_date` is then
 * the last of those cashflows' dates, else the mark's. A cashflow on the mark's date is in the mark.
 */
export function positionFigures(commitment: number, cashflows: Cashflow[], marks: Mark[], asOf: Date): Computed {
  const flags = new Set<Flag>();
  const calls = cashflows.filter((c) => c.type === "call");
  const dists = cashflows.filter((c) => c.type === "distribution");
  const called = sum(calls.map((c) => c.amount));
  const distributed = sum(dists.map((c) => c.amount));
  if (cashflows.length === 0) flags.add("no_cashflows");
  if (called > commitment + 0.005) flags.add("called_above_commitment");

  const last = marks.reduce<Mark | null>((best, m) => (!best || m.date > best.date ? m : best), null);
  let nav: number | null = null;
  let navDate: string | null = null;
  if (!last) flags.add("no_mark");
  else {
    const after = cashflows.filter((c) => c.date > last.date);
    nav = last.nav + sum(after.filter((c) => c.type === "call").map((c) => c.amount)) - sum(after.filter((c) => c.type === "distribution").map((c) => c.amount));
    navDate = after.reduce((d, c) => (c.date > d ? c.date : d), last.date);
    if (after.length) flags.add("cashflows_after_last_mark");
    if (nav < -0.005) flags.add("negative_rolled_nav");
    if (asOf.getTime() / DAY_MS - days(last.date) > STALE_NAV_DAYS) flags.add("stale_nav");
  }

  const flows: Flow[] | null =
    nav === null ? null : [...cashflows.map((c) => ({ date: c.date, amount: c.type === "call" ? -c.amount : c.amount })), { date: navDate!, amount: nav }];
  const irr = flows && called > 0 ? xirr(flows) : null;
  if (flows && called > 0 && irr === null) flags.add("irr_not_computable");
  return {
    figures: {
      commitment: money(commitment),
      called: money(called),
      distributed: money(distributed),
      nav: money(nav),
      nav_date: navDate,
      last_mark_date: last?.date ?? null,
      unfunded: money(commitment - called),
      tvpi: nav === null ? null : multiple(distributed + nav, called),
      dpi: multiple(distributed, called),
      rvpi: multiple(nav, called),
      irr,
      data_quality_flags: [...flags].sort(),
    },
    raw: { commitment, called, distributed, nav },
    flows,
  };
}

/**
 * Commitments of one currency pooled "the same way": sums of commitment, called, distributed and
 * NAV (null if any NAV is missing), ratios of the pooled sums, and one XIRR over all their flows
 * with each NAV at its own date. Flags: the union of the positions'.
 */
export function pooledFigures(positions: Computed[]): Figures {
  const flags = new Set<Flag>(positions.flatMap((p) => p.figures.data_quality_flags));
  const commitment = sum(positions.map((p) => p.raw.commitment));
  const called = sum(positions.map((p) => p.raw.called));
  const distributed = sum(positions.map((p) => p.raw.distributed));
  const complete = positions.length > 0 && positions.every((p) => p.flows !== null);
  const nav = complete ? sum(positions.map((p) => p.raw.nav!)) : null;
  const navDate = complete ? positions.map((p) => p.figures.nav_date!).reduce((a, b) => (b > a ? b : a)) : null;
  const irr = complete && called > 0 ? xirr(positions.flatMap((p) => p.flows!)) : null;
  if (complete && called > 0 && irr === null) flags.add("irr_not_computable");
  return {
    commitment: money(commitment),
    called: money(called),
    distributed: money(distributed),
    nav: money(nav),
    nav_date: navDate,
    unfunded: money(commitment - called),
    tvpi: nav === null ? null : multiple(distributed + nav, called),
    dpi: multiple(distributed, called),
    rvpi: multiple(nav, called),
    irr,
    data_quality_flags: [...flags].sort(),
  };
}

export type TracePoint = { mark_date: string; nav: number; called_to_date: number; distributed_to_date: number; tvpi: number | null };

/** Each mark with what had been called and distributed up to and including its date. */
export function markTrace(cashflows: Cashflow[], marks: Mark[]): TracePoint[] {
  const flows = [...cashflows].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  const sorted = [...marks].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  let i = 0;
  let called = 0;
  let distributed = 0;
  return sorted.map((m) => {
    for (; i < flows.length && flows[i].date <= m.date; i++) {
      if (flows[i].type === "call") called += flows[i].amount;
      else distributed += flows[i].amount;
    }
    return {
      mark_date: m.date,
      nav: money(m.nav)!,
      called_to_date: money(called)!,
      distributed_to_date: money(distributed)!,
      tvpi: multiple(distributed + m.nav, called),
    };
  });
}
