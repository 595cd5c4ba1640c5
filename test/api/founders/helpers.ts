// Shared set-up of the founder tests: an app on a temp file, the fixture, the real runner, and
// the firm's evidence (a deal with a team list and a scored analysis, a data-room document).
import { expect } from "bun:test";
import type { DealAnalysis } from "../../../src/engines/deal-engine.ts";
import { newId } from "../../../src/lib/ids.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";

export type Ctx = { t: TestApp; f: Fixture };

/** The app (closed when the test finishes) and the standard firm. */
export const setup = (env: Record<string, string> = {}): Ctx => seededApp({ file: true, env });

export { runAll };

export const analyze = (c: Ctx, body: unknown, key = c.f.keys.write.secret) => c.t.request("POST", "/api/v1/founders/analyze", { key, body });

export const readAnalysis = (c: Ctx, id: string, view?: string, key = c.f.keys.read.secret) =>
  c.t.request("GET", `/api/v1/founders/analyses/${id}${view ? `?view=${view}` : ""}`, { key });

export type Metric = { key: string; score: number | null; confidence: number; reasoning: string; missing_info: string[] };

/** Analyses a founder (202), runs it to success, and returns the full record with its metrics by key. */
export async function assess(c: Ctx, body: unknown) {
  const res = await analyze(c, body);
  expect(res.status, res.text).toBe(202);
  await runAll(c.t);
  const rec = await readAnalysis(c, res.json.analysis_id, "full");
  expect(rec.json.status, JSON.stringify(rec.json.error)).toBe("succeeded");
  return { ...rec.json, byKey: Object.fromEntries(rec.json.metrics.map((m: Metric) => [m.key, m])) as Record<string, Metric> };
}

export const actionsUsed = (c: Ctx, keyId = c.f.keys.write.id) =>
  c.t.deps.db.$client.query<{ n: number }, [string]>("SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage WHERE key_id = ?").get(keyId)!.n;

export const runCount = (c: Ctx) => c.t.deps.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM action_runs WHERE kind = 'founder_analysis'").get()!.n;

type Team = { name: string; title: string | null; linkedin_url: string | null }[];

/** A deal of the org with a team list and an analysis whose sections carry these scores. */
export function seedDeal(c: Ctx, company: string, team: Team, scores: Record<string, number | null>, secret = c.f.keys.write.secret): string {
  const deals = dealsService(c.t.deps);
  const { dealId } = deals.submit(principalOf(c.t.deps, secret), { companyName: company, kind: "company", source: "upload", targetKey: nameTarget(company) }, () => {}, {});
  const analysis: DealAnalysis = {
    engine: "builtin",
    kind: "company",
    facts: {
      company: { name: company, domain: `${company.toLowerCase()}.io`, website: `https://${company.toLowerCase()}.io`, description: null, sector: "fintech", location: null, founded_year: 2022 },
      round: { stage: "seed", amount: null, currency: null, pre_money_valuation: null },
      team,
    },
    sections: Object.entries(scores).map(([key, score]) => ({ key, title: key, score, summary: score === null ? null : `${key} summary`, evidence: [], unavailable_reason: score === null ? "no evidence" : null })),
    score: 60,
    score_confidence: 0.5,
    summary: `${company} analysis`,
  };
  deals.storeAnalysis(dealId, analysis);
  // The analysis is given here: its run is ended so the runner of a founder test leaves the deal alone.
  const actions = actionsService(c.t.deps);
  const run = actions.latestFor(principalOf(c.t.deps, secret).orgId, dealId)!;
  actions.start(run.id);
  actions.succeed(run.id);
  return dealId;
}

/** A data-room document of a deal with these page texts (indexed for search by the triggers). */
export function seedDocument(c: Ctx, dealId: string, filename: string, pages: string[], orgId = c.f.orgs.acme.id): string {
  const id = newId();
  c.t.deps.db.$client
    .query(
      `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, status, pages, page_count, uploaded_at)
       VALUES (?, ?, ?, ?, 'data_room', 'application/pdf', 100, ?, 'extracted', ?, ?, ?)`,
    )
    .run(id, orgId, dealId, filename, "0".repeat(64), JSON.stringify(pages), pages.length, c.t.clock.now().toISOString());
  return id;
}

/** A loopback GitHub API: `users` maps a login to its profile and repositories; anything else 404s. */
export function startGithubStub(users: Record<string, { profile: Record<string, unknown>; repos: Record<string, unknown>[] }>) {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      const m = /^\/users\/([^/]+)(\/repos)?$/.exec(path);
      const user = m ? users[m[1].toLowerCase()] : undefined;
      if (!user) return Response.json({ message: "Not Found" }, { status: 404 });
      return Response.json(m![2] ? user.repos : user.profile);
    },
  });
  return {
    hits,
    env: { DEALGRAPH_GITHUB_API_URL: `http://127.0.0.1:${server.port}`, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" },
    stop: () => server.stop(true),
  };
}
