// A slide exported as a picture with the template's footer kept as text: the page's text layer is
// only the footer, so it is no "page without text", yet its content is the picture. Such a page is
// read by OCR (within the pages OCR may read), its picture's words replacing the footer; a page of
// text, or a footer over no picture, stays as it is.
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { findTesseract } from "../../src/documents/ocr.ts";
import { pdfPages } from "../../src/documents/pdf-text.ts";
import { imageOnlyPdf, libreOfficePdf } from "../helpers/ocr-decks.ts";

const canRun = (!!findLibreOffice() && !!findTesseract()) || process.env.CI === "true" || process.env.CI === "1";

/** The pages as pictures, then the footer "Lumora | Seed 2025 | <n>" written as text on each. */
async function picturedWithFooter(pages: string[][], textPages: number[] = []): Promise<Uint8Array> {
  const pictures = await PDFDocument.load(await imageOnlyPdf(await libreOfficePdf(pages)));
  const font = await pictures.embedFont(StandardFonts.Helvetica);
  pictures.getPages().forEach((page, i) => {
    page.drawText(`Lumora | Seed 2025 | ${i + 1}`, { x: 30, y: 14, size: 9, font });
    // A page whose words are text as well: read from its text layer, never OCR'd.
    if (textPages.includes(i)) pages[i].forEach((line, k) => page.drawText(line, { x: 30, y: page.getHeight() - 60 - 24 * k, size: 14, font }));
  });
  return pictures.save();
}

describe.if(canRun)("pages whose only text is a footer over a picture", () => {
  test("are read by OCR: the team slide's names come back, the text page keeps its text layer", async () => {
    const bytes = await picturedWithFooter(
      [
        ["Lumora", "Treasury automation for mid-market CFOs"],
        ["Our team", "Anna Keller, CEO and co-founder", "Jonas Berg, CTO and co-founder"],
        ["The ask", "We are raising EUR 4.5 million in a Seed round"],
      ],
      [2],
    );
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain("Anna Keller");
    expect(pages[1]).toContain("Jonas Berg");
    expect(pages[0]).toContain("Treasury automation");
    // The text page: its own text layer (the footer drawn as text too), exactly as written.
    expect(pages[2]).toContain("We are raising EUR 4.5 million in a Seed round");
    expect(pages[2]).toContain("Lumora | Seed 2025 | 3");
  }, 120_000);

  test("a footer alone with no picture under it stays the page's text", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= 3; i++) doc.addPage([720, 405]).drawText(`Lumora | Seed 2025 | ${i}`, { x: 30, y: 14, size: 9, font });
    const pages = await pdfPages(await doc.save());
    expect(pages.map((p) => p.trim())).toEqual(["Lumora | Seed 2025 | 1", "Lumora | Seed 2025 | 2", "Lumora | Seed 2025 | 3"]);
  });

  test("without Tesseract the footer stays (nothing refused)", async () => {
    const bytes = await picturedWithFooter([["Lumora"], ["Our team", "Anna Keller, CEO"], ["Contact"]]);
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const pages = await pdfPages(bytes);
      expect(pages.map((p) => p.trim())).toEqual(["Lumora | Seed 2025 | 1", "Lumora | Seed 2025 | 2", "Lumora | Seed 2025 | 3"]);
    } finally {
      process.env.PATH = path;
    }
  }, 60_000);
});
