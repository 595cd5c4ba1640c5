// Corpus pages written as real files: PDF with pdf-lib (standard fonts, text wrapped by measured
// width, grey boxes for photos), PPTX with one text box per placed text, DOCX with headings,
// paragraphs and tables. The Office files go through LibreOffice on upload, as a firm's would.
import { strToU8, zipSync } from "fflate";
import { PDFDocument, rgb, StandardFonts, type PDFFont } from "pdf-lib";
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

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const NS_P = "http://schemas.openxmlformats.org/presentationml/2006/main";
const NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const CT = "application/vnd.openxmlformats-officedocument";
const EMU = 12700; // per point

const relsXml = (rels: [string, string, string][]) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join("")}</Relationships>`;
const typesXml = (overrides: [string, string][]) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.map(([p, t]) => `<Override PartName="${p}" ContentType="${t}"/>`).join("")}</Types>`;

const GROUP = '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';

function shapeXml(t: Text, id: number, slideWidth: number): string {
  const width = t.width ?? Math.min(slideWidth - t.x - 20, Math.max(120, t.text.length * t.size * 0.6));
  const height = Math.ceil((t.text.length * t.size * 0.55) / width + 1) * t.size * 1.3;
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="${Math.round(t.x * EMU)}" y="${Math.round((t.y - t.size) * EMU)}"/><a:ext cx="${Math.round(width * EMU)}" cy="${Math.round(height * EMU)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="${t.width ? "square" : "none"}" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-GB" sz="${Math.round(t.size * 100)}"${t.bold ? ' b="1"' : ""}><a:latin typeface="Arial"/></a:rPr><a:t>${esc(t.text)}</a:t></a:r></a:p></p:txBody></p:sp>`
  );
}

/** A PPTX: one slide per page, every placed text its own text box where the page put it. */
export function pptxOf(pages: Page[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const n = pages.length;
  files["[Content_Types].xml"] = strToU8(
    typesXml([
      ["/ppt/presentation.xml", `${CT}.presentationml.presentation.main+xml`],
      ["/ppt/slideMasters/slideMaster1.xml", `${CT}.presentationml.slideMaster+xml`],
      ["/ppt/slideLayouts/slideLayout1.xml", `${CT}.presentationml.slideLayout+xml`],
      ["/ppt/theme/theme1.xml", `${CT}.theme+xml`],
      ...pages.map((_, i): [string, string] => [`/ppt/slides/slide${i + 1}.xml`, `${CT}.presentationml.slide+xml`]),
    ]),
  );
  files["_rels/.rels"] = strToU8(relsXml([["rId1", "officeDocument", "ppt/presentation.xml"]]));
  files["ppt/presentation.xml"] = strToU8(
    `${XML}<p:presentation xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
      `<p:sldIdLst>${pages.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 3}"/>`).join("")}</p:sldIdLst>` +
      `<p:sldSz cx="${960 * EMU}" cy="${540 * EMU}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  files["ppt/_rels/presentation.xml.rels"] = strToU8(
    relsXml([["rId1", "slideMaster", "slideMasters/slideMaster1.xml"], ["rId2", "theme", "theme/theme1.xml"], ...pages.map((_, i): [string, string, string] => [`rId${i + 3}`, "slide", `slides/slide${i + 1}.xml`])]),
  );
  files["ppt/slideMasters/slideMaster1.xml"] = strToU8(
    `${XML}<p:sldMaster xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:spTree>${GROUP}</p:spTree></p:cSld>` +
      `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
      `<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`,
  );
  files["ppt/slideMasters/_rels/slideMaster1.xml.rels"] = strToU8(relsXml([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"], ["rId2", "theme", "../theme/theme1.xml"]]));
  files["ppt/slideLayouts/slideLayout1.xml"] = strToU8(`${XML}<p:sldLayout xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld name="Blank"><p:spTree>${GROUP}</p:spTree></p:cSld></p:sldLayout>`);
  files["ppt/slideLayouts/_rels/slideLayout1.xml.rels"] = strToU8(relsXml([["rId1", "slideMaster", "../slideMasters/slideMaster1.xml"]]));
  const colors = ["dk1:111111", "lt1:FFFFFF", "dk2:333333", "lt2:EEEEEE", "accent1:1F6FEB", "accent2:2DA44E", "accent3:BF8700", "accent4:CF222E", "accent5:8250DF", "accent6:1B7C83", "hlink:1F6FEB", "folHlink:8250DF"];
  const fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  files["ppt/theme/theme1.xml"] = strToU8(
    `${XML}<a:theme xmlns:a="${NS_A}" name="Corpus"><a:themeElements><a:clrScheme name="Corpus">${colors.map((c) => `<a:${c.split(":")[0]}><a:srgbClr val="${c.split(":")[1]}"/></a:${c.split(":")[0]}>`).join("")}</a:clrScheme>` +
      `<a:fontScheme name="Corpus"><a:majorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>` +
      `<a:fmtScheme name="Corpus"><a:fillStyleLst>${fill.repeat(3)}</a:fillStyleLst><a:lnStyleLst>${`<a:ln w="9525">${fill}</a:ln>`.repeat(3)}</a:lnStyleLst><a:effectStyleLst>${"<a:effectStyle><a:effectLst/></a:effectStyle>".repeat(3)}</a:effectStyleLst><a:bgFillStyleLst>${fill.repeat(3)}</a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`,
  );
  pages.forEach((p, i) => {
    const shapes = p.texts.map((t, k) => shapeXml(t, k + 2, p.width)).join("");
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(`${XML}<p:sld xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:spTree>${GROUP}${shapes}</p:spTree></p:cSld></p:sld>`);
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = strToU8(relsXml([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"]]));
  });
  if (n === 0) throw new Error("a deck needs a page");
  return zipSync(files, { level: 6, mtime: new Date("2025-01-01T00:00:00Z") });
}

/** A DOCX memo: headings as bold larger runs, paragraphs, tables with borders, page breaks. */
export function docxOf(memo: Memo): Uint8Array {
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  const run = (text: string, bold = false, size = 22) => `<w:r><w:rPr>${bold ? "<w:b/>" : ""}<w:sz w:val="${size}"/></w:rPr><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
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
  return zipSync(
    {
      "[Content_Types].xml": strToU8(typesXml([["/word/document.xml", `${CT}.wordprocessingml.document.main+xml`]])),
      "_rels/.rels": strToU8(relsXml([["rId1", "officeDocument", "word/document.xml"]])),
      "word/document.xml": strToU8(`${XML}<w:document xmlns:w="${W}"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`),
    },
    { level: 6, mtime: new Date("2025-01-01T00:00:00Z") },
  );
}
