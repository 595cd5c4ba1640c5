// Whole-book reads of the LP funds: positions with totals, the cashflow ledger, the marks trace.
// Each loads the org's commitments, cashflows and marks with prepared statements (optionally one
// fund's) and leaves the arithmetic to fund-math.ts.
import { and, asc, eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { money } from "../../lib/figures.ts";
import { markTrace, pooledFigures, positionFigures, type Cashflow, type Computed, type Figures, type Mark } from "./fund-math.ts";
import { fundCashflows as cf, fundCommitments as fc, fundMarks as fm } from "./funds.sql.ts";

type Commitment = typeof fc.$inferSelect;
type CurrencyTotals = Figures & { currency: string | null; position_count: number };

const P = sql.placeholder;

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const g = groups.get(k);
    if (g) g.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

const NO_FIGURES: Figures = {
  commitment: null,
  called: null,
  distributed: null,
  nav: null,
  nav_date: null,
  unfunded: null,
  tvpi: null,
  dpi: null,
  rvpi: null,
  irr: null,
  data_quality_flags: [],
};

export const fundsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;

  const inOrg = (fundColumn: typeof fc.fundName) => and(eq(fc.orgId, P("org")), sql`(${P("fund")} IS NULL OR ${fundColumn} = ${P("fund")})`);
  const commitments = db.select().from(fc).where(inOrg(fc.fundName)).orderBy(asc(fc.fundName), asc(fc.id)).prepare();

  // The ledger and the marks of the whole org walk their covering (org, commitment, date, ...)
  // indexes; one fund's read goes through the commitment's natural-key index.
  const ledgerColumns = { commitmentId: cf.commitmentId, date: cf.cashflowDate, type: cf.type, amount: cf.amount };
  const orgLedger = db.select(ledgerColumns).from(cf).where(eq(cf.orgId, P("org"))).orderBy(asc(cf.commitmentId), asc(cf.cashflowDate)).prepare();
  const fundLedger = db
    .select(ledgerColumns)
    .from(cf)
    .where(and(eq(cf.orgId, P("org")), eq(cf.commitmentId, P("commitment"))))
    .orderBy(asc(cf.cashflowDate))
    .prepare();
  const markColumns = { commitmentId: fm.commitmentId, date: fm.markDate, nav: fm.nav };
  const orgMarks = db.select(markColumns).from(fm).where(eq(fm.orgId, P("org"))).orderBy(asc(fm.commitmentId), asc(fm.markDate)).prepare();
  const fundMarks = db
    .select(markColumns)
    .from(fm)
    .where(and(eq(fm.orgId, P("org")), eq(fm.commitmentId, P("commitment"))))
    .orderBy(asc(fm.markDate))
    .prepare();

  const cashflowRows = db
    .select({
      cashflow_id: cf.id,
      commitment_id: cf.commitmentId,
      fund_name: fc.fundName,
      cashflow_date: cf.cashflowDate,
      type: cf.type,
      amount: cf.amount,
      currency: fc.currency,
    })
    .from(cf)
    .innerJoin(fc, eq(fc.id, cf.commitmentId))
    .where(and(eq(cf.orgId, P("org")), inOrg(fc.fundName)))
    .orderBy(asc(cf.cashflowDate), asc(fc.fundName), asc(cf.type), asc(cf.amount), asc(cf.id))
    .prepare();

  /**
   * The org's commitments (or the one to `fundName`) with their cashflows and marks. The ledger
   * comes as arrays (`.values()`): mapping 100,000 rows to objects through drizzle cost as much
   * again as reading them.
   */
  function load(orgId: string, fundName?: string) {
    const list = commitments.all({ org: orgId, fund: fundName ?? null });
    const flowsOf = new Map<string, Cashflow[]>(list.map((c) => [c.id, []]));
    const marksOf = new Map<string, Mark[]>(list.map((c) => [c.id, []]));
    const ledgers = fundName === undefined ? [orgLedger.values({ org: orgId })] : list.map((c) => fundLedger.values({ org: orgId, commitment: c.id }));
    const markLists = fundName === undefined ? [orgMarks.values({ org: orgId })] : list.map((c) => fundMarks.values({ org: orgId, commitment: c.id }));
    for (const rows of ledgers) for (const [id, date, type, amount] of rows as [string, string, Cashflow["type"], number][]) flowsOf.get(id)?.push({ date, type, amount });
    for (const rows of markLists) for (const [id, date, nav] of rows as [string, string, number][]) marksOf.get(id)?.push({ date, nav });
    return list.map((c) => ({ commitment: c, cashflows: flowsOf.get(c.id)!, marks: marksOf.get(c.id)! }));
  }

  function positionView(c: Commitment, computed: Computed) {
    const { commitment, ...figures } = computed.figures;
    return { commitment_id: c.id, fund_name: c.fundName, vintage_year: c.vintageYear, currency: c.currency, commitment, ...figures };
  }

  /**
   * Totals per currency, by code; a null currency is a group of its own, last ("unknown" is never
   * pooled with USD).
   */
  function totalsByCurrency(rows: { commitment: Commitment; computed: Computed }[]): CurrencyTotals[] {
    const UNKNOWN = "\uffff";
    const groups = groupBy(rows, (r) => r.commitment.currency ?? UNKNOWN);
    return [...groups.keys()].sort().map((key) => {
      const members = groups.get(key)!;
      const figures = pooledFigures(members.map((m) => m.computed));
      const currency = key === UNKNOWN ? null : key;
      if (currency === null) figures.data_quality_flags = [...figures.data_quality_flags, "unknown_currency" as const].sort();
      return { currency, ...figures, position_count: members.length };
    });
  }

  function positions(orgId: string, fundName?: string) {
    const asOf = clock.now();
    const rows = load(orgId, fundName).map((r) => ({ commitment: r.commitment, computed: positionFigures(r.commitment.commitment, r.cashflows, r.marks, asOf) }));
    const byCurrency = totalsByCurrency(rows);
    let totals: CurrencyTotals;
    if (byCurrency.length === 1) totals = byCurrency[0];
    else {
      // Mixed (or no positions at all): nothing is summed across currencies.
      const flags = [...new Set(byCurrency.flatMap((g) => g.data_quality_flags))];
      if (byCurrency.length > 1) flags.push("mixed_currency");
      totals = { currency: null, ...NO_FIGURES, data_quality_flags: flags.sort(), position_count: rows.length };
    }
    return { positions: rows.map((r) => positionView(r.commitment, r.computed)), totals, totals_by_currency: byCurrency };
  }

  function cashflows(orgId: string, fundName?: string) {
    // Arrays, then one object per row (the whole ledger can be 100,000 rows).
    const rows = cashflowRows.values({ org: orgId, fund: fundName ?? null }) as [string, string, string, string, Cashflow["type"], number, string | null][];
    return rows.map(([cashflow_id, commitment_id, fund_name, cashflow_date, type, amount, currency]) => ({
      cashflow_id,
      commitment_id,
      fund_name,
      cashflow_date,
      type,
      amount: money(amount)!,
      currency,
    }));
  }

  function marks(orgId: string, fundName?: string) {
    return load(orgId, fundName).map(({ commitment: c, cashflows, marks }) => ({
      commitment_id: c.id,
      fund_name: c.fundName,
      currency: c.currency,
      points: markTrace(cashflows, marks),
    }));
  }

  return { positions, cashflows, marks };
});
