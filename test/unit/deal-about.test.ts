// Sections by what a statement is about, not by the words it shares with one: projections are
// financials, past rounds are round history, people with roles are the team, customers' stages
// are not ours, and a section is scored only from a statement that belongs to it (the classes of
// misreading issue 14 names, each on a deck that would have shown it).
import { describe, expect, test } from "bun:test";
import type { DealAnalysis } from "../../src/engines/deal-engine.ts";
import { analyse, deckPages } from "./deal-facts-corpus.ts";

const section = (a: DealAnalysis, key: string) => a.sections.find((s) => s.key === key)!;
const quotes = (a: DealAnalysis, key: string) => section(a, key).evidence.map((e) => e.quote);
const deck = (...slides: string[]) => analyse(deckPages(["Lumora\nTreasury automation for mid-market CFOs", ...slides, "Thank you\nhello@lumora.io"]));

describe("a section needs a statement about it", () => {
  test("an earlier round is round history: no team score from it, and no round either", async () => {
    const a = await deck("Milestones\nPreviously raised £500K pre-seed from angels.\nLaunched in 2023; live in 5 countries.");
    expect(section(a, "team")).toMatchObject({ score: null, evidence: [] });
    expect(section(a, "round")).toMatchObject({ score: null, evidence: [] });
    expect(a.facts.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
  });

  test("the team slide's names and titles score the team, never the product", async () => {
    const a = await deck("Team\nDr. Anna Keller, Chief Product Officer — built the platform at SAP\nJonas Berg, CTO — API design lead at Stripe");
    expect(section(a, "team").score).toBeGreaterThan(0);
    expect(section(a, "product")).toMatchObject({ score: null, evidence: [] });
  });

  test("a revenue projection table is financials, not traction", async () => {
    const a = await deck("5-year plan\n | 2025 | 2026 | 2027 | 2028\nRevenue | €1.2M | €3.1M | €8.0M | €19.5M\nEBITDA | -€2.0M | -€1.1M | €0.4M | €3.9M");
    expect(section(a, "financials").score).toBeGreaterThan(0);
    expect(quotes(a, "financials")).toContain("Revenue | €1.2M | €3.1M | €8.0M | €19.5M");
    expect(section(a, "traction")).toMatchObject({ score: null, evidence: [] });
  });

  test("where a market or a category is going is no financials of the company's: the market's, or nothing", async () => {
    const a = await deck("Why now\nThe global EdTech industry is projected to reach $810.3 billion by 2033.\nChildren's money-skills apps are expected to reach $5 Million by 2026.");
    expect(section(a, "financials")).toMatchObject({ score: null, evidence: [] });
    expect(quotes(a, "market")).toEqual(["The global EdTech industry is projected to reach $810.3 billion by 2033."]);
    // The company's own projection is its financials.
    const b = await deck("Outlook\nWe expect to reach $5 Million in revenue by 2026.");
    expect(quotes(b, "financials")).toEqual(["We expect to reach $5 Million in revenue by 2026."]);
  });

  test("'competitive' alone is no competition: a problem statement says how something compares, not who competes", async () => {
    const a = await deck("Problem\nElectrolysers cost too much per kilowatt to make hydrogen competitive.");
    expect(section(a, "competition")).toMatchObject({ score: null, evidence: [] });
    const b = await deck("Why us\nOur competitive advantage is a membrane that lasts five times longer than incumbents'.");
    expect(section(b, "competition").score).toBeGreaterThan(0);
  });

  test("projected gross margins are financials, not the business model; today's margin is the business model", async () => {
    const a = await deck("Financial plan\nProjected gross margin 78% by 2028 as the platform scales.\nRevenue reaches €25M by 2029.");
    expect(section(a, "business_model")).toMatchObject({ score: null, evidence: [] });
    expect(quotes(a, "financials")).toEqual(["Projected gross margin 78% by 2028 as the platform scales.", "Revenue reaches €25M by 2029."]);
    const b = await deck("Unit economics\nGross margin 81% today on a SaaS subscription per entity.");
    expect(quotes(b, "business_model")).toEqual(["Gross margin 81% today on a SaaS subscription per entity."]);
  });

  test("customers' stages and other people's money are not the round", async () => {
    const a = await deck("Customers\nOur customers are Series B to D scale-ups in 12 countries.\nWe help SMEs raise up to €500K in working capital.");
    expect(section(a, "round")).toMatchObject({ score: null, evidence: [] });
    expect(a.facts.round.stage).toBeNull();
  });

  test("use of funds is the round's, though it names product and sales", async () => {
    const a = await deck("The ask\nWe are raising €2M seed.\nUse of funds: 60% product and engineering, 30% sales and marketing.");
    expect(quotes(a, "round")).toEqual(["We are raising €2M seed.", "Use of funds: 60% product and engineering, 30% sales and marketing."]);
    expect(section(a, "product")).toMatchObject({ score: null });
  });

  test("a competitor slide under any title is competition", async () => {
    const a = await deck("Why we win\nCompetitors: Kyriba, spreadsheets and a long tail of consultancies.\nKyriba focuses on large enterprises; we win on time to value.");
    expect(section(a, "competition").evidence.length).toBe(2);
  });

  test("slides without titles are read by what they say", async () => {
    const a = await deck(
      "ARR €2.4M, up 14% month over month, with 61 paying customers.",
      "A €40bn market growing 12% a year (CAGR).",
      "SaaS subscription: €9,000 per entity per year.",
      "Monthly burn €180K; runway of 20 months.",
      "Unlike Kyriba, we are built for mid-market CFOs.",
      "Our platform connects to 40 banks and automates reconciliation.",
    );
    for (const key of ["traction", "market", "business_model", "financials", "competition", "product"]) expect(quotes(a, key).length, key).toBe(1);
    expect(section(a, "team").score).toBeNull();
  });

  test("a customer's words count for traction on a traction slide, for the team nowhere; the cover is no evidence", async () => {
    const a = await deck("Traction\n“It cut our month-end close from ten days to three.” — Laura Chen, CFO at Brightwave");
    expect(section(a, "traction").score).toBeGreaterThan(0);
    expect(section(a, "team").score).toBeNull();
    expect(a.facts.team).toEqual([]);
    for (const s of a.sections) for (const e of s.evidence) expect(e.page).not.toBe(1);
  });
});
