import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

/** One holding: a position of one fund in one company. The API's `company_id` is its id. */
export const portfolioHoldings = sqliteTable(
  "portfolio_holdings",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Lower-cased name: the case-insensitive search, the metrics import's name match, the order.
    nameFold: text("name_fold").notNull(),
    website: text("website").notNull(),
    // The company behind the holding (its website without scheme, `www.` and trailing slash):
    // holdings of one company across funds share it, and so do its metrics.
    companyKey: text("company_key").notNull(),
    sector: text("sector").notNull(),
    stage: text("stage").notNull(),
    status: text("status", { enum: ["active", "exited", "written_off"] }).notNull(),
    fundName: text("fund_name").notNull(),
    holdingType: text("holding_type").notNull(),
    investmentDate: text("investment_date").notNull(),
    // null: not in the ledger. Never defaulted to 0.
    ownershipPercentage: real("ownership_percentage"),
    invested: real("invested"),
    currentValuation: real("current_valuation"),
    currency: text("currency"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The natural key of a re-import: name (case-insensitively) + fund_name.
    uniqueIndex("portfolio_holdings_natural_key").on(t.orgId, t.nameFold, t.fundName),
    index("portfolio_holdings_company_idx").on(t.orgId, t.companyKey),
    // Covers the list's filters and order: counting and paging walk the index, not the table.
    index("portfolio_holdings_list_idx").on(t.orgId, t.nameFold, t.fundName, t.status),
  ],
);

/** Dated metric values of a company (actuals and budgets), shared by its holdings. */
export const portfolioMetricPoints = sqliteTable(
  "portfolio_metric_points",
  {
    id: integer("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    companyKey: text("company_key").notNull(),
    metric: text("metric").notNull(),
    kind: text("kind", { enum: ["actual", "budget"] }).notNull(),
    statementDate: text("statement_date").notNull(),
    value: real("value").notNull(),
    unit: text("unit"),
    currency: text("currency"),
    // Where the point came from: a metrics import, or a figure read from an investor update
    // (modules/updates), whose update and quote are its evidence.
    source: text("source", { enum: ["import", "investor_update"] }).notNull().default("import"),
    evidenceUpdateId: text("evidence_update_id"),
    evidenceQuote: text("evidence_quote"),
  },
  // The natural key (company + metric + statement_date + kind), ordered for "latest actual of each
  // metric of these companies" and for one metric's history.
  (t) => [uniqueIndex("portfolio_metric_points_natural_key").on(t.orgId, t.companyKey, t.kind, t.metric, t.statementDate)],
);

/**
 * The latest actual of each metric of each company: one row per (company, metric), kept by triggers
 * on portfolio_metric_points (migration 0022_reads_at_scale: every insert, update and delete, by
 * any writer), so a page of the book reads one row per metric whatever the length of its history.
 * `point_id` is the point the row copies.
 */
export const portfolioLatestActuals = sqliteTable(
  "portfolio_latest_actuals",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    companyKey: text("company_key").notNull(),
    metric: text("metric").notNull(),
    pointId: integer("point_id").notNull(),
    statementDate: text("statement_date").notNull(),
    value: real("value").notNull(),
    unit: text("unit"),
    currency: text("currency"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.companyKey, t.metric] })],
);
