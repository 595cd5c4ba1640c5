import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

// A conversation with the `ask` tool: follow-up questions ("and how warm is she?") resolve against
// what the conversation last talked about. Owned by one user of one org; another user's id is unknown.
export const mcpConversations = sqliteTable(
  "mcp_conversations",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    // JSON: the turns so far and the entities they were about (bounded by the service).
    state: text("state").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("mcp_conversations_user_idx").on(t.userId, t.updatedAt)],
);
