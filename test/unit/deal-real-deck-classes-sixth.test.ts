// Classes of failure found on a sixth look at the real public decks (dev part): teams that sign
// with given names only, or family name first, in a column on the cover or the closing page; a page
// of nothing but name-over-caption cards under no title; a given name captioned beside whole names;
// a caption set before the name; a name that opens a sentence saying what it does for the reader;
// and, from a fresh seed of the blind corpus's dev part, a raise stated as a range in German or
// French words, and a goal in money as the only line that would make a deck's financials.
// Each held by the names the reader must give and those it must not.
import { describe, expect, test } from "bun:test";
import { analyse, deckPages, teamOf } from "./deal-facts-corpus.ts";


describe("a team that signs in a column on the cover or the closing page", () => {
  test("given names alone, three or more, are the team (a month's name or a word in -ing among them too)", () => {
    expect(teamOf("Public officers' partner in building cheaper solutions\n\nJASON\n\nZSIGMOND\n\nYILING\n\nJUNE", "Problem\nAgencies struggle.", "Thank You")).toEqual([
      ["Jason", null],
      ["Zsigmond", null],
      ["Yiling", null],
      ["June", null],
    ]);
    expect(teamOf("Salud\nTrack your health.", "Market\nIceland first.", "Questions?\n\nKacper\n\nNaima\n\nFerran")).toEqual([
      ["Kacper", null],
      ["Naima", null],
      ["Ferran", null],
    ]);
  });

  test("a column of single words that are mostly not given names, or only two names, or mid-deck, is no team", () => {
    // Months and words in -ing only ride along with names: a timeline's months are no one.
    expect(teamOf("Roadmap\n\nMarch\n\nJune\n\nBuilding", "Thank you")).toEqual([]);
    expect(teamOf("Kelpa\nSensors", "Thank you\n\nKacper\n\nNaima")).toEqual([]);
    expect(teamOf("Kelpa\nSensors", "How it works\n\nKacper\n\nNaima\n\nFerran", "Thank you")).toEqual([]);
    expect(teamOf("Kelpa\nSensors", "Product\n\nProblem\n\nSolution\n\nMarketing")).toEqual([]);
    // Customers' names broken over lines on a one-pager, or under a customers' title, are no team.
    expect(teamOf("Lumen\nHydrogen at scale\nPilots with\nHartwell\nLogistics\nMeridian\nHealth\nSunfield\nGrocers\nVinterhaven\nPRICING\nHardware sales from 31,5 k€ per MW")).toEqual([]);
    expect(teamOf("Lumen\nHydrogen at scale", "Team\nAino Virta, CEO", "Customers\n\nSunfield\n\nVinterhaven\n\nRheinwerk\n\nFjordline").map(([name]) => name)).toEqual(["Aino Virta"]);
    expect(teamOf("Lumen\nHydrogen at scale", "Market\nBig.", "Our customers\n\nSunfield\n\nVinterhaven\n\nRheinwerk\n\nFjordline")).toEqual([]);
    // The brand in a column of given names is no one's: the deck's footers and its address name it too.
    expect(teamOf("Salud\nHealth data.\nsalud.is", "Market\nIceland first.\nsalud.is", "Questions?\n\nSalud\n\nKacper\n\nNaima\n\nFerran").map(([name]) => name)).toEqual(["Kacper", "Naima", "Ferran"]);
  });

  test("names written family name first ('Chan, Yao Ying') in a column are the team, as written", () => {
    expect(teamOf("Hack 2022: CitiConnect\nTeam: SlackOverflow\n\nChan, Yao Ying\nGanesan, Srinivas\nHui Hon Yu, Bryan\nQin, Ziyuan", "Market\nAsia.")).toEqual([
      ["Chan, Yao Ying", null],
      ["Ganesan, Srinivas", null],
      ["Hui Hon Yu, Bryan", null],
      ["Qin, Ziyuan", null],
    ]);
    // An organisation and its city is no name written family name first.
    expect(teamOf("Kelpa\nSensors\n\nAcme Capital, Berlin\nBrightlake Ventures, Paris\nNordic Labs, Oslo")).toEqual([]);
  });
});

describe("cards on a page under no title", () => {
  test("a page of nothing but three name-over-caption cards is the team's page when the deck names one of them as its own elsewhere", () => {
    const cards = "Srinath Kamath\n\nTechnical\n\nAdithyan Karanath\n\nFinance\n\nLijoMon George\n\nLogistics";
    const team = [
      ["Srinath Kamath", "Technical"],
      ["Adithyan Karanath", "Finance"],
      ["LijoMon George", "Logistics"],
    ];
    expect(teamOf("Grov\nHomely food at your doorstep.", cards, "Queries?\nEmail: srinath.letter@gmail.com")).toEqual(team);
    expect(teamOf("Grov\nHomely food at your doorstep.\nPresented by | Srinath Kamath", cards)).toEqual(team);
    // Cards the deck names nowhere else may be anyone's (a launch event's speakers); two cards are no page of them.
    expect(teamOf("Grov\nHomely food at your doorstep.", cards, "Queries?\nEmail: hello@grov.in")).toEqual([]);
    expect(teamOf("Grov\nHomely food.", "Srinath Kamath\n\nTechnical\n\nAdithyan Karanath\n\nFinance", "Email: srinath@grov.in")).toEqual([]);
  });
});

describe("captions beside names on the team's page", () => {
  test("a given name captioned alone counts where whole names are captioned so; a caption before a name counts", () => {
    expect(teamOf("Savvy\nMoney for students", "Roles\nOng Jun Xiang – Frontend Development\nZexel Lew – Backend\n\nKelvin – Backend Developement")).toEqual([
      ["Ong Jun Xiang", "Frontend Development"],
      ["Zexel Lew", "Backend"],
      ["Kelvin", "Backend Developement"],
    ]);
    // A single word captioned with no whole name beside it is no member.
    expect(teamOf("Savvy\nMoney for students", "Roles\nValues – Integrity first\nKelvin – Backend")).toEqual([]);
    expect(teamOf("Flexit\nFitness anywhere", "The Team\nCEO – Austin Cohen\n\nTBD – Kevin Batista\n\nHead of Biz Dev – Michael Rojas")).toEqual([
      ["Austin Cohen", "CEO"],
      ["Kevin Batista", "TBD"],
      ["Michael Rojas", "Head of Biz Dev"],
    ]);
  });
});

describe("the company's name in prose", () => {
  test("a name that opens a sentence saying what it does ('<Name> is here to help', '<Name> connects') names the company, on a cover with no name", async () => {
    const a = await analyse(deckPages(["", "The end of school is approaching\nWhat’s next?\nPydeia is here to help you choose the right path for your future!", "Market\nItaly has 500,000 students a year."]));
    expect(a.facts.company.name).toBe("Pydeia");
    const b = await analyse(deckPages(["", "Problem\nChefs cannot reach diners.", "Solution\nTavola connects home chefs with diners nearby."]));
    expect(b.facts.company.name).toBe("Tavola");
  });
});

describe("money from a fresh seed of the blind dev part", () => {
  test("a raise stated as a range in German or French words ('2,5 bis 3,8 Mio. EUR', '1 à 2 M€') is a range: no amount", async () => {
    const a = await analyse(deckPages(["Yarrow Dx\nDiagnostics", "Problem\nSepsis takes 48 hours.", "Finanzierung\nWe are raising 2,5 bis 3,8 Mio. EUR in our seed round."]));
    expect(a.facts.round.amount).toBeNull();
    expect(a.facts.round.stage).toBe("seed");
    const b = await analyse(deckPages(["Lumen\nHydrogène", "Problème\nTrop cher.", "Levée\nNous levons 1 à 2 M€ en seed."]));
    expect(b.facts.round.amount).toBeNull();
    // A single figure with "bis" and a date after it is the figure.
    const c = await analyse(deckPages(["Yarrow Dx\nDiagnostics", "Problem\nSepsis takes 48 hours.", "Finanzierung\nWe are raising 3 Mio. EUR bis 2027 in our seed round."]));
    expect(c.facts.round).toMatchObject({ amount: 3_000_000, currency: "EUR" });
  });

  test("one goal in money on another slide ('Next: grow ARR from USD 3.75M to $12MM by end of 2026') scores no financials; a plan or a burn does", async () => {
    const traction = "Traction\n120 paying customers, NRR 135%\nARR USD 3.75M, 9% month-over-month\nPilots with\nTallis Bank\nNext: grow ARR from USD 3.75M to $12MM by end of 2026.\nCaldera Foods";
    const a = await analyse(deckPages(["Mossfield AI\nBookkeeping", traction, "Team\nSven Nakamura, CEO"]));
    expect(a.sections.find((s) => s.key === "financials")!.score).toBeNull();
    expect(a.sections.find((s) => s.key === "traction")!.score).not.toBeNull();
    const b = await analyse(deckPages(["Mossfield AI\nBookkeeping", traction, "Team\nSven Nakamura, CEO\nMonthly burn is $90k, with 18 months of runway."]));
    expect(b.sections.find((s) => s.key === "financials")!.score).not.toBeNull();
  });
});

describe("a slide title with a note in brackets", () => {
  test("'0 7 — FINANCIAL PROJECTIONS (3-YEAR)' is the financials' title: its one line of figures is about them", async () => {
    const a = await analyse(deckPages(["Secretx\nA marketplace", "Problem\nListings are dated.", "0 7 — FINANCIAL PROJECTIONS (3-YEAR)\nConservative growth to €8M+ ARR"]));
    expect(a.sections.find((s) => s.key === "financials")!.score).not.toBeNull();
  });
});
