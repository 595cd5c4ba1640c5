import { t } from "elysia";
import { queryInt } from "../../http/validation.ts";

const Timestamp = t.String({ format: "date-time" });
const Day = t.Nullable(t.String({ format: "date", description: "The last day of the period the figure is for (YYYY-MM-DD); null when the update does not say" }));

// Query enums are unions of literals: an optional t.UnionEnum would default to its first value.
const FigureStatus = t.Union([t.Literal("applied"), t.Literal("needs_review"), t.Literal("rejected")]);

export const UpdateFigureModel = t.Object({
  figure_id: t.Integer(),
  metric: t.String({ description: "`arr`, `mrr`, `revenue`, `monthly_burn`, `cash`, `runway_months`, `headcount`, `customers`, `gross_margin` or `net_revenue_retention`" }),
  value: t.Number(),
  unit: t.Nullable(t.String({ description: "`months`, `people`, `customers`, `percent`; for revenue the period it was earned over (`month`, `quarter`, ...)" })),
  currency: t.Nullable(t.String({ description: "ISO 4217 code of a money figure" })),
  period_end: Day,
  status: FigureStatus,
  reason: t.Nullable(t.String({ description: "Why the figure waits for review (or was rejected); null when applied" })),
  quote: t.String({ description: "The sentence or table row the figure came from" }),
  source: t.Object({
    message_id: t.String(),
    document_id: t.Nullable(t.String({ description: "The attachment (position and file name); null for the message's text" })),
    page: t.Nullable(t.Integer({ description: "The attachment's page, slide or sheet" })),
  }),
});

export const UpdateModel = t.Object({
  update_id: t.String({ format: "uuid" }),
  company_id: t.String({ format: "uuid" }),
  company_name: t.Nullable(t.String()),
  from: t.String({ description: "The founder's address (for a forward, the original sender)" }),
  subject: t.String(),
  received_at: Timestamp,
  period_end: Day,
  problems: t.Nullable(t.String({ description: "Parts that could not be read (an attachment refused by the reader), or null" })),
  figures: t.Array(UpdateFigureModel),
});

export const UpdateListModel = t.Object(
  {
    updates: t.Array(UpdateModel),
    total: t.Integer(),
    limit: t.Integer(),
    offset: t.Integer(),
    has_more: t.Boolean(),
    scope: t.Literal("org"),
    as_of: Timestamp,
  },
  { description: "Founders' updates received by the org, newest first, with the figures read from them" },
);

export const UpdateListQuery = t.Object({
  company_id: t.Optional(t.String({ format: "uuid", description: "A holding's company_id" })),
  status: t.Optional(FigureStatus),
  limit: t.Optional(queryInt("limit", { minimum: 1, maximum: 200, default: 50 })),
  offset: t.Optional(queryInt("offset", { minimum: 0, default: 0 })),
});
