// The round reader's rules, as decks write a raise: verbs and nouns, stage spellings, multipliers,
// number styles, currencies before and after the figure, term sheets as label and value. A figure
// whose multiplier or currency cannot be established is no amount (null, with the reason), and
// earlier rounds, the next round, customers' stages, valuations and other people's money are not
// this round.
import { describe, expect, test } from "bun:test";
import { companyRound, describeRaise } from "../../src/engines/builtin/deal-round.ts";
import { readMaterial } from "../../src/engines/builtin/deal-text.ts";
import { deckPages } from "./deal-facts-corpus.ts";

const roundOf = (...pages: string[]) => companyRound(readMaterial(deckPages(pages)));
const brief = (...pages: string[]) => {
  const r = roundOf(...pages);
  return { stage: r.stage, amount: r.amount, currency: r.currency };
};

describe("the raise, as decks write it", () => {
  const cases: [string, string | null, number, string][] = [
    ["We are raising EUR 4.5 million in a Seed round.", "seed", 4_500_000, "EUR"],
    ["We are looking for EUR 17 million to close our Series-A round.", "series a", 17_000_000, "EUR"],
    ["Total round size CHF 25 million (Series-B)", "series b", 25_000_000, "CHF"],
    ["Total round size $1.75 million (Seed)", "seed", 1_750_000, "USD"],
    ["The ask: CHF 4.25 million", null, 4_250_000, "CHF"],
    ["Total Required Investment is 50,000 euros.", null, 50_000, "EUR"],
    ["Seeking €3,5 Mio. in Serie A funding to launch in the US.", "series a", 3_500_000, "EUR"],
    ["Funding need: 1.500.000 € (Pre-Seed) over the next 18 months.", "pre-seed", 1_500_000, "EUR"],
    ["Round size: CHF 2'500'000, of which CHF 1'000'000 is already committed.", null, 2_500_000, "CHF"],
    ["Raising 4 250 000 € seed to hire 15 engineers.", "seed", 4_250_000, "EUR"],
    ["We're opening a 2 Mio. EUR round, with Northstar Capital in the lead.", null, 2_000_000, "EUR"],
    ["Investment opportunity: a $6MM Series A financing on a SAFE.", "series a", 6_000_000, "USD"],
    ["Our Preseed raise: £750k to reach break-even.", "pre-seed", 750_000, "GBP"],
    ["Target raise: 4,25 M€", null, 4_250_000, "EUR"],
    ["Raising USD 12.5mn Series B at a USD 60mn pre-money valuation.", "series b", 12_500_000, "USD"],
    ["We are raising a bridge of 900 Tsd. € from existing investors.", "bridge", 900_000, "EUR"],
    ["Current round — Seed — EUR 2,000,000", "seed", 2_000_000, "EUR"],
    ["We seek an investment of CHF 3 Mio. for 15% equity.", null, 3_000_000, "CHF"],
    ["Investment sought: £1.2m for 18 months of runway.", null, 1_200_000, "GBP"],
    ["Looking to raise 750k EUR pre-seed to finish the pilot.", "pre-seed", 750_000, "EUR"],
  ];
  for (const [text, stage, amount, currency] of cases) {
    test(text, () => expect(brief("Acme", text)).toEqual({ stage, amount, currency }));
  }

  test("a term sheet: label and value in a table row, or the label over its value", () => {
    expect(brief("Acme", "Financing\nTerm | Details\nRound | Seed\nAmount | €2.5M\nPre-money | €10M")).toEqual({ stage: "seed", amount: 2_500_000, currency: "EUR" });
    expect(roundOf("Acme", "Financing\nRound | Seed\nAmount | €2.5M\nPre-money | €10M").pre_money_valuation).toBe(10_000_000);
    expect(brief("Acme", "Financing\n\nRound\nSeries A\n\nAmount\n18 million EUR\n\nInstrument\nEquity")).toEqual({ stage: "series a", amount: 18_000_000, currency: "EUR" });
  });
});

describe("a figure that is not established is no amount", () => {
  test("a multiplier lost on the way ('CHF 4.25' for a round): null, and the reason", () => {
    const r = roundOf("Acme", "The ask: CHF 4.25 Seed round");
    expect(r).toMatchObject({ amount: null, stage: "seed" });
    expect(r.unestablished).toContain('"CHF 4.25" with no multiplier');
    expect(describeRaise(r)).toBe(`Raising (seed): ${r.unestablished}.`);
  });

  test("no currency beside the figure: null, and the reason", () => {
    const r = roundOf("Acme", "We are raising 4.25 million in a seed round.");
    expect(r).toMatchObject({ amount: null, currency: null, stage: "seed" });
    expect(r.unestablished).toBe('the raise is stated as "4.25 million" with no currency, so no amount is recorded');
  });

  test("a range states no single amount, but its currency", () => {
    const r = roundOf("Acme", "Raising $2–3M seed on a SAFE.");
    expect(r).toMatchObject({ amount: null, currency: "USD", stage: "seed" });
    expect(describeRaise(r)).toBe("Raising $2M–$3M (seed), a range: no single amount is recorded.");
  });
});

describe("not this round", () => {
  test("an earlier round beside the raise; an earlier round alone is no raise", () => {
    expect(brief("Acme", "Previously raised £500K pre-seed from angels. We are raising £2M seed.")).toEqual({ stage: "seed", amount: 2_000_000, currency: "GBP" });
    expect(brief("Acme", "Milestones\nIn 2023 we closed a €1M pre-seed led by Fjord Capital.")).toEqual({ stage: null, amount: null, currency: null });
    expect(brief("Acme", "Backed by Seedcamp, who led our $700K angel round.")).toEqual({ stage: null, amount: null, currency: null });
  });

  test("customers' stages, the next round and other people's money", () => {
    expect(brief("Acme", "Traction\nOur customers are Series B to D scale-ups.", "We are raising $5M.")).toEqual({ stage: null, amount: 5_000_000, currency: "USD" });
    expect(brief("Acme", "We are raising $3M to reach Series A milestones by Q4 2026.")).toEqual({ stage: null, amount: 3_000_000, currency: "USD" });
    expect(brief("Acme", "We help SMEs raise up to €500K in working capital.")).toEqual({ stage: null, amount: null, currency: null });
  });

  test("a valuation, a committed part and revenue are not the raise", () => {
    expect(roundOf("Acme", "Raising €3M at a €12M pre-money valuation; €1M already committed by our angels.")).toMatchObject({ amount: 3_000_000, pre_money_valuation: 12_000_000, currency: "EUR" });
    expect(brief("Acme", "The Ask\nWith €1.2M ARR, we are raising €4M.")).toEqual({ stage: null, amount: 4_000_000, currency: "EUR" });
  });
});
