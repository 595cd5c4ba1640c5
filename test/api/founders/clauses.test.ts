// The clause attribution of the built-in founder engine, sentence by sentence: what is the
// founder's own (the subject of the clause) and what belongs to someone named beside them.
import { describe, expect, test } from "bun:test";
import { founderClauses } from "../../../src/engines/builtin/founder-clauses.ts";

const cases: [string, string, string[]][] = [
  [
    "the audited sentence: alongside, then a relative clause about the other person",
    "Jane Doe joined as an intern last summer alongside the CEO John Roe, who previously founded and exited two companies and led a team of 200 engineers.",
    ["Jane Doe joined as an intern last summer"],
  ],
  ["the founder as object, and a pronoun after another subject", "We met Jane Doe through John Roe, who founded Paylane and sold it to Visa. He led a team of 80 engineers.", []],
  ["the founder as object at the end", "John Roe, who founded Paylane, introduced us to Jane Doe.", []],
  ["the founder as object of another's verb", "The CEO John Roe hired Jane Doe as head of sales.", []],
  [
    "the founder's own relative clause, a co-actor, and her pronoun in the next sentence",
    "Jane Doe, who previously founded Paylane and sold it to Visa, worked alongside the CTO John Roe. She led a team of 40 at Stripe.",
    ["Jane Doe", "previously founded Paylane", "sold it to Visa", "worked", "She led a team of 40 at Stripe"],
  ],
  ["coordinated subjects share the verb", "Jane Doe and John Roe co-founded Ledgerly in 2021.", ["Jane Doe", "co-founded Ledgerly in 2021"]],
  ["coordinated subjects, the founder second", "John Roe and Jane Doe co-founded Ledgerly in 2021.", ["co-founded Ledgerly in 2021"]],
  [
    "a co-founder named beside her keeps his relative clause",
    "Jane Doe and her co-founder John Roe, who previously led a team of 300, founded Ledgerly.",
    ["Jane Doe", "founded Ledgerly"],
  ],
  [
    "two people, two clauses; with + a figure goes on about her",
    "John Roe is the CEO and previously sold two companies, while Jane Doe runs marketing with 6 years of experience in retail.",
    ["Jane Doe runs marketing", "6 years of experience in retail"],
  ],
  ["the agent of a passive", "The data platform was built by Jane Doe over three years.", ["The data platform was built by Jane Doe over three years"]],
  [
    "a place, then her pronoun in the same and the next sentence",
    "Jane Doe previously led a team of 40 engineers at Stripe, where she built the payments ledger. She has 12 years of experience in fintech infrastructure.",
    ["Jane Doe previously led a team of 40 engineers at Stripe", "she built the payments ledger", "She has 12 years of experience in fintech infrastructure"],
  ],
  ["a team line: her appositives are hers, his are his", "Team: founded by Jane Doe (CEO, ex-Stripe) and Tomas Berg (CTO).", ["founded by Jane Doe", "CEO", "ex-Stripe"]],
  ["a leading date and a which-clause about her company", "In 2019 Jane Doe founded Paylane, which was acquired by Visa.", ["In 2019 Jane Doe founded Paylane", "was acquired by Visa"]],
  ["with + another person", "Jane Doe founded Ledgerly with John Roe, who led a team of 200.", ["Jane Doe founded Ledgerly"]],
  ["a last name alone is her", "Doe previously ran sales at Stripe.", ["Doe previously ran sales at Stripe"]],
  ["a namesake's first name with another surname is not her", "Jane Smith led a team of 90.", []],
];

describe("founderClauses", () => {
  for (const [name, sentence, expected] of cases) {
    test(name, () => {
      expect(founderClauses(sentence, "Jane Doe")).toEqual(expected);
    });
  }
});
