// MCP sign-in grants: the codes the consent page hands out, their exchange for tokens (RFC 6749
// section 4.1.3 with PKCE, RFC 7636), refresh with rotation (OAuth 2.1: a refresh token used twice
// revokes its grant), revocation (RFC 7009, the web app, the CLI), and the check of an access token
// at /mcp (bound to its user, organization, scope and the /mcp audience). Every refusal is an
// OAuthError; a refusal that must still change something (a reused code or refresh token revokes
// the grant, a code tried once is used up) commits that change before it is thrown.
import { and, desc, eq, isNull, lt, lte, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { columnList } from "../../db/rows.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { constantTimeEqual, randomToken, sha256Base64url, sha256Hex } from "../../lib/tokens.ts";
import { hashSecret, newSignInToken, signInTokenKind } from "../identity/key-secrets.ts";
import type { VerifiedKey } from "../identity/keys.service.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { sameResource, type AuthorizationRequest } from "./oauth.authorize.ts";
import { clientLabel } from "./oauth.clients.ts";
import { OAuthError } from "./oauth.errors.ts";
import { ACCESS_TOKEN_SECONDS, CODE_SECONDS, mcpResource, REFRESH_TOKEN_DAYS } from "./oauth.metadata.ts";
import { parseScope, scopeString, scopeWithin, type GrantScope } from "./oauth.scope.ts";
import { oauthClients, oauthCodes, oauthGrants, oauthTokens } from "./oauth.tables.ts";

export type GrantRecord = typeof oauthGrants.$inferSelect;
export type GrantRow = GrantRecord & { clientName: string | null; userName: string; userEmail: string };

export type TokenResponse = { access_token: string; token_type: "Bearer"; expires_in: number; refresh_token: string; scope: string };

export type CodeExchange = { clientId: string; code: string; codeVerifier: string; redirectUri: string | null; resource: string | null };
export type RefreshExchange = { clientId: string; refreshToken: string; scope: string | null; resource: string | null };

export type AccessCheck = { status: "VALID"; key: VerifiedKey } | { status: "REFUSED"; detail: string };

const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
const DAY_MS = 86_400_000;
/** A client that registered but never completed a grant is removed this long after registering. */
const UNUSED_CLIENT_DAYS = 1;

/** Why a grant ended, in words shown to people. */
export const REVOKED_BECAUSE = {
  user: "revoked by its user",
  admin: "revoked by an administrator",
  cli: "revoked from the command line",
  client: "revoked by the app itself",
  replaced: "replaced by a new sign-in of the same app",
  refreshReused: "a refresh token was used twice (a sign of a stolen token)",
  codeReused: "its authorization code was used twice (a sign of a stolen code)",
} as const;

const grantError = (description: string) => new OAuthError("invalid_grant", description);

export const oauthService = perDeps((deps: Deps) => {
  const { db, clock, config } = deps;
  const sqlite = db.$client;
  const orgs = orgsService(deps);
  const iso = (ms: number) => new Date(ms).toISOString();

  // The check of every /mcp request that carries an access token: one indexed lookup, prepared once.
  const accessByHash = sqlite.query<
    { scope: GrantScope; expiresAt: string; grantId: string; budgetOwnerId: string; revokedAt: string | null; resource: string; grantOrg: string; userId: string; userName: string; userOrg: string | null; clientName: string | null },
    [string]
  >(
    `SELECT t.scope, t.expires_at AS expiresAt, g.id AS grantId, g.budget_owner_id AS budgetOwnerId, g.revoked_at AS revokedAt, g.resource,
            g.org_id AS grantOrg, g.user_id AS userId, u.name AS userName, u.org_id AS userOrg, c.name AS clientName
       FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN users u ON u.id = g.user_id JOIN oauth_clients c ON c.id = g.client_id
      WHERE t.token_hash = ? AND t.kind = 'access'`,
  );
  const tokenByHash = db
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.tokenHash, sql.placeholder("hash")))
    .prepare();
  const codeByHash = db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, sql.placeholder("hash"))).prepare();

  /** A code for an allowed request (scope: what the person allowed, at most what was asked). */
  function issueCode(request: AuthorizationRequest, userId: string, orgId: string, scope: GrantScope): string {
    const code = randomToken(32);
    const now = clock.now().getTime();
    db.insert(oauthCodes)
      .values({
        codeHash: sha256Hex(code),
        clientId: request.client.id,
        userId,
        orgId,
        scope: scopeWithin(scope, request.scope) ? scope : request.scope,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        resource: request.resource,
        createdAt: iso(now),
        expiresAt: iso(now + CODE_SECONDS * 1000),
      })
      .run();
    return code;
  }

  /** A new access token and refresh token of a grant (inside the caller's transaction). */
  function issueTokens(grantId: string, accessScope: GrantScope, refreshScope: GrantScope): TokenResponse {
    const now = clock.now().getTime();
    const access = newSignInToken("access");
    const refresh = newSignInToken("refresh");
    db.insert(oauthTokens)
      .values([
        { tokenHash: access.hash, grantId, kind: "access", scope: accessScope, createdAt: iso(now), expiresAt: iso(now + ACCESS_TOKEN_SECONDS * 1000) },
        { tokenHash: refresh.hash, grantId, kind: "refresh", scope: refreshScope, createdAt: iso(now), expiresAt: iso(now + REFRESH_TOKEN_DAYS * DAY_MS) },
      ])
      .run();
    return { access_token: access.token, token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh.token, scope: scopeString(accessScope) };
  }

  function revokeGrantRow(grantId: string, reason: string): GrantRecord | undefined {
    return db
      .update(oauthGrants)
      .set({ revokedAt: clock.now().toISOString(), revokedReason: reason })
      .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)))
      .returning()
      .get();
  }

  /** Whether the user is still a member of the organization a code or grant is for. */
  const stillMember = (userId: string, orgId: string) => orgs.getUser(userId)?.orgId === orgId;

  /**
   * Runs `step` in one IMMEDIATE transaction and commits whatever it wrote, also when it ends in a
   * refusal (returned, then thrown here): a code tried once stays used, a reuse stays revoked.
   */
  function committed<T>(step: () => T | OAuthError): T {
    const result = sqlite.transaction(step).immediate();
    if (result instanceof OAuthError) throw result;
    return result;
  }

  /** The authorization_code grant (RFC 6749 section 4.1.3, RFC 7636 section 4.6, RFC 8707). */
  function exchangeCode(p: CodeExchange): TokenResponse {
    if (!VERIFIER_SHAPE.test(p.codeVerifier)) throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_' and '~' (RFC 7636)");
    return committed(() => {
      const code = codeByHash.get({ hash: sha256Hex(p.code) });
      if (!code) return grantError("the authorization code is not one this server issued (or it was removed after expiry)");
      if (code.clientId !== p.clientId) return grantError("the authorization code was issued to another client");
      if (code.usedAt) {
        if (code.grantId) revokeGrantRow(code.grantId, REVOKED_BECAUSE.codeReused);
        return grantError("the authorization code was already used; the tokens issued for it are revoked");
      }
      // Single use: from here on the code is spent, whatever the outcome.
      db.update(oauthCodes).set({ usedAt: clock.now().toISOString() }).where(eq(oauthCodes.codeHash, code.codeHash)).run();
      if (code.expiresAt <= clock.now().toISOString()) return grantError(`the authorization code expired (codes are valid for ${CODE_SECONDS} seconds): sign in again`);
      if (p.redirectUri !== null && p.redirectUri !== code.redirectUri) return grantError("redirect_uri is not the one the authorization request used");
      if (!constantTimeEqual(sha256Base64url(p.codeVerifier), code.codeChallenge)) return grantError("code_verifier does not match the code_challenge (S256)");
      if (p.resource !== null && !sameResource(p.resource, code.resource)) return new OAuthError("invalid_target", `this code is for ${code.resource} only`);
      if (!stillMember(code.userId, code.orgId)) return grantError("the user who allowed this is no longer a member of that organization");

      // A sign-in again of the same app replaces its grant and continues its budget (like a key's rotation).
      const previous = db
        .select()
        .from(oauthGrants)
        .where(and(eq(oauthGrants.userId, code.userId), eq(oauthGrants.clientId, code.clientId), isNull(oauthGrants.revokedAt)))
        .orderBy(desc(oauthGrants.createdAt))
        .all();
      for (const g of previous) revokeGrantRow(g.id, REVOKED_BECAUSE.replaced);
      const grantId = newId();
      db.insert(oauthGrants)
        .values({
          id: grantId,
          clientId: code.clientId,
          userId: code.userId,
          orgId: code.orgId,
          scope: code.scope,
          resource: code.resource,
          budgetOwnerId: previous[0]?.budgetOwnerId ?? grantId,
          createdAt: clock.now().toISOString(),
        })
        .run();
      db.update(oauthCodes).set({ grantId }).where(eq(oauthCodes.codeHash, code.codeHash)).run();
      return issueTokens(grantId, code.scope, code.scope);
    });
  }

  /** The refresh_token grant, rotating (OAuth 2.1 section 4.3.1): the old refresh token is spent; its second use revokes the grant. */
  function refresh(p: RefreshExchange): TokenResponse {
    const asked = p.scope === null ? null : parseScope(p.scope);
    if (asked && !asked.ok) throw new OAuthError("invalid_scope", asked.problem);
    if (signInTokenKind(p.refreshToken) !== "refresh") throw grantError("refresh_token is not a refresh token this server issued");
    return committed(() => {
      const found = tokenByHash.get({ hash: hashSecret(p.refreshToken) });
      if (!found || found.token.kind !== "refresh") return grantError("refresh_token is not a refresh token this server issued (or it was removed after expiry)");
      const { token, grant } = found;
      if (grant.clientId !== p.clientId) return grantError("the refresh token was issued to another client");
      if (grant.revokedAt) return grantError(`this app's access was revoked at ${grant.revokedAt} (${grant.revokedReason ?? "revoked"}): sign in again`);
      if (token.usedAt) {
        revokeGrantRow(grant.id, REVOKED_BECAUSE.refreshReused);
        return grantError("the refresh token was already used; the grant is revoked: sign in again");
      }
      if (token.expiresAt <= clock.now().toISOString()) return grantError(`the refresh token expired at ${token.expiresAt}: sign in again`);
      if (p.resource !== null && !sameResource(p.resource, grant.resource)) return new OAuthError("invalid_target", `this grant is for ${grant.resource} only`);
      if (asked?.ok && !scopeWithin(asked.scope, token.scope)) return new OAuthError("invalid_scope", `this grant allows ${scopeString(token.scope)} only`);
      if (!stillMember(grant.userId, grant.orgId)) {
        revokeGrantRow(grant.id, "its user left the organization");
        return grantError("the user who allowed this is no longer a member of that organization");
      }
      db.update(oauthTokens).set({ usedAt: clock.now().toISOString() }).where(eq(oauthTokens.tokenHash, token.tokenHash)).run();
      return issueTokens(grant.id, asked?.ok ? asked.scope : token.scope, token.scope);
    });
  }

  /**
   * RFC 7009: revoking either token of a grant revokes the grant (its access and refresh tokens).
   * A token this server does not know is fine (200); one of another client is refused.
   */
  function revokeToken(token: string, clientId: string): void {
    if (!signInTokenKind(token)) return;
    const found = tokenByHash.get({ hash: hashSecret(token) });
    if (!found) return;
    if (found.grant.clientId !== clientId) throw new OAuthError("unauthorized_client", "this token was not issued to this client");
    revokeGrantRow(found.grant.id, REVOKED_BECAUSE.client);
  }

  /**
   * The principal an access token stands for at this server's /mcp (`base`: its public base URL),
   * a refusal in words, or null when the secret is no MCP sign-in token at all.
   */
  function verifyAccess(secret: string, base: string): AccessCheck | null {
    const kind = signInTokenKind(secret);
    if (!kind) return null;
    const refused = (why: string): AccessCheck => ({ status: "REFUSED", detail: `Invalid or revoked access token: ${why}.` });
    if (kind === "refresh") return refused("this is a refresh token; exchange it at the token endpoint (/oauth/token) for an access token");
    const row = accessByHash.get(hashSecret(secret));
    if (!row) return refused("it is not one this server issued (or it was removed after expiry)");
    if (row.revokedAt) return refused(`this app's access was revoked at ${row.revokedAt}`);
    if (row.expiresAt <= clock.now().toISOString()) return refused(`it expired at ${row.expiresAt} (access tokens live ${ACCESS_TOKEN_SECONDS / 60} minutes): refresh it`);
    const ours = mcpResource(base);
    if (row.resource !== ours) return refused(`it was issued for ${row.resource}, not for this server's ${ours}`);
    if (row.userOrg !== row.grantOrg) return refused("its user is no longer a member of the organization the app was allowed for");
    return {
      status: "VALID",
      key: {
        keyId: row.grantId,
        budgetOwnerId: row.budgetOwnerId,
        scope: row.scope,
        userId: row.userId,
        userName: row.userName,
        orgId: row.grantOrg,
        dailyRequests: config.defaultDailyRequests,
        dailyActions: config.defaultDailyActions,
        oauthClient: clientLabel({ name: row.clientName }),
      },
    };
  }

  // Grants with the names people know them by (the app's, the user's), for listings.
  const GRANT_ROWS = `SELECT ${columnList(oauthGrants, { alias: "g" })}, c.name AS clientName, u.name AS userName, u.email AS userEmail
       FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id JOIN users u ON u.id = g.user_id`;
  const grantById = sqlite.query<GrantRow, [string]>(`${GRANT_ROWS} WHERE g.id = ?`);
  const grantsWhere = sqlite.query<GrantRow, { user: string | null; org: string | null; since: string | null }>(
    `${GRANT_ROWS} WHERE ($user IS NULL OR g.user_id = $user) AND ($org IS NULL OR g.org_id = $org) AND ($since IS NULL OR g.revoked_at IS NULL OR g.revoked_at > $since)
      ORDER BY g.created_at DESC, g.id DESC`,
  );

  /** The user's active grant of a client, if any (the consent page may skip the question for the same scope). */
  function activeGrant(userId: string, clientId: string): GrantRecord | null {
    return (
      db
        .select()
        .from(oauthGrants)
        .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.clientId, clientId), isNull(oauthGrants.revokedAt)))
        .orderBy(desc(oauthGrants.createdAt))
        .get() ?? null
    );
  }

  /** Grants, newest first: the active ones and those that ended within `recentDays` (all: null). */
  function list(where: { userId?: string; orgId?: string }, recentDays: number | null): GrantRow[] {
    const since = recentDays === null ? null : iso(clock.now().getTime() - recentDays * DAY_MS);
    return grantsWhere.all({ user: where.userId ?? null, org: where.orgId ?? null, since });
  }

  function get(grantId: string): GrantRow | null {
    return isUuid(grantId) ? (grantById.get(grantId.toLowerCase()) ?? null) : null;
  }

  /** Ends a grant now: its next request is refused. Revoking a revoked grant changes nothing. */
  function revokeGrant(grantId: string, reason: string): GrantRow | null {
    const grant = get(grantId);
    if (!grant) return null;
    revokeGrantRow(grant.id, reason);
    return get(grant.id);
  }

  /**
   * Drops codes and tokens a day past their expiry (a used refresh token is kept until then, so its
   * reuse is still caught), and clients that registered a day ago or more and never completed a
   * grant (no grant, and no code still usable: a client in the middle of signing in stays).
   */
  function pruneExpired(): { codes: number; tokens: number; clients: number } {
    const cutoff = iso(clock.now().getTime() - DAY_MS);
    const codes = db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, cutoff)).returning({ h: oauthCodes.codeHash }).all().length;
    const tokens = db.delete(oauthTokens).where(lt(oauthTokens.expiresAt, cutoff)).returning({ h: oauthTokens.tokenHash }).all().length;
    const unusedSince = iso(clock.now().getTime() - UNUSED_CLIENT_DAYS * DAY_MS);
    const clients = db
      .delete(oauthClients)
      .where(
        and(
          lte(oauthClients.createdAt, unusedSince),
          sql`NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = ${oauthClients.id})`,
          sql`NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.client_id = ${oauthClients.id} AND c.expires_at > ${iso(clock.now().getTime())})`,
        ),
      )
      .returning({ id: oauthClients.id })
      .all().length;
    return { codes, tokens, clients };
  }

  return { issueCode, exchangeCode, refresh, revokeToken, verifyAccess, activeGrant, list, get, revokeGrant, pruneExpired };
});

