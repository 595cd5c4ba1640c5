// The LP arithmetic, pure and unit-tested: a commitment's figures from its ledger and marks (NAV
// rolled forward, TVPI/DPI/RVPI, net IRR by XIRR), the same figures pooled over several
// commitments of one currency, and each mark's trace. A figure whose input is missing is null,
// and the data-quality flags say why.
import { money, multiple } from "../../lib/figures.ts";
import { dayNumber, mergeNetFlows, netFlows, solveXirr, type NetFlows } from "./xirr.ts";

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

const DAY_MS = 86_400_000;

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/**
 * One commitment's figures. `cashflows` and `marks` in any order. NAV is the latest mark rolled
 * forward by the cashflows dated after it (calls add, distributions subtract); `nav_date` is then
 * the last of those cashflows' dates, else the mark's. A cashflow on the mark's date is in the mark.
 */
export function positionFigures(commitment: number, cashflows: Cashflow[], marks: Mark[], asOf: Date): Computed {
  const flags = new Set<Flag>();
  const last = marks.reduce<Mark | null>((best, m) => (!best || m.date > best.date ? m : best), null);
  let called = 0;
  let distributed = 0;
  let afterMark = 0; // calls minus distributions dated after the last mark
  let lastAfter: string | null = null;
  const days: number[] = [];
  const amounts: number[] = [];
  for (const c of cashflows) {
    const signed = c.type === "call" ? -c.amount : c.amount;
    if (c.type === "call") called += c.amount;
    else distributed += c.amount;
    if (last && c.date > last.date) {
      afterMark -= signed;
      if (!lastAfter || c.date > lastAfter) lastAfter = c.date;
    }
    days.push(dayNumber(c.date));
    amounts.push(signed);
  }
  if (cashflows.length === 0) flags.add("no_cashflows");
  if (called > commitment + 0.005) flags.add("called_above_commitment");

  let nav: number | null = null;
  let navDate: string | null = null;
  if (!last) flags.add("no_mark");
  else {
    nav = last.nav + afterMark;
    navDate = lastAfter ?? last.date;
    if (lastAfter) flags.add("cashflows_after_last_mark");
    if (nav < -0.005) flags.add("negative_rolled_nav");
    if (asOf.getTime() / DAY_MS - dayNumber(last.date) > STALE_NAV_DAYS) flags.add("stale_nav");
  }

  let flows: NetFlows | null = null;
  if (nav !== null) {
    days.push(dayNumber(navDate!));
    amounts.push(nav);
    flows = netFlows(days, amounts);
  }
  const raw = { commitment, called, distributed, nav };
  return { figures: { ...publish(raw, navDate, flows, flags), last_mark_date: last?.date ?? null }, raw, flows };
}

/** The published figures of sums (one commitment's or pooled): money rounded, ratios, the XIRR. */
function publish(raw: Computed["raw"], navDate: string | null, flows: NetFlows | null, flags: Set<Flag>): Figures {
  const { commitment, called, distributed, nav } = raw;
  const irr = flows && called > 0 ? solveXirr(flows) : null;
  if (flows && called > 0 && irr === null) flags.add("irr_not_computable");
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
