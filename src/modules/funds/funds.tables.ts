import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "../identity/orgs.tables.ts";

/** The firm's commitment, as an LP, to one fund. Natural key: fund_name. */
export const fundCommitments = sqliteTable(
  "fund_commitments",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    fundName: text("fund_name").notNull(),
    vintageYear: integer("vintage_year"),
    commitment: real("commitment").notNull(),
    // null: the file did not say. Figures of different (or unknown) currencies are never pooled.
    currency: text("currency"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("fund_commitments_natural_key").on(t.orgId, t.fundName)],
);

/** Capital calls and distributions; `amount` is positive, `type` gives the direction. */
export const fundCashflows = sqliteTable(
  "fund_cashflows",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    commitmentId: text("commitment_id")
      .notNull()
      .references(() => fundCommitments.id, { onDelete: "cascade" }),
    cashflowDate: text("cashflow_date").notNull(),
    type: text("type", { enum: ["call", "distribution"] }).notNull(),
    amount: real("amount").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // Natural key: fund (commitment) + date + type + amount.
    uniqueIndex("fund_cashflows_natural_key").on(t.commitmentId, t.cashflowDate, t.type, t.amount),
    // Covers the positions read: an org's whole ledger, commitment by commitment, in date order.
    index("fund_cashflows_ledger_idx").on(t.orgId, t.commitmentId, t.cashflowDate, t.type, t.amount),
  ],
);

/** The fund's reported NAV of the firm's interest, as of a date. Natural key: fund + mark_date. */
export const fundMarks = sqliteTable(
  "fund_marks",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    commitmentId: text("commitment_id")
      .notNull()
      .references(() => fundCommitments.id, { onDelete: "cascade" }),
    markDate: text("mark_date").notNull(),
    nav: real("nav").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("fund_marks_natural_key").on(t.commitmentId, t.markDate),
    index("fund_marks_ledger_idx").on(t.orgId, t.commitmentId, t.markDate, t.nav),
  ],
);
