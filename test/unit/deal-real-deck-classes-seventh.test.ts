// Classes of failure found on a seventh look at the real public decks (dev part): a team slide whose
// cards set the family name in small letters and the given name in capitals on the line beside it
// (as such designs, and OCR of them, give them). Held by the names the reader must give and those it must not.
import { describe, expect, test } from "bun:test";
import { teamOf } from "./deal-facts-corpus.ts";


describe("names in two styles on two lines on the team's page", () => {
  test("family name in small letters over the given name in capitals: each pair is a member", () => {
    expect(teamOf("Lumora\nTreasury automation", "THE TEAM\n\nkeller\nANNA\n\nberg\nJONAS\n\nokafor\nCHIDI\n\nCEO\n\nCTO\n\nCOO")).toEqual([
      ["Anna Keller", null],
      ["Jonas Berg", null],
      ["Chidi Okafor", null],
    ]);
  });

  test("the given name in capitals first, the family name under it, reads the same", () => {
    expect(teamOf("Lumora\nTreasury automation", "Our Team\n\nANNA\nkeller\n\nJONAS\nberg\n\nCHIDI\nokafor").map(([n]) => n)).toEqual(["Anna Keller", "Jonas Berg", "Chidi Okafor"]);
  });

  test("fewer than three pairs, a page that is not the team's, or small words that are a role or a lead-in, make no one", () => {
    expect(teamOf("Lumora\nTreasury automation", "THE TEAM\n\nkeller\nANNA\n\nberg\nJONAS")).toEqual([]);
    expect(teamOf("Lumora\nTreasury automation", "Market\n\nkeller\nANNA\n\nberg\nJONAS\n\nokafor\nCHIDI")).toEqual([]);
    expect(teamOf("Lumora\nTreasury automation", "THE TEAM\n\ncoo\nCEO\n\nthe\nBEST\n\nand\nMORE\n\nwith\nLOVE")).toEqual([]);
  });
});

describe("a page of names under photos, under no title", () => {
  const deck = (names: string) => ["Lumora\nTreasury automation for mid-market CFOs", "Problem\nFinance teams lose days to manual reconciliation.", "Product\nLumora matches payments to invoices automatically.", names, "Demo"];

  test("three or more whole names, each alone on its line, are the team (a middle initial without its dot too)", () => {
    expect(teamOf(...deck("Marc G Tan\n\nJoin us on\n@lumora !\n\nAnna Keller\n\nJonas Berg\n\nChidi Okafor"))).toEqual([
      ["Marc G Tan", null],
      ["Anna Keller", null],
      ["Jonas Berg", null],
      ["Chidi Okafor", null],
    ]);
  });

  test("a diagram's labels in two capitalised words, words the deck uses elsewhere, are no one", () => {
    const pages = ["Lumora\nManual reconciliation is slow and reports come late.", "Problem\nManual matching means delayed reports.", "Manual Matching\n\nDelayed Reports\n\nMissed Payments\n\nLost Revenue", "Demo"];
    expect(teamOf(...pages)).toEqual([]);
  });

  test("names under a title of their own topic, a sentence on the page, or only two names, are not read this way", () => {
    expect(teamOf(...deck("Our customers\n\nAnna Keller\n\nJonas Berg\n\nChidi Okafor"))).toEqual([]);
    expect(teamOf(...deck("Anna Keller\n\nJonas Berg\n\nChidi Okafor\n\nThey all told us that reconciliation takes far too long every month."))).toEqual([]);
    expect(teamOf(...deck("Anna Keller\n\nJonas Berg\n\nJoin us"))).toEqual([]);
  });
});
