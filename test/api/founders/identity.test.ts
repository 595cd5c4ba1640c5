// Whose facts are they? The built-in founder engine credits the founder only with what is theirs:
// a namesake at another company is not them, a name alone does not pick between namesakes, a
// LinkedIn URL identifies exactly, and a sentence that names the founder while describing someone
// else (alongside, through, a relative clause) gives them nothing of the other person's record.
import { describe, expect, test } from "bun:test";
import { knows, personId, thread } from "../../helpers/network.ts";
import { assess, seedDeal, seedDocument, setup, type Ctx, type Metric } from "./helpers.ts";

let c: Ctx;


const BIGCORP_JANE = { email: "jane.doe@bigcorp.com", name: "Jane Doe", title: "VP Engineering", company: "BigCorp" };
const INTERN_SENTENCE =
  "Jane Doe joined as an intern last summer alongside the CEO John Roe, who previously founded and exited two companies and led a team of 200 engineers.";

/** A document of an unrelated deal with these pages. */
function memo(pages: string[]) {
  const dealId = seedDeal(c, "Orbitly", [], {});
  return seedDocument(c, dealId, "intro-notes.pdf", pages);
}

describe("the audited case: a namesake elsewhere and someone else's record in the founder's sentence", () => {
  test("no CEO role, exit or team of 200 for the intern; the BigCorp namesake is not the founder", async () => {
    c = setup();
    knows(c.t.deps, c.f.users.alice.id, BIGCORP_JANE, thread(30, 3, 2));
    const docId = memo([INTERN_SENTENCE]);
    const r = await assess(c, { name: "Jane Doe", company: "Stealth Startup" });

    // The network: the BigCorp Jane Doe is at another company, so not taken; said in the reasoning.
    expect(r.byKey.network_strength).toMatchObject({ score: null, confidence: 0 });
    expect(r.byKey.network_strength.reasoning).toContain("Jane Doe (VP Engineering, BigCorp, bigcorp.com)");
    expect(r.byKey.network_strength.reasoning).toContain("another company than Stealth Startup");
    expect(r.sources.filter((s: { type: string }) => s.type === "person")).toEqual([]);

    // The sentence: only "Jane Doe joined as an intern last summer" is hers.
    const all = JSON.stringify(r.metrics);
    for (const other of ["a CEO role", "an exit", "teams they led", "a company they founded", "a senior role", "a management role", "an engineering background"]) {
      expect(all).not.toContain(other);
    }
    expect(r.byKey.execution_track_record.score).toBeNull();
    expect(r.byKey.leadership.score).toBeLessThan(40);
    expect(r.byKey.leadership.reasoning).toContain("a junior role (intern)");
    expect(r.byKey.leadership.confidence).toBeLessThan(0.6);
    expect(r.byKey.leadership.missing_info.length).toBeGreaterThan(0);
    expect(r.strengths).toEqual([]);
    expect(r.overall_score).toBeLessThan(45);
    expect(r.sources).toEqual([{ type: "document", id: docId, title: "intro-notes.pdf (page 1)" }]);

    // Risks say what is known against her, and what is unknown.
    expect(r.risks).toContain('Leadership: the evidence mentions a junior role (intern) (document "intro-notes.pdf (page 1)").');
    const thin = r.risks.find((s: string) => s.startsWith("Thin evidence"));
    expect(thin).toBe(
      "Thin evidence: only 1 of 5 metrics could be scored from what the firm has (unknown: domain expertise, execution track record, technical depth, network strength); treat the overall score with caution.",
    );
  });
});

describe("identity", () => {
  test("a name alone with namesakes in the network: none is merged; they are listed and the risk says so", async () => {
    c = setup();
    knows(c.t.deps, c.f.users.alice.id, BIGCORP_JANE, thread(30, 3, 2));
    knows(c.t.deps, c.f.users.alice.id, { email: "jane@doe-family.net", name: "Jane Doe" }, thread(5, 10, 4));
    const r = await assess(c, { name: "Jane Doe" });
    expect(r.byKey.network_strength).toMatchObject({ score: null, confidence: 0 });
    expect(r.byKey.network_strength.reasoning).toMatch(/^2 people named Jane Doe are in the firm's network/);
    expect(r.byKey.network_strength.reasoning).toContain("Jane Doe (VP Engineering, BigCorp, bigcorp.com)");
    expect(r.byKey.network_strength.reasoning).toContain("Jane Doe (doe-family.net)");
    expect(r.byKey.network_strength.missing_info).toContain("The founder's company (`company`) or LinkedIn URL (`linkedin_url`), to tell namesakes apart");
    expect(r.byKey.leadership.score).toBeNull(); // the VP title is a namesake's
    expect(r.sources).toEqual([]);
    expect(r.overall_score).toBeNull();
    expect(r.risks).toContain("Identity not confirmed: 2 people named Jane Doe are in the firm's records and none could be tied to this founder; nothing of theirs was used.");
  });

  test("a name alone with one namesake: still not merged (nothing ties them to the founder)", async () => {
    c = setup();
    knows(c.t.deps, c.f.users.alice.id, BIGCORP_JANE, thread(30, 3, 2));
    const r = await assess(c, { name: "Jane Doe" });
    expect(r.byKey.network_strength.score).toBeNull();
    expect(r.byKey.network_strength.reasoning).toMatch(/^1 person named Jane Doe is in the firm's network/);
    expect(r.byKey.domain_expertise.score).toBeNull();
    expect(r.sources).toEqual([]);
  });

  test("the given company picks the namesake at that company (by its contact company) and leaves the other", async () => {
    c = setup();
    knows(c.t.deps, c.f.users.alice.id, BIGCORP_JANE, thread(30, 3, 2));
    knows(c.t.deps, c.f.users.alice.id, { email: "jane@quillpay.com", name: "Jane Doe", title: "Founder & CEO", company: "Quillpay" }, thread(8, 6, 3));
    const r = await assess(c, { name: "Jane Doe", company: "Quillpay" });
    const quill = personId(c.t.deps, c.f.orgs.acme.id, "jane@quillpay.com");
    expect(r.sources.filter((s: { type: string }) => s.type === "person")).toEqual([{ type: "person", id: quill, title: "Jane Doe" }]);
    expect(r.byKey.network_strength.reasoning).toMatch(/^Alice Archer is in touch with them \(\w+, strength [\d.]+, 8 emails/);
    expect(r.byKey.leadership.reasoning).toContain("a CEO role");
    expect(r.byKey.leadership.reasoning).not.toContain("a management role"); // BigCorp's VP title
  });

  test("a LinkedIn URL identifies exactly and beats name matching; a namesake's team listing with another profile is not theirs", async () => {
    c = setup();
    knows(c.t.deps, c.f.users.alice.id, { ...BIGCORP_JANE, linkedinUrl: "https://www.linkedin.com/in/jane-doe-bigcorp" }, thread(30, 3, 2));
    knows(c.t.deps, c.f.users.alice.id, { email: "jane@gmail.com", name: "Jane Doe", linkedinUrl: "https://www.linkedin.com/in/jane-doe-42" }, thread(6, 9, 5));
    seedDeal(c, "Megacorp Labs", [{ name: "Jane Doe", title: "CEO", linkedin_url: "https://www.linkedin.com/in/jane-doe-bigcorp" }], { team: 90 });
    const r = await assess(c, { name: "Jane Doe", linkedin_url: "https://www.linkedin.com/in/jane-doe-42" });
    const mine = personId(c.t.deps, c.f.orgs.acme.id, "jane@gmail.com");
    expect(r.sources).toEqual([{ type: "person", id: mine, title: "Jane Doe" }]);
    expect(r.byKey.network_strength.reasoning).toMatch(/^Alice Archer is in touch with them \(\w+, strength [\d.]+, 6 emails/);
    expect(r.byKey.leadership.score).toBeNull();
  });

  test("a deal's team listing by name counts only at the founder's company", async () => {
    c = setup();
    const theirs = seedDeal(c, "Ledgerly", [{ name: "Jane Doe", title: "Co-founder & CEO", linkedin_url: null }], { team: 80 });
    seedDeal(c, "Megacorp Labs", [{ name: "Jane Doe", title: "Chief Technology Officer", linkedin_url: null }], { team: 90 });
    const r = await assess(c, { name: "Jane Doe", company: "Ledgerly" });
    expect(r.sources).toEqual([{ type: "deal", id: theirs, title: "Ledgerly" }]);
    expect(r.byKey.technical_depth.score).toBeNull();

    const nameOnly = await assess(c, { name: "Jane Doe", company: "Quillpay" });
    expect(nameOnly.sources).toEqual([]);
    expect(nameOnly.byKey.leadership.score).toBeNull();
  });
});

describe("whose sentence is it", () => {
  test("two people in one sentence: each keeps their own facts", async () => {
    c = setup();
    memo(["John Roe is the CEO and previously sold two companies, while Jane Doe runs marketing with 6 years of experience in retail."]);
    const r = await assess(c, { name: "Jane Doe", company: "Ledgerly" });
    expect(r.byKey.leadership.score).toBeNull();
    expect(r.byKey.execution_track_record.score).toBeNull();
    expect(r.byKey.domain_expertise.reasoning).toContain("6 years of experience");
  });

  test("the founder as object: we met Jane Doe through John Roe, who founded Paylane (and he led a team)", async () => {
    c = setup();
    memo(["We met Jane Doe through John Roe, who founded Paylane and sold it to Visa. He led a team of 80 engineers."]);
    const r = await assess(c, { name: "Jane Doe", company: "Ledgerly" });
    for (const m of r.metrics.filter((m: Metric) => m.key !== "network_strength")) expect(m.score, m.key).toBeNull();
    expect(r.sources).toEqual([]);
  });

  test("the founder as subject keeps her facts: relative clause, pronoun, coordinated subject, agent of a passive", async () => {
    c = setup();
    memo([
      "Jane Doe, who previously founded Paylane and sold it to Visa, worked alongside the CTO John Roe. She led a team of 40 at Stripe.",
      "Jane Doe and John Roe co-founded Ledgerly in 2021.",
      "The data platform was built by Jane Doe over three years.",
    ]);
    const r = await assess(c, { name: "Jane Doe", company: "Ledgerly" });
    expect(r.byKey.execution_track_record.reasoning).toContain("an exit");
    expect(r.byKey.execution_track_record.reasoning).toContain("a company they founded");
    expect(r.byKey.leadership.reasoning).toContain("teams they led");
    expect(r.byKey.technical_depth.reasoning).toContain("systems they built");
    expect(r.byKey.technical_depth.reasoning).not.toContain("a CTO role"); // John Roe's
    expect(JSON.stringify(r.metrics)).not.toContain("a C-level role");
  });
});

describe("which company is theirs", () => {
  test("a company name is the same company only when it is equal, legal forms aside: Meta is not Metabase, Open AI is not OpenAI Labs; Ledgerly, Inc. is Ledgerly", async () => {
    c = setup();
    seedDeal(c, "Metabase", [{ name: "Jane Doe", title: "Co-founder & CEO", linkedin_url: null }], { team: 80 });
    seedDeal(c, "OpenAI Labs", [{ name: "Sam Park", title: "Co-founder & CEO", linkedin_url: null }], { team: 80 });
    const ledgerly = seedDeal(c, "Ledgerly", [{ name: "Ana Ruiz", title: "Co-founder & CEO", linkedin_url: null }], { team: 80 });

    const meta = await assess(c, { name: "Jane Doe", company: "Meta" });
    expect(meta.sources).toEqual([]);
    expect(meta.byKey.leadership.score).toBeNull();
    const openai = await assess(c, { name: "Sam Park", company: "Open AI" });
    expect(openai.sources).toEqual([]);

    const inc = await assess(c, { name: "Ana Ruiz", company: "Ledgerly, Inc." });
    expect(inc.sources).toEqual([{ type: "deal", id: ledgerly, title: "Ledgerly" }]);
    expect(inc.byKey.leadership.reasoning).toContain("a CEO role");
  });

  test("a team listing with letters beyond ASCII is matched to the founder's name (case folded the same way on both sides)", async () => {
    c = setup();
    const theirs = seedDeal(c, "Ledgerly", [{ name: "Élodie Brûlé", title: "Co-founder & CEO", linkedin_url: null }], { team: 80 });
    const r = await assess(c, { name: "ÉLODIE BRÛLÉ", company: "Ledgerly" });
    expect(r.sources).toEqual([{ type: "deal", id: theirs, title: "Ledgerly" }]);
    expect(r.byKey.leadership.reasoning).toContain("a CEO role"); // from the team listing, not only the company's deal
  });
});
