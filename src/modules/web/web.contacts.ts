// The contacts page's read: the user's own relationships, searched by name or email address, with
// the keep-in-touch settings the forms edit. The network module has no such read (its contacts
// export pages by insertion order and leaves out cadences and snoozes), so this one query reads
// its tables directly, read-only; every write goes through networkSignals.
import type { Deps } from "../../deps.ts";
import { PATH_COLUMNS, scorePath, type PathRow } from "../network/network.paths.ts";

export type ContactRow = ReturnType<typeof scorePath> & {
  declared_cadence_days: number | null;
  learned_cadence_days: number | null;
  snoozed_until: string | null;
};

type Row = PathRow & { declared_cadence_days: number | null; learned_cadence_days: number | null; snoozed_until: string | null };

const MATCH = `r.user_id = $me AND ($like = '%%' OR lower(COALESCE(p.display_name, '')) LIKE $like ESCAPE '\\'
  OR EXISTS (SELECT 1 FROM person_emails e WHERE e.person_id = p.id AND e.email LIKE $like ESCAPE '\\'))`;

function likePattern(q: string): string {
  return `%${q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function searchContacts(deps: Deps, userId: string, input: { q: string; offset: number; limit: number }) {
  const sqlite = deps.db.$client;
  const params = { me: userId, like: likePattern(input.q) };
  const rows = sqlite
    .query<Row, Record<string, string | number>>(
      `SELECT ${PATH_COLUMNS}, r.declared_cadence_days, r.learned_cadence_days, r.snoozed_until
       FROM relationships r JOIN persons p ON p.id = r.person_id JOIN users u ON u.id = r.user_id
       WHERE ${MATCH}
       ORDER BY r.last_touch_at IS NULL, r.last_touch_at DESC, r.seq
       LIMIT $take OFFSET $skip`,
    )
    .all({ ...params, take: input.limit, skip: input.offset });
  const total = sqlite
    .query<{ n: number }, Record<string, string>>(
      `SELECT COUNT(*) AS n FROM relationships r JOIN persons p ON p.id = r.person_id WHERE ${MATCH}`,
    )
    .get(params)!.n;
  const now = deps.clock.now();
  const contacts: ContactRow[] = rows.map((r) => ({
    ...scorePath(r, now),
    declared_cadence_days: r.declared_cadence_days,
    learned_cadence_days: r.learned_cadence_days,
    snoozed_until: r.snoozed_until,
  }));
  return { contacts, total };
}

export function contactCount(deps: Deps, userId: string): number {
  return deps.db.$client.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM relationships WHERE user_id = ?").get(userId)!.n;
}
