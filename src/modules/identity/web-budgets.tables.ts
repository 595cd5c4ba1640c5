import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./orgs.tables.ts";

// One row per member per UTC day: the member's actions, from the web app, API keys and connected apps
// alike (one count a user cannot multiply by making keys). Originally the web app's alone (a session has no
// key, so key_usage cannot hold them). Bumped by one conditional upsert, exact under concurrency.
export const webActionUsage = sqliteTable(
  "web_action_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    actions: integer("actions").notNull().default(0),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
