// Browser sessions of the web app: created at sign-in, found by the cookie's token (stored only
// as a hash), expired by the deps clock (idle and absolute limits), each with its own CSRF token.
// Flash messages (and a new key's secret, shown once) live in memory only, never on disk.
import { and, eq, lt, ne, or, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { orgsService, type User } from "../identity/orgs.service.ts";
import { webSessions } from "./web.tables.ts";
import { constantTimeEqual, randomToken, sha256Hex as sha256 } from "../../lib/tokens.ts";

export { constantTimeEqual, randomToken, sha256Hex as sha256 } from "../../lib/tokens.ts";

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const FLASH_TTL_MS = 10 * 60_000;

export type SessionRecord = typeof webSessions.$inferSelect;
export type SignInMethod = SessionRecord["method"];

export type Flash = {
  kind: "success" | "error" | "info";
  text: string;
  /** A key's secret, shown on the next page and then forgotten. */
  secret?: { keyId: string; name: string; value: string };
};

export const webService = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const orgs = orgsService(deps);
  const flashes = new Map<string, { at: number; items: Flash[] }>();

  const byId = db.select().from(webSessions).where(eq(webSessions.id, sql.placeholder("id"))).prepare();

  function expiresAt(s: Pick<SessionRecord, "createdAt" | "lastSeenAt">): number {
    return Math.min(Date.parse(s.lastSeenAt) + SESSION_IDLE_MS, Date.parse(s.createdAt) + SESSION_ABSOLUTE_MS);
  }

  /** A new session; the token goes into the cookie and is never stored. */
  function createSession(userId: string, method: SignInMethod, userAgent: string | null): { token: string; session: SessionRecord } {
    const token = randomToken();
    const now = clock.now().toISOString();
    const session = db
      .insert(webSessions)
      .values({
        id: sha256(token),
        userId,
        csrfToken: randomToken(),
        method,
        createdAt: now,
        lastSeenAt: now,
        userAgent: userAgent?.slice(0, 300) ?? null,
      })
      .returning()
      .get();
    pruneExpired();
    return { token, session };
  }

  /** The live session a cookie token names, with its user; null when unknown or expired. */
  function resolve(token: string | null | undefined): { session: SessionRecord; user: User } | null {
    if (!token || token.length > 200) return null;
    const session = byId.get({ id: sha256(token) });
    if (!session) return null;
    const now = clock.now().getTime();
    if (now >= expiresAt(session)) {
      db.delete(webSessions).where(eq(webSessions.id, session.id)).run();
      flashes.delete(session.id);
      return null;
    }
    const user = orgs.getUser(session.userId);
    if (!user) return null;
    if (now - Date.parse(session.lastSeenAt) >= TOUCH_EVERY_MS) {
      const lastSeenAt = new Date(now).toISOString();
      db.update(webSessions).set({ lastSeenAt }).where(eq(webSessions.id, session.id)).run();
      session.lastSeenAt = lastSeenAt;
    }
    return { session, user };
  }

  function destroy(sessionId: string): void {
    db.delete(webSessions).where(eq(webSessions.id, sessionId)).run();
    flashes.delete(sessionId);
  }

  /** Ends every other session of the user (after a password change). */
  function destroyOthers(userId: string, keepSessionId: string): void {
    db.delete(webSessions)
      .where(and(eq(webSessions.userId, userId), ne(webSessions.id, keepSessionId)))
      .run();
  }

  function pruneExpired(): void {
    const now = clock.now().getTime();
    db.delete(webSessions)
      .where(
        or(
          lt(webSessions.lastSeenAt, new Date(now - SESSION_IDLE_MS).toISOString()),
          lt(webSessions.createdAt, new Date(now - SESSION_ABSOLUTE_MS).toISOString()),
        ),
      )
      .run();
  }

  function csrfMatches(session: SessionRecord, given: unknown): boolean {
    return typeof given === "string" && given.length > 0 && constantTimeEqual(session.csrfToken, given);
  }

  function pushFlash(sessionId: string, flash: Flash): void {
    const now = clock.now().getTime();
    if (flashes.size > 1000) for (const [id, e] of flashes) if (now - e.at >= FLASH_TTL_MS) flashes.delete(id);
    const entry = flashes.get(sessionId);
    if (entry && now - entry.at < FLASH_TTL_MS) entry.items.push(flash);
    else flashes.set(sessionId, { at: now, items: [flash] });
  }

  /** The session's pending messages, removed as they are read: each is shown once. */
  function takeFlashes(sessionId: string): Flash[] {
    const entry = flashes.get(sessionId);
    flashes.delete(sessionId);
    if (!entry || clock.now().getTime() - entry.at >= FLASH_TTL_MS) return [];
    return entry.items;
  }

  return { createSession, resolve, destroy, destroyOthers, csrfMatches, pushFlash, takeFlashes, expiresAt };
});
