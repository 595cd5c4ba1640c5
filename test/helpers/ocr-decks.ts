// Decks without usable text, made on the spot from real PDFs: LibreOffice sets a short deck in an
// embedded (subset) font; "image-only" redraws each page (pdf.js on the in-memory canvas) and
// puts the pictures in a new PDF, as an export to images does; "scrambled" removes the fonts'
// ToUnicode maps, so the text layer reads as glyph codes while the page still shows the letters.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { getDocumentProxy } from "unpdf";
import { convertToPdf } from "../../src/documents/convert.ts";
import { RENDERABLE, renderPage } from "../../src/documents/ocr.ts";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A PDF from LibreOffice: one page per entry, its lines as 18-point paragraphs, fonts embedded. */
export async function libreOfficePdf(pages: string[][]): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-ocr-deck-"));
  try {
    const body = pages
      .map((lines, i) => lines.map((l, k) => `<text:p text:style-name="${i > 0 && k === 0 ? "Break" : "Body"}">${esc(l)}</text:p>`).join(""))
      .join("");
    const fodt =
      `<?xml version="1.0" encoding="UTF-8"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ` +
      `xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">` +
      `<office:automatic-styles><style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="18pt"/></style:style>` +
      `<style:style style:name="Break" style:family="paragraph" style:parent-style-name="Body"><style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="18pt"/></style:style></office:automatic-styles>` +
      `<office:body><office:text>${body}</office:text></office:body></office:document>`;
    const path = join(dir, "deck.fodt");
    writeFileSync(path, fodt);
    return await convertToPdf(path, "fodt", { workRoot: join(dir, "work") });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A greyscale PGM (P5) as a PNG, for pdf-lib to embed. */
function pngOfPgm(pgm: Uint8Array): Uint8Array {
  const header = new TextDecoder().decode(pgm.subarray(0, 40)).match(/^P5\s+(\d+)\s+(\d+)\s+255\s/)!;
  const [w, h] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  const raw = new Uint8Array(h * (w + 1));
  for (let y = 0; y < h; y++) raw.set(pixels.subarray(y * w, (y + 1) * w), y * (w + 1) + 1);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, w);
  new DataView(ihdr.buffer).setUint32(4, h);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (png.set(p, at), (at += p.length));
  return png;
}

/** The same pages as pictures only: no text layer at all. */
export async function imageOnlyPdf(source: Uint8Array): Promise<Uint8Array> {
  const pdf = await getDocumentProxy(source.slice(), RENDERABLE);
  const doc = await PDFDocument.create();
  for (let n = 1; n <= pdf.numPages; n++) {
    const { width, height } = (await pdf.getPage(n)).getViewport({ scale: 1 });
    const image = await doc.embedPng(pngOfPgm(await renderPage(pdf, n)));
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  return doc.save();
}

/** The same PDF with every font's ToUnicode map removed: the text layer reads as glyph codes. */
export async function scrambledPdf(source: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(source);
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFDict && obj.get(PDFName.of("Type")) === PDFName.of("Font")) obj.delete(PDFName.of("ToUnicode"));
  }
  return doc.save();
}
