// Named reads of the network's persons that other modules make, through the network service (which
// hands these out with its own verbs): founder evidence (who is this founder in the firm's
// network), research (is this capitalised name a person we know), the demo's totals.
import { perDeps, type Deps } from "../../deps.ts";
import type { SqlRowOf } from "../../db/rows.ts";
import type { persons } from "./network.tables.ts";

/** A person's row as `SELECT *` reads it. */
export type PersonRow = SqlRowOf<typeof persons>;

/** What a person is known as: the identity columns of a person row. */
export type PersonCard = Pick<PersonRow, "id" | "display_name" | "title" | "company" | "domain" | "linkedin_url" | "location">;

const CARD = "SELECT id, display_name, title, company, domain, linkedin_url, location FROM persons";

export const networkQueries = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const byId = sqlite.query<PersonCard, [string]>(`${CARD} WHERE id = ?`);
  const byLinkedin = sqlite.query<PersonCard, [string, string, number]>(`${CARD} WHERE org_id = ? AND linkedin_url = ? ORDER BY id LIMIT ?`);
  const byNameKey = sqlite.query<PersonCard, [string, string, number]>(`${CARD} WHERE org_id = ? AND name_key = ? ORDER BY id LIMIT ?`);
  const nameOfKey = sqlite.query<{ display_name: string }, [string, string]>("SELECT display_name FROM persons WHERE org_id = ? AND name_key = ? LIMIT 1");
  const domainAt = sqlite.query<{ domain: string }, [string, string]>(
    "SELECT domain FROM persons WHERE org_id = ? AND lower(company) = ? AND domain IS NOT NULL GROUP BY domain ORDER BY COUNT(*) DESC, domain LIMIT 1",
  );
  const totals = sqlite.query<{ persons: number; relationships: number; interactions: number }, []>(
    "SELECT (SELECT count(*) FROM persons) AS persons, (SELECT count(*) FROM relationships) AS relationships, (SELECT count(*) FROM interactions) AS interactions",
  );

  return {
    person: (personId: string): PersonCard | null => byId.get(personId),
    /** The org's persons with this LinkedIn profile (normalizeLinkedin's key), at most `limit`. */
    personsByLinkedin: (orgId: string, linkedinKey: string, limit: number): PersonCard[] => byLinkedin.all(orgId, linkedinKey, limit),
    /** The org's persons whose name folds to `key` (nameKey), at most `limit`. */
    personsNamed: (orgId: string, key: string, limit: number): PersonCard[] => byNameKey.all(orgId, key, limit),
    /** The display name of a person of the org whose name folds to `key`, if the network knows one. */
    displayNameOf: (orgId: string, key: string): string | null => nameOfKey.get(orgId, key)?.display_name ?? null,
    /** The email domain most of the org's contacts at `company` (compared lower-cased) write from. */
    commonDomainAt: (orgId: string, company: string): string | null => domainAt.get(orgId, company.toLowerCase())?.domain ?? null,
    /** Persons, relationships and interactions stored, across the database (the demo's summary). */
    totals: () => totals.get()!,
  };
});
