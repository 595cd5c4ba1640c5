import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";

export const orgs = sqliteTable("orgs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    // null: a user in no organization; every key of theirs gets 403.
    orgId: text("org_id").references(() => orgs.id),
    email: text("email").notNull(),
    name: text("name").notNull(),
    // Network-sharing opt-in: only sharers' relationships are pooled into who-knows.
    shareNetwork: integer("share_network", { mode: "boolean" }).notNull().default(false),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    // The server's operator (not an org's): backups, which hold every organization's data, are theirs
    // in the web app (`dealgraph admin user operator --user ID on|off`); the CLI is the operator too.
    isOperator: integer("is_operator", { mode: "boolean" }).notNull().default(false),
    // IANA zone the user's floating calendar times (no TZID) and all-day dates are read in; null: UTC.
    timeZone: text("time_zone"),
    passwordHash: text("password_hash"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`), index("users_org_idx").on(t.orgId)],
);
