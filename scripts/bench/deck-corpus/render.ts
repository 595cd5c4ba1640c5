// Corpus pages written as real files: PDF with pdf-lib (standard fonts, text wrapped by measured
// width, grey boxes for photos), PPTX with one text box per placed text, DOCX with headings,
// paragraphs and tables (in the demo's OOXML packages). The Office files go through LibreOffice on
// upload, as a firm's would.
import { PDFDocument, rgb, StandardFonts, type PDFFont } from "pdf-lib";
import { docxPackage, pptxPackage, xmlText } from "../../../src/demo/decks.ts";
import type { Memo, Page, Text } from "./layouts.ts";

// WinAnsi (the standard fonts' encoding) has no glyph for these: the nearest that it has.
const FALLBACK: Record<string, string> = { "\u202f": "\u00a0", "✓": "yes", "→": "->", "≈": "~" };
const winAnsi = (s: string) => s.replace(/[\u202f✓→≈]/g, (c) => FALLBACK[c]).replace(/[^\x20-\x7e\u00a0-\u00ff€“”‘’–—•…]/g, "?");

function wrap(text: string, font: PDFFont, size: number, width: number | undefined): string[] {
  if (!width) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) (lines.push(line), (line = word));
    else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export async function pdfOf(pages: Page[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date("2025-01-01T00:00:00Z"));
  doc.setModificationDate(new Date("2025-01-01T00:00:00Z"));
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    serif: await doc.embedFont(StandardFonts.TimesRoman),
  };
  for (const p of pages) {
    const pdfPage = doc.addPage([p.width, p.height]);
    for (const b of p.boxes) pdfPage.drawRectangle({ x: b.x, y: p.height - b.y - b.h, width: b.w, height: b.h, color: rgb(0.85, 0.87, 0.9) });
    for (const t of p.texts) {
      const font = t.bold ? fonts.bold : t.serif ? fonts.serif : fonts.regular;
      wrap(winAnsi(t.text), font, t.size, t.width).forEach((line, i) => {
        const x = t.align === "center" && t.width ? t.x + (t.width - font.widthOfTextAtSize(line, t.size)) / 2 : t.x;
        pdfPage.drawText(line, { x, y: p.height - t.y - i * t.size * 1.25, size: t.size, font, color: rgb(0.1, 0.1, 0.12) });
      });
    }
  }
  return doc.save();
}

const EMU = 12700; // per point

function shapeXml(t: Text, id: number, slideWidth: number): string {
  const width = t.width ?? Math.min(slideWidth - t.x - 20, Math.max(120, t.text.length * t.size * 0.6));
  const height = Math.ceil((t.text.length * t.size * 0.55) / width + 1) * t.size * 1.3;
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="${Math.round(t.x * EMU)}" y="${Math.round((t.y - t.size) * EMU)}"/><a:ext cx="${Math.round(width * EMU)}" cy="${Math.round(height * EMU)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="${t.width ? "square" : "none"}" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-GB" sz="${Math.round(t.size * 100)}"${t.bold ? ' b="1"' : ""}><a:latin typeface="Arial"/></a:rPr><a:t>${xmlText(t.text)}</a:t></a:r></a:p></p:txBody></p:sp>`
  );
}

/** A PPTX: one slide per page, every placed text its own text box where the page put it (the demo's package). */
export function pptxOf(pages: Page[]): Uint8Array {
  if (pages.length === 0) throw new Error("a deck needs a page");
  return pptxPackage(
    pages.map((p) => p.texts.map((t, k) => shapeXml(t, k + 2, p.width)).join("")),
    { cx: pages[0].width * EMU, cy: pages[0].height * EMU },
  );
}

/** A DOCX memo: headings as bold larger runs, paragraphs, tables with borders, page breaks (A4). */
export function docxOf(memo: Memo): Uint8Array {
  const run = (text: string, bold = false, size = 22) => `<w:r><w:rPr>${bold ? "<w:b/>" : ""}<w:sz w:val="${size}"/></w:rPr><w:t xml:space="preserve">${xmlText(text)}</w:t></w:r>`;
  const border = '<w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders>';
  const body = memo.blocks
    .map((b) => {
      if ("heading" in b) return `<w:p><w:pPr><w:spacing w:before="240" w:after="120"/></w:pPr>${run(b.heading, true, 30)}</w:p>`;
      if ("paragraph" in b) return `<w:p>${run(b.paragraph)}</w:p>`;
      if ("pageBreak" in b) return '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
      const cols = Math.max(...b.table.map((r) => r.length));
      return (
        `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/>${border}</w:tblPr><w:tblGrid>${"<w:gridCol/>".repeat(cols)}</w:tblGrid>` +
        b.table.map((row, i) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell, i === 0)}</w:p></w:tc>`).join("")}</w:tr>`).join("") +
        "</w:tbl><w:p/>"
      );
    })
    .join("");
  return docxPackage(body, '<w:pgSz w:w="11906" w:h="16838"/>');
}
