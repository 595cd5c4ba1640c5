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
