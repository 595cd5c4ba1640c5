// Reach candidates on a hand-built network and a hand-built firm book: who is a founder
// candidate, fit against the sectors AND stages of the firm's holdings and deals, reasons that
// state checkable facts (and say when a fact is missing), threads counted once across mailboxes,
// and candidates resting on a teammate's mail withdrawn the moment that teammate stops sharing.
import { describe, expect, test } from "bun:test";
import { graphWriter, type PersonFacts } from "../../../src/modules/network/network.graph.ts";
import { dealsService } from "../../../src/modules/deals/deals.service.ts";
import { computeReachCandidates } from "../../../src/modules/network/network.reach-compute.ts";
import { dealOf, indexBook, isHeldCompany } from "../../../src/modules/network/network.reach-reasons.ts";
import { thesisFrom, type FirmBook } from "../../../src/modules/network/network.thesis.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { importPortfolioBook } from "../../helpers/book.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";

let t: TestApp;
let f: Fixture;

const DAY = 86_400_000;
let n = 0;
/** A message from `from` to the user with others on copy: who is in contact with whom. `key` reuses a Message-ID. */
function copied(userId: string, from: PersonFacts, others: PersonFacts[], daysAgo: number, key = `msg:reach-${++n}`) {
  t.deps.db.transaction(() => {
    const w = graphWriter(t.deps, userId);
    w.interaction({
      sourceKey: key,
      kind: "email",
      occurredAt: new Date(t.clock.now().getTime() - daysAgo * DAY),
      participantCount: 2 + others.length,
      touches: [{ person: from, direction: "received" }],
      others,
    });
    w.flush();
  });
}

// Fintech is the firm's biggest sector (6 companies); climate has 3 companies and 2 deals, one in
// diligence. Seed is its most common stage (4 of 9 holdings).
const BOOK: FirmBook = {
  holdings: [
    { name: "Verdant", website: "verdant.earth", sector: "Climate software", stage: "seed" },
    { name: "Helio Grid", website: "heliogrid.com", sector: "Climate software", stage: "series_a" },
    { name: "Gridline", website: "gridline.io", sector: "Energy", stage: "seed" },
    { name: "Bolt Pay", website: "boltpay.io", sector: "Fintech", stage: "seed" },
    { name: "Ledgerly", website: "ledgerly.io", sector: "Payments infrastructure", stage: "series_a" },
    { name: "Coinrail", website: "coinrail.com", sector: "Fintech", stage: "series_b" },
    { name: "Tallybook", website: "tallybook.com", sector: "B2B payments", stage: "seed" },
    { name: "Tallybook", website: "https://www.tallybook.com/", sector: "B2B payments", stage: "series_b" }, // a second fund's holding of the same company
    { name: "Payfast", website: "payfast.com", sector: "Fintech", stage: "growth" },
    { name: "Finmo", website: "finmo.com", sector: "Lending", stage: "growth" },
  ],
  deals: [
    { name: "Carbonstack", domain: "carbonstack.io", kind: "company", pipelineStage: "diligence", sector: "Climate software", roundStage: "Seed" },
    { name: "Voltway", domain: "voltway.io", kind: "company", pipelineStage: "new", sector: "Energy storage", roundStage: "Series B" },
    { name: "Mediq", domain: "mediq.health", kind: "company", pipelineStage: "screening", sector: "Digital health", roundStage: "Series A" },
    { name: "Some Fund III", domain: "somefund.com", kind: "fund", pipelineStage: "new", sector: null, roundStage: null },
  ],
};
const book = () => BOOK;

const proxy = { email: "jane@bank.com", name: "Jane Proxy", title: "Partner" };

function setup() {
  ({ t, f } = seededApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") }));
  // 16 emails (the latest 2 days ago) and a meeting 5 days ago: a strong relationship of Alice's
  // (each copied() thread adds an email from Jane).
  knows(t.deps, f.users.alice.id, proxy, [...thread(16, 6, 2), { daysAgo: 5, direction: "meeting" }]);
}

/** The person seen with the proxy on two threads of Alice's (10 and 40 days ago). */
function twice(person: PersonFacts, userId = f.users.alice.id) {
  copied(userId, proxy, [person], 10);
  copied(userId, proxy, [person], 40);
}

const candidates = async (key = f.keys.read.secret) => (await t.request("GET", "/api/v1/network/reach/candidates", { key })).json.candidates as any[];
const byName = async () => Object.fromEntries((await candidates()).map((c) => [c.full_name, c]));

describe("reach candidates", () => {
  test("a founder reachable through someone the user knows well, with reasons that state checkable facts", async () => {
    setup();
    twice({ email: "ana@carbonwise.io", name: "Ana Carbon", title: "Co-founder & CTO (carbon accounting)" });
    expect(computeReachCandidates(t.deps, book).candidates).toBe(1);
    const [c] = await candidates();
    expect(c).toMatchObject({
      full_name: "Ana Carbon",
      current_title: "Co-founder & CTO (carbon accounting)",
      candidate_type: "founder",
      path_quality: "proxy_first_degree",
      is_proxy_first_degree: true,
      status: "new",
      first_seen_at: "2026-11-22T12:00:00.000Z",
    });
    expect(c.fit_reasons).toEqual([
      "Co-founder & CTO (carbon accounting)",
      // Carbon accounting is climate software, not fintech, though "accounting" alone would be and fintech is the bigger sector.
      "Climate, from their title: the firm has backed 3 climate companies (Verdant, Helio Grid, Gridline) and has seen 2 climate deals (1 in diligence or at IC)",
      "No round of theirs is on record, so no stage fit is claimed",
      expect.stringMatching(/^Reachable through Jane Proxy \(strong, strength \d+\): 18 emails and 1 meeting with you since 2026-08-22, last on 2026-11-20$/),
      "Jane Proxy and Ana Carbon were on 2 emails together in the last year, most recently on 2026-11-12 (seen in your mail and calendar)",
    ]);
    // Sector fit 3+2 against fintech's 6; no stage; a strong proxy; 2 of 6 threads.
    expect(c.fit_score).toBeGreaterThan(0.6);
    expect(c.fit_score).toBeLessThan(0.85);
  });

  test("stages: a CEO whose round is in the firm's pipeline is a candidate, fitted against the stages of the book", async () => {
    setup();
    twice({ email: "ceo@carbonstack.io", name: "Cara Stack", title: "CEO", company: "Carbonstack" });
    twice({ email: "vic@voltway.io", name: "Vic Volt", title: "CEO" });
    twice({ email: "lee@mediq.health", name: "Lee Medi", title: "Founder & CEO" });
    computeReachCandidates(t.deps, book);
    const c = await byName();
    expect(c["Cara Stack"].fit_reasons[0]).toBe("CEO at Carbonstack, a company in the firm's deal flow (stage: diligence)");
    expect(c["Vic Volt"].fit_reasons[0]).toBe("CEO at Voltway, a company in the firm's deal flow (stage: new)");
    // Tallybook counts once, at the stage of the first of its two holdings.
    expect(c["Cara Stack"].fit_reasons[2]).toBe("Raising a seed round (per their deal, Carbonstack): seed is the stage of 4 of the firm's 9 holdings and 1 of its 3 deals with a known round");
    expect(c["Vic Volt"].fit_reasons[2]).toBe("Raising a Series B round (per their deal, Voltway): Series B is the stage of 1 of the firm's 9 holdings and 1 of its 3 deals with a known round");
    // No sector in Lee's title: their company's deal says it.
    expect(c["Lee Medi"].fit_reasons[1]).toBe("Health, from their deal (Mediq): the firm holds no health company and has seen 1 health deal");
    expect(c["Lee Medi"].fit_reasons[2]).toBe("Raising a Series A round (per their deal, Mediq): Series A is the stage of 2 of the firm's 9 holdings and 1 of its 3 deals with a known round");
    // Same sector, same proxy, same contact: the firm's most common stage fits better.
    expect(c["Cara Stack"].fit_score).toBeGreaterThan(c["Vic Volt"].fit_score);
    expect(c["Vic Volt"].fit_score).toBeGreaterThan(c["Lee Medi"].fit_score);
  });

  test("who is no candidate: a CEO with no founder wording and no round on record, a founder the firm backs, a one-off, a non-founder, no name, someone known directly", async () => {
    setup();
    twice({ email: "boss@megacorp.com", name: "Big Boss", title: "CEO", company: "Megacorp (5,000 people)" });
    twice({ email: "chief@bank.com", name: "Chief Exec", title: "Chief Executive Officer" });
    twice({ email: "founder@boltpay.io", name: "Bo Pay", title: "Founder & CEO" }); // a portfolio company's founder
    copied(f.users.alice.id, proxy, [{ email: "once@startup.io", name: "Once Only", title: "Founder" }], 10);
    twice({ email: "eng@co.com", name: "Eng", title: "Engineer" });
    twice({ email: "anon@startup.io", title: "Founder" });
    const known = { email: "kim@known.io", name: "Kim Known", title: "Founder & CEO" };
    twice(known);
    knows(t.deps, f.users.alice.id, known, thread(10, 3, 1));
    expect(computeReachCandidates(t.deps, book).candidates).toBe(0);
  });

  test("sector names read as a partner writes them, and a sector outside the book says so", async () => {
    setup();
    twice({ email: "a@ai.io", name: "Ai Founder", title: "Founder, AI infrastructure" });
    twice({ email: "s@saas.io", name: "Saas Founder", title: "Co-founder (vertical SaaS)" });
    twice({ email: "r@bots.io", name: "Rob Bots", title: "Founder, robotics" });
    twice({ email: "v@vague.io", name: "Val Vague", title: "Founder" });
    const withAi: FirmBook = { ...BOOK, holdings: [...BOOK.holdings, { name: "Delta AI", website: "delta.ai", sector: "AI", stage: "seed" }, { name: "Flowdesk", website: "flowdesk.com", sector: "Vertical SaaS", stage: "seed" }] };
    computeReachCandidates(t.deps, () => withAi);
    const c = await byName();
    expect(c["Ai Founder"].fit_reasons[1]).toBe("AI, from their title: the firm has backed 1 AI company (Delta AI)");
    expect(c["Saas Founder"].fit_reasons[1]).toBe("SaaS, from their title: the firm has backed 1 SaaS company (Flowdesk)");
    expect(c["Rob Bots"].fit_reasons[1]).toBe("Robotics, from their title, is outside the sectors of the firm's holdings and deals");
    expect(c["Val Vague"].fit_reasons[1]).toBe("No sector can be read from their title, so no sector fit is claimed");
    expect(c["Rob Bots"].fit_score).toBeLessThan(c["Ai Founder"].fit_score);
  });

  test("a proxy who is only a weak acquaintance does not make a path", () => {
    ({ t, f } = seededApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") }));
    const weak = { email: "weak@bank.com", name: "Weak Tie" };
    knows(t.deps, f.users.alice.id, weak, thread(1, 1, 200));
    copied(f.users.alice.id, weak, [{ email: "sam@x.io", name: "Sam", title: "Founder" }], 10);
    copied(f.users.alice.id, weak, [{ email: "sam@x.io", name: "Sam", title: "Founder" }], 11);
    expect(computeReachCandidates(t.deps, book).candidates).toBe(0);
  });

  test("one thread in two partners' mailboxes counts once", () => {
    setup();
    t.deps.db.$client.query("UPDATE users SET share_network = 1 WHERE id = ?").run(f.users.bob.id);
    const sam = { email: "sam@x.io", name: "Sam", title: "Founder" };
    copied(f.users.alice.id, proxy, [sam], 10, "msg:same-thread@x");
    copied(f.users.bob.id, proxy, [sam], 10, "msg:same-thread@x");
    expect(computeReachCandidates(t.deps, book).candidates).toBe(0);
  });
});

describe("reach candidates and sharing", () => {
  const sam = { email: "sam@ledgerly.dev", name: "Sam Founder", title: "Co-founder & CEO", company: "Ledgerly Dev (payments infrastructure)" };

  test("a non-sharing teammate's mail never counts; other orgs never see anything", async () => {
    setup();
    twice(sam, f.users.bob.id); // Bob does not share
    expect(computeReachCandidates(t.deps, book).candidates).toBe(0);
    t.deps.db.$client.query("UPDATE users SET share_network = 1 WHERE id = ?").run(f.users.bob.id);
    computeReachCandidates(t.deps, book);
    const [c] = await candidates();
    expect(c.fit_reasons[4]).toMatch(/\(seen in Bob Baker's mail and calendar\)$/);
    expect(await candidates(f.keys.otherOrgWrite.secret)).toEqual([]);
  });

  test("opting out withdraws at once every candidate that rests on the teammate's mail; the next run rebuilds from what is still shared", async () => {
    setup();
    const orgs = orgsService(t.deps);
    orgs.setSharing(f.users.bob.id, true);
    const pat = { email: "pat@mixed.io", name: "Pat Mixed", title: "Founder" };
    twice(sam, f.users.bob.id); // only in Bob's mail
    twice(pat); // in Alice's mail twice...
    copied(f.users.bob.id, proxy, [pat], 20); // ...and once more in Bob's
    computeReachCandidates(t.deps, book);
    expect((await candidates()).map((c) => c.full_name).sort()).toEqual(["Pat Mixed", "Sam Founder"]);
    expect((await byName())["Pat Mixed"].fit_reasons[4]).toMatch(/^Jane Proxy and Pat Mixed were on 3 emails together .*\(seen in your and Bob Baker's mail and calendar\)$/);

    orgs.setSharing(f.users.bob.id, false); // what `admin user share off` and the web opt-out call
    expect(await candidates()).toEqual([]);
    // Bob's own list is his: his mail still counts for him.
    expect(await candidates(f.keys.bobRead.secret)).toEqual([]);
    computeReachCandidates(t.deps, book);
    const after = await candidates();
    expect(after.map((c) => c.full_name)).toEqual(["Pat Mixed"]);
    expect(after[0].fit_reasons[4]).toMatch(/^Jane Proxy and Pat Mixed were on 2 emails together .*\(seen in your mail and calendar\)$/);
  });

  test("a rerun keeps first_seen_at and status, and drops founders no longer reachable", async () => {
    setup();
    twice(sam);
    computeReachCandidates(t.deps, book);
    const [first] = await candidates();
    t.clock.advance(DAY);
    computeReachCandidates(t.deps, book);
    const [again] = await candidates();
    expect(again.candidate_id).toBe(first.candidate_id);
    expect(again.first_seen_at).toBe(first.first_seen_at);
    expect(again.updated_at).toBe("2026-11-23T12:00:00.000Z");
    knows(t.deps, f.users.alice.id, sam, thread(10, 2, 1)); // Alice now knows Sam herself
    expect(computeReachCandidates(t.deps, book)).toMatchObject({ candidates: 0, removed: 1 });
  });

  test("limit bounds", async () => {
    setup();
    expect((await t.request("GET", "/api/v1/network/reach/candidates?limit=0", { key: f.keys.read.secret })).status).toBe(422);
    expect((await t.request("GET", "/api/v1/network/reach/candidates?limit=201", { key: f.keys.read.secret })).status).toBe(422);
  });
});

describe("the reach-candidates job", () => {
  test("reads the firm's book through the portfolio and deals services, and its output is what the endpoint serves", async () => {
    setup();
    importPortfolioBook(t.deps, f.orgs.acme.id);
    // An analysed fintech deal raising a seed round, in screening (its facts as the deal engine stores them).
    const facts = { company: { name: "Paystack Two", domain: "paystack2.com", sector: "fintech" }, round: { stage: "seed" }, team: [] };
    t.deps.db.$client
      .query(`INSERT INTO deals (id, org_id, created_by, company_name, domain, kind, stage, source, target_key, facts, created_at, updated_at) VALUES (?, ?, ?, 'Paystack Two', 'paystack2.com', 'company', 'screening', 'upload', 'name:pay', ?, 'now', 'now')`)
      .run(crypto.randomUUID(), f.orgs.acme.id, f.users.alice.id, JSON.stringify(facts));
    twice({ email: "cto@paystack2.com", name: "Tia Pay", title: "CEO" });
    twice({ email: "sam@ledgerly.dev", name: "Sam Founder", title: "Founder (payments)" });
    const { findJob } = await import("../../../jobs/index.ts");
    expect(await findJob("reach-candidates")!.runOnce(t.deps)).toMatchObject({ candidates: 2 });
    const c = await byName();
    // The book: Acme Robotics (two funds' holdings of one company), Bolt Payments (fintech, seed), Cedar Health, Delta AI (seed), Échelle (seed).
    expect(c["Sam Founder"].fit_reasons[1]).toBe("Fintech, from their title: the firm has backed 1 fintech company (Bolt Payments) and has seen 1 fintech deal");
    expect(c["Tia Pay"].fit_reasons[0]).toBe("CEO at Paystack Two, a company in the firm's deal flow (stage: screening)");
    expect(c["Tia Pay"].fit_reasons[2]).toBe("Raising a seed round (per their deal, Paystack Two): seed is the stage of 3 of the firm's 5 holdings and 1 of its 1 deal with a known round");
    expect(await candidates(f.keys.otherOrgWrite.secret)).toEqual([]);
  });
});

describe("the firm's book as the job reads it", () => {
  test("each deal as its detail shows it, read in one query: facts when analysed, the submission's name and domain otherwise", () => {
    setup();
    const insert = t.deps.db.$client.query(
      `INSERT INTO deals (id, org_id, created_by, company_name, domain, kind, stage, source, target_key, facts, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'upload', ?, ?, ?, ?)`,
    );
    const facts = (name: string | null, domain: string | null, sector: string | null, round: string | null) =>
      JSON.stringify({ company: { name, domain, sector }, round: { stage: round }, team: [] });
    const rows: [string | null, string | null, string, string, string | null, string][] = [
      ["Paystack Two", "paystack2.com", "company", "screening", facts("Paystack Two Ltd", null, "fintech", "seed"), "2026-11-01"],
      ["Carbonstack", null, "company", "diligence", facts(null, "carbonstack.io", "Climate software", null), "2026-11-02"],
      ["Not Analysed Yet", "notyet.io", "company", "new", null, "2026-11-03"],
      ["Some Fund III", "somefund.com", "fund", "ic", facts("Some Fund III", "somefund.com", null, null), "2026-11-04"],
    ];
    for (const [name, domain, kind, stage, f_, at] of rows) insert.run(crypto.randomUUID(), f.orgs.acme.id, f.users.alice.id, name, domain, kind, stage, `name:${name}`, f_, at, at);
    const deals = dealsService(t.deps);
    const viaDetail = deals.list(f.orgs.acme.id, { limit: 200, offset: 0 }).deals.map((row) => {
      const d = deals.detail(f.orgs.acme.id, row.deal_id, "summary");
      return { name: d.company.name, domain: d.company.domain, kind: d.kind, pipelineStage: d.stage, sector: d.company.sector, roundStage: d.round.stage };
    });
    expect(deals.bookFacts(f.orgs.acme.id)).toEqual(viaDetail);
    expect(viaDetail.map((d) => d.name)).toEqual(["Some Fund III", "Not Analysed Yet", "Carbonstack", "Paystack Two Ltd"]);
    expect(deals.bookFacts(f.orgs.globex.id)).toEqual([]);
  });

  test("a holding's website is read as a domain (scheme, www., port, path and trailing dot aside): one company, and its founders are held", () => {
    const holdings = [
      { name: "Tallybook", website: "tallybook.com", sector: "Fintech", stage: "seed" },
      { name: "Tallybook", website: "https://www.Tallybook.com.:443/pricing", sector: "Fintech", stage: "seed" },
    ];
    const book = { holdings, deals: [] };
    expect(thesisFrom(book).sectors.get("fintech")!.companies).toEqual(["Tallybook"]);
    expect(thesisFrom(book).holdingsWithStage).toBe(1);
    const index = indexBook({ holdings: [{ name: "Verdant Earth Inc", website: "https://verdant.earth:8443/", sector: null, stage: null }], deals: [] });
    const person = { display_name: "Vera", title: "Founder", company: null, domain: "verdant.earth" };
    expect(isHeldCompany(person, index)).toBe(true);
    expect(isHeldCompany({ ...person, domain: "other.earth", company: "verdant earth inc" }, index)).toBe(true);
    expect(isHeldCompany({ ...person, domain: "other.earth" }, index)).toBe(false);
  });

  test("a person's deal: by domain or by company name, the newest deal when both match different ones; never a fund", () => {
    const deal = (name: string, domain: string | null, kind: "company" | "fund" = "company") => ({ name, domain, kind, pipelineStage: "new", sector: null, roundStage: null });
    const index = indexBook({ holdings: [], deals: [deal("Acme Two", "acme2.io"), deal("Acme", "acme.io"), deal("Fundco", "fundco.com", "fund")] });
    const person = { display_name: "Ann", title: "CEO", company: "Acme", domain: "acme2.io" };
    expect(dealOf(person, index)?.name).toBe("Acme Two");
    expect(dealOf({ ...person, domain: "gmail-like.example" }, index)?.name).toBe("Acme");
    expect(dealOf({ ...person, domain: "www.acme.io", company: null }, index)?.name).toBe("Acme");
    expect(dealOf({ ...person, domain: "fundco.com", company: null }, index)).toBeNull();
  });
});
