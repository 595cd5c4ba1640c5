import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { connections } from "./connections.tables.ts";

// The sync ledger: per sync and IMAP folder, the UID range read and how every message in it was
// counted. Each batch adds its counts in the transaction that advances the folder's high-water
// UID (connection_folders.last_uid), so the two never disagree, whatever kills a sync.
export const connectionLedger = sqliteTable(
  "connection_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    // The sync's claim token: one row per sync and folder, added to batch by batch.
    run: text("run").notNull(),
    syncedAt: text("synced_at").notNull(),
    folder: text("folder").notNull(),
    // Decimal text (32-bit unsigned).
    uidValidity: text("uid_validity").notNull(),
    uidFrom: integer("uid_from").notNull(),
    uidTo: integer("uid_to").notNull(),
    seen: integer("seen").notNull().default(0),
    imported: integer("imported").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    // JSON {reason: n}.
    skipped: text("skipped").notNull().default("{}"),
    failed: text("failed").notNull().default("{}"),
  },
  (t) => [uniqueIndex("connection_ledger_run_folder_unique").on(t.run, t.folder), index("connection_ledger_connection_idx").on(t.connectionId, t.id)],
);
