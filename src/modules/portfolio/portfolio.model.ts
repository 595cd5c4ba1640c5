import { t } from "elysia";
import { queryInt } from "../../http/validation.ts";

const Timestamp = t.String({ format: "date-time" });
const Money = (description: string) => t.Nullable(t.Number({ description }));

// Query enums are unions of literals: Elysia gives an optional t.UnionEnum in a query its first
// value as a default, which would turn "no status filter" into `status=active`.
const HoldingStatus = t.Union([t.Literal("active"), t.Literal("exited"), t.Literal("written_off")]);

export const MetricValueModel = t.Object(
  {
    value: t.Number(),
    unit: t.Nullable(t.String({ description: "e.g. `usd`, `months`, `people`; null when the import named none" })),
    currency: t.Nullable(t.String({ description: "ISO 4217 code for money metrics" })),
    statement_date: t.String({ format: "date-time", description: "When the value was measured" }),
  },
  { description: "The latest actual value of one metric" },
);

export const HoldingModel = t.Object({
  company_id: t.String({ format: "uuid" }),
  name: t.String(),
  website: t.String(),
  sector: t.String(),
  stage: t.String(),
  status: t.String({ description: "`active`, `exited` or `written_off`" }),
  fund_name: t.String(),
  holding_type: t.String({ description: "e.g. `direct_company`" }),
  investment_date: t.String({ format: "date" }),
  ownership_percentage: t.Nullable(t.Number({ description: "Percent (0-100)" })),
  invested: Money("null when the ledger has no record, never zero by default"),
  current_valuation: Money("null when the ledger has no record"),
  currency: t.Nullable(t.String({ description: "Currency of `invested` and `current_valuation` (additive); null when the import named none" })),
  value_multiple: t.Nullable(t.Number({ description: "current_valuation / invested, 4 decimals; null when either is missing or invested is 0" })),
  position_count: t.Integer({ description: "The org's holdings of the same company (by website) across funds" }),
  metrics: t.Record(t.String(), MetricValueModel, { description: "Latest actual per metric key (`arr`, `monthly_burn`, ...); {} when none" }),
});

export const HoldingListModel = t.Object(
  {
    scope: t.Literal("org"),
    companies: t.Array(HoldingModel),
    total: t.Integer({ description: "All holdings matching the filters" }),
    limit: t.Integer(),
    offset: t.Integer(),
    has_more: t.Boolean(),
    as_of: Timestamp,
  },
  { description: "One page of the whole org book" },
);

export const HoldingListQuery = t.Object({
  status: t.Optional(HoldingStatus),
  fund_name: t.Optional(t.String({ minLength: 1, description: "Exact fund name" })),
  q: t.Optional(t.String({ description: "Case-insensitive search in the company name" })),
  limit: t.Optional(queryInt("limit", { minimum: 1, maximum: 200, default: 50 })),
  offset: t.Optional(queryInt("offset", { minimum: 0, default: 0 })),
});

export const MetricPointModel = t.Object({
  value: t.Number(),
  unit: t.Nullable(t.String()),
  currency: t.Nullable(t.String()),
  statement_date: t.String({ format: "date-time" }),
  kind: t.Union([t.Literal("actual"), t.Literal("budget")]),
  source: t.Union([t.Literal("import"), t.Literal("investor_update")], { description: "A metrics import, or a figure read from a founder's update" }),
  evidence: t.Nullable(
    t.Object({ update_id: t.String({ format: "uuid" }), quote: t.String({ description: "The sentence or table row the figure came from" }) }, { description: "The update a point came from, with its quote; null for imports" }),
  ),
});

export const MetricHistoryModel = t.Object(
  {
    company_id: t.String({ format: "uuid" }),
    metric: t.String(),
    points: t.Array(MetricPointModel, { description: "Oldest first; at one date the actual before the budget" }),
    scope: t.Literal("org"),
    as_of: Timestamp,
  },
  { description: "The dated history of one metric of one holding's company, actuals and budgets marked" },
);

export const MetricHistoryQuery = t.Object({
  metric: t.String({ minLength: 1, description: "A metric key, e.g. `arr`" }),
  from: t.Optional(t.String({ format: "date", description: "First day included (YYYY-MM-DD)" })),
  to: t.Optional(t.String({ format: "date", description: "Last day included (YYYY-MM-DD)" })),
});

export const CompanyIdParams = t.Object({ company_id: t.String() });
