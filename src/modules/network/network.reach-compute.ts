// The nightly reach-candidates computation. For each user: founders they cannot reach directly
// but can through a proxy first-degree path, i.e. someone the user knows well (a strong
// relationship) who is in real contact with the founder (on at least two threads or meetings
// together in the last year, in the user's own or a sharing teammate's mail and calendar).
// Fit is scored against the firm's thesis as its own book shows it; every reason is a fact the
// partner can check.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { PATH_COLUMNS, scorePath, type PathRow } from "./network.paths.ts";
import { sectorsIn, thesisFrom, type Thesis, type ThesisSource } from "./network.thesis.ts";

export const FOUNDER_TITLE = /\b(co-?founder|founder|ceo|chief executive)\b/i;
export const PROXY_MIN_STRENGTH = 45;
/** A founder the user already knows this well is reached directly, not through a proxy. */
export const DIRECT_MAX_STRENGTH = 15;
export const MIN_SHARED = 2;
export const WINDOW_DAYS = 365;
const MAX_PROXIES = 200;

type CoContact = { candidate: string; shared: number; last_shared: string };
type PersonRow = { id: string; display_name: string | null; title: string | null; company: string | null; domain: string | null; linkedin_url: string | null; location: string | null };

const day = (iso: string) => iso.slice(0, 10);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function sectorReason(person: PersonRow, thesis: Thesis): { fit: number; reason: string } {
  const mine = sectorsIn([person.title, person.company].filter(Boolean).join(" "));
  const known = mine.filter((s) => thesis.sectors.has(s)).sort((a, b) => thesis.sectors.get(b)! - thesis.sectors.get(a)!);
  if (known.length === 0) {
    return mine.length
      ? { fit: 0, reason: `${cap(mine[0])} is outside the sectors of the firm's book` }
      : { fit: 0, reason: "No sector can be read from their title, so no thesis fit is claimed" };
  }
  const top = Math.max(...thesis.sectors.values());
  const n = thesis.sectors.get(known[0])!;
  return { fit: n / top, reason: `${cap(known[0])}, like ${n} of the ${thesis.holdings} holdings and deals in the firm's book` };
}

export function computeReachCandidates(deps: Deps, thesisSource: ThesisSource) {
  const sqlite = deps.db.$client;
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const since = new Date(now.getTime() - WINDOW_DAYS * 86_400_000).toISOString();

  const orgUsers = sqlite.query<{ id: string; org_id: string; email: string }, []>("SELECT id, org_id, email FROM users WHERE org_id IS NOT NULL ORDER BY org_id");
  const ownPaths = sqlite.query<PathRow, { me: string }>(
    `SELECT ${PATH_COLUMNS} FROM relationships r JOIN persons p ON p.id = r.person_id JOIN users u ON u.id = r.user_id
     WHERE r.user_id = $me AND r.last_touch_at IS NOT NULL`,
  );
  const coContacts = sqlite.query<CoContact, { proxy: string; org: string; me: string; since: string; min: number }>(
    `SELECT ip2.person_id AS candidate, COUNT(DISTINCT ip1.interaction_id) AS shared, MAX(i.occurred_at) AS last_shared
     FROM interaction_people ip1
     JOIN interactions i ON i.id = ip1.interaction_id
     JOIN users u ON u.id = i.user_id
     JOIN interaction_people ip2 ON ip2.interaction_id = ip1.interaction_id AND ip2.person_id != ip1.person_id
     WHERE ip1.person_id = $proxy AND u.org_id = $org AND (u.share_network = 1 OR u.id = $me) AND i.occurred_at >= $since
     GROUP BY ip2.person_id HAVING COUNT(DISTINCT ip1.interaction_id) >= $min`,
  );
  const personById = sqlite.query<PersonRow, [string]>("SELECT id, display_name, title, company, domain, linkedin_url, location FROM persons WHERE id = ?");
  const existing = sqlite.query<{ person_id: string; id: string; first_seen_at: string; status: string }, [string]>(
    "SELECT person_id, id, first_seen_at, status FROM reach_candidates WHERE user_id = ?",
  );
  const upsert = sqlite.query(
    `INSERT INTO reach_candidates (id, org_id, user_id, person_id, proxy_person_id, full_name, linkedin_url, headline, current_title,
       current_company, location, candidate_type, fit_score, fit_reasons, path_quality, status, first_seen_at, updated_at)
     VALUES ($id, $org, $user, $person, $proxy, $name, $linkedin, $headline, $title, $company, $location, 'founder', $fit, $reasons,
       'proxy_first_degree', $status, $first, $now)
     ON CONFLICT (user_id, person_id) DO UPDATE SET proxy_person_id = excluded.proxy_person_id, full_name = excluded.full_name,
       linkedin_url = excluded.linkedin_url, headline = excluded.headline, current_title = excluded.current_title,
       current_company = excluded.current_company, location = excluded.location, fit_score = excluded.fit_score,
       fit_reasons = excluded.fit_reasons, updated_at = excluded.updated_at`,
  );
  const drop = sqlite.query("DELETE FROM reach_candidates WHERE user_id = ? AND person_id = ?");

  const stats = { users: 0, candidates: 0, removed: 0 };
  const theses = new Map<string, Thesis>();
  const allUsers = orgUsers.all();
  const orgEmails = new Set(allUsers.map((u) => u.email.toLowerCase()));

  for (const user of allUsers) {
    stats.users++;
    let thesis = theses.get(user.org_id);
    if (!thesis) theses.set(user.org_id, (thesis = thesisFrom(thesisSource(user.org_id))));
    const firmDomain = user.email.slice(user.email.indexOf("@") + 1).toLowerCase();

    const scored = ownPaths.all({ me: user.id }).map((r) => scorePath(r, now));
    const direct = new Map(scored.map((p) => [p.contact_id, p.strength_score ?? 0]));
    const proxies = scored
      .filter((p) => (p.strength_score ?? 0) >= PROXY_MIN_STRENGTH && !orgEmails.has(p.email ?? ""))
      .sort((a, b) => b.strength_score! - a.strength_score!)
      .slice(0, MAX_PROXIES);

    // Each founder reached through their best proxy: the strongest relationship times the most contact.
    const best = new Map<string, { proxy: (typeof proxies)[number]; co: CoContact; weight: number }>();
    for (const proxy of proxies) {
      for (const co of coContacts.all({ proxy: proxy.contact_id, org: user.org_id, me: user.id, since, min: MIN_SHARED })) {
        if ((direct.get(co.candidate) ?? 0) > DIRECT_MAX_STRENGTH) continue;
        const weight = proxy.strength_score! * Math.min(co.shared, 10);
        const seen = best.get(co.candidate);
        if (!seen || weight > seen.weight) best.set(co.candidate, { proxy, co, weight });
      }
    }

    const before = new Map(existing.all(user.id).map((r) => [r.person_id, r]));
    const kept = new Set<string>();
    sqlite.transaction(() => {
      for (const [candidateId, { proxy, co }] of best) {
        const person = personById.get(candidateId);
        if (!person?.display_name || !FOUNDER_TITLE.test(person.title ?? "")) continue;
        if (person.domain === firmDomain) continue;
        const sector = sectorReason(person, thesis);
        const intensity = Math.min(1, co.shared / 6);
        const fit = Math.round((0.55 * sector.fit + 0.3 * (proxy.strength_score! / 100) + 0.15 * intensity) * 1000) / 1000;
        const s = proxy.signals!;
        const reasons = [
          `${person.title}${person.company && !person.title!.includes(person.company) ? ` at ${person.company}` : ""}`,
          sector.reason,
          `You know ${proxy.name ?? proxy.email} well (strength ${Math.round(proxy.strength_score!)}: ${plural(s.emails_sent + s.emails_received, "email")}, ${plural(s.meetings, "meeting")}, last in touch ${day(s.last_touch_at!)})`,
          `${proxy.name ?? proxy.email} and ${person.display_name} were together on ${co.shared === 1 ? "1 email or meeting" : `${co.shared} emails or meetings`} in the last year, most recently on ${day(co.last_shared)}`,
        ];
        const prior = before.get(candidateId);
        upsert.run({
          id: prior?.id ?? newId(),
          org: user.org_id,
          user: user.id,
          person: candidateId,
          proxy: proxy.contact_id,
          name: person.display_name,
          linkedin: person.linkedin_url,
          headline: [person.title, person.company].filter(Boolean).join(", ") || null,
          title: person.title,
          company: person.company,
          location: person.location,
          fit,
          reasons: JSON.stringify(reasons),
          status: prior?.status ?? "new",
          first: prior?.first_seen_at ?? nowIso,
          now: nowIso,
        });
        kept.add(candidateId);
        stats.candidates++;
      }
      // A founder no longer reachable this way (the proxy went cold, or the user now knows them) leaves the list.
      for (const personId of before.keys()) {
        if (!kept.has(personId)) {
          drop.run(user.id, personId);
          stats.removed++;
        }
      }
    })();
  }
  return stats;
}
