// Who may start a web session: a password (hashed with Bun.password) or a one-time sign-in link
// printed by `dealgraph admin user link` (single use, 15 minutes, stored as a hash). Failed
// password sign-ins are limited per email address.
import { and, count, eq, gt, isNull, lt } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { orgsService, type User } from "../orgs/orgs.service.ts";
import { randomToken, sha256 } from "./web.service.ts";
import { webSignInFailures, webSignInLinks } from "./web.sql.ts";

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;
export const LINK_TTL_MS = 15 * 60_000;
export const FAILURE_WINDOW_MS = 60_000;
export const MAX_FAILURES_PER_WINDOW = 5;
export const LINK_PATH = "/app/sign-in/link";

export type PasswordSignIn =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

export type LinkState = { status: "valid"; user: User } | { status: "unknown" | "used" | "expired" };

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

  function recentFailures(email: string): { n: number; oldest: string | null } {
    const since = new Date(clock.now().getTime() - FAILURE_WINDOW_MS).toISOString();
    const rows = db
      .select({ at: webSignInFailures.at })
      .from(webSignInFailures)
      .where(and(eq(webSignInFailures.email, email), gt(webSignInFailures.at, since)))
      .orderBy(webSignInFailures.at)
      .all();
    return { n: rows.length, oldest: rows[0]?.at ?? null };
  }

  function recordFailure(email: string): void {
    const now = clock.now();
    db.insert(webSignInFailures).values({ email, at: now.toISOString() }).run();
    const old = new Date(now.getTime() - 24 * 3600_000).toISOString();
    db.delete(webSignInFailures).where(lt(webSignInFailures.at, old)).run();
  }

  async function signInWithPassword(emailInput: string, password: string): Promise<PasswordSignIn> {
    const email = emailInput.trim().toLowerCase().slice(0, 320);
    const failures = recentFailures(email);
    if (failures.n >= MAX_FAILURES_PER_WINDOW) {
      const until = Date.parse(failures.oldest!) + FAILURE_WINDOW_MS;
      return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil((until - clock.now().getTime()) / 1000)) };
    }
    const user = email ? orgs.findUserByEmail(email) : undefined;
    const hash = user?.passwordHash ?? (await decoyHash());
    const matches = password.length > 0 && password.length <= MAX_PASSWORD_LENGTH && (await Bun.password.verify(password, hash));
    if (user?.passwordHash && matches) return { ok: true, user };
    recordFailure(email);
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

  /** A new one-time sign-in link token for the user (valid LINK_TTL_MS); only its hash is stored. */
  function issueLink(userId: string): { token: string; expiresAt: string } {
    orgs.mustGetUser(userId);
    const token = randomToken();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS).toISOString();
    db.insert(webSignInLinks).values({ tokenHash: sha256(token), userId, createdAt: now.toISOString(), expiresAt }).run();
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
    return user ? { status: "valid", user } : { status: "unknown" };
  }

  /** Uses the link up, atomically: of two concurrent uses only one succeeds. */
  function consumeLink(token: string): LinkState {
    const state = peekLink(token);
    if (state.status !== "valid") return state;
    const now = clock.now().toISOString();
    const used = db
      .update(webSignInLinks)
      .set({ usedAt: now })
      .where(and(eq(webSignInLinks.tokenHash, sha256(token)), isNull(webSignInLinks.usedAt), gt(webSignInLinks.expiresAt, now)))
      .returning({ userId: webSignInLinks.userId })
      .all();
    return used.length === 1 ? state : { status: "used" };
  }

  function failureCount(email: string): number {
    return db
      .select({ n: count() })
      .from(webSignInFailures)
      .where(eq(webSignInFailures.email, email.trim().toLowerCase()))
      .get()!.n;
  }

  return { signInWithPassword, setPassword, verifyPassword, issueLink, peekLink, consumeLink, failureCount };
});
