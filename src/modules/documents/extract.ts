// Text out of a document, page by page: PDF directly (unpdf), Office files through LibreOffice
// first, plain text and CSV as one page.
import { extractText, getDocumentProxy } from "unpdf";
import { convertToPdf } from "./convert.ts";
import { isOffice, type FileKind } from "./file-type.ts";

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

export async function extractPages(path: string, kind: FileKind): Promise<string[]> {
  if (kind === "pdf") return pdfPages(new Uint8Array(await Bun.file(path).arrayBuffer()));
  if (isOffice(kind)) return pdfPages(await convertToPdf(path, kind));
  if (kind === "text" || kind === "csv") return [await Bun.file(path).text()];
  throw new ExtractionError(`Files of this type (${kind}) cannot be read`);
}
