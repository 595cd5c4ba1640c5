import { t } from "elysia";
import { queryInt } from "../../http/validation.ts";

const Timestamp = t.String({ format: "date-time" });
const N = <T extends Parameters<typeof t.Nullable>[0]>(s: T) => t.Nullable(s);
const RunStatus = t.UnionEnum(["queued", "running", "succeeded", "failed"]);
const literalUnion = (values: readonly string[], description: string) =>
  t.Optional(t.Union(values.map((v) => t.Literal(v)) as [ReturnType<typeof t.Literal>, ...ReturnType<typeof t.Literal>[]], { description }));

export const DEAL_STAGES = ["new", "screening", "diligence", "ic", "invested", "passed"] as const;

export const DealListQuery = t.Object({
  limit: queryInt("limit", { minimum: 1, maximum: 200, default: 50 }),
  offset: queryInt("offset", { minimum: 0, default: 0 }),
  status: literalUnion(["queued", "running", "succeeded", "failed"], "Analysis status"),
  stage: literalUnion(DEAL_STAGES, "Pipeline stage"),
  kind: literalUnion(["company", "fund"], "Company or fund"),
  q: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Case-insensitive company name search" })),
});

export const DealViewQuery = t.Object({ view: literalUnion(["full", "summary"], "`full` adds `analysis`") });

const dealRow = {
  deal_id: t.String({ format: "uuid" }),
  company_name: N(t.String()),
  domain: N(t.String()),
  website: N(t.String()),
  kind: t.UnionEnum(["company", "fund"]),
  stage: t.UnionEnum([...DEAL_STAGES]),
  source: t.UnionEnum(["website", "document", "upload"]),
  analysis_status: N(RunStatus),
  score: N(t.Number()),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const DealListResponse = t.Object({
  deals: t.Array(t.Object(dealRow)),
  total: t.Integer(),
  limit: t.Integer(),
  offset: t.Integer(),
  has_more: t.Boolean(),
  scope: t.Literal("org_workspace"),
  as_of: Timestamp,
});

const Evidence = t.Object({ quote: t.String(), document_id: N(t.String()), page: N(t.Integer()), url: t.Optional(t.String()) });

export const DealDetailResponse = t.Object({
  ...dealRow,
  company: t.Object({
    name: N(t.String()),
    domain: N(t.String()),
    website: N(t.String()),
    description: N(t.String()),
    sector: N(t.String()),
    location: N(t.String()),
    founded_year: N(t.Integer()),
  }),
  round: t.Object({ stage: N(t.String()), amount: N(t.Number()), currency: N(t.String()), pre_money_valuation: N(t.Number()) }),
  team: t.Array(t.Object({ name: t.String(), title: N(t.String()), linkedin_url: N(t.String()) })),
  score_confidence: N(t.Number({ description: "0-1: share of sections with evidence" })),
  analysis: N(
    t.Object({
      engine: t.String(),
      summary: t.String(),
      sections: t.Array(
        t.Object({ key: t.String(), title: t.String(), score: N(t.Number()), summary: N(t.String()), evidence: t.Array(Evidence), unavailable_reason: N(t.String()) }),
      ),
      completed_at: Timestamp,
    }),
  ),
  scope: t.Literal("org_workspace"),
  as_of: Timestamp,
});

export const AnalysisStatusResponse = t.Object({
  deal_id: t.String({ format: "uuid" }),
  status: RunStatus,
  progress: N(t.Object({ stage: t.String() }, { additionalProperties: true })),
  error: N(t.String()),
  waiting_for: N(
    t.String({
      description:
        "While queued, what the run waits for: `email_verification` (a gated document link's verification mail) or `analysis_pass` (data-room files uploaded during the deal's running pass, read once it ends); null otherwise",
    }),
  ),
  started_at: N(Timestamp),
  finished_at: N(Timestamp),
  as_of: Timestamp,
});

export const DocumentsResponse = t.Object({
  deal_id: t.String({ format: "uuid" }),
  documents: t.Array(
    t.Object({
      document_id: t.String({ format: "uuid" }),
      filename: t.String(),
      kind: t.UnionEnum(["primary_upload", "data_room"]),
      folder: N(t.String()),
      category: N(t.String()),
      content_type: t.String(),
      size_bytes: t.Integer(),
      sha256: t.String(),
      page_count: N(t.Integer()),
      status: t.UnionEnum(["received", "extracted", "failed"]),
      uploaded_at: Timestamp,
    }),
  ),
  scope: t.Literal("org_workspace"),
  as_of: Timestamp,
});

export const AcceptedResponse = t.Object({
  deal_id: t.String({ format: "uuid" }),
  status: t.Literal("queued"),
  status_url: t.String(),
  result_url: t.String(),
  email_verification_required: N(t.Boolean()),
  existing: t.Boolean(),
  as_of: Timestamp,
});

export const UploadBodyDoc = t.Object({
  file: t.File({ description: "PDF, PPT/PPTX or DOC/DOCX, at most 50 MB (type by content)" }),
  kind: t.Optional(t.UnionEnum(["company", "fund"], { default: "company" })),
  company_name: t.Optional(t.String({ maxLength: 200 })),
});

export const AnalyzeBody = t.Object({
  website_url: t.Optional(t.String({ minLength: 1, maxLength: 2048, description: "The company's (or fund's) website" })),
  document_url: t.Optional(t.String({ minLength: 1, maxLength: 2048, description: "A hosted document: DocSend, Notion, Figma, Google Drive/Docs/Slides, Dropbox, Box, OneDrive, Pitch, or a direct PDF/Office link" })),
  company_name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  document_password: t.Optional(t.String({ minLength: 1, maxLength: 500, description: "For password-protected document links" })),
  document_email: t.Optional(t.String({ minLength: 3, maxLength: 320, pattern: "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", description: "For links that ask for an email address" })),
});

export const DataRoomAcceptedResponse = t.Object({
  deal_id: t.String({ format: "uuid" }),
  files_received: t.Integer({ description: "Files stored by this request" }),
  status: t.Literal("queued"),
  documents_url: t.String(),
  status_url: t.String(),
  result_url: t.String(),
  existing: t.Boolean({
    description: "true when the files joined a data-room pass already queued (uploaded while the deal was being analysed): no new pass, no action charged",
  }),
  as_of: Timestamp,
});

export const DataRoomBodyDoc = t.Object({
  files: t.Array(t.File({ description: "PDF, DOC/DOCX, PPT/PPTX, XLS/XLSX, CSV, plain text or Markdown (by content), at most 50 MB" }), {
    minItems: 1,
    maxItems: 20,
    description: "Repeat the field for each file; a filename with a path (Legal/SHA.pdf) puts the file in that folder",
  }),
  folder: t.Optional(t.String({ maxLength: 255, description: "Folder for this request's files" })),
});
