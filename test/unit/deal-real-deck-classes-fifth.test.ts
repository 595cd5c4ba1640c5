// Classes of failure found on a fifth set of real public decks and on a fresh seed of the blind
// corpus's dev part, each held by the names, figures and sections the reader must give and by what
// it must not: a name's last word that opens the role, a team list of "<Name> <caption>" lines with
// no separator, a column of names on a closing page, an event's edition on the cover, a tagline set
// over several lines, a title run on into its subtitle, "<Name>: A platform ...", a department's
// words in capitals, a plan told in the future, a P&L row under a forecast's own title, money for a
// purpose on the page of the raise, and a title with a note in square brackets.
import { describe, expect, test } from "bun:test";
import type { DealAnalysis } from "../../src/engines/deal-engine.ts";
import { analyse, deckPages, teamOf } from "./deal-facts-corpus.ts";

const section = (a: DealAnalysis, key: string) => a.sections.find((s) => s.key === key)!;

describe("a team as real decks list it", () => {
  test("a name's last word that opens a role is the role's ('<Name> Chief Architect', '<Name> Creative Designer')", () => {
    expect(teamOf("Kelpa\nSensors for sheds", "Team\nAino Virta CEO\nLauri Salo Chief Architect\nJukka Peltonen Creative Designer")).toEqual([
      ["Aino Virta", "CEO"],
      ["Lauri Salo", "Chief Architect"],
      ["Jukka Peltonen", "Creative Designer"],
    ]);
  });

  test("a team page listing '<Name> <caption>' lines with no separator, one of them a role: every line is a member", () => {
    expect(teamOf("Kelpa\nSensors for sheds", "Team\nAino Virta CEO\nEsa Koski Prime Mover\nMarkus Lind Guard of Innovations")).toEqual([
      ["Aino Virta", "CEO"],
      ["Esa Koski", "Prime Mover"],
      ["Markus Lind", "Guard of Innovations"],
    ]);
    // Without a role among them the lines may be sentences that open with a name: nobody is taken.
    expect(teamOf("Kelpa\nSensors for sheds", "Team\nEsa Koski Prime Mover\nMarkus Lind Guard of Innovations")).toEqual([]);
  });

  test("a column of three or more names alone on their lines, and no member named anywhere else, is the team", () => {
    expect(teamOf("Pydra\nThe right university for you", "Thank you for your attention\nTommaso Rinaldi\nEdoardo Ferri\nFilippo Conti")).toEqual([
      ["Tommaso Rinaldi", null],
      ["Edoardo Ferri", null],
      ["Filippo Conti", null],
    ]);
    // Two names are no column; advisors listed so are not the team.
    expect(teamOf("Pydra\nThe right university for you", "Thank you\nTommaso Rinaldi\nEdoardo Ferri")).toEqual([]);
    expect(teamOf("Pydra\nThe right university for you", "Advisors\nTommaso Rinaldi\nEdoardo Ferri\nFilippo Conti")).toEqual([]);
    expect(teamOf("Relief\nAid where it is needed", "How it works\nRisk Assessment\nDemand Estimation\nRelief Prediction", "Thank you")).toEqual([]);
  });

  test("on the team's page a row of cards may give given names only, over a row of as many captions", () => {
    expect(teamOf("Speechly\nSpeak without fear", "OUR TEAM\nShi Jie\nDaniel\nYear 3 NUS Business | Year 3 NUS Economics\nSamuel\nYang Yee\nYear 1 NUS Engineering | Year 3 NUS Business")).toEqual([
      ["Shi Jie", "Year 3 NUS Business"],
      ["Daniel", "Year 3 NUS Economics"],
      ["Samuel", "Year 1 NUS Engineering"],
      ["Yang Yee", "Year 3 NUS Business"],
    ]);
    // Off the team's page, or without a caption for each, a single word is no member.
    expect(teamOf("Speechly\nSpeak without fear", "Use cases\nShi Jie\nDaniel\nYear 3 NUS Business | Year 3 NUS Economics")).toEqual([]);
    expect(teamOf("Speechly\nSpeak without fear", "OUR TEAM\nSamuel\nTechnology\nInterviews | Practice | Presentations")).toEqual([]);
  });

  test("a department's words set in capitals on a card ('PROJECT MONITORING') are no one's name", () => {
    expect(teamOf("Insura\nInsurance made simple", "The Team\nPROJECT MONITORING\nCORPORATE LAWYER").map(([name]) => name)).not.toContain("Project Monitoring");
  });

  test("a title with a note in square brackets ('Who we are [photo]') still sets the team's page", () => {
    expect(teamOf("Vanta\nMetrics for retail", "Customers\nAcme Retail uses us daily.\nWho we are [photo]\nRenée Okafor | Oskar Rahman\nFounder & CEO | Co-founder, CTO")).toEqual([
      ["Renée Okafor", "Founder & CEO"],
      ["Oskar Rahman", "Co-founder, CTO"],
    ]);
  });
});

describe("the company's name on a cover", () => {
  test("an event's edition over the product's name ('<Event>' / '2022: <Name>') names the product, not the event", async () => {
    const a = await analyse(deckPages(["Citi HackOverflow\n2022: CitiConnect\nTeam: SlackOverflow", "Target Market\nAsian HNWIs.", "Our Tech Stack\nNextJS and MySQL."]));
    expect(a.facts.company.name).toBe("CitiConnect");
    const b = await analyse(deckPages(["Fintech Challenge 2024: Ledgerly", "Problem\nBooks are a mess.", "Solution\nLedgerly closes the books."]));
    expect(b.facts.company.name).toBe("Ledgerly");
  });

  test("a tagline set over several lines is no name; the name a definition opens with is", async () => {
    const a = await analyse(deckPages(["Connecting\nIndividual Chefs\nDirectly with Customers", "Problem Statement\nMake catering accessible for individual chefs.", "What We Made\nChefConnect: A platform for chefs to connect with customers directly."]));
    expect(a.facts.company.name).toBe("ChefConnect");
    // A label over a statement ("<Measure>: The ...") is no definition of the company.
    const b = await analyse(deckPages(["Empowering Events on the Blockchain\nDate: 12/06/2024", "Solution: Fiestra\nTickets as tokens.", "Market\nEvent Industry Size: The global event management industry is projected to reach $1,500 billion by 2028."]));
    expect(b.facts.company.name).toBe("Fiestra");
  });

  test("a cover title run on into its lower-case subtitle gives the title alone", async () => {
    const a = await analyse(deckPages(["ELL-i\ntechnology platform provider for small internet-connected devices", "Products\nRasPoE - a Power over Ethernet splitter board.", "Team\nEero Hakala CEO\nTeemu Hakala Chief Architect"]));
    expect(a.facts.company.name).toBe("ELL-i");
  });
});

describe("sections only from statements about them", () => {
  test("a price and the profit a product 'will net us' are a plan, not traction", async () => {
    const a = await analyse(deckPages(["Voltbike\nE-bike conversions", "Pricing\nThe final kit to be sold is the upper range kit for £2100, which will net us a profit of £750.", "Competitors\nBig brands sell whole e-bikes."]));
    expect(section(a, "traction").score).toBeNull();
    expect(section(a, "business_model").score).not.toBeNull();
  });

  test("a P&L row under a forecast's own title is financials, never traction", async () => {
    const a = await analyse(deckPages(["Quanta\nAntibodies for fibrosis", "Financial overview\nP&L forecast\n2025 | 2026E | 2027E | 2028E\nRevenue | 2,25 M€ | 5,4 M€ | 12,96 M€ | 31,1 M€\nEBITDA | (1,5 M€) | (3,7 M€) | 3,1 M€ | 11,2 M€"]));
    expect(section(a, "traction").score).toBeNull();
    expect(section(a, "financials").evidence.map((e) => e.quote)).toContain("Revenue | 2,25 M€ | 5,4 M€ | 12,96 M€ | 31,1 M€");
    // Under a traction title the same shape of row is traction.
    const b = await analyse(deckPages(["Quanta\nAntibodies for fibrosis", "Traction\n2023 | 2024 | 2025\nRevenue | 0,4 M€ | 1,1 M€ | 2,3 M€"]));
    expect(section(b, "traction").score).not.toBeNull();
  });

  test("money for a purpose on the page that states the raise is the round's, not traction", async () => {
    const a = await analyse(deckPages(["Ionis\nElectrolysers", "Raising\nNow raising 450 k€ Pre-seed to reach first-in-human data.\n180 k€ for certification\n157 500 € for pilot deployments\n67 500 € for product & engineering"]));
    expect(section(a, "traction").score).toBeNull();
    expect(a.facts.round).toMatchObject({ amount: 450_000, currency: "EUR", stage: "pre-seed" });
  });
});

describe("a section is addressed by a slide, a signal or two statements, not one passing line", () => {
  test("one line under another slide's title, with no signal of the section, scores nothing; a signal or a slide of its own does", async () => {
    const a = await analyse(deckPages(["Loomly\nLooms for makers", "Vision\nWe aim to be better than the alternatives in every way that matters."]));
    expect(a.sections.find((s) => s.key === "competition")!.score).toBeNull();
    const b = await analyse(deckPages(["Loomly\nLooms for makers", "Vision\nUnlike Brother and Singer, we sell the loom as a service."]));
    expect(b.sections.find((s) => s.key === "competition")!.score).not.toBeNull();
    const c = await analyse(deckPages(["Loomly\nLooms for makers", "Competition\nWe aim to be better than the alternatives in every way that matters."]));
    expect(c.sections.find((s) => s.key === "competition")!.score).not.toBeNull();
  });
});

describe("money in the currency the deck raises in", () => {
  test("a raise in Kenyan shillings restated in dollars is the shillings; rupees in lakh and crore", async () => {
    const a = await analyse(deckPages(["Smart KYC\nIdentity checks for Kenya", "Our Ask\nWe’re seeking KES 10M (~USD $75,000)\nUse of Funds\nProduct Development – 40%"]));
    expect(a.facts.round).toMatchObject({ amount: 10_000_000, currency: "KES" });
    const b = await analyse(deckPages(["Krishi\nSoil tests for farmers", "The Ask\nWe are raising ₹2 crore in a seed round.", "Market\nIndia has 140 million farms."]));
    expect(b.facts.round).toMatchObject({ amount: 20_000_000, currency: "INR", stage: "seed" });
  });
});
