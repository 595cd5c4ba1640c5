// What a file is, by its bytes, never by its name: PDF by its header; OLE2 (DOC/PPT/XLS) by the
// stream names inside; ZIP (DOCX/PPTX/XLSX) by its main part.
export type FileKind = "pdf" | "doc" | "docx" | "ppt" | "pptx" | "xls" | "xlsx" | "csv" | "text" | "unknown";

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
  text: "text/plain",
  unknown: "application/octet-stream",
};

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const utf16 = (s: string) => Buffer.from(s, "utf16le");
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** @param bytes the whole file (uploads are capped at 50 MB, so this is bounded). */
export function detectFileKind(bytes: Uint8Array, filename = ""): FileKind {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.subarray(0, 1024).includes("%PDF-")) return "pdf";
  if (startsWith(bytes, OLE2)) {
    if (buf.includes(utf16("WordDocument"))) return "doc";
    if (buf.includes(utf16("PowerPoint Document"))) return "ppt";
    if (buf.includes(utf16("Workbook")) || buf.includes(utf16("Book"))) return "xls";
    return "unknown";
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    if (buf.includes("word/document.xml")) return "docx";
    if (buf.includes("ppt/presentation.xml")) return "pptx";
    if (buf.includes("xl/workbook.xml")) return "xlsx";
    return "unknown";
  }
  // Text: valid UTF-8 without NUL bytes; CSV when the name says so and rows have commas.
  const head = buf.subarray(0, 64 * 1024);
  if (head.includes(0)) return "unknown";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.length === buf.length ? head : head.subarray(0, head.lastIndexOf(10) + 1 || head.length));
  } catch {
    return "unknown";
  }
  return /\.csv$/i.test(filename) ? "csv" : "text";
}

export const isOffice = (k: FileKind) => k === "doc" || k === "docx" || k === "ppt" || k === "pptx";
