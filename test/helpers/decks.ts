// Pitch decks made on the spot with pdf-lib: real PDFs whose every sentence a test can quote.
import { strToU8, zipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const LEDGERLY_DECK = [
  "Ledgerly. Payments infrastructure for B2B marketplaces. Ledgerly is a ledger API that helps marketplaces pay out sellers in 40 countries. Founded in 2022, based in Berlin.",
  "Team. Sam Founder, Co-founder & CEO: previously led payouts at Stripe for 6 years. Ana Tech (CTO), ex-Google, PhD in distributed systems.",
  "Traction. ARR $1.2M, growing 15% month over month. 48 customers including two public marketplaces. Net revenue retention 135%.",
  "Market. Marketplaces move $3.5 trillion a year; the payout infrastructure market is a $12B TAM growing 20% CAGR.",
  "The round. We are raising $4M seed at a $16M pre-money valuation. Use of funds: 60% engineering, 25% go-to-market. ledgerly.io",
];

export async function pdfDeck(pages: string[] = LEDGERLY_DECK): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([842, 595]);
    // Wrap into lines of ~100 characters.
    const words = text.split(" ");
    const lines: string[] = [];
    let line = "";
    for (const w of words) {
      if ((line + " " + w).length > 100) (lines.push(line), (line = w));
      else line = line ? `${line} ${w}` : w;
    }
    lines.push(line);
    lines.forEach((l, i) => page.drawText(l, { x: 40, y: 540 - i * 18, size: 12, font }));
  }
  return doc.save();
}

export function uploadForm(file: Uint8Array | string, filename: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append("file", new Blob([file]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

// Office files built on the spot with fflate: the minimal parts each format's reader looks at,
// real ZIPs as Word, PowerPoint and Excel write them (same part names and XML vocabulary).
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const CONTENT_TYPES_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`;

/** A DOCX whose paragraphs are the given strings. */
export function docxFile(paragraphs: string[]): Uint8Array {
  const body = paragraphs.map((p) => `<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join("");
  return zipSync({
    "[Content_Types].xml": strToU8(CONTENT_TYPES_XML),
    "word/document.xml": strToU8(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
  });
}

/** A PPTX with one slide per entry, each slide's paragraphs as given. */
export function pptxFile(slides: string[][]): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(CONTENT_TYPES_XML),
    "ppt/presentation.xml": strToU8(`<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>`),
  };
  slides.forEach((paras, i) => {
    const body = paras.map((p) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(p)}</a:t></a:r></a:p>`).join("");
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(
      `<?xml version="1.0"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  return zipSync(files);
}

const column = (i: number) => String.fromCharCode(65 + i);

/** An XLSX with the given sheets; strings go to the shared-string table, numbers stay numbers. */
export function xlsxFile(sheets: Record<string, (string | number)[][]>): Uint8Array {
  const shared: string[] = [];
  const files: Record<string, Uint8Array> = { "[Content_Types].xml": strToU8(CONTENT_TYPES_XML) };
  const names = Object.keys(sheets);
  names.forEach((name, s) => {
    const rows = sheets[name]
      .map((row, r) => {
        const cells = row
          .map((v, c) => {
            const ref = `${column(c)}${r + 1}`;
            if (typeof v === "number") return `<c r="${ref}"><v>${v}</v></c>`;
            shared.push(v);
            return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
          })
          .join("");
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join("");
    files[`xl/worksheets/sheet${s + 1}.xml`] = strToU8(`<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);
  });
  files["xl/workbook.xml"] = strToU8(
    `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${names
      .map((n, i) => `<sheet name="${esc(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join("")}</sheets></workbook>`,
  );
  files["xl/_rels/workbook.xml.rels"] = strToU8(
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join("")}</Relationships>`,
  );
  files["xl/sharedStrings.xml"] = strToU8(`<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${shared.map((s) => `<si><t>${esc(s)}</t></si>`).join("")}</sst>`);
  return zipSync(files);
}

/** An XLSX whose one sheet expands to `megabytes` of zeros: a few KB on the wire, a bomb unpacked. */
export function xlsxBomb(megabytes = 64): Uint8Array {
  return zipSync(
    {
      "xl/workbook.xml": strToU8(`<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`),
      "xl/worksheets/sheet1.xml": new Uint8Array(megabytes * 1024 * 1024),
    },
    { level: 9 },
  );
}

/** A data-room form: `files` repeated (a name with a path puts the file in that folder), plus fields. */
export function dataRoomForm(files: [Uint8Array | string, string][], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [bytes, name] of files) form.append("files", new Blob([bytes]), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
