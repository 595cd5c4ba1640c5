import { index, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

// One founder assessment per founder per org: a repeat request finds it by `founder_key` (the
// normalised LinkedIn/GitHub URL, else name + company) instead of paying for a second one.
export const founderAnalyses = sqliteTable(
  "founder_analyses",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    createdBy: text("created_by").notNull(),
    founderKey: text("founder_key").notNull(),
    name: text("name"),
    linkedinUrl: text("linkedin_url"),
    githubUrl: text("github_url"),
    company: text("company"),
    overallScore: real("overall_score"),
    // JSON of the finished assessment: { engine, metrics, strengths, risks, sources }
    result: text("result"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("founder_analyses_org_key_idx").on(t.orgId, t.founderKey)],
);
