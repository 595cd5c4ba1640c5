// Decks built in the tests as real PDFs (pdf-lib), laid out as decks made with other tools are:
// text boxes placed apart, names and roles in separate boxes, photos (grey rectangles) with
// captions, columns, tables, glyph-by-glyph runs, rotated labels, other fonts and sizes. They go
// through the real extraction (pdfPages) and the built-in engine.
import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont } from "pdf-lib";
import { pdfPages } from "../../src/documents/pdf-text.ts";
import type { DealAnalysis } from "../../src/engines/deal-engine.ts";
import { analyse, deckPages } from "./deal-facts-corpus.ts";

/** A text box: top-down y (from the slide's top), a size, a font; `glyphs` draws it one character at a time. */
export type Box = { text: string; x: number; y: number; size?: number; font?: "sans" | "bold" | "serif" | "mono"; glyphs?: boolean; rotate?: number };
export type Photo = { photo: true; x: number; y: number; w: number; h: number };
export type Slide = (Box | Photo)[];

const W = 960;
const H = 540;

export async function deckPdf(slides: Slide[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Record<string, PDFFont> = {
    sans: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    serif: await doc.embedFont(StandardFonts.TimesRoman),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  for (const slide of slides) {
    const page = doc.addPage([W, H]);
    for (const item of slide) {
      if ("photo" in item) {
        page.drawRectangle({ x: item.x, y: H - item.y - item.h, width: item.w, height: item.h, color: rgb(0.7, 0.7, 0.7) });
        continue;
      }
      const font = fonts[item.font ?? "sans"];
      const size = item.size ?? 14;
      const y = H - item.y;
      if (item.glyphs) {
        // One text object per character, each placed at its advance: what some exporters write.
        let x = item.x;
        for (const ch of item.text) {
          if (ch !== " ") page.drawText(ch, { x, y, size, font });
          x += font.widthOfTextAtSize(ch, size);
        }
      } else page.drawText(item.text, { x: item.x, y, size, font, rotate: item.rotate ? degrees(item.rotate) : undefined });
    }
  }
  return doc.save();
}

/** Lines of text, one box each, stacked from (x, y) down by `pitch`. */
export const lines = (texts: string[], x: number, y: number, size = 14, pitch = size * 1.4, font: Box["font"] = "sans"): Box[] => texts.map((text, i) => ({ text, x, y: y + i * pitch, size, font }));

export async function readDeck(slides: Slide[], hints = {}): Promise<{ pages: string[]; analysis: DealAnalysis }> {
  const pages = await pdfPages(await deckPdf(slides));
  return { pages, analysis: await analyse(deckPages(pages), hints) };
}
