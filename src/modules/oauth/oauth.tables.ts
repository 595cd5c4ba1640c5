// MCP sign-in (OAuth 2.1): the apps that registered themselves (RFC 7591), the authorization codes
// the consent page hands out, the grants a user allowed (one per app and user at a time), and the
// grants' access and refresh tokens. Codes and tokens are stored only as SHA-256 hashes.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { orgs, users } from "../identity/orgs.tables.ts";

// A public client (no secret: token_endpoint_auth_method "none"), as it registered itself. Its
// name is self-declared and shown as such; its redirect URIs are https or loopback http.
export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  name: text("name"),
  // JSON array of the registered redirect URIs.
  redirectUris: text("redirect_uris").notNull(),
  // The most it registered to ask for ("read" or "write"); null: it said nothing, anything may be asked.
  scope: text("scope", { enum: ["read", "write"] }),
  clientUri: text("client_uri"),
  softwareId: text("software_id"),
  softwareVersion: text("software_version"),
  // The client address it registered from (for an operator's eyes).
  registeredFrom: text("registered_from"),
  createdAt: text("created_at").notNull(),
});

/** What a member allowed an app: which app, which member in which organization, which scope (a code's and a grant's). */
const allowed = () => ({
  clientId: text("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  orgId: text("org_id")
    .notNull()
    .references(() => orgs.id, { onDelete: "cascade" }),
  scope: text("scope", { enum: ["read", "write"] }).notNull(),
});

// One authorization code: single use, 60 seconds, bound to its client, redirect URI, PKCE
// challenge (S256), resource, user, organization and scope. A code used a second time revokes
// the grant it was exchanged for (RFC 6749 section 4.1.2).
export const oauthCodes = sqliteTable(
  "oauth_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    ...allowed(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    resource: text("resource").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    grantId: text("grant_id"),
  },
  (t) => [index("oauth_codes_expires_idx").on(t.expiresAt)],
);

// What a user allowed an app: its scope and audience (this server's /mcp), in the user's
// organization. A sign-in again of the same app replaces the grant (the old one is revoked) and
// continues its daily budgets: `budget_owner_id` is the first grant of the chain (key_usage rows).
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    ...allowed(),
    resource: text("resource").notNull(),
    budgetOwnerId: text("budget_owner_id").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    // Why it ended, in words (the user, an admin, the CLI, the app itself, a reused refresh token or code, a new sign-in).
    revokedReason: text("revoked_reason"),
  },
  (t) => [index("oauth_grants_user_idx").on(t.userId, t.clientId), index("oauth_grants_org_idx").on(t.orgId)],
);

// An access token (1 hour) or a refresh token (rotating: `used_at` is set when it is exchanged,
// and a second exchange revokes the grant) of a grant.
export const oauthTokens = sqliteTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    scope: text("scope", { enum: ["read", "write"] }).notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [index("oauth_tokens_grant_idx").on(t.grantId), index("oauth_tokens_expires_idx").on(t.expiresAt)],
);
