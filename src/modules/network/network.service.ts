// The network reads: who knows someone at a company (or a person), batch warmth lookup, and the
// key user's own contacts. Every read pools only the key user and teammates who share.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { decodeCursor, encodeCursor } from "../../http/paging.ts";
import { isUuid } from "../../lib/ids.ts";
import { normalizeDomain } from "../../lib/hosts.ts";
import { nameKey } from "../../lib/names.ts";
import { normalizeEmail, readLinkedin } from "./network.identity.ts";
import { anyPath, asContactPath, byStrength, NOT_FOUND_PATH, PATH_COLUMNS, poolParams, queryPaths, queryTopPaths, scorePath, type PathRow, type RelationshipRow, type ScoredPath } from "./network.paths.ts";
import { networkQueries } from "./network.queries.ts";

export type { PersonCard, PersonRow } from "./network.queries.ts";

export type WhoKnowsInput = { domain?: string; person?: string; limit: number };

/** The SQL condition and parameters that pick the persons an identifier names. */
function personMatch(identifier: string): { where: string; params: Record<string, string> } | null {
  const id = identifier.trim();
  if (isUuid(id)) return { where: "p.id = $id", params: { id: id.toLowerCase() } };
  // A LinkedIn URL whose profile name cannot be decoded names no stored profile: it matches nothing.
  const linkedin = readLinkedin(id);
  if (linkedin) return "id" in linkedin ? { where: "p.linkedin_url = $li", params: { li: linkedin.id } } : null;
  if (id.includes("@")) {
    const email = normalizeEmail(id);
    return email ? { where: "p.id IN (SELECT person_id FROM person_emails WHERE org_id = $org AND email = $email)", params: { email } } : null;
  }
  const name = nameKey(id);
  return name ? { where: "p.name_key = $name", params: { name } } : null;
}

/** A contact of the key user's own, as the workspace's contacts page lists it: its path and keep-in-touch settings. */
export type OwnContact = ScoredPath & Pick<RelationshipRow, "declared_cadence_days" | "learned_cadence_days" | "snoozed_until">;

// The user's own relationships whose person's name or one of whose addresses contains the text.
// Written on relationships alone (the person looked up only when there is text to match), so
// without text a page and the count walk relationships_user_recent_idx and nothing else.
const OWN_MATCH = `r.user_id = $me AND ($like = '%%' OR EXISTS (SELECT 1 FROM persons p WHERE p.id = r.person_id AND (lower(COALESCE(p.display_name, '')) LIKE $like ESCAPE '\\'
  OR EXISTS (SELECT 1 FROM person_emails e WHERE e.person_id = p.id AND e.email LIKE $like ESCAPE '\\'))))`;
// The contacts page's order, the order of relationships_user_recent_idx.
const OWN_ORDER = "r.last_touch_at IS NULL, r.last_touch_at DESC, r.seq";

export const networkService = perDeps((deps: Deps) => {
  const now = () => deps.clock.now();

  function whoKnows(principal: Principal, input: WhoKnowsInput) {
    const conditions = ["p.org_id = $org"];
    let params: Record<string, string | number | null> = { ...poolParams(principal) };
    const domain = input.domain !== undefined ? normalizeDomain(input.domain) : undefined;
    if (input.domain !== undefined) {
      conditions.push("p.domain = $domain");
      params.domain = domain ?? input.domain.trim().toLowerCase();
    }
    if (input.person !== undefined) {
      const match = personMatch(input.person);
      if (!match) conditions.push("0");
      else {
        conditions.push(match.where);
        params = { ...params, ...match.params };
      }
    }
    const t = now();
    const where = conditions.join(" AND ");
    // Ranked and cut in SQL (same formula); a few extra rows absorb rounding ties before the exact sort.
    const warm = queryTopPaths(deps, where, params, input.limit + 5)
      .map((r) => scorePath(r, t))
      .sort(byStrength)
      .slice(0, input.limit);
    return {
      target: { domain: input.domain ?? null, person: input.person ?? null },
      scope: "org_shared" as const,
      paths: warm.map(asContactPath),
      unavailable_reason: warm.length ? null : anyPath(deps, where, params) ? ("no_relationship_data" as const) : ("contact_not_found" as const),
      as_of: t.toISOString(),
    };
  }

  /** One row per identifier, in order: the best pooled path, or why there is none. */
  function warmthLookup(principal: Principal, identifiers: string[]) {
    const t = now();
    const base = poolParams(principal);
    const results = identifiers.map((query) => {
      const match = personMatch(query);
      const rows = match ? queryPaths(deps, `p.org_id = $org AND ${match.where}`, { ...base, ...match.params }) : [];
      if (rows.length === 0) return { ...NOT_FOUND_PATH, query };
      const best = rows.map((r) => scorePath(r, t)).sort(byStrength)[0];
      return { ...asContactPath(best), query };
    });
    return { scope: "org_shared" as const, results, as_of: t.toISOString() };
  }

  const contactsPage = deps.db.$client.query<PathRow, { me: string; after: number; take: number }>(
    // CROSS JOIN keeps relationships the outer loop: a page is a seek on relationships_user_idx
    // read in seq order up to the limit (with users first, SQLite sorted the user's every row).
    `SELECT ${PATH_COLUMNS} FROM relationships r
     CROSS JOIN persons p ON p.id = r.person_id
     CROSS JOIN users u ON u.id = r.user_id
     WHERE r.user_id = $me AND r.seq > $after
     ORDER BY r.seq LIMIT $take`,
  );

  // Cursors are signed under the server's key for them, made on first use; each is bound to the
  // user it was issued to.
  let signingKey: Uint8Array | null = null;
  const cursorKey = () => (signingKey ??= deps.secrets.key("contacts-cursor"));

  /** The key user's own graph, in insertion order: new rows land after every issued cursor. */
  function contacts(principal: Principal, input: { cursor?: string; limit: number }) {
    const after = input.cursor === undefined ? 0 : decodeCursor(input.cursor, cursorKey(), principal.userId);
    const t = now();
    const rows = contactsPage.all({ me: principal.userId, after, take: input.limit + 1 });
    const page = rows.slice(0, input.limit);
    const more = rows.length > input.limit;
    return {
      scope: "key_user" as const,
      contacts: page.map((r) => {
        const { last_touch_at, ...c } = scorePath(r, t);
        return c;
      }),
      next_cursor: more ? encodeCursor(page[page.length - 1].seq, cursorKey(), principal.userId) : null,
      as_of: t.toISOString(),
    };
  }

  const ownContacts = deps.db.$client.query<PathRow & Pick<RelationshipRow, "declared_cadence_days" | "learned_cadence_days" | "snoozed_until">, { me: string; like: string; take: number; skip: number }>(
    // The page's rows found in index order first; their persons and owner read for those rows only.
    `SELECT ${PATH_COLUMNS}, r.declared_cadence_days, r.learned_cadence_days, r.snoozed_until
     FROM (SELECT r.seq FROM relationships r WHERE ${OWN_MATCH} ORDER BY ${OWN_ORDER} LIMIT $take OFFSET $skip) page
     CROSS JOIN relationships r ON r.seq = page.seq
     CROSS JOIN persons p ON p.id = r.person_id
     CROSS JOIN users u ON u.id = r.user_id
     ORDER BY ${OWN_ORDER}`,
  );
  const ownContactsCount = deps.db.$client.query<{ n: number }, { me: string; like: string }>(`SELECT COUNT(*) AS n FROM relationships r WHERE ${OWN_MATCH}`);
  const ownCount = deps.db.$client.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM relationships WHERE user_id = ?");

  /**
   * The user's own relationships whose name or an address contains `q` (case-insensitive; "" for
   * all), most recently touched first, with the keep-in-touch settings; and how many match.
   */
  function searchOwnContacts(userId: string, input: { q: string; offset: number; limit: number }): { contacts: OwnContact[]; total: number } {
    const params = { me: userId, like: `%${input.q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
    const t = now();
    const contacts = ownContacts.all({ ...params, take: input.limit, skip: input.offset }).map((r) => ({
      ...scorePath(r, t),
      declared_cadence_days: r.declared_cadence_days,
      learned_cadence_days: r.learned_cadence_days,
      snoozed_until: r.snoozed_until,
    }));
    return { contacts, total: ownContactsCount.get(params)!.n };
  }

  /** How many relationships the user has. */
  function ownContactCount(userId: string): number {
    return ownCount.get(userId)!.n;
  }

  /**
   * The display names of pooled people whose name is this first name or starts with it ("dana" ->
   * Dana Scully, Dana Whitaker), distinct and sorted: how a question naming only a first name is
   * resolved, or asked back about.
   */
  function namesByFirstName(principal: Principal, firstName: string): string[] {
    const first = nameKey(firstName);
    if (!first || first.includes(" ")) return [];
    const rows = queryPaths(deps, "p.org_id = $org AND (p.name_key = $first OR (p.name_key >= $lo AND p.name_key < $hi))", {
      ...poolParams(principal),
      first,
      lo: `${first} `,
      hi: `${first}!`,
    });
    return [...new Set(rows.map((r) => r.display_name).filter((n): n is string => !!n))].sort();
  }

  return { whoKnows, warmthLookup, contacts, searchOwnContacts, ownContactCount, namesByFirstName, ...networkQueries(deps) };
});
