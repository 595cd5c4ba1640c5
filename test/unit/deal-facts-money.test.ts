// Money as decks write it: thousands separators, decimal commas, scale words in three languages,
// currency before or after the figure, and ranges (which are never collapsed into one figure).
import { describe, expect, test } from "bun:test";
import { moneyIn, moneyMentions, parseMoney, statedFigures } from "../../src/engines/builtin/deal-money.ts";

describe("parseMoney", () => {
  const cases: [string, number, string][] = [
    ["raising $12,500,000", 12_500_000, "USD"],
    ["$2,000,000", 2_000_000, "USD"],
    ["$2.5M", 2_500_000, "USD"],
    ["$2.5 million", 2_500_000, "USD"],
    ["USD 2.5m", 2_500_000, "USD"],
    ["US$ 750k", 750_000, "USD"],
    ["€3M", 3_000_000, "EUR"],
    ["£1.2bn", 1_200_000_000, "GBP"],
    ["2,5 Mio. €", 2_500_000, "EUR"],
    ["EUR 1.500.000", 1_500_000, "EUR"],
    ["€1.250.000,50", 1_250_000.5, "EUR"],
    ["$500K", 500_000, "USD"],
    ["$1,500 per robot per month", 1_500, "USD"],
    ["3 million euros", 3_000_000, "EUR"],
    ["CHF 4.2 Mio.", 4_200_000, "CHF"],
    ["£1.6tn", 1_600_000_000_000, "GBP"],
    ["$1.250M", 1_250_000, "USD"],
    ["$0.04 per kWh", 0.04, "USD"],
    // French, German and Swiss styles; multipliers as decks abbreviate them.
    ["4,25 M€", 4_250_000, "EUR"],
    ["4 250 000 €", 4_250_000, "EUR"],
    ["2,5 millions d'euros", 2_500_000, "EUR"],
    ["750 Tsd. €", 750_000, "EUR"],
    // A T before the euro is thousands (Tausend), never trillions; a trillion is "$1.2T", "£1.6tn".
    ["700 T€", 700_000, "EUR"],
    ["829,4 T€", 829_400, "EUR"],
    ["750 T EUR", 750_000, "EUR"],
    ["$1.2T", 1_200_000_000_000, "USD"],
    ["CHF 1'500'000", 1_500_000, "CHF"],
    ["SFr. 3.5 Mio.", 3_500_000, "CHF"],
    ["4,25 Md€", 4_250_000_000, "EUR"],
    ["60 Mrd. €", 60_000_000_000, "EUR"],
    ["$4.25MM", 4_250_000, "USD"],
    ["$4.25 mn", 4_250_000, "USD"],
    ["1.500.000 €", 1_500_000, "EUR"],
    ["4.25 million USD", 4_250_000, "USD"],
  ];
  for (const [text, amount, currency] of cases) {
    test(text, () => expect(parseMoney(text)).toEqual({ amount, currency }));
  }

  test("a figure without a currency is not money", () => {
    expect(parseMoney("raising 2.5M")).toBeNull();
    expect(parseMoney("founded in 2021 with 12,000 users")).toBeNull();
    // Grouping by spaces never starts at a year: "in 2024 500 customers" is two figures.
    expect(moneyMentions("In 2024 500 customers paid €90 each")[0]).toMatchObject({ amount: 90, currency: "EUR" });
  });

  test("a range has no single amount: both bounds are kept, the amount is null", () => {
    expect(parseMoney("$2-3M")).toBeNull();
    const [range] = moneyMentions("Raising $2-3M seed");
    expect(range).toMatchObject({ amount: null, low: 2_000_000, high: 3_000_000, currency: "USD", text: "$2-3M" });
    expect(moneyMentions("€1M to €1.5M")[0]).toMatchObject({ amount: null, low: 1_000_000, high: 1_500_000, currency: "EUR" });
  });

  test("mentions carry their position in the text", () => {
    const text = "ARR $620K; raising £1.5 million at £8M post-money";
    const found = moneyMentions(text);
    expect(found.map((m) => [m.amount, m.currency, text.slice(m.index, m.end)])).toEqual([
      [620_000, "USD", "$620K"],
      [1_500_000, "GBP", "£1.5 million"],
      [8_000_000, "GBP", "£8M"],
    ]);
  });
});

describe("moneyIn", () => {
  test("reads back compactly", () => {
    expect(moneyIn(12_500_000, "USD")).toBe("$12.5M");
    expect(moneyIn(2_500_000, "EUR")).toBe("€2.5M");
    expect(moneyIn(500_000, "GBP")).toBe("£500K");
    expect(moneyIn(4_200_000, "CHF")).toBe("CHF 4.2M");
    expect(moneyIn(1_500, "USD")).toBe("$1.5K");
  });
});

describe("statedFigures", () => {
  test("every figure, with or without a currency, in its own notation", () => {
    expect(statedFigures("raising 2.5M from 12,000 users; 2,5 Mio. € seed; ARR $1.2M; founded 2021")).toEqual([2_500_000, 12_000, 2_500_000, 1_200_000, 2021]);
  });
});
