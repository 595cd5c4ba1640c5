// Text out of a document, page by page: PDF directly (unpdf); DOCX/PPTX/XLSX from their XML parts
// (or, for a primary upload, through LibreOffice's PDF so pages are real pages); DOC/PPT/XLS through
// LibreOffice; plain text and Markdown as one page; CSV as one page of row sentences.
import { extractText, getDocumentProxy } from "unpdf";
import { ConversionError, convertToPdf, type ConvertOptions } from "./convert.ts";
import { isOffice, type FileKind } from "./file-type.ts";

// The Office readers (and fflate under them) load on the first Office or CSV file, not at start-up.
const officeText = () => import("./office-text.ts");

export class ExtractionError extends Error {}

export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  try {
    const pdf = await getDocumentProxy(bytes);
    const { text } = await extractText(pdf, { mergePages: false });
    return text as string[];
  } catch (error) {
    throw new ExtractionError(`The PDF could not be read (${(error as Error).message ?? "corrupt file"})`);
  }
}

/**
 * @param via "pdf" converts DOCX/PPTX to PDF first (the primary deck, whose page numbers matter);
 * "xml" reads OOXML directly (the data room: DOCX one page, PPTX one per slide, XLSX one per sheet).
 * @param convert where LibreOffice works (the data dir's conversionRoot, so the document-conversion
 * job can clean up after a crash) and its time limit.
 */
export async function extractPages(path: string, kind: FileKind, via: "pdf" | "xml", convert: ConvertOptions & { workRoot: string }): Promise<string[]> {
  if (kind === "pdf") return pdfPages(new Uint8Array(await Bun.file(path).arrayBuffer()));
  if ((kind === "docx" || kind === "pptx" || kind === "xlsx") && (via === "xml" || kind === "xlsx")) {
    const office = await officeText();
    const fromXml = { docx: office.docxPages, pptx: office.pptxPages, xlsx: office.xlsxPages };
    try {
      return fromXml[kind](new Uint8Array(await Bun.file(path).arrayBuffer()));
    } catch (error) {
      if (error instanceof office.OfficeTextError) throw new ExtractionError(error.message);
      throw error;
    }
  }
  if (isOffice(kind) || kind === "xls") {
    // LibreOffice expands whatever a ZIP really holds: the same caps as the XML path, checked first.
    if (kind === "docx" || kind === "pptx") {
      const office = await officeText();
      try {
        office.verifyZipExpansion(new Uint8Array(await Bun.file(path).arrayBuffer()));
      } catch (error) {
        if (error instanceof office.OfficeTextError) throw new ExtractionError(error.message);
        throw error;
      }
    }
    return pdfPages(await convertToPdf(path, kind, convert));
  }
  if (kind === "csv") return (await officeText()).csvPages(await Bun.file(path).text());
  if (kind === "text" || kind === "markdown") return [await Bun.file(path).text()];
  throw new ExtractionError(`Files of this type (${kind}) cannot be read`);
}

export { ConversionError };
