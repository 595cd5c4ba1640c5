import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

/**
 * One founder's update received by the org: a message (imported from a file or synced from a
 * member's mailbox) recognised as coming from a holding. Keyed by the message's Message-ID within
 * the org, so the same mail synced twice, or imported and synced, is one update.
 */
export const investorUpdates = sqliteTable(
  "investor_updates",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    // The holding it was recognised for (the API's company_id) and its company (shared by positions).
    holdingId: text("holding_id").notNull(),
    companyKey: text("company_key").notNull(),
    messageId: text("message_id").notNull(),
    // The founder's address (for a forward: the original sender), and who received it.
    fromAddress: text("from_address").notNull(),
    userId: text("user_id"),
    subject: text("subject").notNull(),
    receivedAt: text("received_at").notNull(),
    // The period the update reports on, when it names one unambiguously.
    periodEnd: text("period_end"),
    origin: text("origin", { enum: ["import", "sync", "demo"] }).notNull(),
    // Why some part could not be read (an attachment refused by the reader), or null.
    problems: text("problems"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("investor_updates_message_key").on(t.orgId, t.messageId), index("investor_updates_company_idx").on(t.orgId, t.companyKey, t.receivedAt)],
);

/** One figure read from an update, with the sentence or table row it came from and what became of it. */
export const updateFigures = sqliteTable(
  "update_figures",
  {
    id: integer("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    updateId: text("update_id")
      .notNull()
      .references(() => investorUpdates.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    metric: text("metric").notNull(),
    value: real("value").notNull(),
    unit: text("unit"),
    currency: text("currency"),
    periodEnd: text("period_end"),
    status: text("status", { enum: ["applied", "needs_review", "rejected"] }).notNull(),
    reason: text("reason"),
    quote: text("quote").notNull(),
    // Where in the message: an attachment's id (its position and file name) and page, or the body (null).
    documentId: text("document_id"),
    page: integer("page"),
    // The metric point an applied figure wrote (null otherwise).
    pointId: integer("point_id"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: text("reviewed_at"),
  },
  (t) => [index("update_figures_update_idx").on(t.updateId, t.position), index("update_figures_status_idx").on(t.orgId, t.status)],
);

/** Addresses the org has named as a holding's update senders (besides its website's domain). */
export const updateSenders = sqliteTable(
  "update_senders",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    holdingId: text("holding_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.email] })],
);
