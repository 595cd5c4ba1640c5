import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs, users } from "../identity/orgs.tables.ts";

// The organization's mail and calendar server, set by an administrator (never by a user: these
// hosts may be private addresses, which is why only an administrator names them).
export const mailServers = sqliteTable("mail_servers", {
  orgId: text("org_id")
    .primaryKey()
    .references(() => orgs.id, { onDelete: "cascade" }),
  imapHost: text("imap_host").notNull(),
  imapPort: integer("imap_port").notNull(),
  imapSecurity: text("imap_security", { enum: ["tls", "starttls", "plain"] }).notNull(),
  // The CalDAV server's base URL (users connect collections under it); null: none.
  caldavUrl: text("caldav_url"),
  // PEM of a private CA the servers' certificates are signed by (public data, not a secret).
  caPem: text("ca_pem"),
  // Plaintext to a host that is not loopback was allowed explicitly (--insecure).
  insecure: integer("insecure", { mode: "boolean" }).notNull().default(false),
  // Who signs users in: `imap` (each user's password), or a provider that issues OAuth 2.0 tokens
  // for the whole domain (connections.providers.ts).
  provider: text("provider", { enum: ["imap", "google", "microsoft"] }).notNull().default("imap"),
  // The provider's public settings (JSON: client e-mail or id, tenant, how it authenticates).
  providerSettings: text("provider_settings"),
  // The provider's key file, client secret or certificate and key, sealed under the server key.
  providerSealed: text("provider_sealed"),
  updatedAt: text("updated_at").notNull(),
});

// A user's mail or calendar account. Removing one deletes the row (and its credentials); what it
// already recorded in the network stays.
export const connections = sqliteTable(
  "connections",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["mail", "calendar"] }).notNull(),
    // graph: a Microsoft 365 calendar read from Microsoft Graph (calendarView delta).
    source: text("source", { enum: ["imap", "caldav", "ics", "graph"] }).notNull(),
    // What the user is shown: the login, or for a subscription the URL's origin only (the rest of
    // a subscription URL is often its secret).
    account: text("account").notNull(),
    // Reconnecting the same account updates this row (new password) instead of adding one.
    accountKey: text("account_key").notNull(),
    // Sealed JSON ({password} or {url}) under the server key, bound to the row id.
    secretSealed: text("secret_sealed").notNull(),
    // The CalDAV collection (not secret); null for the other sources.
    url: text("url"),
    // JSON array of folder names; null: INBOX and the server's \Sent folder.
    folders: text("folders"),
    // First day of the first backfill (YYYY-MM-DD).
    since: text("since"),
    lastSyncedAt: text("last_synced_at"),
    lastError: text("last_error"),
    // JSON: messages_new, meetings_new, duplicates, skipped of the last completed sync.
    lastResult: text("last_result"),
    // Messages and meetings this connection added to the network, each counted once.
    itemsSynced: integer("items_synced").notNull().default(0),
    // Consecutive failed syncs, and when the job tries again (backoff).
    failures: integer("failures").notNull().default(0),
    nextAttemptAt: text("next_attempt_at"),
    // Who is syncing it now (`pid:random`) and until when that claim holds without a heartbeat.
    leaseToken: text("lease_token"),
    leaseUntil: text("lease_until"),
    // JSON: where a running sync is ({folder, done, total}); null when idle.
    progress: text("progress"),
    // CalDAV sync-token, or a subscription's validators (JSON {etag, last_modified}).
    cursor: text("cursor"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("connections_user_account_unique").on(t.userId, t.kind, t.accountKey), index("connections_org_idx").on(t.orgId)],
);

// Per IMAP folder: how far the sync got. Advanced in the transaction that writes the rows.
export const connectionFolders = sqliteTable(
  "connection_folders",
  {
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Decimal text (UIDVALIDITY and MODSEQ are 32- and 63-bit unsigned).
    uidValidity: text("uid_validity").notNull(),
    lastUid: integer("last_uid").notNull().default(0),
    highestModseq: text("highest_modseq"),
    // The first backfill (bounded by `since`) is done: later syncs read every new UID.
    backfilled: integer("backfilled", { mode: "boolean" }).notNull().default(false),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.name] })],
);

// Per calendar object (a CalDAV resource, or a subscription's one file): its ETag, and when it
// must be read again because an occurrence of it will have happened by then (a series' next
// instance, a meeting still in the future).
export const connectionItems = sqliteTable(
  "connection_items",
  {
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    href: text("href").notNull(),
    etag: text("etag"),
    dueAt: text("due_at"),
    // A subscription's last body (gzipped, sealed under the server key, bound to the connection):
    // an occurrence that comes due is counted from it after a 304, without downloading it again.
    kept: text("kept"),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.href] }), index("connection_items_due_idx").on(t.connectionId, t.dueAt)],
);

// Attempts to connect a mailbox or calendar (each probes the firm's server with a password): at
// most a few per user in a window, so the form is no password oracle. A successful one is deleted.
export const connectionAttempts = sqliteTable(
  "connection_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    at: text("at").notNull(),
  },
  (t) => [index("connection_attempts_user_idx").on(t.userId, t.at)],
);

// Who asked for the weekly going-stale digest by mail (web app opt-in).
export const digestSubscriptions = sqliteTable("digest_subscriptions", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  lastSentAt: text("last_sent_at"),
  updatedAt: text("updated_at").notNull(),
});
