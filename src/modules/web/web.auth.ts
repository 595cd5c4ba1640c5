// Who may start a web session: a password (hashed with Bun.password) or a one-time sign-in link
// printed by `dealgraph admin user link` (single use, 15 minutes, stored as a hash). Failed
// password sign-ins are limited per email address and per client address.
import { and, count, eq, gt, isNull, lt } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { orgsService, type User } from "../identity/orgs.service.ts";
import { randomToken, sha256 } from "./web.service.ts";
import { webSignInFailures, webSignInLinks } from "./web.tables.ts";

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;
export const LINK_TTL_MS = 15 * 60_000;
export const FAILURE_WINDOW_MS = 60_000;
export const MAX_FAILURES_PER_WINDOW = 5;
/** Failures per client address per window, across every email: against password spraying. */
export const MAX_FAILURES_PER_ADDRESS = 20;
/** Failures are kept a day (the limits look back a minute; the rest is for an operator's eyes). */
export const FAILURE_RETENTION_MS = 24 * 3600_000;
export const LINK_PATH = "/app/sign-in/link";
/** A sign-in link for a token, at the address people reach the server at. */
export const signInUrl = (base: string, token: string) => `${base}${LINK_PATH}?token=${encodeURIComponent(token)}`;
/** The expiry of a reusable (demo) link: none in practice. */
const REUSABLE_EXPIRY = "9999-12-31T23:59:59.999Z";

export type PasswordSignIn =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate_limited"; by: "email" | "address"; retryAfterSeconds: number };

export type LinkState = { status: "valid"; user: User; reusable: boolean } | { status: "unknown" | "used" | "expired" };

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  if (password.trim() === "") return "The password must not be only spaces.";
  return null;
}

export const webAuth = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const orgs = orgsService(deps);
  // Unknown addresses cost as much as known ones: a verify against a hash of nothing in particular.
  let decoy: Promise<string> | null = null;
  const decoyHash = () => (decoy ??= Bun.password.hash(randomToken()));

  type Reservation = { id: number } | { refusedBy: "email" | "address"; retryAfterSeconds: number };

  /** Seconds until the oldest of the last `max` attempts leaves the window. */
  function secondsUntilFree(ats: string[], max: number, now: number): number {
    const until = Date.parse(ats[ats.length - max]) + FAILURE_WINDOW_MS;
    return Math.max(1, Math.ceil((until - now) / 1000));
  }

  /**
   * Books an attempt before its password is checked: the row counts as a failure from now on and
   * is deleted only if the password proves right. Check and insert are one IMMEDIATE transaction,
   * so concurrent attempts (also from other processes) cannot all pass the check before any of
   * them is recorded: at most MAX_FAILURES_PER_WINDOW passwords per email per window are verified.
   */
  function reserveAttempt(email: string, clientAddress: string | null): Reservation {
    return db.$client
      .transaction((): Reservation => {
        const now = clock.now().getTime();
        const since = new Date(now - FAILURE_WINDOW_MS).toISOString();
        const recent = (where: ReturnType<typeof eq>) =>
          db.select({ at: webSignInFailures.at }).from(webSignInFailures).where(and(where, gt(webSignInFailures.at, since))).orderBy(webSignInFailures.at).all().map((r) => r.at);
        const byEmail = recent(eq(webSignInFailures.email, email));
        if (byEmail.length >= MAX_FAILURES_PER_WINDOW) {
          return { refusedBy: "email", retryAfterSeconds: secondsUntilFree(byEmail, MAX_FAILURES_PER_WINDOW, now) };
        }
        if (clientAddress) {
          const byAddress = recent(eq(webSignInFailures.clientAddress, clientAddress));
          if (byAddress.length >= MAX_FAILURES_PER_ADDRESS) {
            return { refusedBy: "address", retryAfterSeconds: secondsUntilFree(byAddress, MAX_FAILURES_PER_ADDRESS, now) };
          }
        }
        const { id } = db
          .insert(webSignInFailures)
          .values({ email, clientAddress, at: new Date(now).toISOString() })
          .returning({ id: webSignInFailures.id })
          .get();
        return { id };
      })
      .immediate();
  }

  /**
   * @param clientAddress the client's address (null when unknown): the connection's, or behind a
   *   trusted proxy the one X-Forwarded-For names (http/client-address.ts). Besides the per-email
   *   limit, one address may fail MAX_FAILURES_PER_ADDRESS times a window, across all emails.
   */
  async function signInWithPassword(emailInput: string, password: string, clientAddress: string | null = null): Promise<PasswordSignIn> {
    const email = emailInput.trim().toLowerCase().slice(0, 320);
    const reserved = reserveAttempt(email, clientAddress);
    if ("refusedBy" in reserved) return { ok: false, reason: "rate_limited", by: reserved.refusedBy, retryAfterSeconds: reserved.retryAfterSeconds };
    const user = email ? orgs.findUserByEmail(email) : undefined;
    const hash = user?.passwordHash ?? (await decoyHash());
    const matches = password.length > 0 && password.length <= MAX_PASSWORD_LENGTH && (await Bun.password.verify(password, hash));
    if (user?.passwordHash && matches) {
      db.delete(webSignInFailures).where(eq(webSignInFailures.id, reserved.id)).run();
      return { ok: true, user };
    }
    return { ok: false, reason: "invalid" };
  }

  /** Sets (or replaces) a user's password; refuses one that is too short. */
  async function setPassword(userId: string, password: string): Promise<User> {
    orgs.mustGetUser(userId);
    const problem = passwordProblem(password);
    if (problem) throw new ApiError(422, [{ loc: ["password"], msg: problem, type: "value_error" }]);
    return orgs.setPasswordHash(userId, await Bun.password.hash(password));
  }

  async function verifyPassword(user: User, password: string): Promise<boolean> {
    if (!user.passwordHash || !password || password.length > MAX_PASSWORD_LENGTH) return false;
    return Bun.password.verify(password, user.passwordHash);
  }

  /**
   * A new one-time sign-in link token for the user (valid LINK_TTL_MS); only its hash is stored.
   * `reusable` is for the demo's link only (`dealgraph demo` on the data dir it built): it never
   * expires and is not used up, like the demo keys it is printed beside.
   */
  function issueLink(userId: string, opts: { reusable?: boolean } = {}): { token: string; expiresAt: string } {
    orgs.mustGetUser(userId);
    const token = randomToken();
    const now = clock.now();
    const expiresAt = opts.reusable ? REUSABLE_EXPIRY : new Date(now.getTime() + LINK_TTL_MS).toISOString();
    db.insert(webSignInLinks).values({ tokenHash: sha256(token), userId, createdAt: now.toISOString(), expiresAt, reusable: opts.reusable ?? false }).run();
    db.delete(webSignInLinks).where(lt(webSignInLinks.expiresAt, new Date(now.getTime() - 7 * 24 * 3600_000).toISOString())).run();
    return { token, expiresAt };
  }

  function linkRow(token: string) {
    if (!token || token.length > 200) return undefined;
    return db.select().from(webSignInLinks).where(eq(webSignInLinks.tokenHash, sha256(token))).get();
  }

  /** What a link token is worth now, without using it up. */
  function peekLink(token: string): LinkState {
    const row = linkRow(token);
    if (!row) return { status: "unknown" };
    if (row.usedAt) return { status: "used" };
    if (row.expiresAt <= clock.now().toISOString()) return { status: "expired" };
    const user = orgs.getUser(row.userId);
    return user ? { status: "valid", user, reusable: row.reusable } : { status: "unknown" };
  }

  /** Uses the link up, atomically: of two concurrent uses only one succeeds. */
  function consumeLink(token: string): LinkState {
    const state = peekLink(token);
    if (state.status !== "valid") return state;
    if (state.reusable) return state;
    const now = clock.now().toISOString();
    const used = db
      .update(webSignInLinks)
      .set({ usedAt: now })
      .where(and(eq(webSignInLinks.tokenHash, sha256(token)), isNull(webSignInLinks.usedAt), gt(webSignInLinks.expiresAt, now)))
      .returning({ userId: webSignInLinks.userId })
      .all();
    return used.length === 1 ? state : { status: "used" };
  }

  /**
   * Drops recorded failures older than FAILURE_RETENTION_MS (the nightly key-usage-prune job):
   * not on each attempt, where it would scan the table inside the sign-in's write lock.
   */
  function pruneFailures(): number {
    const before = new Date(clock.now().getTime() - FAILURE_RETENTION_MS).toISOString();
    return db.delete(webSignInFailures).where(lt(webSignInFailures.at, before)).returning({ id: webSignInFailures.id }).all().length;
  }

  function failureCount(email: string): number {
    return db
      .select({ n: count() })
      .from(webSignInFailures)
      .where(eq(webSignInFailures.email, email.trim().toLowerCase()))
      .get()!.n;
  }

  return { signInWithPassword, setPassword, verifyPassword, issueLink, peekLink, consumeLink, failureCount, pruneFailures };
});
