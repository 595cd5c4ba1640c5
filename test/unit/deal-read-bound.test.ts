// Issue 27: what a deal analysis reads of one document is bounded (characters and lines), and a
// document cut by the bound is said in the analysis (its summary, and each section it leaves
// unaddressed), never silently. The bound holds for every engine: it is applied in readablePages.
import { describe, expect, test } from "bun:test";
import { builtinDealEngine } from "../../src/engines/builtin/deal-engine.ts";
import { READ_BOUND, readablePages, withinReadBound, type SourcePage } from "../../src/engines/deal-engine.ts";
import { docxDeepNesting } from "../../scripts/lib/hostile-files.ts";
import { docxPages } from "../../src/documents/office-text.ts";

const page = (text: string, n: number, doc = "d1", name: string | null = "memo.docx"): SourcePage => ({ documentId: doc, url: null, page: n, text, name });

describe("the read bound", () => {
  test("material within the bound is read whole and unchanged, with nothing said", () => {
    const pages = [page("Our ARR is $2M.\nWe have 40 customers.", 1), page("The team: Ada Lovelace, CEO.", 2)];
    expect(withinReadBound(pages)).toEqual({ pages, note: null });
  });

  test("a page past the line bound is cut at a line break, the pages after it left out, and both said", () => {
    const bound = { chars: 1_000_000, lines: 10 };
    const lines = Array.from({ length: 25 }, (_, i) => `Line ${i + 1}.`).join("\n");
    const { pages, note } = withinReadBound([page("Cover.", 1), page(lines, 2), page("Appendix.", 3), page("More.", 4), page("Other file.", 1, "d2", "other.pdf")], bound);
    expect(pages.map((p) => [p.documentId, p.page])).toEqual([["d1", 1], ["d1", 2], ["d2", 1]]);
    // The cover's line counts as none (no line break); the second page keeps its first ten lines.
    expect(pages[1].text.split("\n")).toEqual(Array.from({ length: 10 }, (_, i) => `Line ${i + 1}.`));
    expect(note).toBe("memo.docx is longer than an analysis reads of one document (1,000,000 characters or 10 lines, a bound on the work one file costs): page 2 was read only in part and pages 3-4 were not read.");
  });

  test("the character bound cuts between words; a page with nothing left to read is said as not read", () => {
    const bound = { chars: 30, lines: 1000 };
    const { pages, note } = withinReadBound([page("alpha beta gamma delta epsilon zeta eta theta", 1)], bound);
    expect(pages[0].text).toBe("alpha beta gamma delta epsilon");
    expect(note).toContain("page 1 was read only in part.");
    const exact = withinReadBound([page("a".repeat(30), 1), page("next page", 2)], bound);
    expect(exact.pages.map((p) => p.page)).toEqual([1]);
    expect(exact.note).toEndWith(": page 2 was not read.");
  });

  test("a document without a file name is named by its URL, or as a document", () => {
    const bound = { chars: 10, lines: 1000 };
    expect(withinReadBound([{ documentId: null, url: "https://acme.example/about", page: null, text: "about us and more words here" }], bound).note).toBe(
      "https://acme.example/about is longer than an analysis reads of one document (10 characters or 1,000 lines, a bound on the work one file costs): it was read only in part.",
    );
    expect(withinReadBound([page("about us and more words here", 1, "d9", null)], bound).note).toStartWith("A document is longer than");
  });

  test("readablePages says the cut beside the pages it could not read", () => {
    const { readable, note } = readablePages([page("word ".repeat(READ_BOUND.chars / 4), 1), page("", 2)]);
    expect(readable).toHaveLength(1);
    expect(readable[0].text.length).toBeLessThanOrEqual(READ_BOUND.chars);
    expect(note).toContain("memo.docx is longer than an analysis reads of one document (200,000 characters or 5,000 lines");
    expect(note).toContain("page 2 was not read");
  });

  test("the 200,000-paragraph page of the hostile DOCX: analysed within the bound, the cut said in the summary and the empty sections", async () => {
    const texts = docxPages(docxDeepNesting(200_000));
    expect(texts).toHaveLength(1);
    const analysis = await builtinDealEngine.analyze({ pages: [page(texts[0], 1, "d1", "nested.docx")], hints: { kind: "company" }, progress: () => {} });
    const said = "nested.docx is longer than an analysis reads of one document (200,000 characters or 5,000 lines, a bound on the work one file costs): page 1 was read only in part.";
    expect(analysis.summary).toEndWith(said);
    expect(analysis.sections.every((s) => s.score === null && s.unavailable_reason!.endsWith(said))).toBe(true);
  });
});
