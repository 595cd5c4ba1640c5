// The nightly reach-candidates computation. For each user: founders they cannot reach directly
// but can through a proxy first-degree path, i.e. someone the user knows well (a strong
// relationship) who is in real contact with the founder (on at least two distinct threads or
// meetings together in the last year, in the user's own or a sharing teammate's mail and calendar).
// Fit is scored against the firm's thesis as its own book shows it (sectors and stages of its
// holdings and deals); every reason is a fact the partner can check (network.reach-reasons.ts).
// Each candidate keeps whose mail showed the contact: the endpoint hides it as soon as one of
// them stops sharing (network.reach.ts), and the next run recomputes it from what is still shared.
// A proxy's interactions are read once per run for every user who holds that proxy
// (network.reach-contacts.ts): the job's work follows the firm's data, not users x proxies x data.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { dealsService } from "../deals/deals.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { PATH_COLUMNS, scorePath, type PathRow } from "./network.paths.ts";
import { networkQueries } from "./network.queries.ts";
import { contactsFor, proxyContactsReader, type CoContact } from "./network.reach-contacts.ts";
import { contactReason, dealOf, founderReason, indexBook, isHeldCompany, proxyReason, sectorFit, stageFit } from "./network.reach-reasons.ts";
import { thesisFrom, type BookSource } from "./network.thesis.ts";

export { FOUNDER_TITLE } from "./network.reach-reasons.ts";
export const PROXY_MIN_STRENGTH = 45;
/** A founder the user already knows this well is reached directly, not through a proxy. */
export const DIRECT_MAX_STRENGTH = 15;
export const MIN_SHARED = 2;
export const WINDOW_DAYS = 365;
const MAX_PROXIES = 200;
/** Weights of the fit score (0-1): the book's sectors and stages, the proxy's strength, how much proxy and founder are in touch. */
const WEIGHTS = { sector: 0.45, stage: 0.15, proxy: 0.25, contact: 0.15 };

/**
 * The nightly reach-candidates job: every org's candidates, scored against the firm's own book as
 * the portfolio and deals services read it (a deal not analysed yet has a null sector and round,
 * not a guess).
 */
export function refreshReachCandidates(deps: Deps) {
  return computeReachCandidates(deps, (orgId) => ({ holdings: portfolioService(deps).bookHoldings(orgId), deals: dealsService(deps).bookFacts(orgId) }));
}

export function computeReachCandidates(deps: Deps, bookSource: BookSource) {
  const sqlite = deps.db.$client;
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const since = new Date(now.getTime() - WINDOW_DAYS * 86_400_000).toISOString();

  const orgUsers = sqlite.query<{ id: string; org_id: string; email: string; name: string; share_network: number }, []>(
    "SELECT id, org_id, email, name, share_network FROM users WHERE org_id IS NOT NULL ORDER BY org_id, id",
  );
  const ownPaths = sqlite.query<PathRow, { me: string }>(
    `SELECT ${PATH_COLUMNS} FROM relationships r JOIN persons p ON p.id = r.person_id JOIN users u ON u.id = r.user_id
     WHERE r.user_id = $me AND r.last_touch_at IS NOT NULL`,
  );
  const people = networkQueries(deps);
  const existing = sqlite.query<{ person_id: string; id: string; first_seen_at: string; status: string }, [string]>(
    "SELECT person_id, id, first_seen_at, status FROM reach_candidates WHERE user_id = ?",
  );
  const upsert = sqlite.query(
    `INSERT INTO reach_candidates (id, org_id, user_id, person_id, proxy_person_id, full_name, linkedin_url, headline, current_title,
       current_company, location, candidate_type, fit_score, fit_reasons, evidence_user_ids, path_quality, status, first_seen_at, updated_at)
     VALUES ($id, $org, $user, $person, $proxy, $name, $linkedin, $headline, $title, $company, $location, 'founder', $fit, $reasons,
       $evidence, 'proxy_first_degree', $status, $first, $now)
     ON CONFLICT (user_id, person_id) DO UPDATE SET proxy_person_id = excluded.proxy_person_id, full_name = excluded.full_name,
       linkedin_url = excluded.linkedin_url, headline = excluded.headline, current_title = excluded.current_title,
       current_company = excluded.current_company, location = excluded.location, fit_score = excluded.fit_score,
       fit_reasons = excluded.fit_reasons, evidence_user_ids = excluded.evidence_user_ids, updated_at = excluded.updated_at`,
  );
  const drop = sqlite.query("DELETE FROM reach_candidates WHERE user_id = ? AND person_id = ?");

  const stats = { users: 0, candidates: 0, removed: 0 };
  const allUsers = orgUsers.all();
  const orgEmails = new Set(allUsers.map((u) => u.email.toLowerCase()));
  const userNames = new Map(allUsers.map((u) => [u.id, u.name]));

  const byOrg = Map.groupBy(allUsers, (u) => u.org_id);

  for (const [orgId, members] of byOrg) {
    const book = bookSource(orgId);
    const firm = { index: indexBook(book), thesis: thesisFrom(book) };
    const readContacts = proxyContactsReader(sqlite, orgId, since, MIN_SHARED);

    // Each user's proxies (strongest first) and the founders they already know too well to need one.
    type Proxy = ReturnType<typeof scorePath>;
    const plans = members.map((user) => {
      const scored = ownPaths.all({ me: user.id }).map((r) => scorePath(r, now));
      const known = new Set(scored.filter((p) => (p.strength_score ?? 0) > DIRECT_MAX_STRENGTH).map((p) => p.contact_id));
      const proxies = scored
        .filter((p) => (p.strength_score ?? 0) >= PROXY_MIN_STRENGTH && !orgEmails.has(p.email ?? ""))
        .sort((a, b) => b.strength_score! - a.strength_score!)
        .slice(0, MAX_PROXIES);
      // Each founder reached through their best proxy: the strongest relationship times the most
      // contact; of two equal, the stronger proxy (the earlier in this order).
      const best = new Map<string, { proxy: Proxy; co: CoContact; weight: number; rank: number }>();
      return { user, known, proxies, best };
    });
    const holders = new Map<string, { plan: (typeof plans)[number]; proxy: Proxy; rank: number }[]>();
    for (const plan of plans) {
      plan.proxies.forEach((proxy, rank) => {
        const list = holders.get(proxy.contact_id);
        if (list) list.push({ plan, proxy, rank });
        else holders.set(proxy.contact_id, [{ plan, proxy, rank }]);
      });
    }
    // Each proxy's interactions read once, for every user who holds it (all proxies in one ordered pass).
    const nonSharing = new Map([...holders].map(([proxyId, held]) => [proxyId, new Set(held.filter((h) => h.plan.user.share_network !== 1).map((h) => h.plan.user.id))]));
    for (const [proxyId, contacts] of readContacts(nonSharing)) {
      for (const { plan, proxy, rank } of holders.get(proxyId)!) {
        for (const co of contactsFor(contacts, plan.user.id, plan.user.share_network === 1)) {
          if (plan.known.has(co.candidate)) continue;
          const weight = proxy.strength_score! * Math.min(co.shared, 10);
          const seen = plan.best.get(co.candidate);
          if (!seen || weight > seen.weight || (weight === seen.weight && rank < seen.rank)) plan.best.set(co.candidate, { proxy, co, weight, rank });
        }
      }
    }

    for (const { user, best } of plans) {
      stats.users++;
      const firmDomain = user.email.slice(user.email.indexOf("@") + 1).toLowerCase();

      const before = new Map(existing.all(user.id).map((r) => [r.person_id, r]));
      const kept = new Set<string>();
      sqlite.transaction(() => {
        for (const [candidateId, { proxy, co }] of best) {
          const row = people.person(candidateId);
          if (!row?.display_name || row.domain === firmDomain) continue;
          const person = { ...row, display_name: row.display_name };
          const deal = dealOf(person, firm.index);
          const who = founderReason(person, deal);
          // Not a founder by their title (a CEO counts only with their round on record), or already in the portfolio.
          if (!who || isHeldCompany(person, firm.index)) continue;
          const sector = sectorFit(person, deal, firm.thesis);
          const stage = stageFit(person, deal, firm.thesis);
          const intensity = Math.min(1, co.shared / 6);
          const fit = WEIGHTS.sector * sector.fit + WEIGHTS.stage * stage.fit + WEIGHTS.proxy * (proxy.strength_score! / 100) + WEIGHTS.contact * intensity;
          const s = proxy.signals!;
          const proxyName = proxy.name ?? proxy.email ?? "your contact";
          const via = co.via;
          // The key user's own mail first, then teammates' by name.
          const teammates = via.filter((id) => id !== user.id).map((id) => userNames.get(id) ?? "a teammate").sort((a, b) => a.localeCompare(b));
          const whose = [...(via.includes(user.id) ? ["your"] : []), ...teammates.map((name) => `${name}'s`)];
          const reasons = [
            who,
            sector.reason,
            stage.reason,
            proxyReason({ name: proxyName, strength: proxy.strength_score!, emailsSent: s.emails_sent, emailsReceived: s.emails_received, meetings: s.meetings, firstTouchAt: s.first_touch_at!, lastTouchAt: s.last_touch_at! }),
            contactReason(proxyName, person.display_name, { shared: co.shared, meetings: co.meetings, lastShared: co.last_shared, via: whose }),
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
            fit: Math.round(fit * 1000) / 1000,
            reasons: JSON.stringify(reasons),
            evidence: JSON.stringify(via),
            status: prior?.status ?? "new",
            first: prior?.first_seen_at ?? nowIso,
            now: nowIso,
          });
          kept.add(candidateId);
          stats.candidates++;
        }
        // A founder no longer reachable this way (the proxy went cold, the user now knows them, a teammate stopped sharing) leaves the list.
        for (const personId of before.keys()) {
          if (!kept.has(personId)) {
            drop.run(user.id, personId);
            stats.removed++;
          }
        }
      })();
    }
  }
  return stats;
}
