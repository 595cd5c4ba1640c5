// LP fund decks: the fund's own target size (not a hard cap, a prior fund's size or a check size),
// no round stage, partners as the team, and the terms and prior funds' multiples as the deck states them.
import { describe, expect, test } from "bun:test";
import { xlsxPages } from "../../src/documents/office-text.ts";
import { xlsxFile } from "../helpers/decks.ts";
import { ALDER, analyse, deckPages, HARBOR } from "./deal-facts-corpus.ts";

const section = (a: Awaited<ReturnType<typeof analyse>>, key: string) => a.sections.find((s) => s.key === key)!;

describe("fund facts", () => {
  test("Harbor Fund III: the target size, terms read from 2/20, prior funds' multiples as stated", async () => {
    const a = await analyse(HARBOR);
    expect(a.kind).toBe("fund");
    expect(a.facts.company).toMatchObject({ name: "Harbor Ventures", founded_year: null });
    expect(a.facts.round).toEqual({ stage: null, amount: 150_000_000, currency: "USD", pre_money_valuation: null });
    expect(a.facts.team).toEqual([
      { name: "Sarah Klein", title: "General Partner", linkedin_url: null },
      { name: "David Osei", title: "Managing Partner", linkedin_url: null },
    ]);
    expect(a.sections.map((s) => s.key)).toEqual(["team", "strategy", "fund_terms", "portfolio_construction", "track_record", "lp_base"]);

    const terms = section(a, "fund_terms");
    expect(terms.summary).toContain("Stated: target size $150M, hard cap $200M, management fee 2%, carry 20%, hurdle 8%, GP commitment 2%.");
    expect(terms.evidence.map((e) => e.quote)).toContain("Economics: 2/20 with an 8% hurdle.");

    const track = section(a, "track_record");
    expect(track.summary).toContain("Stated: Fund I: TVPI 3.1x, DPI 1.4x, net IRR 28%; Fund II: TVPI 2.2x, DPI 0.4x, net IRR 21%.");
    expect(track.evidence.map((e) => e.quote)).toEqual(["Fund I (2015, $40M): 3.1x TVPI, 1.4x DPI, 28% net IRR.", "Fund II (2019, $85M): TVPI 2.2x, DPI 0.4x, net IRR 21%."]);
    expect(a.summary).toContain("Target fund size $150M.");
  });

  test("Alder: only a hard cap, so no target size; short-form terms; no track record to score", async () => {
    const a = await analyse(ALDER, { kind: "fund" });
    expect(a.facts.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
    expect(a.facts.team).toEqual([{ name: "Lena Holm", title: "General Partner", linkedin_url: null }]);
    expect(section(a, "fund_terms").summary).toContain("Stated: hard cap €60M, management fee 1.5%, carry 20%, GP commitment 1%.");
    expect(section(a, "track_record")).toMatchObject({ score: null, evidence: [], unavailable_reason: expect.any(String) });
    expect(a.summary).toContain("No target fund size stated (hard cap €60M).");
  });

  test("a track record in a spreadsheet: each row read under its header, as written", async () => {
    const sheet = xlsxFile({ "Prior funds": [["Fund", "Vintage", "TVPI", "Net IRR", "DPI"], ["Fund I", 2014, "2.6x", "19%", "2.1x"], ["Fund II", 2018, "1.8x", "14%", "0.3x"]] });
    const pages = [...deckPages(["Kestrel Fund III\nTarget fund size €90M. Management fee 2%, carried interest 20%. Limited partners: family offices."]), ...deckPages(xlsxPages(sheet), "doc-sheet")];
    const a = await analyse(pages, { kind: "fund" });
    expect(section(a, "track_record").summary).toContain("Stated: Fund I: TVPI 2.6x, net IRR 19%, DPI 2.1x; Fund II: TVPI 1.8x, net IRR 14%, DPI 0.3x.");
    expect(a.facts.round).toMatchObject({ amount: 90_000_000, currency: "EUR" });
  });

  test("a target and a hard cap in parentheses, a GP commitment in money", async () => {
    const a = await analyse(deckPages(["Kite Ventures Fund II\nFund size: $100M (target), $125M (hard cap). Limited partners include endowments. Management fee 2% and 20% carried interest.", "GP commitment: $2M (2%)"]), { kind: "fund" });
    expect(a.facts.round).toMatchObject({ amount: 100_000_000, currency: "USD" });
    expect(section(a, "fund_terms").summary).toContain("Stated: target size $100M, hard cap $125M, management fee 2%, carry 20%, GP commitment $2M.");
  });
});

describe("a fund deck's sections need statements about them", () => {
  test("portfolio founders in brackets are no partners; a partner's past employer and an 'LP presentation' footer are no LP base", async () => {
    const a = await analyse(
      deckPages([
        "Birchwood Ventures\nFund II | LP presentation | Q2 2026",
        "Strategy\nWe back pre-seed and seed B2B software in the Nordics with initial tickets of €500K.",
        "Portfolio\nNotable: Kestral (Olivia Ueda, Founder & CEO); Saltbox (Quentin Lehmann, Founder & CEO).",
        "Partners\nAnna Keller, General Partner, former CIO of a pension fund.",
        "Terms\nTarget fund size €80M, management fee 2%, carried interest 20%, GP commitment 2%.",
      ]),
      { kind: "fund" },
    );
    expect(section(a, "lp_base")).toMatchObject({ score: null, evidence: [] });
    expect(section(a, "team").evidence.map((e) => e.quote).join(" ")).not.toContain("Kestral");
  });
});
