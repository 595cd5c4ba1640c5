// Organizations and their users. Identity is resolved server-side from a key; nothing here
// ever takes a user or organization from a client.
import { eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { ianaZone } from "../../lib/icalendar-zones.ts";
import { orgs, users } from "./orgs.tables.ts";

export type Org = typeof orgs.$inferSelect;
export type User = typeof users.$inferSelect;

export type CreateUserInput = {
  orgId: string | null;
  email: string;
  name: string;
  shareNetwork?: boolean;
  isAdmin?: boolean;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An IANA zone name Intl knows (`Area/City`, or UTC); offsets and abbreviations are not names. */
export const isTimeZoneName = (name: string) => name === "UTC" || (/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(name) && ianaZone(name) !== null);

export const orgsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const orgById = db.select().from(orgs).where(eq(orgs.id, sql.placeholder("id"))).prepare();
  const userById = db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare();

  function createOrg(name: string): Org {
    const clean = name.trim();
    if (!clean) throw new ApiError(422, [{ loc: ["name"], msg: "Organization name must not be empty", type: "string_too_short" }]);
    return db.insert(orgs).values({ id: newId(), name: clean, createdAt: clock.now().toISOString() }).returning().get();
  }

  /** True when the database holds no organization yet (a fresh data dir). */
  function isEmpty(): boolean {
    return !db.select({ id: orgs.id }).from(orgs).limit(1).get();
  }

  function getOrg(orgId: string): Org | undefined {
    if (!isUuid(orgId)) return undefined;
    return orgById.get({ id: orgId });
  }

  function createUser(input: CreateUserInput): User {
    const email = input.email.trim().toLowerCase();
    const name = input.name.trim();
    if (!EMAIL.test(email)) throw new ApiError(422, [{ loc: ["email"], msg: `Not an email address: ${input.email}`, type: "value_error" }]);
    if (!name) throw new ApiError(422, [{ loc: ["name"], msg: "User name must not be empty", type: "string_too_short" }]);
    if (input.orgId !== null && !getOrg(input.orgId)) throw notFound(`No organization with id ${input.orgId}`);
    const taken = db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).get();
    if (taken) throw new ApiError(409, `A user with email ${email} already exists`);
    return db
      .insert(users)
      .values({
        id: newId(),
        orgId: input.orgId,
        email,
        name,
        shareNetwork: input.shareNetwork ?? false,
        isAdmin: input.isAdmin ?? false,
        createdAt: clock.now().toISOString(),
      })
      .returning()
      .get();
  }

  function getUser(userId: string): User | undefined {
    if (!isUuid(userId)) return undefined;
    return userById.get({ id: userId });
  }

  function mustGetUser(userId: string): User {
    const user = getUser(userId);
    if (!user) throw notFound(`No user with id ${userId}`);
    return user;
  }

  function setSharing(userId: string, share: boolean): User {
    mustGetUser(userId);
    return db.update(users).set({ shareNetwork: share }).where(eq(users.id, userId)).returning().get();
  }

  /** The server operator's role (backups in the web app): the CLI's to give, never an org admin's. */
  function setOperator(userId: string, on: boolean): User {
    mustGetUser(userId);
    return db.update(users).set({ isOperator: on }).where(eq(users.id, userId)).returning().get();
  }

  /** The IANA zone (e.g. Europe/Paris) the user's floating calendar times are read in; null clears it (UTC). */
  function setTimeZone(userId: string, zone: string | null): User {
    const clean = zone?.trim() || null;
    if (clean !== null && !isTimeZoneName(clean)) {
      throw new ApiError(422, [{ loc: ["time_zone"], msg: `${JSON.stringify(clean.slice(0, 60))} is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)`, type: "value_error" }]);
    }
    mustGetUser(userId);
    return db.update(users).set({ timeZone: clean }).where(eq(users.id, userId)).returning().get();
  }

  /** The user with this address (case-insensitive), if any. */
  function findUserByEmail(email: string): User | undefined {
    return db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).get();
  }

  /** Stores a password hash (made by the caller, e.g. with Bun.password); null removes it. */
  function setPasswordHash(userId: string, hash: string | null): User {
    mustGetUser(userId);
    return db.update(users).set({ passwordHash: hash }).where(eq(users.id, userId)).returning().get();
  }

  /** An organization's users, by name. */
  function listMembers(orgId: string): User[] {
    return db.select().from(users).where(eq(users.orgId, orgId)).orderBy(sql`lower(${users.name})`).all();
  }

  /** An organization's users in the order they joined (the first is the one who set it up). */
  function membersInJoinOrder(orgId: string): User[] {
    return db.select().from(users).where(eq(users.orgId, orgId)).orderBy(users.createdAt, sql`rowid`).all();
  }

  return {
    createOrg,
    isEmpty,
    getOrg,
    createUser,
    getUser,
    mustGetUser,
    setSharing,
    setOperator,
    setTimeZone,
    findUserByEmail,
    setPasswordHash,
    listMembers,
    membersInJoinOrder,
  };
});
