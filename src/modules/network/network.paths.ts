// Turning stored relationships into the spec's contact paths: the pool a key may see (its own user
// plus teammates who opted into sharing), the scores at the clock's now, and the row shape.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import type { SqlRowOf } from "../../db/rows.ts";
import { linkedinUrl } from "./network.identity.ts";
import type { PersonRow } from "./network.queries.ts";
import { ACTIVITY_HALF_LIFE_DAYS, label, signals, strength, warmth, type Aggregates } from "./network.scoring.ts";
import type { relationships } from "./network.tables.ts";

/** A relationship's row as `SELECT *` reads it. */
export type RelationshipRow = SqlRowOf<typeof relationships>;

/** A relationship joined to its person and owner, as the path queries select it. */
export type PathRow = Pick<
  RelationshipRow,
  "seq" | "person_id" | "first_touch_at" | "last_touch_at" | "last_touch_direction" | "sent_count" | "received_count" | "meeting_count" | "decayed_score" | "score_at"
> &
  Pick<PersonRow, "display_name" | "title" | "domain" | "linkedin_url" | "location"> & { email: string | null; owner_id: string; owner_name: string };

/** The columns every path query selects; `pool` must be the relationships alias `r`, persons `p`, users `u`. */
export const PATH_COLUMNS = `r.seq, r.person_id, p.display_name, p.title, p.domain, p.linkedin_url, p.location,
  (SELECT e.email FROM person_emails e WHERE e.person_id = p.id ORDER BY e.email LIMIT 1) AS email,
  u.id AS owner_id, u.name AS owner_name, r.first_touch_at, r.last_touch_at, r.last_touch_direction,
  r.sent_count, r.received_count, r.meeting_count, r.decayed_score, r.score_at`;

/** Relationships of the key user and of teammates who share their network (`u` the owner joined). */
export const POOLED = `u.org_id = $org AND (u.share_network = 1 OR u.id = $me)`;
/**
 * The same pool as a condition on the relationship alone: its owner among the pooled users (a
 * handful, read once). The `+` keeps the planner from turning it into the loop that drives the
 * query: a target's persons come first, then their relationships.
 */
const POOLED_OWNER = `+r.user_id IN (SELECT id FROM users WHERE org_id = $org AND (share_network = 1 OR id = $me))`;

export const poolParams = (p: Principal) => ({ org: p.orgId, me: p.userId });

export function aggregatesOf(r: PathRow): Aggregates {
  return {
    firstTouchAt: r.first_touch_at,
    lastTouchAt: r.last_touch_at,
    lastTouchDirection: r.last_touch_direction,
    sentCount: r.sent_count,
    receivedCount: r.received_count,
    meetingCount: r.meeting_count,
    decayedScore: r.decayed_score,
    scoreAt: r.score_at,
  };
}

export type ScoredPath = ReturnType<typeof scorePath>;

export function scorePath(row: PathRow, now: Date) {
  const a = aggregatesOf(row);
  const s = strength(a, now);
  return {
    contact_id: row.person_id,
    name: row.display_name,
    title: row.title,
    email: row.email,
    domain: row.domain,
    warmth: warmth(a, now),
    strength_score: s,
    relationship: label(s),
    path_owner: row.owner_name,
    owner_user_id: row.owner_id,
    unavailable_reason: s === null ? ("no_relationship_data" as const) : null,
    signals: signals(a, now),
    // kept for ranking and the contacts export; stripped by the callers that do not show them
    linkedin_url: linkedinUrl(row.linkedin_url),
    location: row.location,
    last_touch_at: row.last_touch_at,
  };
}

/** Strongest first; ties by warmth, then the most recent touch. Paths without data last. */
export function byStrength(a: ScoredPath, b: ScoredPath): number {
  return (
    (b.strength_score ?? -1) - (a.strength_score ?? -1) ||
    (b.warmth ?? -1) - (a.warmth ?? -1) ||
    (b.last_touch_at ?? "").localeCompare(a.last_touch_at ?? "")
  );
}

/** The contact-path shape of who-knows and warmth lookup (plus the additive `signals`). */
export function asContactPath(p: ScoredPath) {
  const { linkedin_url, location, last_touch_at, ...path } = p;
  return path;
}

export const NOT_FOUND_PATH = {
  contact_id: null,
  name: null,
  title: null,
  email: null,
  domain: null,
  warmth: null,
  strength_score: null,
  relationship: null,
  path_owner: null,
  owner_user_id: null,
  unavailable_reason: "contact_not_found" as const,
  signals: null,
};

/**
 * The strength formula of network.scoring.ts in SQL, so a big company's paths are ranked and cut
 * in the query instead of scoring thousands of rows in JS. $now is an ISO timestamp.
 */
export const STRENGTH_SQL = `(
  (1 - exp(-(r.decayed_score * pow(0.5, max(0, julianday($now) - julianday(r.score_at)) / ${ACTIVITY_HALF_LIFE_DAYS})) / 6))
  * (0.55 + 0.45 * (2.0 * min(r.sent_count + r.meeting_count, r.received_count + r.meeting_count)
      / max(1, r.sent_count + r.received_count + 2 * r.meeting_count))))`;

/**
 * The strongest `take` pooled paths that have touches, best first. Ranked and cut on the
 * relationship's own columns first; the person's and owner's columns and the email are read for
 * the `take` rows kept, not for every relationship at a large company.
 */
export function queryTopPaths(deps: Deps, where: string, params: Record<string, string | number | null>, take: number): PathRow[] {
  return deps.db.$client
    .query<PathRow, Record<string, string | number | null>>(
      `SELECT ${PATH_COLUMNS} FROM (
         SELECT r.seq FROM persons p
         JOIN relationships r ON r.person_id = p.id
         WHERE ${POOLED_OWNER} AND ${where} AND r.last_touch_at IS NOT NULL
         ORDER BY ${STRENGTH_SQL} DESC, r.last_touch_at DESC
         LIMIT $take
       ) top
       CROSS JOIN relationships r ON r.seq = top.seq
       CROSS JOIN persons p ON p.id = r.person_id
       CROSS JOIN users u ON u.id = r.user_id`,
    )
    .all({ ...params, now: deps.clock.now().toISOString(), take });
}

/** Whether any pooled relationship (touched or a contact card only) matches. */
export function anyPath(deps: Deps, where: string, params: Record<string, string | number | null>): boolean {
  return !!deps.db.$client
    .query(`SELECT 1 FROM persons p JOIN relationships r ON r.person_id = p.id JOIN users u ON u.id = r.user_id WHERE ${POOLED} AND ${where} LIMIT 1`)
    .get(params as never);
}

export function queryPaths(deps: Deps, where: string, params: Record<string, string | number | null>): PathRow[] {
  return deps.db.$client
    .query<PathRow, Record<string, string | number | null>>(
      `SELECT ${PATH_COLUMNS} FROM persons p
       JOIN relationships r ON r.person_id = p.id
       JOIN users u ON u.id = r.user_id
       WHERE ${POOLED} AND ${where}`,
    )
    .all(params);
}
