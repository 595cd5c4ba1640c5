// Section scores over the corpus: every score is backed by quotes that occur in the page they cite
// and carry the signal (never a cover line or a cookie banner); a section without evidence is null
// with a reason that is true of the material.
import { describe, expect, test } from "bun:test";
import type { DealAnalysis, SourcePage } from "../../src/engines/deal-engine.ts";
import { htmlToText } from "../../src/documents/html-text.ts";
import { ALDER, analyse, FERNHILL, FLOWCASH_HTML, HARBOR, KALTEWERK, NORTHWIND, QUILLSTACK, TIDEPOOL, ZEPHYR } from "./deal-facts-corpus.ts";

const FLOWCASH: SourcePage[] = [{ documentId: null, url: "https://flowcash.com/", page: null, text: htmlToText(FLOWCASH_HTML) }];
const CORPUS: [string, SourcePage[]][] = [
  ["Northwind", NORTHWIND],
  ["Flowcash", FLOWCASH],
  ["Kältewerk", KALTEWERK],
  ["Fernhill", FERNHILL],
  ["Quillstack", QUILLSTACK],
  ["Tidepool", TIDEPOOL],
  ["Zephyr", ZEPHYR],
  ["Harbor", HARBOR],
  ["Alder", ALDER],
];
const squash = (s: string) => s.replace(/\s+/g, " ").trim();
const quotes = (a: DealAnalysis, key: string) => a.sections.find((s) => s.key === key)!.evidence.map((e) => e.quote);
const BOILERPLATE = /^(confidential|strictly|investor presentation|accept all|we use cookies|seed pitch deck)|\b\d+ \/ \d+$/i;

describe("section evidence", () => {
  for (const [name, pages] of CORPUS) {
    test(`${name}: a score iff quoted evidence, every quote in its cited page, no boilerplate quoted`, async () => {
      const a = await analyse(pages);
      for (const s of a.sections) {
        if (s.score === null) {
          expect(s.evidence, `${name} ${s.key}`).toEqual([]);
          expect(s.unavailable_reason, `${name} ${s.key}`).toEqual(expect.stringMatching(/^No statement in the material addresses /));
        } else {
          expect(s.evidence.length, `${name} ${s.key}`).toBeGreaterThan(0);
          expect(s.unavailable_reason).toBeNull();
        }
        for (const e of s.evidence) {
          const page = pages.find((p) => (e.url ? p.url === e.url : p.documentId === e.document_id && p.page === e.page));
          expect(page, `${name} ${s.key}: ${e.quote}`).toBeDefined();
          expect(squash(page!.text)).toContain(e.quote.replace(/\.\.\.$/, ""));
          expect(e.quote, `${name} ${s.key}`).not.toMatch(BOILERPLATE);
        }
      }
      const scored = a.sections.filter((s) => s.score !== null);
      expect(a.score_confidence).toBe(Math.round((scored.length / a.sections.length) * 100) / 100);
    });
  }

  test("Northwind: pricing per unit per period is a business model; the round quotes the ask, not the cover or the customers", async () => {
    const a = await analyse(NORTHWIND);
    const model = a.sections.find((s) => s.key === "business_model")!;
    expect(model.score).toBeGreaterThan(0);
    expect(model.evidence[0]).toEqual({ quote: "Robots-as-a-Service: $1,500 per robot per month, 3-year contracts.", document_id: "doc-1", page: 5 });
    expect(quotes(a, "round")).toEqual(["We are raising $12,500,000 to scale deployments."]);
    expect(quotes(a, "team").join(" ")).not.toContain("Backed by");
    // A slide title is context, not part of the quote.
    expect(quotes(a, "traction")[0]).toBe("We have signed 3 pilots with Fortune 500 retailers.");
  });

  test("Flowcash: a take rate is a business model; the merchants' raise is not a round", async () => {
    const a = await analyse(FLOWCASH, { website: "https://flowcash.com" });
    expect(quotes(a, "business_model")).toEqual(["We charge a flat 6% fee on each advance, repaid as a share of daily sales."]);
    expect(a.sections.find((s) => s.key === "round")).toMatchObject({ score: null, evidence: [] });
  });

  test("other business models: a subscription per seat, usage pricing, a licence", async () => {
    for (const sentence of ["SaaS subscription of £250 per adviser per month; gross margin 81%.", "Heat-as-a-service: customers pay €0.04 per kWh of heat delivered, with no upfront capex.", "Hospitals buy an annual licence per site, priced at $40K."]) {
      const a = await analyse([{ documentId: "d", url: null, page: 1, text: `Acme Labs\n${sentence}` }], { companyName: "Acme" });
      expect(quotes(a, "business_model"), sentence).toEqual([sentence]);
    }
  });

  test("a score counts only what is quoted, and quotes are the sentences that carry signals", async () => {
    const a = await analyse(FERNHILL);
    const traction = a.sections.find((s) => s.key === "traction")!;
    expect(traction.evidence.map((e) => e.quote)).toContain("£620K ARR, up 3x year on year.");
    expect(quotes(a, "round")).toEqual(["We're seeking £1.5 million in Series A funding at a post-money valuation of £9M."]);
    expect(quotes(a, "financials")).toEqual(["This takes us to 500 firms and break-even in 2027."]);
  });

  test("the same material gives the same analysis", async () => {
    expect(await analyse(KALTEWERK)).toEqual(await analyse(KALTEWERK));
  });
});
