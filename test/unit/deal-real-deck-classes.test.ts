// Classes of failure found on real public decks (the bench's real dev part), each held here by the
// figures and names the reader must give, and by what it must not: a section scored from a word used
// in another sense, a list marker read as a table column, a team slide with no team title, names
// set apart by bars over two lines, honorifics without their dot, a company name taken from a slide
// title or a two-letter word.
import { describe, expect, test } from "bun:test";
import type { DealAnalysis } from "../../src/engines/deal-engine.ts";
import { nameAlone } from "../../src/engines/builtin/deal-people.ts";
import { analyse, deckPages, teamOf } from "./deal-facts-corpus.ts";

const scored = (a: DealAnalysis, key: string) => a.sections.find((s) => s.key === key)!.score !== null;

describe("a pre-money valuation only from a statement that says it is one", () => {
  test("post-money on the cover and an unqualified valuation in the ask: the pre-money is post less the raise, never the unqualified figure", async () => {
    const a = await analyse(deckPages(["Acme\nAngel Round: $200K @ $2M post-money valuation", "Traction\n1,200 users.", "Vision & Ask\nWe're raising $200K at a $2M valuation to accelerate growth."]));
    expect(a.facts.round).toEqual({ stage: null, amount: 200_000, currency: "USD", pre_money_valuation: 1_800_000 });
  });

  test("an unqualified valuation alone gives no pre-money, and the round's summary says why", async () => {
    const a = await analyse(deckPages(["Acme\nPayments for clinics", "The Ask\nWe are raising $500K at a $5M valuation."]));
    expect(a.facts.round).toEqual({ stage: null, amount: 500_000, currency: "USD", pre_money_valuation: null });
    expect(a.sections.find((s) => s.key === "round")!.summary).toContain("not said to be pre- or post-money");
  });
});

describe("sections are scored only from statements about them", () => {
  test("a list marker set apart as a cell is no table column: a customer's bill is no P&L line", async () => {
    const a = await analyse(
      deckPages([
        "Sunroof\nSolar leasing for homeowners",
        "Profit Sharing Model\n● Residents receive a credit equal to 10% of the energy they generate.\n■ | Original bill: 50 kWh x $0.12 = $6.00 $6.00\n■ | Adjusted bill: 40 kWh x $0.12 = $4.80 $4.80",
        "Competitors\nSolar leasing companies such as Sunrun are the main alternative to our model.",
      ]),
    );
    expect(scored(a, "financials")).toBe(false);
    expect(a.sections.find((s) => s.key === "financials")!.evidence).toEqual([]);
    // A real table row still is: figures in columns.
    const b = await analyse(deckPages(["Acme", "Financials\nRevenue | $1.2M | $3.4M | $8.0M\nEBITDA | -$0.8M | $0.2M | $1.9M"]));
    expect(scored(b, "financials")).toBe(true);
  });

  test("'Alternative Finance' on a card names a field, not a competitor; 'an alternative to' does", async () => {
    const a = await analyse(deckPages(["Acme\nSmart contracts for small businesses", "Our team are experienced founders.\n\nSimon Krystman\nEntrepreneur and Founder\n\nAlan Barrell\nAlternative Finance\n\nGlen Parry\nBlockchain and ICO"]));
    expect(scored(a, "competition")).toBe(false);
    const b = await analyse(deckPages(["Acme", "Acme is the cheapest alternative to hiring a bookkeeper, unlike incumbents such as Xero."]));
    expect(scored(b, "competition")).toBe(true);
  });
});

describe("a team as real decks lay it out", () => {
  test("a page of name-over-caption cards under no team title, whose text speaks of the team, is the team", () => {
    const page = [
      "The Smart Startup Company team are highly skilled and experienced in running successful businesses.",
      "Simon Krystman\nEntrepreneur and Founder",
      "Prof Alan Barrell\nAlternative Finance, Formerly\nEntrepreneur in Residence",
      "Dr Syed Kamall, MEP\nGovernment and Regulation",
      "Flint Sperber\nEconomic Model",
      "John Nevard\nIntellectual Property",
      "David Blair\nLegal, Compliance and\nRegulation Advisor",
    ].join("\n\n");
    expect(teamOf("Acme", page)).toEqual([
      ["Simon Krystman", "Entrepreneur and Founder"],
      ["Alan Barrell", "Alternative Finance"],
      ["Syed Kamall", "Government and Regulation"],
      ["Flint Sperber", "Economic Model"],
      ["John Nevard", "Intellectual Property"],
    ]);
  });

  test("two or more columns of cards read across: a row of names over a row of captions of no role's shape", () => {
    expect(teamOf("Acme", "Team\n\nAnna Keller    Jonas Berg    Eva Roth\nProduct & Tech    Growth    Operations")).toEqual([
      ["Anna Keller", "Product & Tech"],
      ["Jonas Berg", "Growth"],
      ["Eva Roth", "Operations"],
    ]);
    // Customers' people over their companies are nobody's team.
    expect(teamOf("Acme", "What customers say\n\nAnna Keller    Jonas Berg\nAcme Bank    Beta Corp")).toEqual([]);
  });

  test("the same cards on a page that does not speak of a team are nobody's team (customers' people, speakers)", () => {
    const page = ["Simon Krystman\nEntrepreneur and Founder", "Alan Barrell\nAlternative Finance", "Glen Parry\nBlockchain and ICO"].join("\n\n");
    expect(teamOf("Acme", "Speakers at our launch event", page)).toEqual([]);
  });

  test("names set apart by bars on the cover, one broken over two lines", () => {
    expect(teamOf("KAVIAR\nCross-chain transfers\n\nRen Kunepng | Mohak Malhotra | Kenneth\nGoh | Ramon Garcia | Arindam Singh", "Problem\nBridges leak privacy.")).toEqual([
      ["Ren Kunepng", null],
      ["Mohak Malhotra", null],
      ["Kenneth Goh", null],
      ["Ramon Garcia", null],
      ["Arindam Singh", null],
    ]);
  });

  test("honorifics without their dot and post-nominal letters are no part of the name; an adjective is no given name", () => {
    expect(nameAlone("Prof Alan Barrell")).toBe("Alan Barrell");
    expect(nameAlone("Dr Syed Kamall, MEP")).toBe("Syed Kamall");
    expect(nameAlone("Sir Tim Berners-Lee")).toBe("Tim Berners-Lee");
    expect(nameAlone("Mr Smith")).toBeNull();
    for (const t of ["Economic Model", "Intellectual Property", "Artificial Intelligence"]) expect(nameAlone(t)).toBeNull();
    for (const t of ["Eric Dubois", "Dominic Ortiz", "Rosemary Cole", "Gregory Hale"]) expect(nameAlone(t)).toBe(t);
  });
});

describe("the company's name", () => {
  test("not a two-letter word its prose opens with ('AI makes it for you')", async () => {
    const a = await analyse(deckPages(["HustleX\nAI & Social Fitness app", "Hustle Workouts\nAI makes it for you.\nAI considers several variables.", "Market size\n6B+ global online fitness market value"]));
    expect(a.facts.company.name).toBe("HustleX");
  });

  test("not a slide title's words ('Business Model Development'); the name before '@ <event>'", async () => {
    const a = await analyse(deckPages(["Business\nModel\nDevelopment\nIEEE Hive @ TENCON 2024", "Revenue Streams\nSubscription Model: a monthly fee for the app.", "Profit Sharing Model\nResidents receive a credit."]));
    expect(a.facts.company.name).toBe("IEEE Hive");
  });

  test("not a place at the end of a title wrapped over lines, nor a tagline ('Redefining Identity / Verification in / Kenya'): none", async () => {
    const a = await analyse(deckPages(["Redefining Identity\nVerification in\nKenya\n01", "Our Solution\nAI-powered, automated and compliant KYC platform.", "Our Ask\nWe're seeking KES 10M (~USD $75,000)"]));
    expect(a.facts.company.name).toBeNull();
    // A raise in shillings with a conversion beside it: the shillings, never the conversion.
    expect(a.facts.round).toMatchObject({ amount: 10_000_000, currency: "KES" });
  });

  test("'The <Name> (<ACRONYM>) is ...' when the company's own address spells the name", async () => {
    const a = await analyse(deckPages(["a new era for SMART startups\nPitch Presentation\nsmartstartuptoken.tech", "The Smart Startup Token (SMRT) is the gateway to smart contracts for startups."]));
    expect(a.facts.company).toMatchObject({ name: "Smart Startup Token", domain: "smartstartuptoken.tech" });
    // Without an address that spells it, an article's noun phrase stays no name.
    const b = await analyse(deckPages(["a new era for startups\nPitch Presentation", "The Smart Startup Token (SMRT) is the gateway to smart contracts for startups."]));
    expect(b.facts.company.name).not.toBe("Smart Startup Token");
  });
});
