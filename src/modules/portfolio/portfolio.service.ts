// Reads of the whole org book: one page of holdings with their latest actual metrics, and the
// dated history of one metric. Every query is scoped to the caller's org and prepared once.
import { and, asc, eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { invalid, notFound } from "../../http/errors.ts";
import { isCalendarDate } from "../../lib/csv-fields.ts";
import { money, multiple } from "../../lib/figures.ts";
import { isUuid } from "../../lib/ids.ts";
import { columnList, type SqlRowOf } from "../../db/rows.ts";
import { portfolioHoldings as h, portfolioMetricPoints as mp } from "./portfolio.tables.ts";

export type HoldingFilters = { status?: string; fundName?: string; q?: string; limit: number; offset: number };
export type MetricValue = { value: number; unit: string | null; currency: string | null; statement_date: string };
type Holding = typeof h.$inferSelect;
/** A company's latest actual of a metric, with its point's id and the company's name. */
export type MetricLeader = Pick<SqlRowOf<typeof mp>, "id" | "metric" | "value" | "unit" | "currency" | "statement_date"> & { name: string };

const P = sql.placeholder;

/** One dated point of a company page: its value, kind, and where it came from (an update's quote as evidence). */
export type CompanyPoint = {
  value: number;
  unit: string | null;
  currency: string | null;
  statement_date: string;
  kind: "actual" | "budget";
  source: "import" | "investor_update";
  evidence: { update_id: string; quote: string } | null;
};

export const portfolioService = perDeps((deps: Deps) => {
  const { db } = deps;

  // The page is the hot read (every request of a book view): its statements are raw bun:sqlite
  // with rows typed from the table (drizzle's per-row mapping was a fifth of a page's cost).
  // Optional filters as "($x IS NULL OR ...)": one prepared statement serves every combination,
  // and the natural-key index (org, name_fold, fund_name) still gives the order.
  const sqlite = db.$client;
  const MATCHING = `h.org_id = $org AND ($status IS NULL OR h.status = $status) AND ($fund IS NULL OR h.fund_name = $fund) AND ($q IS NULL OR instr(h.name_fold, $q) > 0)`;
  type Filters = { org: string; status: string | null; fund: string | null; q: string | null };
  const page = sqlite.query<Holding & { positionCount: number }, Filters & { limit: number; offset: number }>(
    `SELECT ${columnList(h, { alias: "h" })},
       (SELECT count(*) FROM portfolio_holdings same WHERE same.org_id = h.org_id AND same.company_key = h.company_key) AS positionCount
     FROM portfolio_holdings h WHERE ${MATCHING} ORDER BY h.name_fold, h.fund_name LIMIT $limit OFFSET $offset`,
  );
  const count = sqlite.query<{ n: number }, Filters>(`SELECT count(*) AS n FROM portfolio_holdings h WHERE ${MATCHING}`);

  // The latest actual of each metric of a page's companies: one row per metric, kept by triggers
  // (portfolio_latest_actuals), so a page costs the same at any length of history. Read as value
  // arrays (a page has ~250 of them: no row objects), the company as its index in the keys sent.
  const latestActuals = sqlite.query<never, { org: string; keys: string }>(
    `SELECT j.key, l.metric, l.value, l.unit, l.currency, l.statement_date
     FROM json_each($keys) j CROSS JOIN portfolio_latest_actuals l ON l.org_id = $org AND l.company_key = j.value`,
  );

  const holdingById = db.select().from(h).where(and(eq(h.id, P("id")), eq(h.orgId, P("org")))).prepare();

  const history = db
    .select({ value: mp.value, unit: mp.unit, currency: mp.currency, statement_date: mp.statementDate, kind: mp.kind, source: mp.source, updateId: mp.evidenceUpdateId, quote: mp.evidenceQuote })
    .from(mp)
    .where(
      and(
        eq(mp.orgId, P("org")),
        eq(mp.companyKey, P("key")),
        // Both kinds named, so the natural key (org, company, kind, metric, date) seeks this
        // metric's points of each kind instead of reading every point of the company.
        sql`${mp.kind} IN ('actual', 'budget')`,
        eq(mp.metric, P("metric")),
        sql`${mp.statementDate} >= ${P("from")}`,
        sql`${mp.statementDate} <= ${P("to")}`,
      ),
    )
    .orderBy(asc(mp.statementDate), asc(mp.kind))
    .prepare();

  const bookRows = db.select({ name: h.name, website: h.website, sector: h.sector, stage: h.stage }).from(h).where(eq(h.orgId, P("org"))).orderBy(asc(h.nameFold), asc(h.fundName)).prepare();

  // What research retrieval looks up: the org's company names, one metric point's id, a metric's leaders.
  const holdingNames = db
    .select({ name: h.name, companyKey: sql<string>`min(${h.companyKey})` })
    .from(h)
    .where(eq(h.orgId, P("org")))
    .groupBy(h.nameFold)
    .prepare();
  const pointId = db
    .select({ id: mp.id })
    .from(mp)
    .where(and(eq(mp.orgId, P("org")), eq(mp.companyKey, P("key")), eq(mp.kind, "actual"), eq(mp.metric, P("metric")), eq(mp.statementDate, P("date"))))
    .prepare();
  const leaders = deps.db.$client.query<MetricLeader, { org: string; metric: string; limit: number }>(
    `SELECT l.point_id AS id, (SELECT h.name FROM portfolio_holdings h WHERE h.org_id = l.org_id AND h.company_key = l.company_key LIMIT 1) AS name,
       l.metric, l.value, l.unit, l.currency, l.statement_date
     FROM portfolio_latest_actuals l WHERE l.org_id = $org AND instr(l.metric, $metric) > 0
     ORDER BY l.value DESC, l.company_key, l.metric LIMIT $limit`,
  );

  /** A point as the API shows it: where it came from, and an update's quote as its evidence. */
  function withEvidence<P extends { source: "import" | "investor_update"; updateId: string | null; quote: string | null }>(p: P) {
    const { updateId, quote, ...point } = p;
    return { ...point, evidence: updateId ? { update_id: updateId, quote: quote ?? "" } : null };
  }

  function metricsOf(orgId: string, companyKeys: string[]): Map<string, Record<string, MetricValue>> {
    const byCompany = new Map<string, Record<string, MetricValue>>(companyKeys.map((k) => [k, {}]));
    if (companyKeys.length === 0) return byCompany;
    const metrics = [...byCompany.values()];
    const rows = latestActuals.values({ org: orgId, keys: JSON.stringify(companyKeys) }) as [number, string, number, string | null, string | null, string][];
    for (const [company, metric, value, unit, currency, statementDate] of rows) {
      metrics[company][metric] = { value, unit, currency, statement_date: statementDate };
    }
    return byCompany;
  }

  function view(x: Holding, positionCount: number, metrics: Record<string, MetricValue>) {
    return {
      company_id: x.id,
      name: x.name,
      website: x.website,
      sector: x.sector,
      stage: x.stage,
      status: x.status,
      fund_name: x.fundName,
      holding_type: x.holdingType,
      investment_date: x.investmentDate,
      ownership_percentage: x.ownershipPercentage,
      invested: money(x.invested),
      current_valuation: money(x.currentValuation),
      currency: x.currency,
      value_multiple: multiple(x.currentValuation, x.invested),
      position_count: positionCount,
      metrics,
    };
  }

  /** One page of the org's holdings, ordered by company name then fund. */
  function list(orgId: string, f: HoldingFilters) {
    const params = { org: orgId, status: f.status ?? null, fund: f.fundName ?? null, q: f.q ? f.q.normalize("NFC").toLowerCase() : null };
    const total = count.get(params)!.n;
    const rows = f.offset < total ? page.all({ ...params, limit: f.limit, offset: f.offset }) : [];
    const metrics = metricsOf(orgId, [...new Set(rows.map((r) => r.companyKey))]);
    return { total, companies: rows.map((r) => view(r, r.positionCount, metrics.get(r.companyKey)!)) };
  }

  /** A holding of the org; any other id (unknown, another org's, not a UUID) is 404. */
  function mustGetHolding(orgId: string, companyId: string): Holding {
    const found = isUuid(companyId) ? holdingById.get({ id: companyId, org: orgId }) : undefined;
    if (!found) throw notFound(`No portfolio company with id ${companyId}`);
    return found;
  }

  function metricHistory(orgId: string, companyId: string, q: { metric: string; from?: string; to?: string }) {
    const holding = mustGetHolding(orgId, companyId);
    // Checked after trimming: "  " passes the route's minLength but names no metric.
    const metric = q.metric.trim().toLowerCase();
    if (metric === "") throw invalid(["query", "metric"], "metric must not be blank", "string_too_short");
    for (const name of ["from", "to"] as const) {
      const v = q[name];
      if (v !== undefined && !isCalendarDate(v)) throw invalid(["query", name], "Input should be a valid date (YYYY-MM-DD)", "date_from_datetime_parsing");
    }
    if (q.from && q.to && q.from > q.to) throw invalid(["query", "to"], `to (${q.to}) must not be before from (${q.from})`);
    const points = history.all({
      org: orgId,
      key: holding.companyKey,
      metric,
      from: q.from ? `${q.from}T00:00:00.000Z` : "",
      to: q.to ? `${q.to}T23:59:59.999Z` : "\uffff",
    });
    return { company_id: holding.id, metric, points: points.map(withEvidence) };
  }

  /** Every holding of the org, in the list's order, with what the firm's book needs of it (no metrics, no paging). */
  function bookHoldings(orgId: string): { name: string; website: string | null; sector: string | null; stage: string | null }[] {
    return bookRows.all({ org: orgId });
  }

  /** Each company name of the org's book once (case-insensitively), with the least company key among its holdings. */
  function companyNames(orgId: string): { name: string; companyKey: string }[] {
    return holdingNames.all({ org: orgId });
  }

  /** The id of a company's actual metric point of that statement date, if stored. */
  function actualPointId(orgId: string, companyKey: string, metric: string, statementDate: string): number | null {
    return pointId.get({ org: orgId, key: companyKey, metric, date: statementDate })?.id ?? null;
  }

  /** The companies with the highest latest actual of each metric whose name contains `metric`, highest first. */
  function metricLeaders(orgId: string, metric: string, limit: number): MetricLeader[] {
    return leaders.all({ org: orgId, metric, limit });
  }


  // The web app's reads: a company page (the holding as the list shows it, every position of the
  // same company, and every metric's whole history in one statement), the fund names to filter by,
  // and the holding a metric point belongs to (a research citation's link).
  const allPointsOf = db
    .select({ metric: mp.metric, value: mp.value, unit: mp.unit, currency: mp.currency, statement_date: mp.statementDate, kind: mp.kind, source: mp.source, updateId: mp.evidenceUpdateId, quote: mp.evidenceQuote })
    .from(mp)
    .where(and(eq(mp.orgId, P("org")), eq(mp.companyKey, P("key"))))
    .orderBy(asc(mp.metric), asc(mp.statementDate), asc(mp.kind))
    .prepare();
  const sameCompanyOf = db.select().from(h).where(and(eq(h.orgId, P("org")), eq(h.companyKey, P("key")))).orderBy(asc(h.fundName)).prepare();
  const fundNamesOf = db.selectDistinct({ fund: h.fundName }).from(h).where(eq(h.orgId, P("org"))).orderBy(asc(h.fundName)).prepare();
  const holdingOfPoint = db
    .select({ id: h.id })
    .from(mp)
    .innerJoin(h, and(eq(h.orgId, mp.orgId), eq(h.companyKey, mp.companyKey)))
    .where(and(eq(mp.orgId, P("org")), eq(mp.id, P("id"))))
    .orderBy(asc(h.fundName))
    .limit(1)
    .prepare();

  /** A holding with every position of its company (this one first) and each metric's dated points, oldest first. */
  function company(orgId: string, companyId: string) {
    const holding = mustGetHolding(orgId, companyId);
    const positions = sameCompanyOf.all({ org: orgId, key: holding.companyKey });
    const latest = metricsOf(orgId, [holding.companyKey]).get(holding.companyKey)!;
    const metrics = new Map<string, CompanyPoint[]>();
    for (const { metric, ...row } of allPointsOf.all({ org: orgId, key: holding.companyKey })) {
      const point = withEvidence(row);
      const points = metrics.get(metric);
      if (points) points.push(point);
      else metrics.set(metric, [point]);
    }
    const views = positions.map((p) => view(p, positions.length, latest));
    return { holding: views.find((v) => v.company_id === holding.id)!, positions: views, metrics };
  }

  function fundNames(orgId: string): string[] {
    return fundNamesOf.all({ org: orgId }).map((r) => r.fund);
  }

  /** The org's holding (the first by fund) of the company a metric point belongs to, or null. */
  function holdingOfMetricPoint(orgId: string, pointId: string): string | null {
    const id = Number(pointId);
    return Number.isSafeInteger(id) ? (holdingOfPoint.get({ org: orgId, id })?.id ?? null) : null;
  }

  // What the investor-updates module (modules/updates) needs of the book: the holdings a sender's
  // domain may name, a company's actual of a period, and writing (or taking back) an actual read
  // from an update with its evidence.
  const mailHoldings = sqlite.query<{ id: string; name: string; companyKey: string; currency: string | null }, { org: string }>(
    "SELECT id, name, company_key AS companyKey, currency FROM portfolio_holdings WHERE org_id = $org ORDER BY name_fold, fund_name",
  );
  const actualAt = sqlite.query<{ id: number; value: number; currency: string | null; source: string; evidenceUpdateId: string | null }, { org: string; key: string; metric: string; date: string }>(
    `SELECT id, value, currency, source, evidence_update_id AS evidenceUpdateId FROM portfolio_metric_points
     WHERE org_id = $org AND company_key = $key AND kind = 'actual' AND metric = $metric AND statement_date = $date`,
  );
  const upsertUpdatePoint = sqlite.query<{ id: number }, Record<string, string | number | null>>(
    `INSERT INTO portfolio_metric_points (org_id, company_key, metric, kind, statement_date, value, unit, currency, source, evidence_update_id, evidence_quote)
     VALUES ($org, $key, $metric, 'actual', $date, $value, $unit, $currency, 'investor_update', $update, $quote)
     ON CONFLICT (org_id, company_key, kind, metric, statement_date) DO UPDATE SET value = excluded.value, unit = excluded.unit, currency = excluded.currency,
       source = excluded.source, evidence_update_id = excluded.evidence_update_id, evidence_quote = excluded.evidence_quote
     RETURNING id`,
  );
  const attachEvidenceQ = sqlite.query("UPDATE portfolio_metric_points SET evidence_update_id = $update, evidence_quote = $quote WHERE org_id = $org AND id = $id AND evidence_update_id IS NULL");
  const clearEvidenceQ = sqlite.query("UPDATE portfolio_metric_points SET evidence_update_id = NULL, evidence_quote = NULL WHERE org_id = $org AND id = $id AND evidence_update_id = $update");
  const deleteUpdatePoint = sqlite.query("DELETE FROM portfolio_metric_points WHERE org_id = $org AND id = $id AND source = 'investor_update' AND evidence_update_id = $update");

  const orgOfHoldingQ = sqlite.query<{ org_id: string }, { id: string }>("SELECT org_id FROM portfolio_holdings WHERE id = $id");
  /** The org a holding belongs to (the CLI names a company by its id alone), or null. */
  function orgOfHolding(holdingId: string): string | null {
    return orgOfHoldingQ.get({ id: holdingId })?.org_id ?? null;
  }

  /** The org's holdings with their company key (the website's host) and currency, in the list's order. */
  function holdingsForMail(orgId: string) {
    return mailHoldings.all({ org: orgId });
  }

  /** The company's actual of a metric at a statement date (ISO timestamp), or null. */
  function actualAtDate(orgId: string, companyKey: string, metric: string, statementDate: string) {
    return actualAt.get({ org: orgId, key: companyKey, metric, date: statementDate });
  }

  /** Writes an actual read from an investor update (replacing the one at that date): returns the point's id. */
  function writeUpdatePoint(orgId: string, p: { companyKey: string; metric: string; statementDate: string; value: number; unit: string | null; currency: string | null; updateId: string; quote: string }): number {
    return upsertUpdatePoint.get({ org: orgId, key: p.companyKey, metric: p.metric, date: p.statementDate, value: p.value, unit: p.unit, currency: p.currency, update: p.updateId, quote: p.quote })!.id;
  }

  /** An update that reports the very actual the book has: its quote becomes the point's evidence (the source stays). */
  function attachEvidence(orgId: string, pointId: number, updateId: string, quote: string): void {
    attachEvidenceQ.run({ org: orgId, id: pointId, update: updateId, quote });
  }

  /** Takes back an actual an update wrote (a figure rejected after it was applied); an imported point it confirmed loses only that evidence. */
  function removeUpdatePoint(orgId: string, pointId: number, updateId: string): void {
    deleteUpdatePoint.run({ org: orgId, id: pointId, update: updateId });
    clearEvidenceQ.run({ org: orgId, id: pointId, update: updateId });
  }

  return {
    list,
    mustGetHolding,
    metricHistory,
    bookHoldings,
    companyNames,
    actualPointId,
    metricLeaders,
    company,
    fundNames,
    holdingOfMetricPoint,
    holdingsForMail,
    orgOfHolding,
    actualAtDate,
    writeUpdatePoint,
    attachEvidence,
    removeUpdatePoint,
  };
});
