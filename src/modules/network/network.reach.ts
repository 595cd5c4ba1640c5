// Reach candidates: founders the key user can reach through someone they know well. The nightly
// job (jobs/reach-candidates.ts) computes them; the endpoint only serves what it stored, minus
// what rests on mail a teammate no longer shares.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import type { SqlRowOf } from "../../db/rows.ts";
import { linkedinUrl } from "./network.identity.ts";
import type { reachCandidates } from "./network.tables.ts";

/** A stored candidate's row as `SELECT rc.*` reads it. */
type CandidateRow = SqlRowOf<typeof reachCandidates>;

export const reachService = perDeps((deps: Deps) => {
  // A candidate whose evidence came from a teammate's mail is served only while that teammate
  // still shares (and is still in the org): opting out withdraws it at once, not at the next run.
  const list = deps.db.$client.query<CandidateRow, { me: string; org: string; take: number }>(
    `SELECT rc.* FROM reach_candidates rc
     WHERE rc.user_id = $me AND NOT EXISTS (
       SELECT 1 FROM json_each(rc.evidence_user_ids) j
       WHERE j.value != $me AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = j.value AND u.org_id = $org AND u.share_network = 1))
     ORDER BY rc.fit_score DESC, rc.full_name LIMIT $take`,
  );

  function candidates(principal: Principal, limit: number) {
    return {
      scope: "key_user" as const,
      candidates: list.all({ me: principal.userId, org: principal.orgId, take: limit }).map((r) => ({
        candidate_id: r.id,
        full_name: r.full_name,
        linkedin_url: linkedinUrl(r.linkedin_url),
        headline: r.headline,
        current_title: r.current_title,
        current_company: r.current_company,
        location: r.location,
        candidate_type: r.candidate_type,
        fit_score: r.fit_score,
        fit_reasons: JSON.parse(r.fit_reasons) as string[],
        path_quality: r.path_quality,
        is_proxy_first_degree: r.path_quality === "proxy_first_degree",
        status: r.status,
        first_seen_at: r.first_seen_at,
        updated_at: r.updated_at,
      })),
      as_of: deps.clock.now().toISOString(),
    };
  }

  return { candidates };
});
