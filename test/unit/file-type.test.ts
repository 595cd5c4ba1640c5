// File types by content: what the data room accepts, whatever the name says.
import { describe, expect, test } from "bun:test";
import { zipSync, strToU8 } from "fflate";
import { detectFileKind, isDataRoomKind, isOffice, textKind } from "../../src/documents/file-type.ts";
import { csvPages, docxPages, pptxPages, readParts, xlsxPages } from "../../src/documents/office-text.ts";
import { docxFile, pdfDeck, pptxFile, xlsxBomb, xlsxFile } from "../helpers/decks.ts";

const ole2 = (stream: string) => {
  const head = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
  return new Uint8Array([...head, ...Buffer.from(stream, "utf16le"), 0, 0]);
};

describe("detectFileKind", () => {
  test("binary formats by their bytes, never their names", async () => {
    expect(detectFileKind(await pdfDeck(["Hello world, a page of text."]), "notes.txt")).toBe("pdf");
    expect(detectFileKind(docxFile(["A paragraph."]), "deck.pdf")).toBe("docx");
    expect(detectFileKind(pptxFile([["A slide."]]), "x.docx")).toBe("pptx");
    expect(detectFileKind(xlsxFile({ S: [["a", 1]] }), "x.csv")).toBe("xlsx");
    expect(detectFileKind(ole2("WordDocument"), "a.xls")).toBe("doc");
    expect(detectFileKind(ole2("PowerPoint Document"), "a.doc")).toBe("ppt");
    expect(detectFileKind(ole2("Workbook"), "a.ppt")).toBe("xls");
    expect(detectFileKind(ole2("Something Else"), "a.doc")).toBe("unknown");
    expect(detectFileKind(zipSync({ "readme.txt": strToU8("a plain zip") }), "deck.pptx")).toBe("unknown");
  });

  test("PDF by its header at the start: a BOM and a little whitespace before it, nothing else", async () => {
    const deck = await pdfDeck(["A page."]);
    const withPrefix = (prefix: number[]) => new Uint8Array([...prefix, ...deck]);
    expect(detectFileKind(withPrefix([0xef, 0xbb, 0xbf]), "a.pdf")).toBe("pdf"); // UTF-8 BOM
    expect(detectFileKind(withPrefix([0x0d, 0x0a, 0x20]), "a.pdf")).toBe("pdf"); // a generator's leading newline
    expect(detectFileKind(strToU8("%PDF-2.0\n%binary"), "a.pdf")).toBe("pdf");
    // "%PDF-" later in a text (a note about PDFs, an email quoting one) is that text, not a PDF.
    expect(detectFileKind(strToU8("Notes on the deck.\nThe file began with %PDF-1.7 and then nothing.\n"), "deck.pdf")).toBe("text");
    expect(detectFileKind(strToU8(`${" ".repeat(40)}%PDF-1.7\n`), "deck.pdf")).toBe("text");
    expect(detectFileKind(strToU8("x%PDF-1.4\n"), "deck.pdf")).toBe("text");
    expect(detectFileKind(strToU8("%PDF-\nno version"), "deck.pdf")).toBe("text");
    expect(detectFileKind(withPrefix([0x89, 0x50, 0x4e, 0x47]), "deck.pdf")).toBe("unknown"); // an image header first
  });

  test("executables, images and other binaries are unknown, even named .csv or .md", () => {
    expect(detectFileKind(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), "model.csv")).toBe("unknown"); // ELF
    expect(detectFileKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), "notes.md")).toBe("unknown"); // PNG
    expect(detectFileKind(new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]), "readme.txt")).toBe("unknown"); // Windows PE
    expect(detectFileKind(new Uint8Array([0xff, 0xfe, 0xfd]), "a.txt")).toBe("unknown"); // not UTF-8
    expect(detectFileKind(new Uint8Array([]), "empty.txt")).toBe("unknown");
    expect(detectFileKind(strToU8("text with a \x01 control byte"), "a.txt")).toBe("unknown");
  });

  test("text: CSV and Markdown by the shape of their lines", () => {
    expect(detectFileKind(strToU8("customer,arr,start\nAcme,120000,2023-01\nGlobex,80000,2023-04\n"), "list.txt")).toBe("csv");
    expect(detectFileKind(strToU8("name;shares\nSam;1000\nAna;800\n"), "captable")).toBe("csv");
    expect(detectFileKind(strToU8("a\tb\n1\t2\n3\t4\n"), "x")).toBe("csv");
    // Two lines need the name to be a CSV; prose with uneven commas never is.
    expect(detectFileKind(strToU8("a,b\n1,2\n"), "two.csv")).toBe("csv");
    expect(detectFileKind(strToU8("a,b\n1,2\n"), "two.txt")).toBe("text");
    expect(detectFileKind(strToU8("We met Sam, Ana and Bo.\nThey build payouts, ledgers, and more.\nNothing, really.\n"), "memo.txt")).toBe("text");
    expect(detectFileKind(strToU8("# Product\n\n- Ledger API\n- Payouts in 40 countries\n\nSee [docs](https://ledgerly.io/docs).\n"), "x.txt")).toBe("markdown");
    expect(detectFileKind(strToU8("Notes from the call\n- strong team\n"), "call.md")).toBe("markdown");
    expect(detectFileKind(strToU8("Notes from the call\n- strong team\n"), "call.txt")).toBe("text");
    expect(textKind("| a | b |\n|---|---|\n| 1 | 2 |\n\n# Title\n")).toBe("markdown");
  });

  test("the primary upload's set is unchanged; the data room takes every known kind", () => {
    expect(["doc", "docx", "ppt", "pptx"].every((k) => isOffice(k as never))).toBe(true);
    expect(isOffice("xlsx") || isOffice("csv") || isOffice("markdown")).toBe(false);
    expect(["pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "csv", "markdown", "text"].every((k) => isDataRoomKind(k as never))).toBe(true);
    expect(isDataRoomKind("unknown")).toBe(false);
  });
});

describe("Office text without LibreOffice", () => {
  test("DOCX: one page of paragraphs, headings made sentences", () => {
    expect(docxPages(docxFile(["Shareholders Agreement", "This Agreement is made between the parties & their successors."]))).toEqual([
      "Shareholders Agreement.\nThis Agreement is made between the parties & their successors.",
    ]);
  });

  test("PPTX: one page per slide, in slide order (slide10 after slide2)", () => {
    const slides = Array.from({ length: 11 }, (_, i) => [`Slide ${i + 1} title`, `Body of slide ${i + 1}.`]);
    const pages = pptxPages(pptxFile(slides));
    expect(pages).toHaveLength(11);
    expect(pages[1]).toBe("Slide 2 title.\nBody of slide 2.");
    expect(pages[9]).toBe("Slide 10 title.\nBody of slide 10.");
  });

  test("XLSX: one page per sheet, rows as sentences, shared strings and numbers", () => {
    const pages = xlsxPages(xlsxFile({ "P&L": [["Line", "FY2023", "FY2024"], ["Revenue", 1200000, 2900000], ["Burn", 150000, 110000]], Hires: [["Role", "Quarter"], ["CTO", "Q1"]] }));
    expect(pages).toEqual(["Sheet: P&L.\nLine | FY2023 | FY2024.\nRevenue | 1200000 | 2900000.\nBurn | 150000 | 110000.", "Sheet: Hires.\nRole | Quarter.\nCTO | Q1."]);
  });

  test("CSV: rows as sentences, quoted cells kept whole", () => {
    expect(csvPages('customer,arr,note\nAcme,120000,"pilot, then annual"\n\nGlobex,80000,renewed.\n')).toEqual([
      "customer | arr | note.\nAcme | 120000 | pilot, then annual.\nGlobex | 80000 | renewed.",
    ]);
  });

  test("zip bombs and corrupt archives are refused with a clear reason", () => {
    expect(() => xlsxPages(xlsxBomb())).toThrow(/possible zip bomb/);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x/${i}.xml`, strToU8("<a/>")]));
    expect(() => readParts(zipSync(many), () => true, { maxEntries: 10, maxExpandedBytes: 1e9, maxRatio: 1e9 })).toThrow(/ZIP of 30 parts, more than 10/);
    expect(() => readParts(zipSync({ "a.xml": new Uint8Array(2_000_000) }), () => true, { maxEntries: 10, maxExpandedBytes: 1_000_000, maxRatio: 1e9 })).toThrow(/expands to more than 0.95 MB/);
    const truncated = xlsxFile({ S: [["a"]] }).subarray(0, 200);
    expect(() => xlsxPages(truncated)).toThrow(/not a readable ZIP container/);
    expect(() => docxPages(xlsxFile({ S: [["a"]] }))).toThrow(/no word\/document.xml/);
  });
});
