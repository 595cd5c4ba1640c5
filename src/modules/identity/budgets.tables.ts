import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// One row per budget owner per UTC day. A budget owner is the first key of a rotation chain, or an
// MCP sign-in grant (the first grant of an app for a user: a sign-in again continues it), so
// `key_id` names a key or a grant (no foreign key: it may be either). An owner's row carries the
// counters of everything that spends its budget; each row's last_used_at is its own key's (or
// grant's) last use (a key made by rotation has a row for that alone). The counters are bumped by a
// single conditional upsert, which SQLite serialises, so a budget of N admits exactly N requests
// however they race. Rows go with the key-usage-prune job.
export const keyUsage = sqliteTable(
  "key_usage",
  {
    keyId: text("key_id").notNull(),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    actions: integer("actions").notNull().default(0),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
