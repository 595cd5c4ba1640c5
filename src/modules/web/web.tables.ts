// The web app's own state: browser sessions, one-time sign-in links and failed sign-ins (for the
// per-email and per-address rate limits). Every token is stored only as a SHA-256 hash.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../identity/orgs.tables.ts";

export const webSessions = sqliteTable(
  "web_sessions",
  {
    // SHA-256 (hex) of the cookie's token; the token itself is never stored.
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The per-session CSRF token every form carries back (compared in constant time).
    csrfToken: text("csrf_token").notNull(),
    // How the session began: a link session may set a password without the current one.
    method: text("method", { enum: ["password", "link"] }).notNull(),
    createdAt: text("created_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    userAgent: text("user_agent"),
  },
  (t) => [index("web_sessions_user_idx").on(t.userId)],
);

export const webSignInLinks = sqliteTable(
  "web_sign_in_links",
  {
    // SHA-256 (hex) of the link's token.
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    // 1 only for the demo's sign-in link (`dealgraph demo`): used again and again, never used up.
    reusable: integer("reusable", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("web_sign_in_links_user_idx").on(t.userId)],
);

// One row per password attempt, booked before the password is checked and deleted when it
// proves right: what remains are the failures (and the attempts still being checked).
export const webSignInFailures = sqliteTable(
  "web_sign_in_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Lower-cased as typed (also for addresses that belong to no user).
    email: text("email").notNull(),
    // The client's socket address; null when unknown (a request not from a listening server).
    clientAddress: text("client_address"),
    at: text("at").notNull(),
  },
  (t) => [
    index("web_sign_in_failures_email_at_idx").on(t.email, t.at),
    index("web_sign_in_failures_client_address_at_idx").on(t.clientAddress, t.at),
  ],
);
