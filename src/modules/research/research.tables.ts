import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

// A research run's question, its plan (made during the POST) and, once finished, its report.
// `idempotency_key` is unique across orgs: a key reused in another workspace is a 409, not a second run.
export const researchRuns = sqliteTable(
  "research_runs",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    createdBy: text("created_by").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    query: text("query").notNull(),
    // JSON: { sub_questions: string[] }
    plan: text("plan").notNull(),
    engine: text("engine"),
    executiveSummary: text("executive_summary"),
    reportMarkdown: text("report_markdown"),
    // JSON: [{ n, title, source_type, source_id, page, quote }]
    citations: text("citations"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("research_runs_idempotency_idx").on(t.idempotencyKey), index("research_runs_org_created_idx").on(t.orgId, t.createdAt)],
);

// The FTS5 index of the firm's own corpus (migration 0010_search_index.sql: drizzle declares no
// virtual tables), kept in step with deal documents and deal analyses by triggers. Its row, once.
export type SearchIndexRow = {
  rowid: number;
  title: string;
  body: string;
  org_id: string;
  source_type: "document" | "deal";
  source_id: string;
  /** The page of a document (from 1); null for a deal's analysis. */
  page: number | null;
};
