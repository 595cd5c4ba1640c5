// Material without usable text (page images OCR did not recover, fonts without a usable encoding)
// is never read or scored by either engine: all of it unreadable gives null sections with that
// reason (and the model is not asked); some of it unreadable is left out and said to be.
import { afterEach, describe, expect, test } from "bun:test";
import { builtinDealEngine } from "../../../src/engines/builtin/deal-engine.ts";
import type { DealEngine, SourcePage } from "../../../src/engines/deal-engine.ts";
import { llmDealEngine } from "../../../src/engines/llm/deal-engine.ts";
import { startLlmStub, type LlmStub } from "../../helpers/llm-stub.ts";

let stub: LlmStub | null = null;
afterEach(() => {
  stub?.stop();
  stub = null;
});

// Glyph codes as pdf.js reads a subset font without a ToUnicode map.
const GARBAGE = "\u0001\u0002\u0003\u0004\u0005\u0006 \u0007\b\u0007 \u0002\u0004\u0005 \u000e\u0004\u0005\u000e\u000f\u0010 \u0011\u0012\u0006\u0005";
const pages = (texts: string[]): SourcePage[] => texts.map((text, i) => ({ documentId: "doc", url: null, page: i + 1, text }));

function llm(): DealEngine {
  stub = startLlmStub(() => ({
    content: {
      kind: "company",
      company: { name: "Lumora" },
      round: { stage: "seed", amount: 3_000_000, currency: "EUR" },
      team: [],
      sections: [{ key: "traction", score: 70, evidence: [{ quote: "ARR €1.2M, growing 12% month over month.", document_id: "doc", page: 3 }] }],
      summary: "Lumora.",
    },
  }));
  return llmDealEngine({ baseUrl: stub.url, model: "stub-model", apiKey: "sk-test" });
}

describe("unreadable material", () => {
  for (const [name, engine] of [["built-in", () => builtinDealEngine], ["LLM", llm]] as const) {
    test(`${name}: nothing readable: every section null with the reason, no facts, no model call`, async () => {
      const e = engine();
      const a = await e.analyze({ pages: pages([GARBAGE, "", GARBAGE]), hints: { kind: "company", companyName: "Lumora" }, progress: () => {} });
      expect(a.score).toBeNull();
      expect(a.score_confidence).toBe(0);
      expect(a.facts.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
      expect(a.facts.team).toEqual([]);
      expect(a.facts.company.name).toBe("Lumora");
      for (const s of a.sections) {
        expect(s).toMatchObject({ score: null, evidence: [] });
        expect(s.unavailable_reason).toBe(
          "None of the material's 3 pages has usable text (page images, or a font without a usable text encoding), and OCR did not recover them (OCR needs Tesseract on the server; /readyz says whether it is installed), so nothing on them was read.",
        );
      }
      expect(a.summary).toStartWith("Lumora: none of the material's 3 pages has usable text");
      if (stub) expect(stub.requests.length).toBe(0);
    });
  }

  test("built-in: unreadable pages are left out, said in the summary and beside each section not addressed", async () => {
    const a = await builtinDealEngine.analyze({
      pages: pages(["Lumora\nTreasury automation for CFOs", GARBAGE, "Traction\nARR €1.2M, growing 12% month over month.", GARBAGE]),
      hints: { kind: "company" },
      progress: () => {},
    });
    expect(a.sections.find((s) => s.key === "traction")!.evidence.map((e) => e.page)).toEqual([3]);
    expect(a.summary).toContain("Pages 2 and 4 have no usable text");
    for (const s of a.sections.filter((x) => x.score === null)) expect(s.unavailable_reason).toMatch(/^No statement in the material addresses .*\. Pages 2 and 4 have no usable text/);
    for (const s of a.sections) for (const e of s.evidence) expect([2, 4]).not.toContain(e.page);
  });

  test("LLM: unreadable pages are not sent to the model, and the summary says they were not read", async () => {
    const e = llm();
    const a = await e.analyze({ pages: pages(["Lumora\nTreasury automation for CFOs", GARBAGE, "Traction\nARR €1.2M, growing 12% month over month."]), hints: { kind: "company" }, progress: () => {} });
    const sent = stub!.requests[0].messages.map((m) => m.content ?? "").join("\n");
    expect(sent).not.toContain("\u0001");
    expect(sent).not.toContain("page=2");
    expect(a.summary).toContain("Page 2 has no usable text");
    expect(a.sections.find((s) => s.key === "traction")!.score).toBe(70);
  });
});
