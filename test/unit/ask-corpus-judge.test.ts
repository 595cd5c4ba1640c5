// The ask corpus's judge on hand-made answers: good answers in several formats pass, missing
// figures fail, trap figures are marked.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { idealAnswer } from "../fixtures/ask-corpus/build-lib.ts";
import { contains, extractDates, extractNumbers, judgeAnswer, loadCorpus, type Item } from "../fixtures/ask-corpus/judge.ts";

const item = (expect: Partial<Item["expect"]>, q = "question"): Item => ({
  id: "t-001",
  class: "lookup",
  q,
  expect: { kind: "answer", mentions: [], figures: [], absent: [], wrong_figures: [], says_back: [], note: "", ...expect },
});

describe("numbers", () => {
  test("reads currencies, scales, units and precision", () => {
    const [a] = extractNumbers("ARR is $4.2M");
    expect(a).toMatchObject({ value: 4_200_000, currency: "USD", half: 50_000 });
    expect(extractNumbers("4.2 million")[0]).toMatchObject({ value: 4_200_000, currency: null });
    expect(extractNumbers("USD 4,213,000")[0]).toMatchObject({ value: 4_213_000, currency: "USD", half: 0.5 });
    expect(extractNumbers("4,213,000 USD")[0]).toMatchObject({ value: 4_213_000, currency: "USD" });
    expect(extractNumbers("€850k")[0]).toMatchObject({ value: 850_000, currency: "EUR" });
    expect(extractNumbers("TVPI 1.84x")[0]).toMatchObject({ value: 1.84, unit: "x" });
    expect(extractNumbers("72.5%")[0]).toMatchObject({ value: 72.5, unit: "%" });
    expect(extractNumbers("11 months")[0]).toMatchObject({ value: 11, unit: "months" });
    expect(extractNumbers("£2bn")[0]).toMatchObject({ value: 2e9, currency: "GBP" });
  });
  test('"2,5" is not a decimal in English text', () => {
    expect(extractNumbers("2,5").map((n) => n.value)).toEqual([2, 5]);
  });
  test("dates are not read as numbers", () => {
    expect(extractNumbers("as of 2026-10-31").length).toBe(0);
    expect([...extractDates("on 31 Oct 2025").days]).toEqual(["2025-10-31"]);
    expect([...extractDates("on October 31, 2025").days]).toEqual(["2025-10-31"]);
    expect([...extractDates("as of October 2026").periodEnds]).toEqual(["2026-10-31"]);
    expect([...extractDates("at Q3 2026").periodEnds]).toEqual(["2026-09-30"]);
  });
  test("names are matched whole", () => {
    expect(contains("Northwind Fund II", "Fund I")).toBe(false);
    expect(contains("Northwind Fund I and II", "Fund I")).toBe(true);
    expect(contains("Lukasz Petrov", "Łukasz Petrov")).toBe(true);
    expect(contains("stage: series_a", "series a")).toBe(true);
  });
});

describe("kind answer", () => {
  const arr = item({ mentions: ["Helio Rails"], figures: [{ value: 4_554_809, currency: "EUR" }], wrong_figures: [{ value: 4_554_809, currency: "USD" }] });
  test("good answers in several formats pass", () => {
    for (const a of ["Helio Rails' ARR is €4.55M (as of 31 Oct 2026).", "Helio Rails: ARR EUR 4,554,809 at 2026-10-31", "ARR of helio rails: 4.6 million euros", "Helio Rails — 4,554,809 EUR"]) {
      const v = judgeAnswer(arr, a);
      expect(v.ok, `${a}: ${v.why}`).toBe(true);
      expect(v.wrongFigure, a).toBe(false);
    }
  });
  test("rounding: half a unit of the last shown digit and 1.5%", () => {
    const it = item({ figures: [{ value: 4_213_000, currency: "USD" }] });
    expect(judgeAnswer(it, "$4.2M").ok).toBe(true);
    expect(judgeAnswer(it, "$4M").ok).toBe(false); // 5% off
    const it2 = item({ figures: [{ value: 4_400_000, currency: "USD" }] });
    expect(judgeAnswer(it2, "about $4M").ok).toBe(false);
    expect(judgeAnswer(it2, "$4.4 million").ok).toBe(true);
  });
  test("a missing figure or mention fails", () => {
    expect(judgeAnswer(arr, "Helio Rails is doing fine.").ok).toBe(false);
    expect(judgeAnswer(arr, "ARR is €4.55M.").ok).toBe(false);
  });
  test("a figure in the wrong currency does not count, and is a trap", () => {
    const v = judgeAnswer(arr, "Helio Rails ARR: $4.55M");
    expect(v.ok).toBe(false);
    expect(v.wrongFigure).toBe(true);
  });
  test("absent names fail", () => {
    const it = item({ mentions: ["UmberBuild", "EmberRoute"], absent: ["KeystoneLedger"] });
    expect(judgeAnswer(it, "UmberBuild and EmberRoute").ok).toBe(true);
    expect(judgeAnswer(it, "UmberBuild, EmberRoute, KeystoneLedger").ok).toBe(false);
  });
  test("trap sums mark wrongFigure", () => {
    const gm = item({ figures: [{ value: 72.8, unit: "%" }, { value: 84.4, unit: "%" }], wrong_figures: [{ value: 157.2, unit: "%" }] });
    expect(judgeAnswer(gm, "Acme Robotics 72.8%, Fathom Robotics 84.4%; margins don't add up.").wrongFigure).toBe(false);
    const v = judgeAnswer(gm, "Combined gross margin: 157.2% (72.8% + 84.4%)");
    expect(v.wrongFigure).toBe(true);
  });
  test("first line with another figure of the same kind marks wrongFigure", () => {
    const rw = item({ mentions: ["Relay Robotics"], figures: [{ value: 9, unit: "months" }] }, "how long can Relay Robotics keep going at under 12 months?");
    expect(judgeAnswer(rw, "Relay Robotics has 9 months of runway.").wrongFigure).toBe(false);
    expect(judgeAnswer(rw, "About 12 months.\nRelay Robotics: 9 months").wrongFigure).toBe(false); // 12 is in the question
    const v = judgeAnswer(rw, "Relay Robotics has 24.6 months of runway.\n(Latest: 9 months.)");
    expect(v.wrongFigure).toBe(true);
    expect(v.ok).toBe(true);
  });
  test("dates: ISO, written, month of a month-end", () => {
    const it = item({ figures: [{ date: "2026-03-31" }] });
    expect(judgeAnswer(it, "last marked 2026-03-31").ok).toBe(true);
    expect(judgeAnswer(it, "last marked on 31 March 2026").ok).toBe(true);
    expect(judgeAnswer(it, "last marked March 31, 2026").ok).toBe(true);
    expect(judgeAnswer(it, "last marked Q1 2026").ok).toBe(true);
    expect(judgeAnswer(it, "last marked 2026-06-30").ok).toBe(false);
  });
  test("counts do not match percentages or money", () => {
    const it = item({ figures: [{ value: 18 }] });
    expect(judgeAnswer(it, "18 active companies").ok).toBe(true);
    expect(judgeAnswer(it, "18% of the book").ok).toBe(false);
  });
});

describe("kind not_in_data and cannot", () => {
  const stripe = item({ kind: "not_in_data", mentions: ["Stripe"], wrong_figures: [{ value: 8_097_717, currency: "USD" }] });
  test("saying it is not in the data passes", () => {
    for (const a of ["Stripe isn't in your portfolio or pipeline.", "I have no record of Stripe.", "Stripe is not a portfolio company, so I don't have its ARR."]) expect(judgeAnswer(stripe, a).ok, a).toBe(true);
  });
  test("answering with another record fails and is a trap", () => {
    const v = judgeAnswer(stripe, "Stripe: ARR $8.1M (Fathom Grid)");
    expect(v.ok).toBe(false);
    expect(v.wrongFigure).toBe(true);
  });
  const src = item({ kind: "cannot", says_back: ["sourced"] });
  test("cannot: says what it cannot do, naming it", () => {
    expect(judgeAnswer(src, "I can't filter deals by who sourced them: that isn't recorded.").ok).toBe(true);
    expect(judgeAnswer(src, "The deal data has no field for who sourced a deal.").ok).toBe(true);
    expect(judgeAnswer(src, "Here are all 36 deals: ...").ok).toBe(false);
    expect(judgeAnswer(src, "I can't do that.").ok).toBe(false);
  });
});

describe("the corpus", () => {
  test("both parts load, ids are unique, every class is in both", () => {
    const dev = loadCorpus("dev");
    const held = loadCorpus("heldout");
    expect(dev.now).toBe("2026-11-20T12:00:00.000Z");
    expect(dev.items.length).toBeGreaterThanOrEqual(130);
    expect(held.items.length).toBeGreaterThanOrEqual(180);
    const ids = [...dev.items, ...held.items].flatMap((i) => [i.id, ...(i.then ?? []).map((t) => t.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    const classes = (xs: Item[]) => new Set(xs.map((i) => i.class));
    expect([...classes(dev.items)].sort()).toEqual([...classes(held.items)].sort());
    expect(classes(dev.items).size).toBe(16);
  });
  test("an answer stating exactly the expected content passes every item, with no trap figure", () => {
    const fmt = (f: Item["expect"]["figures"][number]) =>
      f.date ?? (f.currency ? `${f.currency} ${f.value!.toLocaleString("en-US", { maximumFractionDigits: 4 })}` : f.unit === "%" ? `${f.value}%` : f.unit === "x" ? `${f.value}x` : f.unit === "months" ? `${f.value} months` : `${f.value}`);
    const ideal = (it: Item) => {
      const e = it.expect;
      const lead = e.kind === "cannot" ? `I can't answer that: ${e.says_back.join(", ")} is not recorded.` : e.kind === "not_in_data" ? `${e.mentions.join(", ")}: that is not in your data.` : "";
      return [lead, e.mentions.join(", "), e.figures.map(fmt).join("; ")].filter(Boolean).join(" ");
    };
    const failures: string[] = [];
    for (const part of ["dev", "heldout"] as const)
      for (const it of loadCorpus(part).items.flatMap((i) => [i, ...(i.then ?? [])])) {
        const v = judgeAnswer(it, ideal(it));
        if (!v.ok || v.wrongFigure) failures.push(`${it.id}: ${v.why}`);
      }
    expect(failures).toEqual([]);
  });
});

// The later dev parts, each written by another blind helper: the same checks for each, from one table.
// Read directly: loadCorpus names the parts it knew when it was written.
const LATER_PARTS = [
  { part: "dev2", prefix: "e", minItems: 130 },
  { part: "dev3", prefix: "f", minItems: 150 },
  { part: "dev4", prefix: "g", minItems: 150 },
  { part: "dev5", prefix: "h", minItems: 160 },
  { part: "dev6", prefix: "s", minItems: 150 },
] as const;

for (const { part, prefix, minItems } of LATER_PARTS) {
  describe(`the ${part} part`, () => {
    const corpus = JSON.parse(readFileSync(join(import.meta.dir, `../fixtures/ask-corpus/${part}.json`), "utf8")) as { now: string; items: Item[] };
    const all = corpus.items.flatMap((i) => [i, ...(i.then ?? [])]);
    test("loads, has ids of its own, and no question repeats", () => {
      expect(corpus.now).toBe("2026-11-20T12:00:00.000Z");
      expect(corpus.items.length).toBeGreaterThanOrEqual(minItems);
      const ids = all.map((i) => i.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => !new RegExp(`^${prefix}-\\d{3}(\\.\\d)?$`).test(id))).toEqual([]);
      const qs = all.map((i) => i.q.toLowerCase().trim());
      expect(new Set(qs).size).toBe(qs.length);
    });
    test("an answer stating exactly the expected content passes every item and follow-up, with no trap figure", () => {
      const failures: string[] = [];
      for (const it of all) {
        const v = judgeAnswer(it, idealAnswer(it));
        if (!v.ok || v.wrongFigure) failures.push(`${it.id}: ${v.why}`);
      }
      expect(failures).toEqual([]);
    });
    test("an empty answer fails every answer item that expects content", () => {
      const passing = all.filter((it) => it.expect.kind === "answer" && judgeAnswer(it, "").ok).map((it) => it.id);
      expect(passing).toEqual([]);
    });
    test("a trap figure stated in an answer is caught on every item that names one", () => {
      const missed = all.filter((it) => it.expect.wrong_figures.length).filter((it) => {
        const f = it.expect.wrong_figures[0];
        // The trap goes after the answer with its currency as a suffix, so it cannot take the answer's last number's currency.
        const text = `${idealAnswer(it)}; also ${f.value}${f.currency ? ` ${f.currency}` : f.unit === "%" ? "%" : f.unit === "x" ? "x" : f.unit === "months" ? " months" : ""}`;
        return !judgeAnswer(it, text).wrongFigure;
      });
      expect(missed.map((it) => it.id)).toEqual([]);
    });
  });
}
