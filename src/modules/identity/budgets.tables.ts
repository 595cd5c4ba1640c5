import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { apiKeys } from "./keys.tables.ts";

// One row per key per UTC day. A budget owner's row (the first key of a rotation chain) carries the
// counters of every key of its chain; each row's last_used_at is its own key's last use (a key made
// by rotation has a row for that alone). The counters are bumped by a single conditional upsert,
// which SQLite serialises, so a budget of N admits exactly N requests however they race.
export const keyUsage = sqliteTable(
  "key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    actions: integer("actions").notNull().default(0),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
