// Keeping in touch: declared cadences (set by the user), learned ones (the nightly job), snoozes,
// and the going-stale list they produce.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { ApiError, invalid } from "../../http/errors.ts";
import { parseDateOrTimestamp } from "../../lib/dates.ts";
import { normalizeEmail } from "./network.identity.ts";

export type StaleSignal = {
  contact_id: string;
  name: string;
  email: string | null;
  days_since_last_touch: number;
  effective_cadence_days: number;
  source: "declared" | "learned";
  last_touch_at: string;
};

type StaleRow = StaleSignal & { total: number };

/** The instant a snooze ends: a real calendar day (UTC midnight) or a zoned ISO time; null otherwise (2026-02-31 too). */
export function snoozeUntil(until: string): string | null {
  return parseDateOrTimestamp(until)?.toISOString() ?? null;
}

export const networkSignals = perDeps((deps: Deps) => {
  const { db, clock } = deps;

  // Whole days (floor) since the last touch, compared strictly with the effective cadence;
  // ordered by how overdue each is relative to its own cadence.
  const stale = db.$client.query<StaleRow, { me: string; now: string; take: number }>(
    `WITH candidates AS (
       SELECT r.person_id AS contact_id, r.seq,
              (SELECT e.email FROM person_emails e WHERE e.person_id = r.person_id ORDER BY e.email LIMIT 1) AS email,
              p.display_name,
              (unixepoch($now) - unixepoch(r.last_touch_at)) / 86400 AS days_since_last_touch,
              COALESCE(r.declared_cadence_days, r.learned_cadence_days) AS effective_cadence_days,
              CASE WHEN r.declared_cadence_days IS NOT NULL THEN 'declared' ELSE 'learned' END AS source,
              r.last_touch_at
       FROM relationships r JOIN persons p ON p.id = r.person_id
       WHERE r.user_id = $me AND r.last_touch_at IS NOT NULL
         AND COALESCE(r.declared_cadence_days, r.learned_cadence_days) IS NOT NULL
         AND (r.snoozed_until IS NULL OR r.snoozed_until <= $now)
     )
     SELECT contact_id, COALESCE(display_name, email) AS name, email, days_since_last_touch,
            effective_cadence_days, source, last_touch_at, COUNT(*) OVER () AS total
     FROM candidates
     WHERE days_since_last_touch > effective_cadence_days
     ORDER BY CAST(days_since_last_touch AS REAL) / effective_cadence_days DESC, seq
     LIMIT $take`,
  );
  const staleCount = db.$client.query<{ n: number }, { me: string; now: string }>(
    `SELECT COUNT(*) AS n FROM relationships r
     WHERE r.user_id = $me AND r.last_touch_at IS NOT NULL
       AND COALESCE(r.declared_cadence_days, r.learned_cadence_days) IS NOT NULL
       AND (r.snoozed_until IS NULL OR r.snoozed_until <= $now)
       AND (unixepoch($now) - unixepoch(r.last_touch_at)) / 86400 > COALESCE(r.declared_cadence_days, r.learned_cadence_days)`,
  );

  function goingStale(principal: Principal, limit: number) {
    return goingStaleOf(principal.userId, limit);
  }

  /** A user's going-stale list (the endpoint's, and the weekly digest's). */
  function goingStaleOf(userId: string, limit: number) {
    const now = clock.now().toISOString();
    const rows = stale.all({ me: userId, now, take: limit });
    const total = rows.length ? rows[0].total : staleCount.get({ me: userId, now })!.n;
    return {
      scope: "key_user" as const,
      signals: rows.map(({ total: _, ...s }) => s),
      total,
      as_of: now,
    };
  }

  /** The user's relationship with the person behind an address (in the user's organization). */
  function relationshipFor(userId: string, contactEmail: string): { seq: number } {
    const email = normalizeEmail(contactEmail);
    if (!email) throw invalid(["contact"], `Not an email address: ${contactEmail}`);
    const user = db.$client.query<{ org_id: string | null }, [string]>("SELECT org_id FROM users WHERE id = ?").get(userId);
    if (!user) throw new ApiError(404, `No user with id ${userId}`);
    const rel = db.$client
      .query<{ seq: number }, [string, string, string]>(
        `SELECT r.seq FROM relationships r JOIN person_emails e ON e.person_id = r.person_id
         WHERE r.user_id = ? AND e.org_id = ? AND e.email = ?`,
      )
      .get(userId, user.org_id ?? "", email);
    if (!rel) throw new ApiError(404, `No relationship between user ${userId} and ${email}: import their mail, calendar or contacts first`);
    return rel;
  }

  /** Declares a keep-in-touch cadence in days; 0 clears it (the learned one applies again). */
  function declareCadence(userId: string, contactEmail: string, days: number) {
    if (!Number.isInteger(days) || days < 0 || days > 3650) throw invalid(["days"], "Cadence must be a whole number of days from 0 to 3650");
    const rel = relationshipFor(userId, contactEmail);
    db.$client
      .query("UPDATE relationships SET declared_cadence_days = ?, updated_at = ? WHERE seq = ?")
      .run(days === 0 ? null : days, clock.now().toISOString(), rel.seq);
    return { declared_cadence_days: days === 0 ? null : days };
  }

  /** Hides the relationship from going-stale until the given day (UTC midnight) or ISO 8601 time. */
  function snooze(userId: string, contactEmail: string, until: string) {
    const at = snoozeUntil(until);
    if (!at) throw invalid(["until"], `Not a date: ${JSON.stringify(until)} (give a calendar day YYYY-MM-DD, or an ISO 8601 time with a zone)`);
    const rel = relationshipFor(userId, contactEmail);
    db.$client.query("UPDATE relationships SET snoozed_until = ?, updated_at = ? WHERE seq = ?").run(at, clock.now().toISOString(), rel.seq);
    return { snoozed_until: at };
  }

  return { goingStale, goingStaleOf, declareCadence, snooze };
});
