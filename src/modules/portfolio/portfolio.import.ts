// Imports of the portfolio book (CONTRACT.md, "Import formats"): holdings and dated metric values
// from CSV. Every row is validated first and every bad row reported by line; a file with any bad
// row writes nothing (one transaction). Re-imports upsert by natural key (holding: name +
// fund_name; metric point: company + metric + statement_date + kind), so importing a file twice
// changes nothing the second time.
import { and, eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { cellReader, duplicateChecker } from "../../lib/csv-fields.ts";
import { emptySummary, ImportError, readCsvTable, type ImportFile, type ImportProblem, type ImportSummary, type Progress } from "../../lib/csv.ts";
import { newId } from "../../lib/ids.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { portfolioHoldings, portfolioMetricPoints } from "./portfolio.tables.ts";

export const HOLDING_STATUSES = ["active", "exited", "written_off"] as const;
export const METRIC_KINDS = ["actual", "budget"] as const;

export const PORTFOLIO_COLUMNS = {
  // CONTRACT.md "More decisions": website, sector, stage, status, holding_type, investment_date are
  // required too. `position_count` is derived, so a column of that name is read past. `currency`
  // (of invested and current_valuation) is an additive optional column.
  required: ["name", "website", "sector", "stage", "status", "fund_name", "holding_type", "investment_date"],
  optional: ["ownership_percentage", "invested", "current_valuation", "currency"],
} as const;

export const METRICS_COLUMNS = {
  required: ["company", "metric", "value", "statement_date"],
  optional: ["unit", "currency", "kind"],
} as const;

const METRIC_KEY = /^[a-z][a-z0-9_]*$/;
const PROGRESS_EVERY = 10_000;

/**
 * The company a website names: host without `www.`, lower-cased, with any path but without
 * scheme, query or trailing slash. `https://www.Acme.com/` and `acme.com` are one company.
 */
export function companyKeyOf(website: string): string | null {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(website) ? website : `https://${website}`);
  } catch {
    return null;
  }
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(url.hostname)) return null;
  const host = url.hostname.replace(/^www\./, "");
  const path = url.pathname.replace(/\/+$/, "").toLowerCase();
  return host + path;
}

const fold = (name: string) => name.normalize("NFC").toLowerCase();

export const portfolioImporter = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const P = sql.placeholder;

  const holdingByKey = db
    .select()
    .from(portfolioHoldings)
    .where(and(eq(portfolioHoldings.orgId, P("org")), eq(portfolioHoldings.nameFold, P("nameFold")), eq(portfolioHoldings.fundName, P("fund"))))
    .prepare();
  const holdingsNamed = db
    .select({ companyKey: portfolioHoldings.companyKey, fundName: portfolioHoldings.fundName })
    .from(portfolioHoldings)
    .where(and(eq(portfolioHoldings.orgId, P("org")), eq(portfolioHoldings.nameFold, P("nameFold"))))
    .prepare();
  const holdingsOfCompany = db
    .select({ companyKey: portfolioHoldings.companyKey, fundName: portfolioHoldings.fundName })
    .from(portfolioHoldings)
    .where(and(eq(portfolioHoldings.orgId, P("org")), eq(portfolioHoldings.companyKey, P("key"))))
    .prepare();
  const pointByKey = db
    .select()
    .from(portfolioMetricPoints)
    .where(
      and(
        eq(portfolioMetricPoints.orgId, P("org")),
        eq(portfolioMetricPoints.companyKey, P("key")),
        eq(portfolioMetricPoints.kind, P("kind")),
        eq(portfolioMetricPoints.metric, P("metric")),
        eq(portfolioMetricPoints.statementDate, P("date")),
      ),
    )
    .prepare();
  const insertPoint = db
    .insert(portfolioMetricPoints)
    .values({
      orgId: P("org"),
      companyKey: P("companyKey"),
      metric: P("metric"),
      kind: P("kind"),
      statementDate: P("statementDate"),
      value: P("value"),
      unit: P("unit"),
      currency: P("currency"),
    })
    .prepare();
  const updatePoint = db
    .update(portfolioMetricPoints)
    .set({ value: sql`${P("value")}`, unit: sql`${P("unit")}`, currency: sql`${P("currency")}` })
    .where(eq(portfolioMetricPoints.id, P("id")))
    .prepare();

  function mustHaveOrg(orgId: string) {
    if (!orgsService(deps).getOrg(orgId)) throw notFound(`No organization with id ${orgId}`);
  }

  type HoldingValues = Omit<typeof portfolioHoldings.$inferInsert, "id" | "orgId" | "createdAt" | "updatedAt">;

  function readHoldings(file: ImportFile): { line: number; values: HoldingValues }[] {
    const problems: ImportProblem[] = [];
    const cellsOf = cellReader(file.name, problems);
    const duplicate = duplicateChecker(file.name, problems);
    const out: { line: number; values: HoldingValues }[] = [];
    for (const row of readCsvTable(file.text, file.name, PORTFOLIO_COLUMNS)) {
      const c = cellsOf(row);
      const before = problems.length;
      // Every cell is read (so every problem of the row is reported, in column order) before any is used.
      const name = c.text("name", { required: true });
      const website = c.text("website", { required: true });
      const companyKey = website === null ? null : (companyKeyOf(website) ?? c.bad("website", `website ${JSON.stringify(website)} is not a web address`));
      const cells = {
        name,
        website,
        sector: c.text("sector", { required: true }),
        stage: c.text("stage", { required: true }),
        status: c.oneOf("status", HOLDING_STATUSES, { required: true }),
        fundName: c.text("fund_name", { required: true }),
        holdingType: c.text("holding_type", { required: true }),
        investmentDate: c.date("investment_date", { required: true }),
        ownershipPercentage: c.number("ownership_percentage", { min: 0, max: 100 }),
        invested: c.number("invested", { min: 0 }),
        currentValuation: c.number("current_valuation", { min: 0 }),
        currency: c.currency("currency"),
      };
      if (problems.length > before) continue;
      const values = { ...cells, nameFold: fold(cells.name!), companyKey: companyKey! } as HoldingValues;
      if (!duplicate(`${values.nameFold}\u0000${values.fundName}`, row.line, `holding ${values.name} in ${values.fundName}`)) out.push({ line: row.line, values });
    }
    if (problems.length) throw new ImportError(file.name, problems);
    return out;
  }

  /** Holdings from a portfolio CSV, upserted by name + fund_name. */
  function importPortfolio(orgId: string, file: ImportFile, progress: Progress = () => {}): ImportSummary {
    mustHaveOrg(orgId);
    const rows = readHoldings(file);
    progress(`${file.name}: ${rows.length} holding${rows.length === 1 ? "" : "s"} read and valid`);
    const now = clock.now().toISOString();
    const summary = emptySummary(file.name, rows.length);
    db.transaction((tx) => {
      for (const { values } of rows) {
        const existing = holdingByKey.get({ org: orgId, nameFold: values.nameFold, fund: values.fundName });
        if (!existing) {
          tx.insert(portfolioHoldings).values({ id: newId(), orgId, ...values, createdAt: now, updatedAt: now }).run();
          summary.inserted++;
        } else if ((Object.keys(values) as (keyof HoldingValues)[]).some((k) => existing[k] !== values[k])) {
          tx.update(portfolioHoldings).set({ ...values, updatedAt: now }).where(eq(portfolioHoldings.id, existing.id)).run();
          summary.updated++;
        } else summary.unchanged++;
      }
    });
    return summary;
  }

  /**
   * The company a metrics row's `company` cell names: a website or a holding's name. Metrics belong
   * to the company, so holdings of one company (one website) in several funds are one match. A cell
   * matching holdings of different companies (a name two companies share, or one company's website
   * that is another holding's name) is an error naming every candidate.
   */
  function companyResolver(orgId: string) {
    const cache = new Map<string, { key: string } | { error: string }>();
    const resolve = (company: string): { key: string } | { error: string } => {
      const key = companyKeyOf(company);
      const byWebsite = key ? holdingsOfCompany.all({ org: orgId, key }).map((h) => ({ ...h, how: "by website" })) : [];
      const byName = holdingsNamed.all({ org: orgId, nameFold: fold(company) }).map((h) => ({ ...h, how: "by name" }));
      const keys = [...new Set([...byWebsite, ...byName].map((h) => h.companyKey))];
      if (keys.length === 1) return { key: keys[0] };
      if (keys.length === 0) return { error: `company ${JSON.stringify(company)} is no holding's name or website (import the portfolio first)` };
      if (byWebsite.length === 0) {
        const which = byName.map((h) => `${h.companyKey} in ${h.fundName}`).join(", ");
        return { error: `company ${JSON.stringify(company)} matches holdings of ${keys.length} different companies (${which}): give the website instead` };
      }
      const which = [...byWebsite, ...byName].map((h) => `${h.companyKey} in ${h.fundName} ${h.how}`).join(", ");
      return {
        error: `company ${JSON.stringify(company)} matches holdings of ${keys.length} different companies (${which}): write the website with its scheme (https://${key}) for the company at that website, or that company's own website for the other`,
      };
    };
    return (company: string) => {
      let found = cache.get(company);
      if (!found) cache.set(company, (found = resolve(company)));
      return found;
    };
  }

  type PointValues = Omit<typeof portfolioMetricPoints.$inferInsert, "id" | "orgId">;

  function readMetrics(orgId: string, file: ImportFile): PointValues[] {
    const problems: ImportProblem[] = [];
    const cells = cellReader(file.name, problems);
    const duplicate = duplicateChecker(file.name, problems);
    const companyOf = companyResolver(orgId);
    const out: PointValues[] = [];
    for (const row of readCsvTable(file.text, file.name, METRICS_COLUMNS)) {
      const c = cells(row);
      const before = problems.length;
      const company = c.text("company", { required: true });
      const resolved = company === null ? null : companyOf(company);
      if (resolved && "error" in resolved) c.bad("company", resolved.error);
      const rawMetric = c.text("metric", { required: true });
      const metric = rawMetric?.toLowerCase() ?? null;
      if (metric !== null && !METRIC_KEY.test(metric)) {
        c.bad("metric", `metric ${JSON.stringify(rawMetric)} is not a key like arr or monthly_burn (letters, digits, underscores)`);
      }
      const value = c.number("value", { required: true });
      const currency = c.currency("currency");
      // A money metric's unit is its currency (`usd`) when the file names a currency but no unit.
      const unit = c.text("unit")?.toLowerCase() ?? currency?.toLowerCase() ?? null;
      const statementDate = c.timestamp("statement_date", { required: true });
      const kind = c.oneOf("kind", METRIC_KINDS, { otherwise: "actual" });
      if (problems.length > before || !resolved || "error" in resolved) continue;
      const point = { companyKey: resolved.key, metric: metric!, kind: kind!, statementDate: statementDate!, value: value!, unit, currency };
      const key = `${point.companyKey}\u0000${point.metric}\u0000${point.statementDate}\u0000${point.kind}`;
      if (!duplicate(key, row.line, `${point.kind} ${point.metric} of ${company} at ${point.statementDate}`)) out.push(point);
    }
    if (problems.length) throw new ImportError(file.name, problems);
    return out;
  }

  /** Dated metric values from a metrics CSV, upserted by company + metric + statement_date + kind. */
  function importMetrics(orgId: string, file: ImportFile, progress: Progress = () => {}): ImportSummary {
    mustHaveOrg(orgId);
    const points = readMetrics(orgId, file);
    progress(`${file.name}: ${points.length} metric value${points.length === 1 ? "" : "s"} read and valid`);
    const summary = emptySummary(file.name, points.length);
    db.transaction(() => {
      points.forEach((p, i) => {
        const existing = pointByKey.get({ org: orgId, key: p.companyKey, kind: p.kind, metric: p.metric, date: p.statementDate });
        if (!existing) {
          insertPoint.run({ org: orgId, ...p });
          summary.inserted++;
        } else if (existing.value !== p.value || existing.unit !== p.unit || existing.currency !== p.currency) {
          updatePoint.run({ id: existing.id, value: p.value, unit: p.unit, currency: p.currency });
          summary.updated++;
        } else summary.unchanged++;
        if ((i + 1) % PROGRESS_EVERY === 0) progress(`${file.name}: ${i + 1}/${points.length} written`);
      });
    });
    return summary;
  }

  return { importPortfolio, importMetrics };
});
