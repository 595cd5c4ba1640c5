// The team from the layout: a person is a name (an honorific or a degree around it) with a role
// next to it, on the same line, on the line below, in the next table cell or the cell below in a
// grid; roles are read by their shape, not from a list. Advisors, investors and customers' people
// stay out, whether a heading, a label, a role held elsewhere or a testimonial's signature says so.
import { describe, expect, test } from "bun:test";
import { extractTeam } from "../../src/engines/builtin/deal-team.ts";
import { readMaterial } from "../../src/engines/builtin/deal-text.ts";
import { deckPages } from "./deal-facts-corpus.ts";

const teamOf = (...pages: string[]) => extractTeam(readMaterial(deckPages(["Acme", ...pages])), { fund: false }).map((m) => [m.name, m.title]);

describe("people with their roles", () => {
  const sameLine: [string, string, string][] = [
    ["Dr. Anna Keller, CEO & Co-founder — ex-Google, 9 years in the field", "Anna Keller", "CEO & Co-founder"],
    ["CTO: Jonas Berg, PhD, previously at SAP", "Jonas Berg", "CTO"],
    ["Giulia Petrov, PhD (Chief Scientific Officer), built and sold a startup", "Giulia Petrov", "Chief Scientific Officer"],
    ["Nils Eze – Head of Partnerships. Previously at Adyen.", "Nils Eze", "Head of Partnerships"],
    ["Freya Costa, Clinical Lead, MD from Charité", "Freya Costa", "Clinical Lead"],
    ["Arjun Iyer | Lead Data Scientist | ex-Spotify", "Arjun Iyer", "Lead Data Scientist"],
    ["Matteo Rossi, Founder, Managing Director — 16 years at Roche", "Matteo Rossi", "Founder, Managing Director"],
    ["Zoë Clarke, VP Engineering", "Zoë Clarke", "VP Engineering"],
    ["Prof. Dr. Meera Watanabe, General Counsel", "Meera Watanabe", "General Counsel"],
    ["Co-founder & CPO: Saskia Demir, previously at McKinsey", "Saskia Demir", "Co-founder & CPO"],
    ["Jean-Marc O'Neill, Founding Engineer", "Jean-Marc O'Neill", "Founding Engineer"],
    ["Tom van der Berg – Head of Sales & Marketing", "Tom van der Berg", "Head of Sales & Marketing"],
  ];
  for (const [line, name, title] of sameLine) test(line, () => expect(teamOf(`Team\n${line}`)).toEqual([[name, title]]));

  test("the role on the line below (a card), honorific and all", () => {
    expect(teamOf("Leadership\n\nSaskia Sørensen\nCo-founder & CTO\n\nDipl.-Ing. Ingrid Almeida\nCEO")).toEqual([["Saskia Sørensen", "Co-founder & CTO"], ["Ingrid Almeida", "CEO"]]);
  });

  test("a card's name set in capitals is read as the name it is", () => {
    expect(teamOf("Team\nJANE DOE\nCo-Founder / CEO\nDR. JEAN-MARC VAN DER BERG\nCTO")).toEqual([["Jane Doe", "Co-Founder / CEO"], ["Jean-Marc van der Berg", "CTO"]]);
  });

  test("table cells: the role in the next cell, or in the cell below in a grid of cards", () => {
    expect(teamOf("Team\nName | Role | Background\nAnna Keller | CEO | ex-Google\nJonas Berg | Chief Technology Officer | PhD ETH")).toEqual([["Anna Keller", "CEO"], ["Jonas Berg", "Chief Technology Officer"]]);
    expect(teamOf("Team\nAnna Keller | Dr. Jonas Berg | Eva Roth\nCEO | CTO | Advisor")).toEqual([["Anna Keller", "CEO"], ["Jonas Berg", "CTO"]]);
  });

  test("a row of names, then their roles in the same order (one by one, or a row with a cell each)", () => {
    expect(teamOf("Who we are\n\nAnna Keller\n\nJonas Berg\n\nEva Roth\n\nCo-founder, CEO\n\nCTO\n\nCOO")).toEqual([["Anna Keller", "Co-founder, CEO"], ["Jonas Berg", "CTO"], ["Eva Roth", "COO"]]);
    expect(teamOf("Our people\n\nAnna Keller\n\nJonas Berg\n\nKarl Meier\n\nCo-founder, CEO | CTO & Co-founder | Advisor · Former CTO, Roche")).toEqual([["Anna Keller", "Co-founder, CEO"], ["Jonas Berg", "CTO & Co-founder"]]);
  });

  test("prose: a name wrapped onto the next line is one name; a line that starts with a name starts a person", () => {
    expect(teamOf("Founded by Dr. Anna Keller (CEO) and Jonas\nBerg (CTO).")).toEqual([["Anna Keller", "CEO"], ["Jonas Berg", "CTO"]]);
    expect(teamOf("OUR PEOPLE\nIngrid Meer, CEO — built and sold a startup to Siemens\nOlga Moreau, Co-founder & CTO — ex-Revolut")).toEqual([["Ingrid Meer", "CEO"], ["Olga Moreau", "Co-founder & CTO"]]);
    // Run together on one line: the word after "at" is where they worked, not a given name.
    expect(teamOf("Team: Anna Keller, CEO — 16 years at Adyen Tomás Costa (CTO), previously at SAP.")).toEqual([["Anna Keller", "CEO"], ["Tomás Costa", "CTO"]]);
    expect(teamOf("Team: Elif Lindqvist, PhD from TU Delft Co-founder & CPO: Saskia Demir")).toEqual([["Saskia Demir", "Co-founder & CPO"]]);
  });
});

describe("not the team", () => {
  test("advisors and investors, by heading, by label or by a role held elsewhere", () => {
    expect(teamOf("Advisors\nKarl Meier, CFO\nEva Roth, Partner")).toEqual([]);
    expect(teamOf("Team\nAnna Keller, CEO. Advisors: Karl Meier, CFO of Novartis; Eva Roth, Partner at Atlas Seed.")).toEqual([["Anna Keller", "CEO"]]);
    expect(teamOf("Karl Meier, Former CFO of Novartis")).toEqual([]);
    expect(teamOf("Eva Roth, Partner at Atlas Seed")).toEqual([]);
    expect(teamOf("Backed by Jane Roe, Partner at Acme Ventures, who invested in our pre-seed.")).toEqual([]);
    expect(teamOf("Team\n\nAnna Keller\nCEO\n\nPieter de Vries\nAdvisor · Former CTO, Novartis")).toEqual([["Anna Keller", "CEO"]]);
  });

  test("customers' people: a testimonial's signature, a role at another company", () => {
    expect(teamOf("Traction\n“It cut our close from ten days to three.” — Laura Chen, CFO at Brightwave")).toEqual([]);
    expect(teamOf("Traction\n“The first tool my team asked for.” — Laura Chen, CFO")).toEqual([]);
    // ... while a role at the company itself is one.
    expect(extractTeam(readMaterial(deckPages(["Acme", "Anna Keller, CEO at Acme"])), { fund: false, own: (org) => org === "Acme" }).map((m) => m.name)).toEqual(["Anna Keller"]);
  });

  test("organisations are not people", () => {
    expect(teamOf("Northstar Capital, Lead investor; Atlas Seed Partners")).toEqual([]);
  });

  test("on a team slide with advisors beside the team, cards read in an interleaved order go by their roles", () => {
    const slide = "Who we are\nMateo Novak\nCEO\nAdvisory board\nEmma Gerber\nScientific Advisor\nProfessor, ETH Zurich\nUgo Esposito\nCTO & Co-founder\nInvestors\nLena Kovacs\nAngel investor\nDario Brandt\nHead of Growth";
    expect(teamOf(slide).map(([name]) => name)).toEqual(["Mateo Novak", "Ugo Esposito", "Dario Brandt"]);
    // A slide of the advisors' own is theirs, whatever the roles say.
    expect(teamOf("Advisors\nKarl Meier\nCFO\nEva Roth\nCTO")).toEqual([]);
  });
});

describe("cards as real decks set them", () => {
  test("a role in capitals, with a qualifier after a dot, set over the name; the slide's number before its title", () => {
    const slide = "0 6 · THE TEAM\n\nCO-FOUNDER · DEVICE\nAnna Keller\n15+ years in banking infrastructure.\n\nCO-FOUNDER · WALLET\nJonas Berg\nEx-MetaMask, built the wallet.\n\nHEAD OF SALES\nEva Roth\nSold to banks for ten years.";
    expect(teamOf(slide)).toEqual([["Anna Keller", "CO-FOUNDER"], ["Jonas Berg", "CO-FOUNDER"], ["Eva Roth", "HEAD OF SALES"]]);
  });

  test("a name with where they are based, in a row of names over a row of roles", () => {
    expect(teamOf("Our Team\n\nWayne Poon, Malaysia\n\nCha Sui Soon, Malaysia\n\nIlyas Sazali, Singapore\n\nCo-Founder, Owner | Co-Founder | CTO")).toEqual([["Wayne Poon", "Co-Founder"], ["Cha Sui Soon", "Co-Founder"], ["Ilyas Sazali", "CTO"]]);
    // After a comma an organisation or a role is no place: "<Name>, Novartis Pharma" over a role is not a member of ours.
    expect(teamOf("Our Team\n\nKarl Meier, Novartis Pharma\nAdvisor")).toEqual([]);
  });

  test("narrow cards: a line after one that breaks off ('previously Principal at') finishes it, it starts no name", () => {
    expect(teamOf("Team\nDario Jaeger\nCo-founder, CTO previously Principal at\nStripe\nQuentin\nAchterberg\nFounding Engineer previously Lead at Adyen")).toEqual([["Dario Jaeger", "Co-founder, CTO"], ["Quentin Achterberg", "Founding Engineer"]]);
  });

  test("a role ending in a dash over the name it introduces", () => {
    expect(teamOf("The Team\n\nCEO – Anna Keller\n\nHead of Biz Dev –\nJonas Berg\nLorem ipsum dolor sit amet.")).toEqual([["Anna Keller", "CEO"], ["Jonas Berg", "Head of Biz Dev"]]);
  });

  test("a name over a bio that speaks of them: a member, with the role the bio names", () => {
    const slide = "Team\n\nJeet Patel\n\nJeet is a mid-level Frontend React\nDeveloper based in India.\n\nCesar Ruiz\n\nCesar is a senior Blockchain Developer,\nbased in Mexico.\n\nMaria Lopez\n\nShe leads our partnerships.";
    expect(teamOf(slide)).toEqual([["Jeet Patel", "Frontend React Developer"], ["Cesar Ruiz", "Blockchain Developer"], ["Maria Lopez", null]]);
    // A bio that says they advise or invested is no member's.
    expect(teamOf("Team\n\nKarl Meier\n\nKarl is an advisor to the board.")).toEqual([]);
  });

  test("a name over a caption that is no role's shape, on the team's slide; the advisors' slide stays theirs", () => {
    const team = "TEAM\nAn expertise in supply chain\nClément Gourrier\nBUSINESS & CONTENT\nS U P P LY CHAIN / BLOCKCHAIN\n1 YEAR AT L'OREAL\nSix months of warehouse digitalisation.";
    const team2 = "TEAM\nAn expertise in data\n3 YEARS EXPERIENCE AT WAVESTONE\nCreation of data platforms for information systems.\nGrégoire Thibault\nPRODUCT & TECH\nDATA / SAAS";
    const advisors = "ADVISORS\nWith advisors to help us\nBilly Harvey\nPierre-Arthur Chartier\nMark Cooper\nBlockchain expert | Strategy consultant | Educator\nNajah Nassar\nCEO Blockchain secure SAS";
    expect(teamOf(team, team2, advisors)).toEqual([["Clément Gourrier", "BUSINESS & CONTENT"], ["Grégoire Thibault", "PRODUCT & TECH"]]);
    // A caption that says the person is someone else's is no member's.
    expect(teamOf("TEAM\nKarl Meier\nFormer CFO of Novartis")).toEqual([]);
  });
});

describe("a deck that names its people only in a list", () => {
  test("a line of three or more names and nothing else is the team when no one is set beside a role", () => {
    expect(teamOf("Join us to change the market.\n\nMaria Tedesco, Can Demir, Cosimo Nardi, Giacomo Silvestri.")).toEqual([["Maria Tedesco", null], ["Can Demir", null], ["Cosimo Nardi", null], ["Giacomo Silvestri", null]]);
    // Under an outsider's label, or beside a team already read from its cards, a list adds no one.
    expect(teamOf("Backed by: Maria Tedesco, Can Demir, Cosimo Nardi.")).toEqual([]);
    expect(teamOf("Team\nAnna Keller, CEO", "Thanks\nMaria Tedesco, Can Demir, Cosimo Nardi.")).toEqual([["Anna Keller", "CEO"]]);
  });
});

describe("what is no name", () => {
  test("a role's words set in capitals are no name: 'HR PARTNER' over 'BUSINESS ANALYST'", () => {
    expect(teamOf("—THE TEAM —\n\nHR PARTNER\n\nBUSINESS ANALYST\n\nIP LAWYER\n\nWEB DEVELOPER")).toEqual([]);
  });

  test("a title between dashes is the slide's title: its cards are the team's", () => {
    expect(teamOf("— THE TEAM —\n\nAnna Keller\nGROWTH & OPS")).toEqual([["Anna Keller", "GROWTH & OPS"]]);
  });
});

describe("the team in a sentence", () => {
  test("names with what each does in brackets, after a 'Team:' label", () => {
    expect(teamOf("Mandates\n** Signature (BES) Team:** Blessing Onwe (Lead/Creative), Bethel Clement (Product/Data), Kenneth Nyong (Ecosystem), and Wakala Bilkisu (Operations).")).toEqual([
      ["Blessing Onwe", "Lead"],
      ["Bethel Clement", "Product/Data"],
      ["Kenneth Nyong", "Ecosystem"],
      ["Wakala Bilkisu", "Operations"],
    ]);
    // Brackets that say someone is elsewhere, or an advisor, are no member's.
    expect(teamOf("Partners\nWorking with Karl Meier (Novartis) and Eva Roth (Advisor).")).toEqual([]);
  });
});
