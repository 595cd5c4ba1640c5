// Classes of failure found on an eighth look at the real public decks (dev part) and at layouts real
// team slides use: cards that give a given name only, a section's divider page ("Team" alone) whose
// cards stand on the next page under no title, names over bios that name no role, the hackathon
// triad and trades as roles, and a two-page document's running footer. Held by the names (and
// roles) the reader must give and those it must not.
import { describe, expect, test } from "bun:test";
import { analyse, deckPages, teamOf } from "./deal-facts-corpus.ts";

const COVER = "Lumora\nTreasury automation for mid-market CFOs";
const PROBLEM = "Problem\nFinance teams lose days to manual reconciliation.";

describe("cards that give a given name only, on the team's page", () => {
  test("a given name over a role, two or more such cards: each is a member with that role", () => {
    expect(teamOf(COVER, PROBLEM, "Team\n\nJana\nCEO\n\nMarek\nCTO\n\nAna\nDesigner")).toEqual([
      ["Jana", "CEO"],
      ["Marek", "CTO"],
      ["Ana", "Designer"],
    ]);
  });

  test("the hackathon triad and trades are roles: a given name over each is a member", () => {
    expect(teamOf(COVER, PROBLEM, "Meet the team\n\nJana\nHustler\n\nMarek\nHacker\n\nAna\nHipster")).toEqual([
      ["Jana", "Hustler"],
      ["Marek", "Hacker"],
      ["Ana", "Hipster"],
    ]);
    expect(teamOf(COVER, "Team\n\nJane Doe\nFinance Modeler\n\nMark Lee\nVideo Editor")).toEqual([
      ["Jane Doe", "Finance Modeler"],
      ["Mark Lee", "Video Editor"],
    ]);
  });

  test("one such card, cards off the team's page, or a name wrapped over two lines above its role, make no given-name member", () => {
    expect(teamOf(COVER, PROBLEM, "Team\n\nJana\nCEO")).toEqual([]);
    expect(teamOf(COVER, PROBLEM, "Market\n\nKenya\nNairobi\n\nGhana\nAccra\n\nChile\nSantiago")).toEqual([]);
    expect(teamOf(COVER, "Team\n\nInes\nDuarte\nCEO\n\nMarco\nRossi\nCTO").map(([n]) => n)).toEqual(["Ines Duarte", "Marco Rossi"]);
  });
});

describe("a section's divider page titles the page after it", () => {
  test("'Team' alone on a page, its given-name cards on the next page under no title, are the team", () => {
    expect(teamOf(COVER, PROBLEM, "Team", "Jana\nCEO\n\nMarek\nCTO\n\nAna\nQA Lead", "Thank you").map(([n]) => n)).toEqual(["Jana", "Marek", "Ana"]);
  });

  test("whole names alone after the divider are read as the team's photos", () => {
    expect(teamOf(COVER, PROBLEM, "Our Team", "Jane Doe\n\nMark Lee\n\nAna Ruiz", "Thank you").map(([n]) => n)).toEqual(["Jane Doe", "Mark Lee", "Ana Ruiz"]);
  });

  test("a divider of another section gives the next page no team", () => {
    expect(teamOf(COVER, PROBLEM, "Market", "Jana\nCEO\n\nMarek\nCTO", "Thank you")).toEqual([]);
  });
});

describe("names over bios that name no role, on the team's page", () => {
  test("two or more whole names each over a bio are members; a role the bio names as theirs is their title", () => {
    expect(teamOf(COVER, "Team\n\nJane Doe\n10 years in treasury at HSBC.\n\nMark Lee\nBuilt payments infrastructure at Stripe.\n\nAna Ruiz\nShe is our CTO and wrote the matching engine.")).toEqual([
      ["Jane Doe", null],
      ["Mark Lee", null],
      ["Ana Ruiz", "CTO"],
    ]);
  });

  test("an advisor's or investor's bio, or a lone name over a bio, makes no member", () => {
    expect(teamOf(COVER, "Team\n\nJane Doe\nAdvisor on treasury, 20 years at HSBC.\n\nMark Lee\nAngel investor in fintech companies.")).toEqual([]);
    expect(teamOf(COVER, "Team\n\nJane Doe\n10 years in treasury at HSBC.")).toEqual([]);
  });
});

describe("a two-page document's running footer", () => {
  test("the line on both pages is boilerplate: quoted as no section's evidence", async () => {
    const footer = "Revenue analytics for finance teams | Demo Day cohort | Confidential";
    const a = await analyse(deckPages([`Lumora\nTreasury automation for mid-market CFOs.\n\nProblem\nFinance teams lose days to manual reconciliation every month.\n${footer}`, `Product\nLumora matches payments to invoices automatically.\n${footer}`]));
    const quotes = a.sections.flatMap((s) => s.evidence.map((e) => e.quote ?? ""));
    expect(quotes.some((q) => q.includes("Demo Day cohort"))).toBe(false);
    expect(a.sections.find((s) => s.key === "traction")!.score).toBeNull();
  });
});

describe("a fund's deck uploaded as a company's (the upload's default)", () => {
  const pages = (cover: string) =>
    deckPages([
      `${cover}\nPre-seed and seed climate tech in the Nordics\n\nFundraising deck`,
      "Why now\n\nThe firm backs pre-seed and seed climate tech in the Nordics.\n• Lead or co-lead the first institutional round\n• Initial tickets of €650,000 to €1.8M",
      "Team\nQuentin Reyes\nGeneral Partner\nex-Meta\n\nGreta van Dijk\nGeneral Partner\n19 years in venture",
      "Contact\nquentin@bluebell.vc",
    ]);

  test("a first page titled with a numbered fund and three kinds of fund words: read as a fund, no company section scored", async () => {
    const a = await analyse(pages("Bluebell VC Fund II"), { kind: "company" });
    expect(a.kind).toBe("fund");
    expect(a.sections.some((s) => s.key === "market")).toBe(false);
  });

  test("the same words under a company's title stay a company's deck", async () => {
    const a = await analyse(pages("Bluebell Climate"), { kind: "company" });
    expect(a.kind).toBe("company");
  });
});

describe("the company's name set over two lines, one of them a section's word", () => {
  const onePager = (logo: string) =>
    deckPages([
      `${logo}\nRevenue analytics for B2B SaaS finance teams | Demo Day cohort | Confidential\n\nPROBLEM\n\nFinance and sales argue about the numbers every Monday.\n\nSOLUTION\n\nRilla Metrics provides revenue analytics for B2B SaaS finance teams.\n\nOUR TEAM\n\nCiarán | Aisha | Ana\nReyes | Park | Kovacs\n\nCo-founder,\nCEO\n\nCTO &\nCo-founder\n\nFounding\nEngineer\n\nuserillametrics.com\n\n1/1`,
    ]);

  test("'RILLA' over 'METRICS' is the name: the line under it is no traction, and the one-pager's team grid is read under its own title", async () => {
    const a = await analyse(onePager("RILLA\n\nMETRICS"), { companyName: "Rilla Metrics" });
    expect(a.sections.find((s) => s.key === "traction")!.score).toBeNull();
    expect(a.facts.team.map((m) => m.name)).toEqual(["Ciarán Reyes", "Aisha Park", "Ana Kovacs"]);
  });
});

describe("the company's name from a running footer in cells", () => {
  test("'<Name> | <Team> | Made with' on every page names the deck over a cover line nobody repeats", async () => {
    const f = "ReFill | Sigma Group | Made with";
    const a = await analyse(deckPages([`Review-Watch-ReFill\n\n${f}`, `Problem\n\nPeople forget the films they watched.\n${f}`, `Solution\n\nAn app to log films and buy tickets.\n${f}`, `Market\n\n${f}`, `Thank you\n${f}`]));
    expect(a.facts.company.name).toBe("ReFill");
  });

  test("a footer whose first cell is no name ('Confidential | Page') names nothing: the cover's line stays", async () => {
    const f = "Confidential | Made with Gamma";
    const a = await analyse(deckPages([`Lumora\n\n${f}`, `Problem\n\nFinance teams lose days to manual reconciliation.\n${f}`, `Solution\n\nLumora matches payments to invoices.\n${f}`, `Thank you\n${f}`]));
    expect(a.facts.company.name).toBe("Lumora");
  });
});
