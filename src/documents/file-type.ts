// What a file is, by its bytes, never by its name: PDF by its header; OLE2 (DOC/PPT/XLS) by the
// stream names inside; ZIP (DOCX/PPTX/XLSX) by its main part, named in its directory; text as
// valid UTF-8 without NUL bytes, then CSV or Markdown by the shape of its lines (the name only
// breaks a tie).
import { zipPartNames } from "./zip.ts";
export type FileKind = "pdf" | "doc" | "docx" | "ppt" | "pptx" | "xls" | "xlsx" | "csv" | "markdown" | "text" | "unknown";

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
  markdown: "text/markdown",
  text: "text/plain",
  unknown: "application/octet-stream",
};

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const OOXML_MAIN_PARTS: [string, FileKind][] = [
  ["word/document.xml", "docx"],
  ["ppt/presentation.xml", "pptx"],
  ["xl/workbook.xml", "xlsx"],
];
/**
 * A PDF starts with its header: `%PDF-` and a version (1.0-1.7, 2.0). What real files put before
 * it is at most a UTF-8 byte-order mark and a little whitespace (some generators emit a newline
 * first); anything else in front, or "%PDF-" further into a text, is not a PDF.
 */
const PDF_HEADER = /^(?:\xef\xbb\xbf)?[\t\n\f\r ]{0,16}%PDF-[12]\.\d/;
const utf16 = (s: string) => Buffer.from(s, "utf16le");
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** @param bytes the whole file (uploads are capped at 50 MB, so this is bounded). */
export function detectFileKind(bytes: Uint8Array, filename = ""): FileKind {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (PDF_HEADER.test(buf.subarray(0, 32).toString("latin1"))) return "pdf";
  if (startsWith(bytes, OLE2)) {
    if (buf.includes(utf16("WordDocument"))) return "doc";
    if (buf.includes(utf16("PowerPoint Document"))) return "ppt";
    if (buf.includes(utf16("Workbook")) || buf.includes(utf16("Book"))) return "xls";
    return "unknown";
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // The directory's part names (a part's content may mention another part's name). A directory
    // too damaged or too large to read: the bytes decide, and the ZIP check refuses it with its reason.
    const names = zipPartNames(bytes);
    const has = names ? (part: string) => names.includes(part) : (part: string) => buf.includes(part);
    for (const [part, kind] of OOXML_MAIN_PARTS) if (has(part)) return kind;
    return "unknown";
  }
  const head = buf.subarray(0, 64 * 1024);
  if (head.length === 0 || head.includes(0)) return "unknown";
  let text: string;
  try {
    // A cut in the middle of a multi-byte character is not an error: decode up to the last newline.
    text = new TextDecoder("utf-8", { fatal: true }).decode(head.length === buf.length ? head : head.subarray(0, head.lastIndexOf(10) + 1 || head.length));
  } catch {
    return "unknown";
  }
  // Control characters other than tab, newline, carriage return and form feed: a binary format.
  if (/[\x01-\x08\x0e-\x1f\x7f]/.test(text)) return "unknown";
  return textKind(text, filename);
}

const DELIMITERS = [",", ";", "\t"];

/** Cells of one CSV line for counting (quoted delimiters do not count). */
const delimitersIn = (line: string, d: string) => line.replace(/"(?:[^"]|"")*"/g, "").split(d).length - 1;

/** CSV when every line (up to 20) has the same number (>= 1) of one delimiter; Markdown by its marks. */
export function textKind(text: string, filename = ""): "csv" | "markdown" | "text" {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0).slice(0, 20);
  const named = (re: RegExp) => re.test(filename);
  const markdownMarks = [
    /^#{1,6}\s+\S/m, // headings
    /^\s*[-*+]\s+\S/m, // bullet lists
    /^\s*\d+\.\s+\S/m, // numbered lists
    /\[[^\]\n]+\]\([^)\s]+\)/, // links
    /^```/m, // code fences
    /^\s*\|?\s*:?-{3,}:?\s*\|/m, // table rules
    /\*\*[^*\n]+\*\*/, // bold
  ].filter((re) => re.test(text)).length;
  const csvLines = named(/\.(csv|tsv)$/i) ? 1 : 3;
  if (lines.length >= csvLines && markdownMarks < 2) {
    for (const d of DELIMITERS) {
      const n = delimitersIn(lines[0], d);
      if (n >= 1 && lines.every((l) => delimitersIn(l, d) === n)) return "csv";
    }
  }
  if (markdownMarks >= 2 || (markdownMarks >= 1 && named(/\.(md|markdown)$/i))) return "markdown";
  return "text";
}

/** Converted to PDF by LibreOffice on the primary-upload path. */
export const isOffice = (k: FileKind) => k === "doc" || k === "docx" || k === "ppt" || k === "pptx";
/** The legacy binary formats: only LibreOffice reads them. */
export const isLegacyOffice = (k: FileKind) => k === "doc" || k === "ppt" || k === "xls";
/** What a data room accepts (CONTRACT.md). */
export const isDataRoomKind = (k: FileKind) => k !== "unknown";
