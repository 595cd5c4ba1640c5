import { afterEach, describe, expect, test } from "bun:test";
import { graphWriter, type PersonFacts } from "../../../src/modules/network/network.graph.ts";
import { computeReachCandidates } from "../../../src/modules/network/network.reach-compute.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { seedIdentity, type Fixture } from "../../helpers/fixtures.ts";
import { importPortfolioBook } from "../../helpers/book.ts";
import { knows, thread } from "../../helpers/network.ts";

let t: TestApp;
let f: Fixture;
afterEach(() => t?.close());

const DAY = 86_400_000;
let n = 0;
/** A message from `from` to the user with others on copy: who is in contact with whom. */
function copied(userId: string, from: PersonFacts, others: PersonFacts[], daysAgo: number) {
  t.deps.db.transaction(() => {
    const w = graphWriter(t.deps, userId);
    w.interaction({
      sourceKey: `msg:reach-${++n}`,
      kind: "email",
      occurredAt: new Date(t.clock.now().getTime() - daysAgo * DAY),
      participantCount: 2 + others.length,
      touches: [{ person: from, direction: "received" }],
      others,
    });
    w.flush();
  });
}

const book = ["Fintech", "B2B payments", "Fintech infrastructure", "Climate software", "Digital health"];
const thesis = () => book;

const proxy = { email: "jane@bank.com", name: "Jane Proxy", title: "Partner" };
const founder = { email: "sam@ledgerly.io", name: "Sam Founder", title: "Co-founder & CEO", company: "Ledgerly (payments infrastructure)" };

function setup() {
  t = createTestApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") });
  f = seedIdentity(t.deps);
  knows(t.deps, f.users.alice.id, proxy, [...thread(16, 6, 2), { daysAgo: 5, direction: "meeting" }]);
}

describe("reach candidates", () => {
  test("a founder the user can reach through someone they know well, with reasons a partner can check", async () => {
    setup();
    copied(f.users.alice.id, proxy, [founder], 10);
    copied(f.users.alice.id, proxy, [founder, { email: "x@y.com", name: "Extra Person", title: "Engineer" }], 40);
    const stats = computeReachCandidates(t.deps, thesis);
    expect(stats.candidates).toBe(1);
    const res = await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(res.json.scope).toBe("key_user");
    expect(res.json.candidates).toHaveLength(1);
    const c = res.json.candidates[0];
    expect(c).toMatchObject({
      full_name: "Sam Founder",
      current_title: "Co-founder & CEO",
      current_company: "Ledgerly (payments infrastructure)",
      candidate_type: "founder",
      path_quality: "proxy_first_degree",
      is_proxy_first_degree: true,
      status: "new",
      first_seen_at: "2026-11-22T12:00:00.000Z",
    });
    expect(c.fit_score).toBeGreaterThan(0.5);
    expect(c.fit_score).toBeLessThanOrEqual(1);
    expect(c.fit_reasons[0]).toBe("Co-founder & CEO at Ledgerly (payments infrastructure)");
    expect(c.fit_reasons[1]).toBe("Fintech, like 3 of the 5 holdings and deals in the firm's book");
    expect(c.fit_reasons[2]).toMatch(/^You know Jane Proxy well \(strength \d+: 18 emails, 1 meeting, last in touch 2026-11-20\)$/);
    expect(c.fit_reasons[3]).toBe("Jane Proxy and Sam Founder were together on 2 emails or meetings in the last year, most recently on 2026-11-12");
  });

  test("not a candidate: seen with the proxy only once, not a founder, no name, or already known directly", async () => {
    setup();
    copied(f.users.alice.id, proxy, [founder], 10); // once only
    copied(f.users.alice.id, proxy, [{ email: "eng@co.com", name: "Eng", title: "Engineer" }], 10);
    copied(f.users.alice.id, proxy, [{ email: "eng@co.com", name: "Eng", title: "Engineer" }], 20);
    copied(f.users.alice.id, proxy, [{ email: "anon@startup.io", title: "Founder" }], 10);
    copied(f.users.alice.id, proxy, [{ email: "anon@startup.io", title: "Founder" }], 20);
    const known = { email: "kim@known.io", name: "Kim Known", title: "Founder & CEO" };
    copied(f.users.alice.id, proxy, [known], 10);
    copied(f.users.alice.id, proxy, [known], 20);
    knows(t.deps, f.users.alice.id, known, thread(10, 3, 1));
    expect(computeReachCandidates(t.deps, thesis).candidates).toBe(0);
  });

  test("a proxy who is only a weak acquaintance does not make a path", () => {
    t = createTestApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") });
    f = seedIdentity(t.deps);
    const weak = { email: "weak@bank.com", name: "Weak Tie" };
    knows(t.deps, f.users.alice.id, weak, thread(1, 1, 200));
    copied(f.users.alice.id, weak, [founder], 10);
    copied(f.users.alice.id, weak, [founder], 11);
    expect(computeReachCandidates(t.deps, thesis).candidates).toBe(0);
  });

  test("a sharing teammate's mail shows contact; a non-sharing teammate's does not; other orgs never", async () => {
    setup();
    // Bob does not share: his threads with Jane and Sam are invisible to Alice's computation.
    copied(f.users.bob.id, proxy, [founder], 10);
    copied(f.users.bob.id, proxy, [founder], 12);
    expect(computeReachCandidates(t.deps, thesis).candidates).toBe(0);
    t.deps.db.$client.query("UPDATE users SET share_network = 1 WHERE id = ?").run(f.users.bob.id);
    computeReachCandidates(t.deps, thesis);
    const alice = await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.read.secret });
    expect(alice.json.candidates.map((c: any) => c.full_name)).toEqual(["Sam Founder"]);
    const carol = await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.otherOrgWrite.secret });
    expect(carol.json.candidates).toEqual([]);
  });

  test("a rerun keeps first_seen_at and status, and drops founders no longer reachable", async () => {
    setup();
    copied(f.users.alice.id, proxy, [founder], 10);
    copied(f.users.alice.id, proxy, [founder], 20);
    computeReachCandidates(t.deps, thesis);
    const first = (await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.read.secret })).json.candidates[0];
    t.clock.advance(DAY);
    computeReachCandidates(t.deps, thesis);
    const again = (await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.read.secret })).json.candidates[0];
    expect(again.candidate_id).toBe(first.candidate_id);
    expect(again.first_seen_at).toBe(first.first_seen_at);
    expect(again.updated_at).toBe("2026-11-23T12:00:00.000Z");
    // Alice now knows Sam herself: no proxy needed any more.
    knows(t.deps, f.users.alice.id, founder, thread(10, 2, 1));
    expect(computeReachCandidates(t.deps, thesis)).toMatchObject({ candidates: 0, removed: 1 });
  });

  test("outside the book's sectors: a low fit that says so; no sector readable: says that too", async () => {
    setup();
    const robo = { email: "rob@bots.io", name: "Rob Bots", title: "Founder, robotics" };
    const vague = { email: "val@vague.io", name: "Val Vague", title: "CEO" };
    for (const p of [robo, vague]) {
      copied(f.users.alice.id, proxy, [p], 10);
      copied(f.users.alice.id, proxy, [p], 20);
    }
    computeReachCandidates(t.deps, thesis);
    const list = (await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.read.secret })).json.candidates;
    const byName = Object.fromEntries(list.map((c: any) => [c.full_name, c]));
    expect(byName["Rob Bots"].fit_reasons[1]).toBe("Robotics is outside the sectors of the firm's book");
    expect(byName["Val Vague"].fit_reasons[1]).toBe("No sector can be read from their title, so no thesis fit is claimed");
    expect(byName["Rob Bots"].fit_score).toBeLessThan(0.5);
  });

  test("limit bounds", async () => {
    setup();
    expect((await t.request("GET", "/api/v1/network/reach/candidates?limit=0", { key: f.keys.read.secret })).status).toBe(422);
    expect((await t.request("GET", "/api/v1/network/reach/candidates?limit=201", { key: f.keys.read.secret })).status).toBe(422);
  });
});

describe("the reach-candidates job", () => {
  test("is registered, scores against the imported portfolio book, and its output is what the endpoint serves", async () => {
    setup();
    importPortfolioBook(t.deps, f.orgs.acme.id);
    // An analysed fintech deal in the pipeline counts too (its facts as the deal engine stores them).
    t.deps.db.$client
      .query(`INSERT INTO deals (id, org_id, created_by, kind, source, target_key, facts, created_at, updated_at) VALUES (?, ?, ?, 'company', 'upload', 'name:pay', ?, 'now', 'now')`)
      .run(crypto.randomUUID(), f.orgs.acme.id, f.users.alice.id, JSON.stringify({ company: { sector: "fintech" } }));
    copied(f.users.alice.id, proxy, [founder], 10);
    copied(f.users.alice.id, proxy, [founder], 30);
    const { findJob } = await import("../../../jobs/index.ts");
    expect(await findJob("reach-candidates")!.runOnce(t.deps)).toMatchObject({ candidates: 1 });
    const c = (await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.read.secret })).json.candidates[0];
    // The book: Robotics (two funds' holdings of one company), Fintech, Health, AI, Climate; and the fintech deal.
    expect(c.fit_reasons[1]).toBe("Fintech, like 2 of the 7 holdings and deals in the firm's book");
    // Another org's key sees none of it.
    expect((await t.request("GET", "/api/v1/network/reach/candidates", { key: f.keys.otherOrgWrite.secret })).json.candidates).toEqual([]);
  });
});
