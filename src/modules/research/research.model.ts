import { t } from "elysia";

const Timestamp = t.String({ format: "date-time" });
const N = <T extends Parameters<typeof t.Nullable>[0]>(s: T) => t.Nullable(s);

export const QUERY_MAX = 20_000;
export const KEY_MAX = 512;

// Lengths are checked by the service (so the MCP door gets the same 422s); the schema documents them.
export const ResearchBody = t.Object({
  query: t.String({ minLength: 1, maxLength: QUERY_MAX, description: "The research question, 1-20000 characters (not only whitespace)" }),
  idempotency_key: t.String({
    minLength: 1,
    maxLength: KEY_MAX,
    description: "Your key for this question: a retry with the same key returns the same run and is never billed twice; a key used in another workspace is a 409",
  }),
});

export const ResearchViewQuery = t.Object({
  view: t.Optional(t.Union([t.Literal("full"), t.Literal("summary")], { description: "`full` (default): the Markdown report and citations; `summary`: lifecycle and executive summary (the report fields are null)" })),
});

const Plan = t.Object({ sub_questions: t.Array(t.String()) });

export const ResearchAccepted = t.Object({
  research_id: t.String({ format: "uuid" }),
  status: t.UnionEnum(["queued", "running", "succeeded", "failed"]),
  status_url: t.String(),
  result_url: t.String(),
  existing: t.Boolean({ description: "true when the idempotency key had already started this run (nothing was charged)" }),
  plan: Plan,
  scope: t.Literal("org_workspace"),
  as_of: Timestamp,
});

export const Citation = t.Object({
  n: t.Integer({ minimum: 1, description: "The [n] of the report" }),
  title: t.String(),
  source_type: t.UnionEnum(["document", "deal", "metric_point", "fund_commitment", "person"]),
  source_id: t.String({ description: "deal_documents, deals, portfolio metric point, fund commitment or person id" }),
  page: N(t.Integer({ description: "Document page (1-based); null for other sources" })),
  quote: t.String({ description: "Verbatim text of the source, or its stored figures" }),
});

export const ResearchRecord = t.Object({
  research_id: t.String({ format: "uuid" }),
  status: t.UnionEnum(["queued", "running", "succeeded", "failed"]),
  progress: N(t.Object({ stage: t.String({ description: "plan, search, read, write" }), percent: t.Integer({ minimum: 0, maximum: 100 }) }, { additionalProperties: true })),
  error: N(t.String()),
  query: t.String(),
  plan: Plan,
  engine: N(t.String()),
  executive_summary: N(t.String()),
  report_markdown: N(t.String({ description: "null in view=summary" })),
  citations: N(t.Array(Citation, { description: "null in view=summary" })),
  started_at: N(Timestamp),
  finished_at: N(Timestamp),
  scope: t.Literal("org_workspace"),
  as_of: Timestamp,
});
