import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./orgs.tables.ts";

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // First characters of the secret, shown in listings so a person can tell keys apart.
    prefix: text("prefix").notNull(),
    // SHA-256 (hex) of the whole secret; the secret itself is never stored.
    secretHash: text("secret_hash").notNull(),
    scope: text("scope", { enum: ["read", "write"] }).notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    // Per-key overrides of the daily budgets; null means the product default.
    dailyRequests: integer("daily_requests"),
    dailyActions: integer("daily_actions"),
    rotatedFromId: text("rotated_from_id"),
    // Whose daily budgets this key spends: the first key of its rotation chain (its own id for a
    // key never rotated into), so rotating a key never hands out a fresh day of budget.
    budgetOwnerId: text("budget_owner_id"),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_unique").on(t.secretHash), index("api_keys_user_idx").on(t.userId)],
);
