// The role of each money figure, from its statement's grammar: the raise is only the figure the
// raise takes as its object, whatever slide it is on; every other figure (an allocation, an
// earlier round, traction, a market, a goal, a burn, a valuation) is never the raise. Two
// different amounts stated for the raise give none, with the reason.
import { describe, expect, test } from "bun:test";
import { companyRound } from "../../src/engines/builtin/deal-round.ts";
import { moneyRoles } from "../../src/engines/builtin/deal-roles.ts";
import { readMaterial } from "../../src/engines/builtin/deal-text.ts";
import { deckPages } from "./deal-facts-corpus.ts";

const roles = (text: string) => moneyRoles(text).map((r) => [r.money.amount, r.role]);
const roundOf = (...pages: string[]) => companyRound(readMaterial(deckPages(["Acme", ...pages])));

describe("each figure's role in its statement", () => {
  const cases: [string, [number, string][]][] = [
    ["We are raising $3M, which at our $150k burn gives 20 months of runway.", [[3e6, "raise"], [150e3, "burn"]]],
    ["Our customers have processed $40M through the platform.", [[40e6, "traction"]]],
    ["Raising $3M to grow ARR from $1.2M to $5M by 2026.", [[3e6, "raise"], [1.2e6, "goal"], [5e6, "goal"]]],
    ["We raised a $2M seed in 2023.", [[2e6, "past"]]],
    ["Having closed a $1M pre-seed, we are now raising a $4M seed round.", [[1e6, "past"], [4e6, "raise"]]],
    ["We have raised $2.5M to date and now seek $4M.", [[2.5e6, "past"], [4e6, "raise"]]],
    ["The global market is worth $50B.", [[50e9, "market"]]],
    ["Use of funds: $1.2M for engineering, $800K on sales.", [[1.2e6, "allocation"], [800e3, "allocation"]]],
    ["We are raising $5M; $2M is already committed by Acme Ventures.", [[5e6, "raise"], [2e6, "committed"]]],
    ["Raising $2M on a $8M pre-money valuation.", [[2e6, "raise"], [8e6, "valuation"]]],
    ["The round: $2.5M SAFE with a $12M cap.", [[2.5e6, "raise"], [12e6, "valuation"]]],
    ["We plan to raise a $15M Series A in 2026.", [[15e6, "future"]]],
    ["Our platform helped 120 startups raise $40M last year.", [[40e6, "others"]]],
    ["Monthly burn of $120K.", [[120e3, "burn"]]],
    ["Annual licence per site, priced from £54,300.", [[54300, "price"]]],
    // The figure before the instrument it is raised on is the raise; an allocation names a purpose.
    ["£2.75 million on a post-money SAFE.", [[2.75e6, "raise"]]],
    ["We raised $1M on a SAFE in 2022.", [[1e6, "past"]]],
    // Where a market or an industry is going is the market's figure, not the company's goal.
    ["The global EdTech industry is projected to reach $810.3 billion by 2033.", [[810.3e9, "market"]]],
    ["The kids' savings market is expected to reach $5M by 2026.", [[5e6, "market"]]],
    ["In this market we expect to reach $5M by 2026.", [[5e6, "goal"]]],
  ];
  for (const [text, expected] of cases) test(text, () => expect(roles(text) as unknown[]).toEqual(expected));
});

describe("the raise is only a figure in the raise's role", () => {
  test("money under an ask title that is not the raise: use of funds, traction, a burn, a goal, a market", () => {
    const r = roundOf(
      "The Ask\nWe are raising $3M, which at our $150k burn gives 20 months of runway.\nOur customers have processed $40M to date.\n$1.2M for engineering\n$800K for go-to-market\nWith it we grow ARR from $1.2M to $5M in a $12B market.",
    );
    expect({ amount: r.amount, currency: r.currency }).toEqual({ amount: 3_000_000, currency: "USD" });
  });

  test("a raise between two figures is a range: no single amount, never the upper bound", () => {
    const r = roundOf("Series A round | 2026\nWe are raising between $20M and $30M in our Series A round.");
    expect(r.amount).toBeNull();
    expect(roles("We are raising between $20M and $30M in our Series A round.")).toEqual([[null, "raise"]]);
  });

  test("an ask slide with no raise statement at all gives no amount", () => {
    expect(roundOf("The Ask\nOur customers have processed $40M.\nUse of funds: $1.2M for engineering, $800K for sales.").amount).toBeNull();
    expect(roundOf("Funding\nWe raised a $2M seed in 2023 from Acme Ventures.").amount).toBeNull();
    expect(roundOf("Ask\nThe market for payroll is $50B and growing 12% a year.").amount).toBeNull();
  });

  test("two different amounts for the raise: none is recorded, and the reason says why", () => {
    const r = roundOf("The Ask\nWe are raising $3M seed.", "Summary\nWe are seeking $2.5M to reach break-even.");
    expect(r.amount).toBeNull();
    expect(r.unestablished).toContain("different amounts for this raise ($3M, $2.5M)");
    // The same amount stated twice is one amount.
    expect(roundOf("We are raising $3M.", "The ask: $3,000,000 seed round").amount).toBe(3_000_000);
  });

  test("a big figure alone takes its role from its label or caption", () => {
    expect(roundOf("The Ask\n\n$2.5M\n\nSeed round")).toMatchObject({ amount: 2_500_000, stage: "seed" });
    expect(roundOf("Traction\n\n$40M\n\nprocessed by our customers").amount).toBeNull();
    expect(roundOf("Funding\n\nRaised to date\n\n$2M").amount).toBeNull();
  });

  test("pre-money only when said pre-money, or derived from this round's post-money", () => {
    expect(roundOf("We are raising $2M at a $10M pre-money valuation.").pre_money_valuation).toBe(10_000_000);
    // "at a $10M valuation" does not say pre or post: no pre-money, and the reason is given.
    const unsaid = roundOf("We are raising $2M at a $10M valuation.");
    expect(unsaid).toMatchObject({ amount: 2_000_000, pre_money_valuation: null });
    expect(unsaid.pre_money_unestablished).toContain("not said to be pre- or post-money");
    // Post-money is pre-money plus the raise: stated with the raise, it gives the pre-money; a cap is no valuation of the round.
    expect(roundOf("We are raising $2M at a $12M post-money valuation.").pre_money_valuation).toBe(10_000_000);
    expect(roundOf("We are raising $2M on a SAFE with a $12M valuation cap.").pre_money_valuation).toBeNull();
    expect(roundOf("Post-money valuation: $12M").pre_money_valuation).toBeNull();
    expect(roundOf("Our last round valued us at $6M.", "We are raising $2M.").pre_money_valuation).toBeNull();
  });
});

describe("stages with prefixes are their own stage", () => {
  const cases: [string, string][] = [
    ["We are raising a $3M Pre-Series A round.", "pre-series a"],
    ["We are raising $1M pre-seed.", "pre-seed"],
    ["We are raising a €2M Seed+ round.", "seed+"],
    ["We are raising a $1.5M bridge.", "bridge"],
    ["We are raising $8M in a Series A.", "series a"],
  ];
  for (const [text, stage] of cases) test(text, () => expect(roundOf(text).stage).toBe(stage));
});

describe("rounds told as a timeline, in other languages, and in tables", () => {
  test("a timeline's entry is an earlier round; a round opening later names the stage but no amount", () => {
    const r = roundOf("The round\nSeries B round opening in Q3 2027.\n2022: Series A round of £9 million at £40 million post-money.");
    expect({ amount: r.amount, stage: r.stage, pre: r.pre_money_valuation }).toEqual({ amount: null, stage: "series b", pre: null });
  });

  test("raise words in German and French", () => {
    expect(roundOf("Finanzierung\nWir suchen €3 Mio. in einer Seed-Runde.")).toMatchObject({ amount: 3_000_000, currency: "EUR", stage: "seed" });
    expect(roundOf("Levée de fonds\nNous levons 1,5 M€ en seed.")).toMatchObject({ amount: 1_500_000, currency: "EUR" });
    expect(roundOf("Investment\nInvestitionsbedarf: 2,4 Mio. €")).toMatchObject({ amount: 2_400_000, currency: "EUR" });
  });

  test("an 'Amount' column of the use of funds is no raise", () => {
    const r = roundOf("The ask\nWe are raising €5M.\n\nUse of funds\n\nAmount\n\n€2M\n\n€1.5M\n\n€1.5M");
    expect(r.amount).toBe(5_000_000);
    expect(roundOf("Use of funds\n\nAmount\n\n€2M\n\n€1.5M").amount).toBeNull();
  });

  test("a valuation said post-money elsewhere is not taken as the pre-money where it is unqualified (the wrong pre-money class)", () => {
    // Post-money on the cover, "at a $2M valuation" in the ask: the pre-money is $1.8M, never $2M.
    const r = roundOf("Angel Round: $200K @ $2M post-money valuation", "The Ask\nWe're raising $200K at a $2M valuation to accelerate growth.");
    expect(r).toMatchObject({ amount: 200_000, currency: "USD", pre_money_valuation: 1_800_000 });
  });

  test("an earlier round's pre-money is not this round's; two pre-money valuations that disagree give none", () => {
    expect(roundOf("We are raising $5M Series A.", "Seed (2022): $1.5M at a $6M pre-money valuation, led by Acme Ventures.").pre_money_valuation).toBeNull();
    expect(roundOf("We are raising $5M Series A.", "In 2023 we closed our seed at a $8M pre-money valuation.").pre_money_valuation).toBeNull();
    const two = roundOf("We are raising $5M at a $20M pre-money valuation.", "Terms\nPre-money valuation: $25M");
    expect(two.pre_money_valuation).toBeNull();
    expect(two.pre_money_unestablished).toContain("different pre-money valuations");
    // The same pre-money said twice is one.
    expect(roundOf("We are raising $5M at a $20M pre-money valuation.", "Terms\nPre-money valuation: $20M").pre_money_valuation).toBe(20_000_000);
  });

  test("the post-money of this round gives its pre-money; an earlier round's does not", () => {
    expect(roundOf("We are raising CHF 6 million (Series A).\nPost-money valuation: CHF 30'000'000").pre_money_valuation).toBe(24_000_000);
    expect(roundOf("Now raising $6M Series A.\n2022: Seed round of $2M at $10M post-money.").pre_money_valuation).toBeNull();
  });
});
