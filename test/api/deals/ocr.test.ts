// Decks without usable text through the real upload path: page images, and a font without a usable
// text encoding. With Tesseract the pages are OCRed and read like any other text, evidence quoted
// with its page; without it, nothing is scored from them and every section says why. Both kinds
// are made on the spot from a real LibreOffice PDF (test/helpers/ocr-decks.ts).
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { runHandlers } from "../../../jobs/index.ts";
import { findLibreOffice } from "../../../src/documents/convert.ts";
import { findTesseract } from "../../../src/documents/ocr.ts";
import { startRunner } from "../../../src/modules/actions/runner.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { uploadForm } from "../../helpers/decks.ts";
import { seedIdentity, type Fixture } from "../../helpers/fixtures.ts";
import { imageOnlyPdf, libreOfficePdf, scrambledPdf } from "../../helpers/ocr-decks.ts";

// CI installs both (.ci/run); elsewhere the tests run where the tools are.
const canRun = (!!findLibreOffice() && !!findTesseract()) || process.env.CI === "true" || process.env.CI === "1";

let t: TestApp | null = null;
let f: Fixture;
const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
  t?.close();
  t = null;
});

const DECK = [
  ["Lumora", "Treasury automation for mid-market CFOs"],
  ["Team", "Anna Keller, CEO and co-founder, ex-Google.", "Jonas Berg, CTO, previously at SAP."],
  ["The ask", "We are raising EUR 4.5 million in a Seed round.", "Use of funds: 60% engineering, 40% sales."],
];
let decks: { images: Uint8Array; scrambled: Uint8Array } | null = null;
beforeAll(async () => {
  if (!canRun) return;
  const pdf = await libreOfficePdf(DECK);
  decks = { images: await imageOnlyPdf(pdf), scrambled: await scrambledPdf(pdf) };
});

/** Uploads a deck, runs the analysis (with the PATH given: Tesseract on it or not), reads the deal back. */
async function analyse(bytes: Uint8Array, path = PATH) {
  t = createTestApp({ file: true });
  f = seedIdentity(t.deps);
  const res = await t.app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: uploadForm(bytes, "deck.pdf"), headers: { authorization: `Bearer ${f.keys.write.secret}` } }));
  expect(res.status).toBe(202);
  const { deal_id } = (await res.json()) as { deal_id: string };
  process.env.PATH = path;
  try {
    const runner = startRunner(t.deps, runHandlers(t.deps), { pollMs: 60_000 });
    runner.pump();
    await runner.idle();
    await runner.stop();
  } finally {
    process.env.PATH = PATH;
  }
  expect((await t.request("GET", `/api/v1/deals/${deal_id}/analysis`, { key: f.keys.read.secret })).json).toMatchObject({ status: "succeeded", error: null });
  return (await t.request("GET", `/api/v1/deals/${deal_id}?view=full`, { key: f.keys.read.secret })).json;
}

describe.if(canRun)("decks without usable text", () => {
  for (const kind of ["images", "scrambled"] as const) {
    test(`${kind}: with Tesseract the pages are OCRed and read like any other text, evidence quoted with its page`, async () => {
      const deal = await analyse(decks![kind]);
      expect(deal.company.name).toBe("Lumora");
      expect(deal.round).toMatchObject({ stage: "seed", amount: 4_500_000, currency: "EUR" });
      expect(deal.team.map((m: any) => [m.name, m.title])).toEqual([["Anna Keller", "CEO and co-founder"], ["Jonas Berg", "CTO"]]);
      const sections = Object.fromEntries(deal.analysis.sections.map((s: any) => [s.key, s]));
      expect(sections.round.evidence[0]).toMatchObject({ quote: "We are raising EUR 4.5 million in a Seed round.", page: 3 });
      expect(sections.team.evidence.map((e: any) => e.page)).toEqual([2, 2]);
      expect(deal.analysis.summary).not.toContain("no usable text");
    }, 60_000);
  }

  test("without Tesseract nothing is read from them: null sections that say why, no figure, no name", async () => {
    for (const [kind, bytes] of Object.entries(decks!)) {
      const deal = await analyse(bytes, "/nonexistent");
      expect(deal.score, kind).toBeNull();
      expect(deal.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
      expect(deal.team).toEqual([]);
      for (const s of deal.analysis.sections) {
        expect(s).toMatchObject({ score: null, evidence: [] });
        expect(s.unavailable_reason).toStartWith("None of the material's 3 pages has usable text (page images, or a font without a usable text encoding), and OCR did not recover them");
      }
    }
  }, 60_000);

  test("/readyz says whether Tesseract is installed, looked up on each probe", async () => {
    t = createTestApp();
    // Anonymous: installed, no path (the path is for a server operator's key: hostile-readyz.test.ts).
    expect((await t.request("GET", "/readyz")).json.checks.tesseract).toEqual({ status: "ok", detail: findTesseract() ? "installed" : null });
    process.env.PATH = "/nonexistent";
    expect((await t.request("GET", "/readyz")).json.checks.tesseract).toEqual({ status: "unavailable", detail: "not installed: pages without usable text (images, unreadable fonts) cannot be read by OCR" });
  });
});
