import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

export const deals = sqliteTable(
  "deals",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    createdBy: text("created_by").notNull(),
    companyName: text("company_name"),
    domain: text("domain"),
    website: text("website"),
    kind: text("kind", { enum: ["company", "fund"] }).notNull(),
    stage: text("stage", { enum: ["new", "screening", "diligence", "ic", "invested", "passed"] }).notNull().default("new"),
    source: text("source", { enum: ["website", "document", "upload"] }).notNull(),
    // The "same target" of CONTRACT.md: the website host, else the normalised company name.
    targetKey: text("target_key").notNull(),
    score: real("score"),
    scoreConfidence: real("score_confidence"),
    // JSON of the extracted facts: { company, round, team }
    facts: text("facts"),
    // JSON of the finished analysis: { engine, summary, sections, completed_at }
    analysis: text("analysis"),
    documentUrl: text("document_url"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    // The status of the deal's latest analysis run, kept by triggers on action_runs (migration 0014)
    // so the list can filter and count by it from an index instead of a subquery per deal.
    analysisStatus: text("analysis_status", { enum: ["queued", "running", "succeeded", "failed"] }),
  },
  (t) => [
    // The list's index: newest first (created_at, id) with every filter column, so the count and the
    // page's ids come from the index alone and the wide JSON columns are read for no row but the page's.
    index("deals_org_list_idx").on(t.orgId, t.createdAt, t.id, t.stage, t.kind, t.analysisStatus, t.companyName),
    index("deals_org_target_idx").on(t.orgId, t.targetKey),
  ],
);

export const dealDocuments = sqliteTable(
  "deal_documents",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    kind: text("kind", { enum: ["primary_upload", "data_room"] }).notNull(),
    folder: text("folder"),
    category: text("category"),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count"),
    status: text("status", { enum: ["received", "extracted", "failed"] }).notNull(),
    // JSON array of page texts, for the engines and (later) research.
    pages: text("pages"),
    uploadedAt: text("uploaded_at").notNull(),
  },
  (t) => [index("deal_documents_deal_idx").on(t.dealId)],
);
