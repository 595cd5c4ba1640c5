import { t } from "elysia";
import { LIMITS } from "./founders.input.ts";

const Timestamp = t.String({ format: "date-time" });
const N = <T extends Parameters<typeof t.Nullable>[0]>(s: T) => t.Nullable(s);
const RunStatus = t.UnionEnum(["queued", "running", "succeeded", "failed"]);

// Documentation and first-line validation; founders.input.ts checks the same rules again for
// every caller (REST and MCP) and owns the URL rules.
export const AnalyzeFounderBody = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.name, description: "The founder's full name" })),
  linkedin_url: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.url, description: "https://www.linkedin.com/in/<handle>" })),
  github_url: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.url, description: "https://github.com/<user>" })),
  company: t.Optional(t.String({ minLength: 1, maxLength: LIMITS.company, description: "Their current company" })),
}, { description: "At least one of name, linkedin_url and github_url" });

export const AnalysisViewQuery = t.Object({
  view: t.Optional(t.Union([t.Literal("summary"), t.Literal("full")], { description: "`full` adds per-metric confidence, reasoning and missing_info (default summary)" })),
});

export const FounderAcceptedResponse = t.Object({
  analysis_id: t.String({ format: "uuid" }),
  status: RunStatus,
  status_url: t.String(),
  result_url: t.String(),
  existing: t.Boolean({ description: "true: the org's analysis of the same founder, returned at no charge" }),
  as_of: Timestamp,
});

const Source = t.Object({ type: t.UnionEnum(["deal", "document", "person", "github"]), id: t.String(), title: t.String() });

export const FounderAnalysisResponse = t.Object({
  analysis_id: t.String({ format: "uuid" }),
  status: RunStatus,
  progress: N(t.Object({ stage: t.String() }, { additionalProperties: true })),
  error: N(t.String()),
  founder: t.Object({ name: N(t.String()), linkedin_url: N(t.String()), github_url: N(t.String()), company: N(t.String()) }),
  engine: N(t.String()),
  overall_score: N(t.Number({ description: "0-100: confidence-weighted mean of the scored metrics" })),
  metrics: t.Array(
    t.Object({
      key: t.String(),
      label: t.String(),
      score: N(t.Number({ description: "0-100, null without evidence" })),
      confidence: N(t.Number({ description: "0-1 (view=full; null in summary)" })),
      reasoning: N(t.String({ description: "view=full; null in summary" })),
      missing_info: N(t.Array(t.String(), { description: "view=full; null in summary" })),
    }),
  ),
  strengths: t.Array(t.String()),
  risks: t.Array(t.String()),
  sources: t.Array(Source),
  started_at: N(Timestamp),
  finished_at: N(Timestamp),
  scope: t.Literal("org_workspace"),
  as_of: Timestamp,
});
