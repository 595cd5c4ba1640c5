// The built-in founder engine on real evidence of the firm (network paths, a deal with a team
// list and a scored analysis, a data-room document), on none, and with GitHub enrichment from a
// loopback stub, refused and unreachable.
import { afterEach, describe, expect, test } from "bun:test";
import { hasCard, knows, personId, thread } from "../../helpers/network.ts";
import { assess, seedDeal, seedDocument, setup, startGithubStub, type Ctx } from "./helpers.ts";

let c: Ctx;
const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

const JANE = { email: "jane@ledgerly.io", name: "Jane Doe", title: "Co-founder & CEO", company: "Ledgerly", linkedinUrl: "https://www.linkedin.com/in/jane-doe" };


/** Every cited source is a real row of the org (or the GitHub login that was read). */
function expectRealSources(sources: { type: string; id: string }[], orgId: string) {
  const db = c.t.deps.db.$client;
  for (const s of sources) {
    const table = { deal: "deals", document: "deal_documents", person: "persons" }[s.type];
    if (!table) continue;
    expect(db.query(`SELECT 1 FROM ${table} WHERE id = ? AND org_id = ?`).get(s.id, orgId), `${s.type} ${s.id}`).not.toBeNull();
  }
}

describe("the built-in engine", () => {
  test("on the firm's evidence: metrics with scores, reasons naming the evidence, sources that are real rows", async () => {
    c = setup();
    const { alice, carol } = c.f.users;
    knows(c.t.deps, alice.id, JANE, [...thread(12, 7, 3), { daysAgo: 10, direction: "meeting" }]);
    // Another org's partner knows someone of the same name: never part of Acme's analysis.
    knows(c.t.deps, carol.id, { ...JANE, email: "jane@elsewhere.io" }, thread(20, 3, 1));
    const dealId = seedDeal(c, "Ledgerly", [{ name: "Jane Doe", title: "Co-founder & CEO", linkedin_url: JANE.linkedinUrl }, { name: "Ana Tech", title: "CTO", linkedin_url: null }], {
      team: 80,
      market: 62,
      traction: 70,
      product: null,
    });
    const docId = seedDocument(c, dealId, "team-memo.pdf", [
      "Jane Doe previously led a team of 40 engineers at Stripe, where she built the payments ledger. She has 12 years of experience in fintech infrastructure.",
      "Market sizing appendix with no people in it.",
    ]);
    const globexDeal = seedDeal(c, "Globex Target", [], { team: 10 }, c.f.keys.otherOrgWrite.secret);
    seedDocument(c, globexDeal, "globex.pdf", ["Jane Doe failed twice and shut down both companies."], c.f.orgs.globex.id);

    const r = await assess(c, { name: "Jane Doe", linkedin_url: JANE.linkedinUrl, company: "Ledgerly" });
    const janeId = personId(c.t.deps, c.f.orgs.acme.id, "jane@ledgerly.io");

    expect(r.byKey.network_strength.score).toBeGreaterThan(30);
    expect(r.byKey.network_strength.reasoning).toMatch(/^Alice Archer is in touch with them \(\w+, strength [\d.]+, 12 emails, 1 meeting, last in touch 3 days ago\)/);
    expect(r.byKey.network_strength.confidence).toBe(0.6);

    expect(r.byKey.leadership.score).toBeGreaterThanOrEqual(65);
    expect(r.byKey.leadership.reasoning).toContain("a CEO role");
    expect(r.byKey.leadership.reasoning).toContain("teams they led");
    expect(r.byKey.leadership.reasoning).toContain('document "team-memo.pdf (page 1)"');
    expect(r.byKey.leadership.reasoning).toContain("the team section of Ledgerly's deal analysis scored 80");

    expect(r.byKey.domain_expertise.reasoning).toContain("12 years of experience");
    expect(r.byKey.domain_expertise.score).toBeGreaterThan(60);
    expect(r.byKey.execution_track_record.reasoning).toContain("the traction section of Ledgerly's deal analysis scored 70");
    expect(r.byKey.technical_depth.reasoning).toContain("an engineering background");
    // No GitHub profile was given: said so, and the score rests on the documents alone.
    expect(r.byKey.technical_depth.missing_info).toContain("A GitHub profile (`github_url`)");
    // Nothing of Globex's reached Acme's analysis.
    expect(JSON.stringify(r)).not.toContain("shut down");

    for (const m of r.metrics) {
      expect(m.confidence).toBeGreaterThanOrEqual(0);
      expect(m.confidence).toBeLessThanOrEqual(1);
      if (m.score !== null) expect(m.score).toBeGreaterThanOrEqual(0);
    }
    const scored = r.metrics.filter((m: any) => m.score !== null);
    const mean = scored.reduce((s: number, m: any) => s + m.score * m.confidence, 0) / scored.reduce((s: number, m: any) => s + m.confidence, 0);
    expect(r.overall_score).toBeCloseTo(mean, 0);

    expect(r.sources).toEqual(
      expect.arrayContaining([
        { type: "person", id: janeId, title: "Jane Doe" },
        { type: "deal", id: dealId, title: "Ledgerly" },
        { type: "document", id: docId, title: "team-memo.pdf (page 1)" },
      ]),
    );
    expect(r.sources).toHaveLength(3);
    expectRealSources(r.sources, c.f.orgs.acme.id);
    expect(r.strengths.some((s: string) => s.startsWith("Leadership scores"))).toBe(true);
    expect(r.byKey.execution_track_record.missing_info).toEqual(["Companies founded or scaled before, and how they ended"]);
  });

  test("a founder the firm knows nothing about: every metric null with missing_info, no overall score, the thinness said as a risk", async () => {
    c = setup();
    const r = await assess(c, { name: "Nobody Known", company: "Stealth Co" });
    for (const m of r.metrics) {
      expect(m).toMatchObject({ score: null, confidence: 0 });
      expect(m.missing_info.length).toBeGreaterThan(0);
      expect(m.reasoning).toMatch(/^No /);
    }
    expect(r.overall_score).toBeNull();
    expect(r.sources).toEqual([]);
    expect(r.strengths).toEqual([]);
    expect(r.risks).toContain(
      "Thin evidence: only 0 of 5 metrics could be scored from what the firm has (unknown: domain expertise, execution track record, technical depth, leadership, network strength); treat the overall score with caution.",
    );
    expect(r.byKey.execution_track_record.missing_info).toContain("A deal analysis of Stealth Co (traction)");
  });

  test("a contact card without mail: network strength stays null and says what is missing; a namesake at another company is not taken", async () => {
    c = setup();
    hasCard(c.t.deps, c.f.users.alice.id, { email: "sam@ledgerly.io", name: "Sam Founder", company: "Ledgerly" });
    knows(c.t.deps, c.f.users.alice.id, { email: "sam@other.io", name: "Sam Founder" }, thread(10, 5, 2));
    seedDeal(c, "Ledgerly", [], { team: 50 });
    c.t.deps.db.$client.query("UPDATE deals SET domain = 'ledgerly.io' WHERE company_name = 'Ledgerly'").run();
    const r = await assess(c, { name: "Sam Founder", company: "Ledgerly" });
    expect(r.byKey.network_strength).toMatchObject({ score: null, confidence: 0 });
    expect(r.byKey.network_strength.reasoning).toContain("no mail or meetings with them are recorded");
    expect(r.byKey.network_strength.missing_info[0]).toMatch(/only a contact card is on file/);
    expect(r.sources.filter((s: any) => s.type === "person")).toEqual([{ type: "person", id: personId(c.t.deps, c.f.orgs.acme.id, "sam@ledgerly.io"), title: "Sam Founder" }]);
  });
});

const PROFILE = { login: "JaneDoe", name: "Jane Doe", bio: "Engineer. Distributed systems.", company: "@ledgerly", followers: 120, public_repos: 3, created_at: "2015-01-01T00:00:00Z" };
const REPOS = [
  { name: "ledger-core", stargazers_count: 300, language: "Rust", fork: false, description: "A ledger", pushed_at: "2026-10-01T00:00:00Z" },
  { name: "dash", stargazers_count: 40, language: "TypeScript", fork: false, description: null, pushed_at: "2026-09-01T00:00:00Z" },
  { name: "someone-elses", stargazers_count: 9000, language: "Go", fork: true, description: null, pushed_at: "2020-01-01T00:00:00Z" },
];

describe("GitHub enrichment", () => {
  test("a readable profile: technical depth from own repositories (forks left out), the GitHub name fills in the founder's", async () => {
    const gh = startGithubStub({ janedoe: { profile: PROFILE, repos: REPOS } });
    stops.push(gh.stop);
    c = setup(gh.env);
    const r = await assess(c, { github_url: "https://github.com/JaneDoe" });
    expect(gh.hits).toEqual(["/users/janedoe", "/users/janedoe/repos"]);
    expect(r.founder).toEqual({ name: "Jane Doe", linkedin_url: null, github_url: "https://github.com/janedoe", company: null });
    expect(r.byKey.technical_depth.reasoning).toContain("GitHub shows 2 public repositories of their own with 340 stars (Rust, TypeScript) and 120 followers");
    expect(r.byKey.technical_depth.reasoning).toContain("work in distributed systems");
    expect(r.byKey.technical_depth.score).toBeGreaterThan(80);
    expect(r.sources).toEqual([{ type: "github", id: "JaneDoe", title: "github.com/JaneDoe" }]);
  });

  test("an unknown GitHub user: the run still succeeds; missing_info and the risks say why", async () => {
    const gh = startGithubStub({});
    stops.push(gh.stop);
    c = setup(gh.env);
    const r = await assess(c, { name: "Jane Doe", github_url: "https://github.com/ghost-user" });
    expect(r.byKey.technical_depth.missing_info).toContain("GitHub profile could not be read: GitHub has no user ghost-user");
    expect(r.risks.some((s: string) => s.startsWith("GitHub profile could not be read"))).toBe(true);
  });

  test("a refused connection (offline) is missing evidence, not a failure; an address safe-fetch refuses likewise", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const closedPort = probe.port;
    probe.stop(true);
    c = setup({ DEALGRAPH_GITHUB_API_URL: `http://127.0.0.1:${closedPort}`, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" });
    const r = await assess(c, { name: "Jane Doe", github_url: "https://github.com/janedoe" });
    expect(r.byKey.technical_depth.missing_info).toContain("GitHub profile could not be read: the connection to GitHub was refused or dropped");
    c.t.close();

    // Without the development switch a loopback API address is never contacted.
    c = setup({ DEALGRAPH_GITHUB_API_URL: "https://127.0.0.1:9" });
    const blocked = await assess(c, { name: "Jane Doe", github_url: "https://github.com/janedoe" });
    expect(blocked.byKey.technical_depth.missing_info).toContain("GitHub profile could not be read: the GitHub API host does not resolve to a public internet address (offline?)");
  });
});
