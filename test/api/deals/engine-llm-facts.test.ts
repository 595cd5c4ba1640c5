// The LLM deal engine's facts are checked against the material like its quotes are: a round amount,
// a pre-money valuation or a founding year the material does not state, and a team member it never
// names, are dropped (and the summary says so); what the material states, in any notation, stays.
import { afterEach, describe, expect, test } from "bun:test";
import type { SourcePage } from "../../../src/engines/deal-engine.ts";
import { llmDealEngine } from "../../../src/engines/llm/deal-engine.ts";
import { startLlmStub, type LlmStub } from "../../helpers/llm-stub.ts";

let stub: LlmStub | null = null;
afterEach(() => {
  stub?.stop();
  stub = null;
});

const PAGES: SourcePage[] = [
  { documentId: "doc", url: null, page: 1, text: "Kältewerk\nHeat pumps as a service for food factories. Founded in 2021 in Munich." },
  { documentId: "doc", url: null, page: 2, text: "Team\nJörg Müller – CEO\nAna-Lucía Pérez – CTO" },
  { documentId: "doc", url: null, page: 3, text: "Funding\nWe are raising 2,5 Mio. € in a seed round at a pre-money valuation of €10M." },
];

async function analyseWith(company: object, round: object, team: object[]) {
  stub = startLlmStub(() => ({ content: { kind: "company", company, round, team, sections: [], summary: "Heat pumps." } }));
  const engine = llmDealEngine({ baseUrl: stub.url, model: "stub-model", apiKey: "sk-test" });
  return engine.analyze({ pages: PAGES, hints: { kind: "company" }, progress: () => {} });
}

describe("LLM deal engine facts", () => {
  test("figures the material states, in its own notation, are kept", async () => {
    const a = await analyseWith(
      { name: "Kältewerk", founded_year: 2021 },
      { stage: "seed", amount: 2_500_000, currency: "eur", pre_money_valuation: 10_000_000 },
      [{ name: "Jörg Müller", title: "CEO" }, { name: "Ana-Lucía Pérez", title: "CTO" }],
    );
    expect(a.facts.round).toEqual({ stage: "seed", amount: 2_500_000, currency: "EUR", pre_money_valuation: 10_000_000 });
    expect(a.facts.company.founded_year).toBe(2021);
    expect(a.facts.team.map((m) => m.name)).toEqual(["Jörg Müller", "Ana-Lucía Pérez"]);
    expect(a.summary).not.toContain("dropped");
  });

  test("a misread amount, an invented valuation, a year and a person the material never states are dropped, and said so", async () => {
    // "2,5 Mio." read as 25 million; a valuation and a founding year made up; an advisor the deck never names.
    const a = await analyseWith(
      { name: "Kältewerk", founded_year: 2019 },
      { stage: "seed", amount: 25_000_000, currency: "EUR", pre_money_valuation: 12_000_000 },
      [{ name: "Jörg Müller", title: "CEO" }, { name: "Hans Schmidt", title: "Advisor" }],
    );
    expect(a.facts.round).toEqual({ stage: "seed", amount: null, currency: null, pre_money_valuation: null });
    expect(a.facts.company.founded_year).toBeNull();
    expect(a.facts.team).toEqual([{ name: "Jörg Müller", title: "CEO", linkedin_url: null }]);
    expect(a.summary).toContain("Facts the model gave that the material does not state, dropped: round amount €25M, pre-money valuation €12M, founding year 2019, team member Hans Schmidt.");
  });
});

describe("LLM deal engine: the reader's discipline", () => {
  const DECK: SourcePage[] = [
    { documentId: "doc", url: null, page: 1, text: "Lumora\nTreasury automation for mid-market CFOs" },
    { documentId: "doc", url: null, page: 2, text: "Milestones\nPreviously raised £500K pre-seed from angels.\nWe raised a $1.5M seed round in 2022." },
    { documentId: "doc", url: null, page: 3, text: "Traction\nARR €1.2M, growing 12% month over month." },
    { documentId: "doc", url: null, page: 4, text: "Financial plan\nProjected gross margin 75% by 2028." },
    { documentId: "doc", url: null, page: 5, text: "Advisors\nKarl Meier, Former CFO of SAP" },
    { documentId: "doc", url: null, page: 6, text: "The ask\nTotal round size CHF 4.25 (Series A)\nWe are raising CHF 4.25 million." },
  ];
  const quote = (q: string, page: number) => ({ quote: q, document_id: "doc", page });

  async function answer(round: object, team: object[], sections: object[]) {
    stub = startLlmStub(() => ({ content: { kind: "company", company: { name: "Lumora" }, round, team, sections, summary: "Lumora." } }));
    return llmDealEngine({ baseUrl: stub.url, model: "stub-model", apiKey: "sk-test" }).analyze({ pages: DECK, hints: { kind: "company" }, progress: () => {} });
  }

  test("a bare part of a figure, an earlier round's stage and an advisor are dropped, and said so", async () => {
    const a = await answer({ stage: "seed", amount: 4.25, currency: "CHF" }, [{ name: "Karl Meier", title: "CFO" }], []);
    expect(a.facts.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
    expect(a.facts.team).toEqual([]);
    expect(a.summary).toContain("round amount CHF 4.25, round stage seed, team member Karl Meier (named as an advisor, investor or customer)");
    // The raise as stated, in full, with this round's stage, stays.
    const b = await answer({ stage: "Series A", amount: 4_250_000, currency: "CHF" }, [], []);
    expect(b.facts.round).toMatchObject({ stage: "Series A", amount: 4_250_000, currency: "CHF" });
  });

  test("a section whose quotes are about something else loses its score, and the summary says so", async () => {
    const a = await answer({}, [], [
      { key: "team", score: 60, evidence: [quote("Previously raised £500K pre-seed from angels.", 2)] },
      { key: "business_model", score: 55, evidence: [quote("Projected gross margin 75% by 2028.", 4)] },
      { key: "traction", score: 70, evidence: [quote("ARR €1.2M, growing 12% month over month.", 3)] },
      { key: "financials", score: 50, evidence: [quote("Projected gross margin 75% by 2028.", 4)] },
    ]);
    const byKey = Object.fromEntries(a.sections.map((s) => [s.key, s]));
    expect(byKey.team).toMatchObject({ score: null, evidence: [], unavailable_reason: expect.stringContaining("about something else") });
    expect(byKey.business_model).toMatchObject({ score: null, evidence: [] });
    expect(byKey.traction.score).toBe(70);
    expect(byKey.financials.score).toBe(50);
    expect(a.summary).toContain("Scores dropped because their quotes are about something else: team, business model.");
  });
});
