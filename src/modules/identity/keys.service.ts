// One key service that answers with a status (VALID, MISSING, MALFORMED, NOT_FOUND, REVOKED,
// EXPIRED); the HTTP layer decides what each status means for a client.
import { and, desc, eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { columnList } from "../../db/rows.ts";
import { users } from "./orgs.tables.ts";
import { apiKeys } from "./keys.tables.ts";
import { hashSecret, isWellFormed, newSecret } from "./key-secrets.ts";

export type Scope = "read" | "write";

export type VerifiedKey = {
  keyId: string;
  /** Whose daily budgets the key spends: the first key of its rotation chain. */
  budgetOwnerId: string | null;
  scope: Scope;
  userId: string;
  userName: string;
  orgId: string | null;
  dailyRequests: number;
  dailyActions: number;
  /** The rest of what the key resolves to, read in the same lookup (GET /me shows it); absent for a web session. */
  identity?: KeyIdentity;
  /**
   * Set for an MCP sign-in grant standing in for a key (its `keyId` is then the grant's id): the
   * connected app's name as it registered, so refusals can say which app is meant.
   */
  oauthClient?: string;
};

export type KeyIdentity = { record: KeyRecord; userEmail: string; userShareNetwork: boolean; orgName: string | null };

export type KeyStatus =
  | { status: "VALID"; key: VerifiedKey }
  | { status: "MISSING" | "MALFORMED" | "NOT_FOUND" }
  | { status: "REVOKED"; at: string }
  | { status: "EXPIRED"; at: string };

export type KeyRecord = typeof apiKeys.$inferSelect;

export type CreateKeyInput = {
  userId: string;
  scope: Scope;
  name?: string;
  expiresAt?: Date | null;
  dailyRequests?: number | null;
  dailyActions?: number | null;
};

/** What a new key takes over from the key it replaces (rotation): the same budget owner. */
type Succession = { budgetOwnerId: string; rotatedFromId: string };

/** The largest per-key daily budget (requests or actions) an operator may set. */
export const MAX_DAILY_BUDGET = 10_000_000;

export type CreatedKey = { keyId: string; secret: string; key: KeyRecord };

export function keyState(key: Pick<KeyRecord, "revokedAt" | "expiresAt">, now: Date): "active" | "revoked" | "expired" {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt <= now.toISOString()) return "expired";
  return "active";
}

export const apiKeysService = perDeps((deps: Deps) => {
  const { db, clock, config } = deps;

  // The hot path of every authenticated request: one indexed lookup, prepared once, on bun:sqlite
  // directly (drizzle's row mapping was a tenth of a request's cost here). It reads everything the
  // key resolves to, so GET /me needs no second statement.
  const byHash = db.$client.query<KeyRecord & { userName: string; userEmail: string; userShare: number; orgId: string | null; orgName: string | null }, [string]>(
    `SELECT ${columnList(apiKeys, { alias: "k" })},
            u.name AS userName, u.email AS userEmail, u.share_network AS userShare, u.org_id AS orgId, o.name AS orgName
       FROM api_keys k JOIN users u ON u.id = k.user_id LEFT JOIN orgs o ON o.id = u.org_id
      WHERE k.secret_hash = ?`,
  );

  const keyById = db.select().from(apiKeys).where(eq(apiKeys.id, sql.placeholder("id"))).prepare();

  function verify(secret: string | null | undefined): KeyStatus {
    if (!secret) return { status: "MISSING" };
    if (!isWellFormed(secret)) return { status: "MALFORMED" };
    const row = byHash.get(hashSecret(secret));
    if (!row) return { status: "NOT_FOUND" };
    const state = keyState(row, clock.now());
    if (state === "revoked") return { status: "REVOKED", at: row.revokedAt! };
    if (state === "expired") return { status: "EXPIRED", at: row.expiresAt! };
    const { userName, userEmail, userShare, orgId, orgName, ...record } = row;
    return {
      status: "VALID",
      key: {
        keyId: record.id,
        budgetOwnerId: record.budgetOwnerId,
        scope: record.scope,
        userId: record.userId,
        userName,
        orgId,
        dailyRequests: record.dailyRequests ?? config.defaultDailyRequests,
        dailyActions: record.dailyActions ?? config.defaultDailyActions,
        identity: { record, userEmail, userShareNetwork: userShare === 1, orgName },
      },
    };
  }

  function create(input: CreateKeyInput): CreatedKey {
    const user = db.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).get();
    if (!user) throw notFound(`No user with id ${input.userId}`);
    const now = clock.now();
    if (input.expiresAt && input.expiresAt <= now) {
      throw new ApiError(422, [{ loc: ["expires_at"], msg: "Expiry must be in the future", type: "value_error" }]);
    }
    for (const [loc, value] of [["daily_requests", input.dailyRequests], ["daily_actions", input.dailyActions]] as const) {
      if (value != null && !(Number.isSafeInteger(value) && value >= 0 && value <= MAX_DAILY_BUDGET)) {
        throw new ApiError(422, [{ loc: [loc], msg: `Must be a whole number from 0 to ${MAX_DAILY_BUDGET}`, type: "value_error" }]);
      }
    }
    return insertKey(input, now);
  }

  /** A new key row and its secret; the input is checked by the caller (rotation copies a stored key's settings as they are). */
  function insertKey(input: CreateKeyInput, now: Date, succession?: Succession): CreatedKey {
    const { secret, prefix, hash } = newSecret();
    const id = newId();
    const key = db
      .insert(apiKeys)
      .values({
        id,
        userId: input.userId,
        name: input.name?.trim() || `${input.scope} key`,
        prefix,
        secretHash: hash,
        scope: input.scope,
        createdAt: now.toISOString(),
        expiresAt: input.expiresAt?.toISOString() ?? null,
        dailyRequests: input.dailyRequests ?? null,
        dailyActions: input.dailyActions ?? null,
        rotatedFromId: succession?.rotatedFromId ?? null,
        budgetOwnerId: succession?.budgetOwnerId ?? id,
      })
      .returning()
      .get();
    return { keyId: key.id, secret, key };
  }

  function get(keyId: string): KeyRecord | undefined {
    if (!isUuid(keyId)) return undefined;
    return keyById.get({ id: keyId });
  }

  function mustGet(keyId: string): KeyRecord {
    const key = get(keyId);
    if (!key) throw notFound(`No API key with id ${keyId}`);
    return key;
  }

  /** Revocation takes effect on the very next request: verify() reads the row every time. */
  function revoke(keyId: string): KeyRecord {
    const key = mustGet(keyId);
    if (key.revokedAt) return key;
    return db
      .update(apiKeys)
      .set({ revokedAt: clock.now().toISOString() })
      .where(eq(apiKeys.id, keyId))
      .returning()
      .get();
  }

  /**
   * A new key with the same user, scope, name and budgets; the old one keeps working until the
   * overlap ends (or its own earlier expiry), so clients can switch without downtime.
   */
  function rotate(keyId: string, overlapHours: number): CreatedKey & { oldKey: KeyRecord } {
    return db.transaction(() => {
      const old = mustGet(keyId);
      const now = clock.now();
      if (keyState(old, now) !== "active") {
        throw new ApiError(409, `API key ${keyId} is ${keyState(old, now)} and cannot be rotated`);
      }
      const successor = db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.rotatedFromId, keyId)).get();
      if (successor) {
        throw new ApiError(409, `API key ${keyId} was already rotated into ${successor.id}; rotate that key instead`);
      }
      const overlapEnd = new Date(now.getTime() + overlapHours * 3600_000).toISOString();
      const oldExpiry = old.expiresAt && old.expiresAt < overlapEnd ? old.expiresAt : overlapEnd;
      const oldKey = db.update(apiKeys).set({ expiresAt: oldExpiry }).where(eq(apiKeys.id, keyId)).returning().get();
      const created = insertKey(
        {
          userId: old.userId,
          scope: old.scope,
          name: old.name,
          // The new key keeps an expiry the old one had, if it is later than the overlap.
          expiresAt: old.expiresAt && old.expiresAt > overlapEnd ? new Date(old.expiresAt) : null,
          dailyRequests: old.dailyRequests,
          dailyActions: old.dailyActions,
        },
        now,
        // The chain spends one budget: today's usage so far counts for the new key too.
        { rotatedFromId: old.id, budgetOwnerId: old.budgetOwnerId ?? old.id },
      );
      return { ...created, oldKey };
    });
  }

  function listForUser(userId: string): KeyRecord[] {
    return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt)).all();
  }

  /** A key as seen by a principal: only the principal's own user's keys exist for it. */
  function getOwned(userId: string, keyId: string): KeyRecord {
    const key = isUuid(keyId)
      ? db.select().from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId))).get()
      : undefined;
    if (!key) throw notFound("API key not found");
    return key;
  }

  return { verify, create, get, revoke, rotate, listForUser, getOwned };
});
