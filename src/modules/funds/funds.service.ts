// Whole-book reads of the LP funds: positions with totals, the cashflow ledger, the marks trace.
// Each reads the org's commitments, ledger and marks (optionally one fund's) with prepared
// statements, one pass each, and leaves the arithmetic to fund-math.ts.
import { and, asc, eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ledgerFigures, ledgerTrace, pooledFigures, type Computed, type Figures, type Ledger, type Mark } from "./fund-math.ts";
import { fundCommitments as fc } from "./funds.tables.ts";
import { cashflowsJson, type LedgerGroup, type LedgerRow } from "./funds.ledger.ts";

type Commitment = typeof fc.$inferSelect;
export type CurrencyTotals = Figures & { currency: string | null; position_count: number };
/** A totals_by_currency entry: an unknown-currency commitment is an entry of its own, named. */
export type CurrencyGroup = CurrencyTotals & { commitment_id: string | null };
export type LedgerEntry = { id: string; fund_name: string; cashflow_date: string; type: "call" | "distribution"; amount: number; currency: string | null };

const P = sql.placeholder;

const utf8 = new TextDecoder();

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

// The ledger as numbers (day number, signed amount: calls negative), in (commitment, date) order
// off the covering index: no date strings or row objects for 100,000 rows. A fund's read names its
// one commitment (fund_name is unique in an org).
const LEDGER = `SELECT commitment_id, unixepoch(cashflow_date) / 86400, CASE type WHEN 'call' THEN -amount ELSE amount END FROM fund_cashflows`;
const ONE_FUND = `commitment_id = (SELECT id FROM fund_commitments WHERE org_id = $org AND fund_name = $fund)`;
const MARKS = "SELECT commitment_id, mark_date, nav FROM fund_marks";
// Each commitment's latest mark: one seek per commitment on fund_marks_ledger_idx (newest first),
// so it costs the same however many quarters of marks a fund has reported.
const LATEST_MARK = `SELECT c.id, m.mark_date, m.nav FROM fund_commitments c
  JOIN fund_marks m ON m.rowid = (SELECT rowid FROM fund_marks WHERE org_id = c.org_id AND commitment_id = c.id ORDER BY mark_date DESC LIMIT 1)
  WHERE c.org_id = $org`;

export const fundsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const sqlite = db.$client;

  const commitments = db
    .select()
    .from(fc)
    .where(and(eq(fc.orgId, P("org")), sql`(${P("fund")} IS NULL OR ${fc.fundName} = ${P("fund")})`))
    .orderBy(asc(fc.fundName), asc(fc.id))
    .prepare();
  type Params = { org: string; fund: string };
  const ledgerOfOrg = sqlite.query<never, Params>(`${LEDGER} WHERE org_id = $org ORDER BY commitment_id, cashflow_date`);
  const ledgerOfFund = sqlite.query<never, Params>(`${LEDGER} WHERE org_id = $org AND ${ONE_FUND} ORDER BY cashflow_date`);
  const marksOfOrg = sqlite.query<never, Params>(`${MARKS} WHERE org_id = $org ORDER BY commitment_id, mark_date`);
  const marksOfFund = sqlite.query<never, Params>(`${MARKS} WHERE org_id = $org AND ${ONE_FUND} ORDER BY mark_date`);
  const latestOfOrg = sqlite.query<never, Params>(LATEST_MARK);
  const latestOfFund = sqlite.query<never, Params>(`${LATEST_MARK} AND c.fund_name = $fund`);
  // The published ledger (funds.ledger.ts): commitment by commitment in fund-name order, each in
  // index order, so neither needs a sort in SQL; three values a row.
  const LEDGER_GROUPS = `SELECT c.id, c.fund_name, c.currency, (SELECT count(*) FROM fund_cashflows f WHERE f.org_id = c.org_id AND f.commitment_id = c.id)
    FROM fund_commitments c WHERE c.org_id = $org`;
  const LEDGER_ROWS = `SELECT unixepoch(f.cashflow_date) / 86400, CAST(f.id || f.cashflow_date || f.type AS BLOB), f.amount, length(CAST(f.id AS BLOB)), length(CAST(f.cashflow_date AS BLOB))
    FROM fund_commitments c CROSS JOIN fund_cashflows f ON f.org_id = c.org_id AND f.commitment_id = c.id
    WHERE c.org_id = $org`;
  const IN_ORDER = "ORDER BY c.fund_name, c.id";
  const groupsOfOrg = sqlite.query<never, Params>(`${LEDGER_GROUPS} ${IN_ORDER}`);
  const groupsOfFund = sqlite.query<never, Params>(`${LEDGER_GROUPS} AND c.fund_name = $fund ${IN_ORDER}`);
  const rowsOfOrg = sqlite.query<never, Params>(`${LEDGER_ROWS} ${IN_ORDER}, f.cashflow_date, f.type, f.amount`);
  const rowsOfFund = sqlite.query<never, Params>(`${LEDGER_ROWS} AND c.fund_name = $fund ${IN_ORDER}, f.cashflow_date, f.type, f.amount`);
  // The ledger as typed rows (ledgerEntries), in the published order of GET /funds/cashflows:
  // date, fund name, type, amount.
  const ENTRIES = `SELECT f.id, c.fund_name, f.cashflow_date, f.type, f.amount, c.currency
    FROM fund_cashflows f JOIN fund_commitments c ON c.id = f.commitment_id AND c.org_id = f.org_id WHERE f.org_id = $org`;
  const ENTRIES_ORDER = "ORDER BY f.cashflow_date, c.fund_name, f.type, f.amount";
  const entriesOfOrg = sqlite.query<LedgerEntry, Params>(`${ENTRIES} ${ENTRIES_ORDER}`);
  const entriesOfFund = sqlite.query<LedgerEntry, Params>(`${ENTRIES} AND c.fund_name = $fund ${ENTRIES_ORDER}`);

  const fundNamesOfOrg = sqlite.query<{ fund_name: string }, [string]>("SELECT fund_name FROM fund_commitments WHERE org_id = ? ORDER BY fund_name");

  /** The names of the org's LP funds (one commitment each), without reading a ledger. */
  function fundNames(orgId: string): string[] {
    return fundNamesOfOrg.all(orgId).map((r) => r.fund_name);
  }

  /** Every commitment's ledger, by id (empty for one without cashflows). */
  function ledgers(list: Commitment[], params: Params): Map<string, Ledger> {
    const byId = new Map<string, Ledger>(list.map((c) => [c.id, { days: [], amounts: [] }]));
    const rows = (params.fund === null ? ledgerOfOrg : ledgerOfFund).values(params) as [string, number, number][];
    let id: string | null = null;
    let ledger: Ledger | undefined;
    for (const [commitmentId, day, signed] of rows) {
      // rows come grouped by commitment: one map lookup per commitment, not per row
      if (commitmentId !== id) ledger = byId.get((id = commitmentId));
      ledger?.days.push(day);
      ledger?.amounts.push(signed);
    }
    return byId;
  }

  /** The org's commitments (or the one to `fundName`), each with its ledger and latest mark. */
  function positionInputs(orgId: string, fundName?: string) {
    const params = { org: orgId, fund: fundName ?? null } as Params;
    return sqlite.transaction(() => {
      const list = commitments.all(params);
      const ledgerOf = ledgers(list, params);
      const latest = new Map(((params.fund === null ? latestOfOrg : latestOfFund).values(params) as [string, string, number][]).map(([id, date, nav]) => [id, { date, nav }]));
      return list.map((c) => ({ commitment: c, ledger: ledgerOf.get(c.id)!, lastMark: latest.get(c.id) ?? null }));
    })();
  }

  function positionView(c: Commitment, computed: Computed) {
    const { commitment, ...figures } = computed.figures;
    return { commitment_id: c.id, fund_name: c.fundName, vintage_year: c.vintageYear, currency: c.currency, commitment, ...figures };
  }

  /**
   * Totals per currency, by code; then each commitment of unknown currency as an entry of its own
   * (`commitment_id` names it): an unknown currency is pooled with nothing, not even another unknown one.
   */
  function totalsByCurrency(rows: { commitment: Commitment; computed: Computed }[]): CurrencyGroup[] {
    const known = new Map<string, typeof rows>();
    const unknown: typeof rows = [];
    for (const r of rows) {
      if (r.commitment.currency === null) unknown.push(r);
      else {
        const group = known.get(r.commitment.currency);
        if (group) group.push(r);
        else known.set(r.commitment.currency, [r]);
      }
    }
    const pooled = [...known.keys()].sort().map((currency) => {
      const members = known.get(currency)!;
      return { currency, ...pooledFigures(members.map((m) => m.computed)), position_count: members.length, commitment_id: null };
    });
    const alone = unknown.map((r) => ({ currency: null, ...pooledFigures([r.computed]), position_count: 1, commitment_id: r.commitment.id }));
    return [...pooled, ...alone];
  }

  function positions(orgId: string, fundName?: string) {
    const asOf = clock.now();
    const rows = positionInputs(orgId, fundName).map(({ commitment, ledger, lastMark }) => ({
      commitment,
      computed: ledgerFigures({ commitment: commitment.commitment, currency: commitment.currency, ledger, lastMark }, asOf),
    }));
    const byCurrency = totalsByCurrency(rows);
    let totals: CurrencyTotals;
    if (byCurrency.length === 1) {
      // One currency, or one commitment of unknown currency: nothing is pooled across currencies.
      const { commitment_id, ...only } = byCurrency[0];
      totals = only;
    } else {
      // Several groups (or no positions at all): nothing is summed across them.
      const flags = [...new Set(byCurrency.flatMap((g) => g.data_quality_flags))];
      if (byCurrency.length > 1) flags.push("mixed_currency");
      totals = { currency: null, ...NO_FIGURES, data_quality_flags: flags.sort(), position_count: rows.length };
    }
    return { positions: rows.map((r) => positionView(r.commitment, r.computed)), totals, totals_by_currency: byCurrency };
  }

  /**
   * The ledger, oldest first, as the UTF-8 bytes of `envelope.head` + the JSON of `cashflows[]` +
   * `envelope.tail` (100,000 rows are common).
   */
  function cashflowsJsonBytes(orgId: string, fundName: string | undefined, envelope: { head: string; tail: string }): Uint8Array {
    const params = { org: orgId, fund: fundName ?? null } as Params;
    return sqlite.transaction(() => {
      const groups = (params.fund === null ? groupsOfOrg : groupsOfFund).values(params) as LedgerGroup[];
      const rows = (params.fund === null ? rowsOfOrg : rowsOfFund).values(params) as LedgerRow[];
      return cashflowsJson(groups, rows, envelope);
    })();
  }

  function marks(orgId: string, fundName?: string) {
    const params = { org: orgId, fund: fundName ?? null } as Params;
    return sqlite.transaction(() => {
      const list = commitments.all(params);
      const ledgerOf = ledgers(list, params);
      const marksOf = new Map<string, Mark[]>(list.map((c) => [c.id, []]));
      for (const [id, date, nav] of (params.fund === null ? marksOfOrg : marksOfFund).values(params) as [string, string, number][]) marksOf.get(id)?.push({ date, nav });
      return list.map((c) => ({ commitment_id: c.id, fund_name: c.fundName, currency: c.currency, points: ledgerTrace(ledgerOf.get(c.id)!, marksOf.get(c.id)!) }));
    })();
  }

  /** The ledger's JSON text (`cashflows[]` alone), for a reader that parses it (the web app's book page). */
  function cashflowsJsonArray(orgId: string, fundName?: string): string {
    return utf8.decode(cashflowsJsonBytes(orgId, fundName, { head: "", tail: "" }));
  }

  /** The ledger as typed rows, oldest first (each with its fund and currency): for reads that filter and total it. */
  function ledgerEntries(orgId: string, fundName?: string): LedgerEntry[] {
    const params = { org: orgId, fund: fundName ?? null } as Params;
    return (params.fund === null ? entriesOfOrg : entriesOfFund).all(params);
  }

  return { positions, fundNames, cashflowsJsonBytes, cashflowsJsonArray, marks, ledgerEntries };
});
