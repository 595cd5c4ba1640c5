// The LP arithmetic against figures worked out by hand in the comments. Dates are chosen so the
// year fractions are whole: 2021-01-01 -> 2022-01-01 -> 2023-01-01 are 365 days apart each.
import { describe, expect, test } from "bun:test";
import { ledgerFigures, ledgerOf, markTrace, pooledFigures, positionFigures, STALE_NAV_DAYS, type Cashflow, type Mark } from "../../src/modules/funds/fund-math.ts";
import { mergeNetFlows, xirr } from "../../src/modules/funds/xirr.ts";
import { multiple, round } from "../../src/lib/figures.ts";
import { cashflowsJson, publishedOrder, type LedgerGroup, type LedgerRow } from "../../src/modules/funds/funds.ledger.ts";

const asOf = new Date("2023-02-15T12:00:00Z");
const call = (date: string, amount: number): Cashflow => ({ date, type: "call", amount });
const dist = (date: string, amount: number): Cashflow => ({ date, type: "distribution", amount });
const mark = (date: string, nav: number): Mark => ({ date, nav });

describe("xirr", () => {
  test("one year, one period: -100 then +110 is 10%", () => {
    expect(xirr([{ date: "2021-01-01", amount: -100 }, { date: "2022-01-01", amount: 110 }])).toBe(0.1);
  });

  test("two years: -100 then +121 is 10% (1.1^2 = 1.21); +144 is 20% (1.2^2 = 1.44)", () => {
    expect(xirr([{ date: "2021-01-01", amount: -100 }, { date: "2023-01-01", amount: 121 }])).toBe(0.1);
    expect(xirr([{ date: "2021-01-01", amount: -100 }, { date: "2023-01-01", amount: 144 }])).toBe(0.2);
  });

  test("a part-year: -1000, then +1100 after 182 days: (1.1)^(365/182) - 1 = 0.210634", () => {
    expect(xirr([{ date: "2020-01-01", amount: -1000 }, { date: "2020-07-01", amount: 1100 }])).toBe(0.210634);
  });

  test("flows on one date are netted; the order they come in does not matter", () => {
    // -400 | +110 | -100 and +463 on the same day = +363: -400 + 110/1.1 + 363/1.21 = -400 + 100 + 300 = 0
    const flows = [
      { date: "2023-01-01", amount: 463 },
      { date: "2021-01-01", amount: -400 },
      { date: "2023-01-01", amount: -100 },
      { date: "2022-01-01", amount: 110 },
    ];
    expect(xirr(flows)).toBe(0.1);
  });

  test("a loss: -100 then +50 two years later is sqrt(0.5) - 1 = -0.292893", () => {
    expect(xirr([{ date: "2021-01-01", amount: -100 }, { date: "2023-01-01", amount: 50 }])).toBe(-0.292893);
  });

  test("no rate exists without money both paid in and received", () => {
    expect(xirr([])).toBeNull();
    expect(xirr([{ date: "2021-01-01", amount: -100 }, { date: "2022-01-01", amount: 0 }])).toBeNull();
    expect(xirr([{ date: "2021-01-01", amount: 100 }, { date: "2022-01-01", amount: 5 }])).toBeNull();
    // everything on one day nets to a single flow
    expect(xirr([{ date: "2021-01-01", amount: -100 }, { date: "2021-01-01", amount: 120 }])).toBeNull();
  });
});

describe("positionFigures", () => {
  // Alpha: call 400,000 (2021-01-01), distribution 110,000 (2022-01-01), mark 363,000 (2022-09-30),
  // then a call of 100,000 (2023-01-01) after the mark.
  const alpha = [call("2021-01-01", 400_000), dist("2022-01-01", 110_000), call("2023-01-01", 100_000)];
  const alphaMarks = [mark("2021-12-31", 390_000), mark("2022-09-30", 363_000)];

  test("NAV rolled forward from the latest mark by the cashflows after it", () => {
    const { figures } = positionFigures(1_000_000, alpha, alphaMarks, asOf);
    expect(figures).toEqual({
      commitment: 1_000_000,
      called: 500_000, // 400,000 + 100,000
      distributed: 110_000,
      nav: 463_000, // 363,000 + 100,000 called after the mark
      nav_date: "2023-01-01", // the last cashflow rolled in
      last_mark_date: "2022-09-30",
      unfunded: 500_000, // 1,000,000 - 500,000
      tvpi: 1.146, // (110,000 + 463,000) / 500,000 = 573 / 500
      dpi: 0.22, // 110,000 / 500,000
      rvpi: 0.926, // 463,000 / 500,000
      irr: 0.1, // -400,000 | +110,000 | -100,000 + 463,000 = +363,000: 10% exactly (see xirr)
      data_quality_flags: ["cashflows_after_last_mark"],
    });
  });

  test("a distribution after the mark rolls NAV down; a cashflow on the mark's date is in the mark", () => {
    // mark 200 on 2022-10-01; a call of 50 that same day is already in it; distribution of 30 later
    const { figures } = positionFigures(100, [call("2021-01-01", 100), call("2022-10-01", 50), dist("2022-12-01", 30)], [mark("2022-10-01", 200)], asOf);
    expect(figures.nav).toBe(170); // 200 - 30
    expect(figures.nav_date).toBe("2022-12-01");
    expect(figures.called).toBe(150);
    expect(figures.unfunded).toBe(-50); // 100 - 150: called above the commitment
    expect(figures.data_quality_flags).toEqual(["called_above_commitment", "cashflows_after_last_mark"]);
  });

  test("no mark: NAV, TVPI, RVPI and IRR are null; DPI is still known", () => {
    const { figures, flows } = positionFigures(1000, [call("2021-01-01", 400), dist("2022-01-01", 100)], [], asOf);
    expect(figures).toMatchObject({ called: 400, distributed: 100, nav: null, nav_date: null, tvpi: null, rvpi: null, irr: null, dpi: 0.25 });
    expect(figures.data_quality_flags).toEqual(["no_mark"]);
    expect(flows).toBeNull();
  });

  test("no cashflows: called and distributed are 0 (flagged), unfunded is the commitment, the ratios and IRR null (flagged)", () => {
    const { figures } = positionFigures(500, [], [mark("2023-01-01", 0)], asOf);
    expect(figures).toMatchObject({ called: 0, distributed: 0, unfunded: 500, nav: 0, tvpi: null, dpi: null, rvpi: null, irr: null });
    expect(figures.data_quality_flags).toEqual(["irr_not_computable", "no_cashflows"]);
    // without a mark as well: still no rate (nothing was called), and no NAV
    expect(positionFigures(500, [], [], asOf).figures).toMatchObject({ called: 0, nav: null, tvpi: null, dpi: null, rvpi: null, irr: null, data_quality_flags: ["irr_not_computable", "no_cashflows", "no_mark"] });
  });

  test("distributions alone (nothing called): the ratios are null (division by 0 called), the IRR null and flagged", () => {
    const { figures } = positionFigures(500, [dist("2022-01-01", 50)], [mark("2023-01-01", 10)], asOf);
    expect(figures).toMatchObject({ called: 0, distributed: 50, nav: 10, tvpi: null, dpi: null, rvpi: null, irr: null });
    expect(figures.data_quality_flags).toEqual(["irr_not_computable"]);
  });

  test("a commitment of unknown currency is flagged; one whose currency is not given to the function is not checked", () => {
    const ledger = ledgerOf([call("2021-01-01", 100)]);
    const lastMark = mark("2023-01-01", 121);
    expect(ledgerFigures({ commitment: 100, currency: null, ledger, lastMark }, asOf).figures).toMatchObject({ irr: 0.1, data_quality_flags: ["unknown_currency"] });
    expect(ledgerFigures({ commitment: 100, currency: "USD", ledger, lastMark }, asOf).figures.data_quality_flags).toEqual([]);
  });

  test(`a mark more than ${STALE_NAV_DAYS} days old is stale (counted from the clock)`, () => {
    const flows = [call("2022-01-01", 100)];
    // 2022-09-30 + 180 days = 2023-03-29
    expect(positionFigures(100, flows, [mark("2022-09-30", 100)], new Date("2023-03-29T00:00:00Z")).figures.data_quality_flags).toEqual([]);
    expect(positionFigures(100, flows, [mark("2022-09-30", 100)], new Date("2023-03-30T00:00:00Z")).figures.data_quality_flags).toEqual(["stale_nav"]);
  });

  test("an IRR with no solution is null and flagged; a negative rolled NAV is flagged", () => {
    // all paid in, nothing back: NAV 0
    const lost = positionFigures(100, [call("2021-01-01", 100)], [mark("2022-12-31", 0)], asOf).figures;
    expect(lost).toMatchObject({ nav: 0, tvpi: 0, rvpi: 0, dpi: 0, irr: null });
    expect(lost.data_quality_flags).toEqual(["irr_not_computable"]);
    const negative = positionFigures(100, [call("2021-01-01", 100), dist("2022-12-01", 50)], [mark("2022-09-30", 10)], asOf).figures;
    expect(negative.nav).toBe(-40); // 10 - 50, reported as computed, never invented away
    expect(negative.data_quality_flags).toEqual(["cashflows_after_last_mark", "negative_rolled_nav"]);
  });
});

describe("pooledFigures", () => {
  // Alpha (above, IRR 10%), Beta: call 100,000 (2021-01-01) and mark 121,000 (2023-01-01), IRR 10%;
  // Gamma: call 100,000 (2021-01-01) and mark 144,000 (2023-01-01), IRR 20%.
  const alpha = positionFigures(1_000_000, [call("2021-01-01", 400_000), dist("2022-01-01", 110_000), call("2023-01-01", 100_000)], [mark("2022-09-30", 363_000)], asOf);
  const beta = positionFigures(200_000, [call("2021-01-01", 100_000)], [mark("2022-06-30", 105_000), mark("2023-01-01", 121_000)], asOf);
  const gamma = positionFigures(150_000, [call("2021-01-01", 100_000)], [mark("2023-01-01", 144_000)], asOf);

  test("sums, ratios of the sums, and one XIRR over every flow with each NAV at its date", () => {
    expect(pooledFigures([alpha, beta, gamma])).toEqual({
      commitment: 1_350_000,
      called: 700_000, // 500,000 + 100,000 + 100,000
      distributed: 110_000,
      nav: 728_000, // 463,000 + 121,000 + 144,000
      nav_date: "2023-01-01",
      unfunded: 650_000, // 1,350,000 - 700,000
      tvpi: 1.1971, // (110,000 + 728,000) / 700,000 = 1.197142...
      dpi: 0.1571, // 110,000 / 700,000 = 0.157142...
      rvpi: 1.04, // 728,000 / 700,000
      // flows: -600,000 (2021-01-01) | +110,000 (2022-01-01) | -100,000 + 463,000 + 121,000 + 144,000 = +628,000 (2023-01-01)
      // with x = 1/(1+r): 628x^2 + 110x - 600 = 0, x = (-110 + sqrt(110^2 + 4*628*600)) / (2*628) = 0.8937889...
      // r = 1/x - 1 = 0.1188324...
      irr: 0.118832,
      data_quality_flags: ["cashflows_after_last_mark"],
    });
  });

  test("two positions of 10% pool to 10%", () => {
    expect(pooledFigures([alpha, beta]).irr).toBe(0.1);
  });

  test("one position without a mark makes the pooled NAV, TVPI, RVPI and IRR null", () => {
    const noMark = positionFigures(50_000, [call("2022-01-01", 20_000)], [], asOf);
    const pooled = pooledFigures([beta, noMark]);
    expect(pooled).toMatchObject({ called: 120_000, distributed: 0, nav: null, nav_date: null, tvpi: null, rvpi: null, irr: null, dpi: 0, unfunded: 130_000 });
    expect(pooled.data_quality_flags).toEqual(["no_mark"]);
  });
});

describe("mergeNetFlows", () => {
  test("sums per day in day order, near days (an array by day) and days a million apart (a map) alike", () => {
    const a = { days: [10, 12, 15], amounts: [-100, 5, 7] };
    const b = { days: [11, 12], amounts: [-50, 3] };
    expect(mergeNetFlows([a, b, { days: [], amounts: [] }])).toEqual({ days: [10, 11, 12, 15], amounts: [-100, -50, 8, 7] });
    const far = { days: [2_000_000], amounts: [1] };
    expect(mergeNetFlows([a, far, b])).toEqual({ days: [10, 11, 12, 15, 2_000_000], amounts: [-100, -50, 8, 7, 1] });
    expect(mergeNetFlows([])).toEqual({ days: [], amounts: [] });
  });
});

describe("the published ledger", () => {
  const commitments: LedgerGroup[] = [
    ["a", "Alpha", "USD", 3],
    ["b", "Beta", null, 2],
  ];
  const utf8 = new TextEncoder();
  // A row as the service reads it: day number, the bytes of id + date + type, amount, the id's and the date's byte lengths.
  const row = (id: string, date: string, day: number, type: string, amount: number): LedgerRow => [day, utf8.encode(id + date + type), amount, utf8.encode(id).length, utf8.encode(date).length];
  // Grouped by commitment in fund-name order, each in index order (date, type, amount).
  const rows: LedgerRow[] = [
    row("a1", "2021-01-02", 18629, "call", 1),
    row("a2", "2021-01-02", 18629, "distribution", 2.005),
    row("a3", "2021-01-03", 18630, "call", 3),
    row("b1", "2021-01-01", 18628, "call", 4),
    row("b2", "2021-01-02", 18629, "call", 5),
  ];
  const published = ["b1", "a1", "a2", "b2", "a3"];
  const idOf = (r: LedgerRow) => new TextDecoder().decode(r[1].subarray(0, r[3]));

  test("date, then fund name, then the index order within a commitment's date", () => {
    expect(Array.from(publishedOrder(rows), (i) => idOf(rows[i]))).toEqual(published);
  });

  test("days too far apart to pack into one number are ordered alike by a comparator", () => {
    const far: LedgerRow[] = rows.map((r) => [r[0] === 18628 ? -1e16 : r[0], ...r.slice(1)] as LedgerRow);
    expect(Array.from(publishedOrder(far), (i) => idOf(far[i]))).toEqual(published);
  });

  test("written as JSON bytes inside the envelope: every field, money to the cent, in published order", () => {
    const body = new TextDecoder().decode(cashflowsJson(commitments, rows, { head: '{"cashflows":', tail: ',"n":1}' }));
    const parsed = JSON.parse(body);
    expect(parsed.n).toBe(1);
    expect(parsed.cashflows.map((c: any) => c.cashflow_id)).toEqual(published);
    expect(parsed.cashflows[2]).toEqual({ cashflow_id: "a2", commitment_id: "a", fund_name: "Alpha", cashflow_date: "2021-01-02", type: "distribution", amount: 2.01, currency: "USD" });
    expect(parsed.cashflows[0]).toEqual({ cashflow_id: "b1", commitment_id: "b", fund_name: "Beta", cashflow_date: "2021-01-01", type: "call", amount: 4, currency: null });
    // The bytes are JSON.stringify's for the same rows.
    expect(body).toBe(`{"cashflows":${JSON.stringify(parsed.cashflows)},"n":1}`);
    expect(new TextDecoder().decode(cashflowsJson(commitments.map(([id, f, c]) => [id, f, c, 0] as LedgerGroup), []))).toBe("[]");
  });

  test("names and strings that need escaping are escaped (the fund's once, a row's through JSON.stringify)", () => {
    const named: LedgerGroup[] = [["a", 'A "q" \\ ü', "USD", 1]];
    const odd: LedgerRow[] = [row('x"1\\é', "2021-01-02", 18629, "call", 1)];
    const parsed = JSON.parse(new TextDecoder().decode(cashflowsJson(named, odd)));
    expect(parsed).toEqual([{ cashflow_id: 'x"1\\é', commitment_id: "a", fund_name: 'A "q" \\ ü', cashflow_date: "2021-01-02", type: "call", amount: 1, currency: "USD" }]);
  });

  test("groups that do not account for every row are refused", () => {
    expect(() => cashflowsJson([["a", "Alpha", "USD", 1]], rows)).toThrow(/groups count 1 rows, the read 5/);
  });
});

describe("markTrace", () => {
  test("each mark with the calls and distributions up to and including its date", () => {
    const flows = [call("2021-01-01", 400_000), dist("2022-01-01", 110_000), call("2023-01-01", 100_000)];
    expect(markTrace(flows, [mark("2022-09-30", 363_000), mark("2021-12-31", 390_000), mark("2020-06-30", 0)])).toEqual([
      { mark_date: "2020-06-30", nav: 0, called_to_date: 0, distributed_to_date: 0, tvpi: null }, // nothing called yet
      { mark_date: "2021-12-31", nav: 390_000, called_to_date: 400_000, distributed_to_date: 0, tvpi: 0.975 }, // 390/400
      { mark_date: "2022-09-30", nav: 363_000, called_to_date: 400_000, distributed_to_date: 110_000, tvpi: 1.1825 }, // 473/400
    ]);
  });
});

describe("figures", () => {
  test("money to the cent, half away from zero; ratios null on a missing or zero denominator", () => {
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(-2.675, 2)).toBe(-2.68);
    expect(round(-0.001, 2)).toBe(0);
    expect(Object.is(round(-0.001, 2), -0)).toBe(false);
    expect(multiple(1, 3)).toBe(0.3333);
    expect(multiple(1, 0)).toBeNull();
    expect(multiple(null, 3)).toBeNull();
    expect(multiple(0, 3)).toBe(0);
  });
});
