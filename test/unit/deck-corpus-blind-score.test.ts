// The blind deck corpus's scorer: per-deck verdicts against labels, and their aggregate.
import { describe as group, expect, test } from "bun:test";
import type { BlindLabels } from "../../scripts/bench/deck-corpus-blind/labels.ts";
import { describe, normCompany, normPerson, normStage, scoreDeck, summarize, type DealView } from "../../scripts/bench/deck-corpus-blind/score.ts";

const labels = (over: Partial<BlindLabels> = {}): BlindLabels => ({
  id: "blind-1-000",
  filename: "deck.pdf",
  format: "pdf",
  style: "minimal-yc",
  voice: "yc",
  company_name: "Helio Systems",
  company_aliases: [],
  domain: "heliosystems.io",
  kind: "company",
  round: { stage: "seed", amount: 3_000_000, currency: "EUR", pre_money: 12_000_000 },
  team: [
    { name: "Anna Keller", title: "CEO" },
    { name: "Dr. Jonas Brandt", title: "CTO" },
  ],
  not_team: ["Mara Advisor", "Jane Roe"],
  sections_addressed: ["team", "market", "round"],
  sections_optional: ["financials"],
  traps: [],
  ...over,
});

const deal = (over: Partial<DealView> = {}): DealView => ({
  analysis_status: "succeeded",
  kind: "company",
  company: { name: "Helio Systems GmbH" },
  round: { stage: "Seed", amount: 3_000_000, currency: "EUR", pre_money_valuation: 12_000_000 },
  team: [
    { name: "Anna Keller", title: "Co-founder & CEO" },
    { name: "Jonas Brandt, PhD", title: "CTO" },
  ],
  analysis: { sections: [{ key: "team", score: 70 }, { key: "market", score: 60 }, { key: "round", score: 50 }, { key: "financials", score: 40 }, { key: "competition", score: null }] },
  ...over,
});

group("normalising", () => {
  test("company names ignore case, punctuation and legal suffixes", () => {
    expect(normCompany("Helio Systems GmbH")).toBe(normCompany("helio systems"));
    expect(normCompany("Opal Labs, Inc.")).toBe("opallabs");
    expect(normCompany("Sorrel AG")).toBe("sorrel");
    expect(normCompany("Côté")).toBe("cote");
    expect(normCompany("Brava")).not.toBe(normCompany("Brava Labs"));
  });
  test("stages: spelling-insensitive, but pre-series-a is not series a and pre-seed is not seed", () => {
    expect(normStage("Series A")).toBe(normStage("series-a"));
    expect(normStage("Serie A")).toBe(normStage("series-a"));
    expect(normStage("Seed round")).toBe(normStage("seed"));
    expect(normStage("Pre-Series A")).not.toBe(normStage("series-a"));
    expect(normStage("Pre-seed")).not.toBe(normStage("seed"));
    expect(normStage(null)).toBeNull();
  });
  test("person names drop honorifics and degrees", () => {
    expect(normPerson("Prof. Dr. Jonas Brandt")).toBe("jonas brandt");
    expect(normPerson("Jonas Brandt, PhD")).toBe("jonas brandt");
    expect(normPerson("Zoë O'Brien")).toBe("zoe o brien");
  });
});

group("scoreDeck", () => {
  test("a fully right answer", () => {
    const v = scoreDeck(labels(), deal());
    expect(v.company.ok && v.kind.ok && v.stage.ok && v.amount.ok && v.pre_money.ok).toBe(true);
    expect(v.amount.wrong || v.pre_money.wrong).toBe(false);
    expect(v.team).toMatchObject({ tp: 2, fp: 0, fn: 0 });
    expect(v.scoredWithoutEvidence).toEqual([]);
    expect(describe(v)).toEqual([]);
  });

  test("a different amount, or a different currency, is a wrong amount", () => {
    expect(scoreDeck(labels(), deal({ round: { stage: "seed", amount: 1_200_000, currency: "EUR", pre_money_valuation: 12_000_000 } })).amount).toMatchObject({ ok: false, wrong: true });
    expect(scoreDeck(labels(), deal({ round: { stage: "seed", amount: 3_000_000, currency: "USD", pre_money_valuation: 12_000_000 } })).amount).toMatchObject({ ok: false, wrong: true });
  });

  test("null label: null answer is right, any amount is wrong; a missed amount is not wrong", () => {
    const none = labels({ round: { stage: null, amount: null, currency: null, pre_money: null } });
    expect(scoreDeck(none, deal({ round: { stage: null, amount: null, currency: null, pre_money_valuation: null } })).amount).toMatchObject({ ok: true, wrong: false, missed: false });
    expect(scoreDeck(none, deal()).amount).toMatchObject({ ok: false, wrong: true });
    expect(scoreDeck(none, deal()).pre_money).toMatchObject({ ok: false, wrong: true });
    expect(scoreDeck(none, deal()).stage.ok).toBe(false);
    const missed = scoreDeck(labels(), deal({ round: { stage: "seed", amount: null, currency: null, pre_money_valuation: null } }));
    expect(missed.amount).toMatchObject({ ok: false, wrong: false, missed: true });
    expect(missed.pre_money).toMatchObject({ ok: false, wrong: false, missed: true });
  });

  test("wrong pre-money is counted apart from the amount", () => {
    const v = scoreDeck(labels(), deal({ round: { stage: "seed", amount: 3_000_000, currency: "EUR", pre_money_valuation: 15_000_000 } }));
    expect(v.amount.ok).toBe(true);
    expect(v.pre_money).toMatchObject({ ok: false, wrong: true });
  });

  test("pre-series-a answered as series a is a wrong stage", () => {
    const v = scoreDeck(labels({ round: { stage: "pre-series-a", amount: 3_000_000, currency: "EUR", pre_money: null } }), deal({ round: { stage: "Series A", amount: 3_000_000, currency: "EUR", pre_money_valuation: null } }));
    expect(v.stage.ok).toBe(false);
  });

  test("company aliases count; another name does not", () => {
    const fund = labels({ company_name: "Northwind Ventures", company_aliases: ["Northwind Ventures Fund II"], kind: "fund" });
    expect(scoreDeck(fund, deal({ company: { name: "Northwind Ventures Fund II" }, kind: "fund" })).company.ok).toBe(true);
    expect(scoreDeck(fund, deal({ company: { name: "Fund II" } })).company.ok).toBe(false);
    expect(scoreDeck(labels(), deal({ company: null, company_name: "HELIO SYSTEMS" })).company.ok).toBe(true);
  });

  test("team: precision and recall over names, titles ignored, not-team names flagged", () => {
    const v = scoreDeck(labels(), deal({ team: [{ name: "Anna Keller", title: "Whatever" }, { name: "Jane Roe", title: "CFO" }, { name: "Someone Else" }] }));
    expect(v.team).toMatchObject({ tp: 1, fp: 2, fn: 1, notTeam: ["Jane Roe"], missed: ["Dr. Jonas Brandt"] });
  });

  test("sections scored without evidence: not addressed and not optional; nulls never count", () => {
    const v = scoreDeck(labels(), deal({ analysis: { sections: [{ key: "team", score: 1 }, { key: "competition", score: 50, evidence: [{ quote: "Unlike Acme" }] }, { key: "financials", score: 3 }, { key: "traction", score: null }] } }));
    expect(v.scoredWithoutEvidence).toEqual(["competition"]);
    expect(v.unsupportedQuotes).toEqual({ competition: ["Unlike Acme"] });
    expect(v.addressedUnscored).toEqual(["market", "round"]);
    expect(describe(v).join("\n")).toContain("scored without evidence: competition");
  });

  test("a failed analysis misses everything and scores nothing", () => {
    const v = scoreDeck(labels(), { analysis_status: "failed" });
    expect(v.failed).toBe(true);
    expect(v.company.ok || v.amount.ok || v.amount.wrong).toBe(false);
    expect(v.amount.missed).toBe(true);
    expect(describe(v)).toEqual(["analysis did not succeed"]);
  });
});

test("summarize: counts and team micro P/R/F1", () => {
  const a = labels();
  const b = labels({ id: "blind-1-001", round: { stage: null, amount: null, currency: null, pre_money: null } });
  const s = summarize([
    { labels: a, verdict: scoreDeck(a, deal()) },
    { labels: b, verdict: scoreDeck(b, deal({ team: [{ name: "Anna Keller" }, { name: "Mara Advisor" }], analysis: { sections: [{ key: "product", score: 5 }] } })) },
  ]);
  expect(s).toMatchObject({ decks: 2, company: 2, amountStated: 1, amountExact: 1, amountRight: 1, wrongAmounts: 1, wrongPreMoney: 1, preMoneyStated: 1, preMoneyExact: 1, notTeamInTeam: 1, scoredWithoutEvidence: 1, decksScoredWithoutEvidence: 1 });
  expect(s.team).toMatchObject({ tp: 3, fp: 1, fn: 1 });
  expect(s.team.precision).toBeCloseTo(0.75);
  expect(s.team.recall).toBeCloseTo(0.75);
  expect(s.team.f1).toBeCloseTo(0.75);
});
