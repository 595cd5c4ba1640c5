// The built-in engine's facts over decks and websites written the way real ones are: cover
// boilerplate, cookie banners, other people's money in the same sentence as "raise", stages that
// describe customers, advisors next to the team, European number formats. Each case states every
// fact it expects, the nulls included: a fact the material does not state must stay null.
import { describe, expect, test } from "bun:test";
import type { SourcePage } from "../../src/engines/deal-engine.ts";
import { htmlToText } from "../../src/documents/html-text.ts";
import { analyse, deckPages, FERNHILL, FLOWCASH_HTML, KALTEWERK, NORTHWIND, QUILLSTACK, TIDEPOOL, ZEPHYR } from "./deal-facts-corpus.ts";

describe("company facts", () => {
  test("Northwind: cover boilerplate, customers' stage, the team among advisors, the round from the ask", async () => {
    const a = await analyse(NORTHWIND);
    expect(a.kind).toBe("company");
    expect(a.facts.company).toEqual({
      name: "Northwind Robotics",
      domain: "northwindrobotics.com",
      website: "https://northwindrobotics.com",
      description: "Northwind builds autonomous mobile robots that bring shelves to pickers.",
      sector: "robotics",
      location: null,
      founded_year: null,
    });
    // No stage is stated for this round: "Series A" describes customers, "pre-seed" an earlier round.
    expect(a.facts.round).toEqual({ stage: null, amount: 12_500_000, currency: "USD", pre_money_valuation: null });
    expect(a.facts.team).toEqual([
      { name: "Jane Smith", title: "CEO", linkedin_url: "https://linkedin.com/in/janesmith-robots" },
      { name: "Bob Lee", title: "CTO", linkedin_url: null },
    ]);
    expect(a.summary).toContain("Raising $12.5M.");
  });

  test("Flowcash website: cookie banner skipped, the merchants' money is not a round", async () => {
    const pages: SourcePage[] = [{ documentId: null, url: "https://flowcash.com/", page: null, text: htmlToText(FLOWCASH_HTML) }];
    for (const hints of [{ website: "https://flowcash.com" }, { website: "https://flowcash.com", siteTitle: "Flowcash | Revenue-based financing for merchants" }]) {
      const a = await analyse(pages, hints);
      expect(a.facts.company).toEqual({
        name: "Flowcash",
        domain: "flowcash.com",
        website: "https://flowcash.com",
        description: "Flowcash is a fintech company headquartered in Austin, Texas.",
        sector: "fintech",
        location: "Austin, Texas",
        founded_year: 2021,
      });
      expect(a.facts.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
      expect(a.facts.team).toEqual([]);
      expect(a.summary).toContain("No round size stated.");
    }
  });

  test("a website title names the company when the text alone would not", async () => {
    const text = htmlToText("<p>Accept all cookies</p><h1>Payroll that runs itself</h1><p>We automate payroll for restaurants across the US.</p>");
    const a = await analyse([{ documentId: null, url: "https://getpaylane.com/", page: null, text }], { website: "https://getpaylane.com", siteTitle: "Home | PayLane" });
    expect(a.facts.company.name).toBe("PayLane");
    // Without the title: a name the text never states is not made up from the domain.
    const b = await analyse([{ documentId: null, url: "https://getpaylane.com/", page: null, text }], { website: "https://getpaylane.com" });
    expect(b.facts.company.name).toBeNull();
  });

  test("Kältewerk: euro formats, accented names with their LinkedIn, a past founding that is not the company's", async () => {
    const a = await analyse(KALTEWERK);
    expect(a.facts.company).toMatchObject({ name: "Kältewerk", domain: "kaeltewerk.de", sector: "climate", location: "Munich, Germany", founded_year: 2021 });
    expect(a.facts.round).toEqual({ stage: "seed", amount: 2_500_000, currency: "EUR", pre_money_valuation: 10_000_000 });
    expect(a.facts.team).toEqual([
      { name: "Jörg Müller", title: "CEO & Co-founder", linkedin_url: "https://linkedin.com/in/jmueller-kw" },
      { name: "Ana-Lucía Pérez", title: "CTO", linkedin_url: "https://linkedin.com/in/alperez" },
      { name: "Tom van der Berg", title: "Head of Sales", linkedin_url: null },
    ]);
  });

  test("Fernhill: seeking £1.5 million Series A; a post-money valuation gives the pre-money as post minus the raise; investors are not the team", async () => {
    const a = await analyse(FERNHILL);
    expect(a.facts.company).toMatchObject({ name: "Fernhill", sector: "fintech", location: "London", founded_year: null });
    expect(a.facts.round).toEqual({ stage: "series a", amount: 1_500_000, currency: "GBP", pre_money_valuation: 7_500_000 });
    expect(a.facts.team).toEqual([
      { name: "Priya Raman", title: "CEO", linkedin_url: null },
      { name: "Daniel Okafor", title: "CTO", linkedin_url: null },
    ]);
  });

  test("Quillstack: a range is no single amount, a valuation cap no pre-money, the next stage not this one", async () => {
    const a = await analyse(QUILLSTACK, { companyName: "Quillstack" });
    expect(a.facts.company).toMatchObject({ name: "Quillstack", founded_year: null, location: null });
    // The range states its currency, though no single amount.
    expect(a.facts.round).toEqual({ stage: "seed", amount: null, currency: "USD", pre_money_valuation: null });
    expect(a.facts.team).toEqual([
      { name: "Maria Garcia", title: "CEO", linkedin_url: null },
      { name: "Kevin O'Brien", title: "CTO", linkedin_url: null },
    ]);
    const round = a.sections.find((s) => s.key === "round")!;
    expect(round.summary).toContain("$2M–$3M");
    expect(a.summary).toContain("Raising $2M–$3M (seed), a range");
  });

  test("Tidepool: this round's stage, not the earlier round's", async () => {
    const a = await analyse(TIDEPOOL);
    expect(a.facts.company).toMatchObject({ name: "Tidepool Health", domain: "tidepool.health", sector: "health", location: "Boston, MA" });
    expect(a.facts.round).toEqual({ stage: "series a", amount: 10_000_000, currency: "USD", pre_money_valuation: null });
  });

  test("a thin page: a name and a domain, nothing else made up", async () => {
    const a = await analyse(ZEPHYR);
    expect(a.facts).toEqual({
      company: { name: "Zephyr", domain: "zephyr.io", website: "https://zephyr.io", description: null, sector: null, location: null, founded_year: null },
      round: { stage: null, amount: null, currency: null, pre_money_valuation: null },
      team: [],
    });
    expect(a.score).toBeNull();
    expect(a.score_confidence).toBe(0);
    for (const s of a.sections) expect(s).toMatchObject({ score: null, evidence: [], unavailable_reason: expect.stringMatching(/^No statement in the material/) });
  });

  test("the submitted company name wins over the cover", async () => {
    const a = await analyse(NORTHWIND, { companyName: "Northwind Robotics Inc." });
    expect(a.facts.company.name).toBe("Northwind Robotics Inc.");
  });

  const round = async (text: string) => (await analyse(deckPages([`Acme\n${text}`]), { companyName: "Acme" })).facts.round;
  const ROUNDS: [string, { stage: string | null; amount: number | null; currency: string | null; pre_money_valuation: number | null }][] = [
    ["We're raising a $5M Seed round, with $2M already committed from Acme Ventures.", { stage: "seed", amount: 5_000_000, currency: "USD", pre_money_valuation: null }],
    ["Investment ask: £750K for 15% equity.", { stage: null, amount: 750_000, currency: "GBP", pre_money_valuation: null }],
    ["Raising $3M at $15M pre.", { stage: null, amount: 3_000_000, currency: "USD", pre_money_valuation: 15_000_000 }],
    ["We are raising EUR 2.5 million (seed) to expand into France.", { stage: "seed", amount: 2_500_000, currency: "EUR", pre_money_valuation: null }],
    ["Seeking $750k in pre-seed funding.", { stage: "pre-seed", amount: 750_000, currency: "USD", pre_money_valuation: null }],
    ["We raised a $2M seed in 2023 and are now raising a $10M Series A.", { stage: "series a", amount: 10_000_000, currency: "USD", pre_money_valuation: null }],
    ["Our platform helped 120 startups raise $40M last year.", { stage: null, amount: null, currency: null, pre_money_valuation: null }],
    ["Total raised to date: $4.5M from angels.", { stage: null, amount: null, currency: null, pre_money_valuation: null }],
    ["We are raising our seed round at a $20M valuation.", { stage: "seed", amount: null, currency: null, pre_money_valuation: null }],
  ];
  test("seeking design partners is not a raise", async () => {
    const a = await analyse(deckPages(["Acme\nWe are seeking design partners in logistics to raise awareness of the product."]), { companyName: "Acme" });
    expect(a.sections.find((s) => s.key === "round")).toMatchObject({ score: null, evidence: [] });
  });
  for (const [text, expected] of ROUNDS) test(`round: ${text}`, async () => expect(await round(text)).toEqual(expected));

  test("team slides laid out as blocks or grids; advisors listed the same way are not the team", async () => {
    const blocks = await analyse(deckPages(["Acme Labs\nAI copilots for auditors", "Our Team\nJane Smith\nCEO & Co-founder\nex-Deloitte, 12 years in audit\nJohn K. Doe\nCTO\nPhD, ex-Google Brain", "Advisors\nMary Major\nFormer CFO, Siemens"]));
    expect(blocks.facts.team).toEqual([
      { name: "Jane Smith", title: "CEO & Co-founder", linkedin_url: null },
      { name: "John K. Doe", title: "CTO", linkedin_url: null },
    ]);
    expect(blocks.facts.company.name).toBe("Acme Labs");
    const grid = await analyse(deckPages(["Team\nJane Smith CEO\nBob Lee CTO\nAnn Moss COO"]));
    expect(grid.facts.team.map((m) => `${m.name}/${m.title}`)).toEqual(["Jane Smith/CEO", "Bob Lee/CTO", "Ann Moss/COO"]);
    // A person is not the company.
    expect(grid.facts.company.name).toBeNull();
  });

  test("a noun phrase in prose is no company's name: 'The SAM is ...', 'Our platform is ...'", async () => {
    const a = await analyse(deckPages(["", "Market\nThe SAM is the world agriculture market, which is at $22B.\nThe SAM is growing.", "Our Platform is a tool for millers.\nOur Platform is live."]));
    expect(a.facts.company.name).toBeNull();
    // ... while a name in the same place is one.
    const b = await analyse(deckPages(["", "Product\nGrainly is a traceability platform for millers.\nGrainly runs on any phone."]));
    expect(b.facts.company.name).toBe("Grainly");
  });

  test("labelled cover facts: 'HQ: Berlin | Founded: 2019' gives a place and a year, not a name; 'since 2015' is not a founding", async () => {
    const a = await analyse(deckPages(["HQ: Berlin | Founded: 2019\nSince 2015 the market has grown 20% a year."]));
    expect(a.facts.company).toMatchObject({ name: null, location: "Berlin", founded_year: 2019 });
    const b = await analyse(deckPages(["Since 2015 the market has grown 20% a year. We have 40 customers in Europe."]));
    expect(b.facts.company).toMatchObject({ location: null, founded_year: null });
  });
});
