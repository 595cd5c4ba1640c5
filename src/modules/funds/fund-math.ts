// The LP arithmetic, pure and unit-tested: a commitment's figures from its ledger and marks (NAV
// rolled forward, TVPI/DPI/RVPI, net IRR by XIRR), the same figures pooled over several
// commitments of one currency, and each mark's trace. A figure whose input is missing is null,
// and the data-quality flags say why.
import { money, multiple } from "../../lib/figures.ts";
import { dateOfDay, dayNumber, mergeNetFlows, solveXirr, type NetFlows } from "./xirr.ts";

export type Cashflow = { date: string; type: "call" | "distribution"; amount: number };
export type Mark = { date: string; nav: number };

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
 * Figures (rounded for publishing) plus what pooling needs: the unrounded sums and the IRR's flows
 * netted per day, NAV included (null when NAV is missing).
 */
export type Computed = {
  figures: Figures & { last_mark_date: string | null };
  raw: { commitment: number; called: number; distributed: number; nav: number | null };
  flows: NetFlows | null;
};

/**
 * One commitment's ledger in day order: day numbers (days since 1970-01-01) and signed amounts
 * (calls negative, distributions positive). The service reads it this way straight from SQL.
 */
export type Ledger = { days: number[]; amounts: number[] };

const DAY_MS = 86_400_000;

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const byDate = <T extends { date: string }>(x: T, y: T) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0);

/** Cashflows (any order) as a Ledger. */
export function ledgerOf(cashflows: Cashflow[]): Ledger {
  const sorted = [...cashflows].sort(byDate);
  return { days: sorted.map((c) => dayNumber(c.date)), amounts: sorted.map((c) => (c.type === "call" ? -c.amount : c.amount)) };
}

/** The latest of some marks, or null. */
export const latestMark = (marks: Mark[]): Mark | null => marks.reduce<Mark | null>((best, m) => (!best || m.date > best.date ? m : best), null);

/**
 * One commitment's figures. `cashflows` and `marks` in any order. NAV is the latest mark rolled
 * forward by the cashflows dated after it (calls add, distributions subtract); `nav_date` is then
 * the last of those cashflows' dates, else the mark's. A cashflow on the mark's date is in the mark.
 */
export function positionFigures(commitment: number, cashflows: Cashflow[], marks: Mark[], asOf: Date): Computed {
  return ledgerFigures({ commitment, currency: undefined, ledger: ledgerOf(cashflows), lastMark: latestMark(marks) }, asOf);
}

/**
 * positionFigures over a Ledger and the latest mark, in one pass over the ledger (which is in day
 * order): the sums, what came after the mark, and the flows netted per day. A `currency` of null
 * (the import did not say) is flagged `unknown_currency`; undefined is not checked.
 */
export function ledgerFigures(input: { commitment: number; currency: string | null | undefined; ledger: Ledger; lastMark: Mark | null }, asOf: Date): Computed {
  const { commitment, ledger, lastMark: last } = input;
  const flags = new Set<Flag>();
  if (input.currency === null) flags.add("unknown_currency");
  const markDay = last ? dayNumber(last.date) : Infinity;
  const { days, amounts } = ledger;
  let called = 0;
  let distributed = 0;
  let afterMark = 0; // calls minus distributions dated after the last mark
  let lastAfterDay: number | null = null;
  const net: NetFlows = { days: [], amounts: [] };
  for (let i = 0; i < days.length; i++) {
    const day = days[i];
    const signed = amounts[i];
    if (signed < 0) called -= signed;
    else distributed += signed;
    if (day > markDay) {
      afterMark -= signed;
      lastAfterDay = day;
    }
    const n = net.days.length;
    if (n && net.days[n - 1] === day) net.amounts[n - 1] += signed;
    else {
      net.days.push(day);
      net.amounts.push(signed);
    }
  }
  if (days.length === 0) flags.add("no_cashflows");
  if (called > commitment + 0.005) flags.add("called_above_commitment");

  let nav: number | null = null;
  let navDate: string | null = null;
  let flows: NetFlows | null = null;
  if (!last) flags.add("no_mark");
  else {
    nav = last.nav + afterMark;
    navDate = lastAfterDay === null ? last.date : dateOfDay(lastAfterDay);
    if (lastAfterDay !== null) flags.add("cashflows_after_last_mark");
    if (nav < -0.005) flags.add("negative_rolled_nav");
    if (asOf.getTime() / DAY_MS - markDay > STALE_NAV_DAYS) flags.add("stale_nav");
    // NAV comes in at nav_date, on or after every cashflow's day.
    const navDay = lastAfterDay ?? markDay;
    const n = net.days.length;
    if (n && net.days[n - 1] === navDay) net.amounts[n - 1] += nav;
    else {
      net.days.push(navDay);
      net.amounts.push(nav);
    }
    flows = net;
  }
  const raw = { commitment, called, distributed, nav };
  return { figures: { ...publish(raw, navDate, flows, flags), last_mark_date: last?.date ?? null }, raw, flows };
}

/** The published figures of sums (one commitment's or pooled): money rounded, ratios, the XIRR. */
function publish(raw: Computed["raw"], navDate: string | null, flows: NetFlows | null, flags: Set<Flag>): Figures {
  const { commitment, called, distributed, nav } = raw;
  const irr = flows && called > 0 ? solveXirr(flows) : null;
  // Nothing called: no rate of return exists (the ratios are null too: division by 0 called).
  if (irr === null && (flows || called === 0)) flags.add("irr_not_computable");
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

/**
 * Commitments of one currency pooled "the same way": sums of commitment, called, distributed and
 * NAV (null if any NAV is missing), ratios of the pooled sums, and one XIRR over all their flows
 * with each NAV at its own date. Flags: the union of the positions'.
 */
export function pooledFigures(positions: Computed[]): Figures {
  const flags = new Set<Flag>(positions.flatMap((p) => p.figures.data_quality_flags));
  const complete = positions.length > 0 && positions.every((p) => p.flows !== null);
  const raw = {
    commitment: sum(positions.map((p) => p.raw.commitment)),
    called: sum(positions.map((p) => p.raw.called)),
    distributed: sum(positions.map((p) => p.raw.distributed)),
    nav: complete ? sum(positions.map((p) => p.raw.nav!)) : null,
  };
  const navDate = complete ? positions.map((p) => p.figures.nav_date!).reduce((a, b) => (b > a ? b : a)) : null;
  return publish(raw, navDate, complete ? mergeNetFlows(positions.map((p) => p.flows!)) : null, flags);
}

export type TracePoint = { mark_date: string; nav: number; called_to_date: number; distributed_to_date: number; tvpi: number | null };

/** Each mark with what had been called and distributed up to and including its date. */
export function markTrace(cashflows: Cashflow[], marks: Mark[]): TracePoint[] {
  return ledgerTrace(ledgerOf(cashflows), marks);
}

/** markTrace over a Ledger (in day order) and marks in any order. */
export function ledgerTrace(ledger: Ledger, marks: Mark[]): TracePoint[] {
  const sorted = [...marks].sort(byDate);
  const { days, amounts } = ledger;
  let i = 0;
  let called = 0;
  let distributed = 0;
  return sorted.map((m) => {
    for (const markDay = dayNumber(m.date); i < days.length && days[i] <= markDay; i++) {
      if (amounts[i] < 0) called -= amounts[i];
      else distributed += amounts[i];
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
