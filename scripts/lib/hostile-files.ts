// Hostile files, made on the spot, for the abuse suite (test/e2e/hostile-uploads.test.ts) and its
// benchmark (scripts/bench/hostile-uploads.ts): PDFs with page counts, streams, nesting and fonts
// meant to stall a parser, and ZIPs whose directories lie. Each is small on the wire; what it asks
// of a reader is in its name. The PDF and ZIP structures are written byte by byte, because the
// point is to write what well-behaved libraries refuse to.
import { constants, createDeflateRaw, deflateRawSync } from "node:zlib";

const enc = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// PDF

/** A PDF from its objects (1-based, in order), the catalog being object 1; a correct xref table. */
export function rawPdf(objects: (string | Uint8Array)[]): Uint8Array {
  const parts: Uint8Array[] = [enc.encode("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let size = parts[0].byteLength;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const bytes = typeof body === "string" ? enc.encode(`${i + 1} 0 obj\n${body}\nendobj\n`) : concat([enc.encode(`${i + 1} 0 obj\n`), body, enc.encode("\nendobj\n")]);
    parts.push(bytes);
    size += bytes.byteLength;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(enc.encode(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.byteLength));
  return out;
}

const stream = (dict: string, data: Uint8Array) => concat([enc.encode(`<< ${dict} /Length ${data.byteLength} >>\nstream\n`), data, enc.encode("\nendstream")]);

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/**
 * `pages` pages sharing one tiny content stream: ~60 bytes a page, so 10,000 pages are about half
 * a megabyte (the issue's 1.1 MB file had 10,000; 50 MB allows ~450,000).
 */
export function pdfPageBomb(pages: number): Uint8Array {
  // 1 catalog, 2 pages, 3 font, 4 content, 5.. pages
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(" ");
  const objects: (string | Uint8Array)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`,
    FONT,
    stream("", enc.encode("BT /F1 6 Tf 10 10 Td (p) Tj ET")),
  ];
  for (let i = 0; i < pages; i++) objects.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 20 20] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>");
  return rawPdf(objects);
}

/**
 * A zlib stream of `repeat` copies of `chunk` without compressing them all: one copy deflated and
 * sync-flushed (so it ends on a byte boundary, its back-references inside itself), repeated, then
 * an empty final block. About a thousandth of the output size; the checksum is not computed
 * (readers that check it refuse the stream, which is as good an outcome as any).
 */
function repeatedZlib(chunk: Uint8Array, repeat: number): Uint8Array {
  const block = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const parts: Uint8Array[] = [new Uint8Array([0x78, 0xda])];
  for (let i = 0; i < repeat; i++) parts.push(block);
  parts.push(new Uint8Array([0x03, 0x00]), new Uint8Array(4)); // final empty fixed block; adler32 left 0
  return concat(parts);
}

/** One page whose FlateDecode content stream inflates to `megabytes` of text operators. */
export function pdfStreamBomb(megabytes: number): Uint8Array {
  const chunk = enc.encode("BT /F1 1 Tf (A) Tj ET ".repeat(Math.ceil((1024 * 1024) / 22)).slice(0, 1024 * 1024));
  const data = repeatedZlib(chunk, megabytes);
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    FONT,
    stream("/Filter /FlateDecode", data),
  ]);
}

/** A page dictionary holding an array nested `depth` deep: a recursive parser's stack. */
export function pdfDeepNesting(depth: number): Uint8Array {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /Nest ${"[".repeat(depth)}${"]".repeat(depth)} >>`,
    FONT,
    stream("", enc.encode(`BT /F1 12 Tf 10 100 Td (Nested) Tj ET ${"[".repeat(depth)}`)),
  ]);
}

/**
 * Text set in an embedded TrueType font whose tables are garbage: a table directory claiming
 * 65,535 tables at offsets past the end, lengths of 4 GB.
 */
export function pdfMalformedFont(): Uint8Array {
  const font = new Uint8Array(4096);
  const view = new DataView(font.buffer);
  view.setUint32(0, 0x00010000); // sfnt version
  view.setUint16(4, 0xffff); // numTables
  for (let i = 0; i < 200; i++) {
    const at = 12 + i * 16;
    font.set(enc.encode(["cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "name", "post"][i % 9]), at);
    view.setUint32(at + 8, 0xfffffff0 - i); // offset past the end
    view.setUint32(at + 12, 0xffffffff); // length
  }
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Font /Subtype /TrueType /BaseFont /Broken /FirstChar 32 /LastChar 126 /Widths [] /FontDescriptor 5 0 R >>",
    "<< /Type /FontDescriptor /FontName /Broken /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 900 /Descent -100 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>",
    stream("", enc.encode("BT /F1 12 Tf 10 100 Td (Broken font, readable text.) Tj ET")),
    stream("/Length1 4096", font),
  ]);
}

// ---------------------------------------------------------------------------------------------
// ZIP

export type RawZipEntry = {
  name: string;
  /** The bytes as stored (already deflated when method is 8). */
  data: Uint8Array;
  method: 0 | 8;
  /** What the directory (and the local header) declare it expands to. */
  declaredSize: number;
};

/**
 * A ZIP written entry by entry, with whatever sizes it is told to declare; `directory` may list
 * entries of its own (pointing anywhere), replacing the honest directory.
 */
export function rawZip(entries: RawZipEntry[], directory?: (locals: { entry: RawZipEntry; offset: number }[]) => { name: string; offset: number; entry: RawZipEntry }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const locals: { entry: RawZipEntry; offset: number }[] = [];
  let size = 0;
  for (const entry of entries) {
    const name = enc.encode(entry.name);
    const header = new Uint8Array(30 + name.byteLength);
    const v = new DataView(header.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(4, 20, true);
    v.setUint16(6, 0x0800, true); // UTF-8 names
    v.setUint16(8, entry.method, true);
    v.setUint32(18, entry.data.byteLength, true);
    v.setUint32(22, entry.declaredSize, true);
    v.setUint16(26, name.byteLength, true);
    header.set(name, 30);
    locals.push({ entry, offset: size });
    parts.push(header, entry.data);
    size += header.byteLength + entry.data.byteLength;
  }
  const listed = directory ? directory(locals) : locals.map((l) => ({ name: l.entry.name, offset: l.offset, entry: l.entry }));
  const cdStart = size;
  for (const { name: n, offset, entry } of listed) {
    const name = enc.encode(n);
    const header = new Uint8Array(46 + name.byteLength);
    const v = new DataView(header.buffer);
    v.setUint32(0, 0x02014b50, true);
    v.setUint16(4, 20, true);
    v.setUint16(6, 20, true);
    v.setUint16(8, 0x0800, true);
    v.setUint16(10, entry.method, true);
    v.setUint32(20, entry.data.byteLength, true);
    v.setUint32(24, entry.declaredSize, true);
    v.setUint16(28, name.byteLength, true);
    v.setUint32(42, offset, true);
    header.set(name, 46);
    parts.push(header);
    size += header.byteLength;
  }
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, listed.length, true);
  v.setUint16(10, listed.length, true);
  v.setUint32(12, size - cdStart, true);
  v.setUint32(16, cdStart, true);
  parts.push(end);
  return concat(parts);
}

export const deflated = (name: string, text: string | Uint8Array): RawZipEntry => {
  const bytes = typeof text === "string" ? enc.encode(text) : text;
  return { name, data: deflateRawSync(bytes), method: 8, declaredSize: bytes.byteLength };
};

/**
 * Raw deflate of `megabytes` MB of zeros as one ordinary stream (run-length strategy: ~1 KB per MB,
 * 2 GB in under a second), with no stored blocks in it: what a real zip bomb's part looks like.
 */
async function zerosDeflated(megabytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const stream = createDeflateRaw({ level: 9, strategy: constants.Z_RLE, chunkSize: 1024 * 1024 });
  stream.on("data", (c: Uint8Array) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => (stream.on("end", resolve), stream.on("error", reject)));
  const zeros = new Uint8Array(1024 * 1024);
  for (let i = 0; i < megabytes; i++) if (!stream.write(zeros)) await new Promise((r) => stream.once("drain", r));
  stream.end();
  await ended;
  return concat(chunks);
}

const WORD_XML = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>A deck.</w:t></w:r></w:p></w:body></w:document>`;
const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`;

/** The parts LibreOffice needs to open a DOCX (a content type and the package relationship), around `documentXml`. */
function docxEntries(documentXml: string): RawZipEntry[] {
  return [
    deflated(
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    deflated(
      "_rels/.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    deflated("word/document.xml", documentXml),
  ];
}

/**
 * A DOCX whose directory (and local header) declare 1,000 bytes for its document part, which
 * really inflates to `megabytes` MB: the issue's 4.9 MB file declared 1,000 bytes and expanded to
 * 2.1 GB in the part the XML reader reads.
 */
export async function docxLyingDirectory(megabytes: number): Promise<Uint8Array> {
  const [types, rels] = docxEntries(WORD_XML);
  return rawZip([types, rels, { name: "word/document.xml", data: await zerosDeflated(megabytes), method: 8, declaredSize: 1000 }]);
}

/** An XLSX of the same kind: its sheet declares 1,000 bytes and inflates to `megabytes` MB. */
export async function xlsxLyingDirectory(megabytes: number): Promise<Uint8Array> {
  return rawZip([
    deflated("xl/workbook.xml", `<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`),
    { name: "xl/worksheets/sheet1.xml", data: await zerosDeflated(megabytes), method: 8, declaredSize: 1000 },
  ]);
}

/**
 * The overlapping-entries bomb: one compressed stream of `megabytes` MB, and a directory listing
 * it `copies` times under different names (each declaring its true size).
 */
export async function docxOverlappingEntries(megabytes: number, copies: number): Promise<Uint8Array> {
  const kernel: RawZipEntry = { name: "word/document.xml", data: await zerosDeflated(megabytes), method: 8, declaredSize: megabytes * 1024 * 1024 };
  return rawZip([kernel], ([only]) => Array.from({ length: copies }, (_, i) => ({ name: i === 0 ? "word/document.xml" : `word/copy${i}.xml`, offset: only.offset, entry: only.entry })));
}

/** A DOCX whose document.xml declares entities that expand a billion times (never to be expanded). */
export function docxBillionLaughs(): Uint8Array {
  const entities = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`)].join("");
  const xml = `<?xml version="1.0"?><!DOCTYPE w:document [${entities}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Laughs: &lol9;</w:t></w:r></w:p></w:body></w:document>`;
  return rawZip(docxEntries(xml));
}

/** A DOCX whose body nests `depth` paragraphs-in-text-boxes deep (each inside the one before). */
export function docxDeepNesting(depth: number): Uint8Array {
  const open = "<w:p><w:r><w:t>deep</w:t></w:r>".repeat(depth);
  const close = "</w:p>".repeat(depth);
  const xml = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${open}${close}</w:body></w:document>`;
  return rawZip(docxEntries(xml));
}

/** A PPTX of `slides` one-line slides (a few hundred bytes each, compressed). */
export function pptxManySlides(slides: number): Uint8Array {
  const entries = [deflated("[Content_Types].xml", CONTENT_TYPES), deflated("ppt/presentation.xml", `<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>`)];
  const slide = `<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Slide.</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  for (let i = 1; i <= slides; i++) entries.push(deflated(`ppt/slides/slide${i}.xml`, slide));
  return rawZip(entries);
}

// ---------------------------------------------------------------------------------------------
// JSON

/** A JSON document nested `depth` arrays deep. */
export const jsonDeepNesting = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
