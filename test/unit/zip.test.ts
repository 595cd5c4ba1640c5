// The one ZIP check (src/documents/zip.ts) against archives that lie: every refusal names its
// reason, and a lying part is stopped as soon as it passes its declared size (the 2 GB one below
// is never inflated whole: its refusal is quick and small).
import { describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { detectFileKind } from "../../src/documents/file-type.ts";
import { checkZip, readZip, zipDirectory, ZipError, zipPartNames } from "../../src/documents/zip.ts";
import { deflated, docxBillionLaughs, docxLyingDirectory, docxOverlappingEntries, pptxManySlides, rawZip, xlsxLyingDirectory } from "../../scripts/lib/hostile-files.ts";
import { docxFile, pptxFile, xlsxBomb, xlsxFile } from "../helpers/decks.ts";

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(ZipError);
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("honest archives pass and read back", () => {
  test("DOCX, PPTX and XLSX as the helpers write them; stored and deflated parts", () => {
    for (const file of [docxFile(["A deck."]), pptxFile([["One"], ["Two"]]), xlsxFile({ S: [["a", 1]] })]) expect(() => checkZip(file)).not.toThrow();
    const parts = readZip(zipSync({ "a.txt": [strToU8("stored"), { level: 0 }], "b.txt": strToU8("deflated ".repeat(100)) }), (n) => n === "b.txt");
    expect([...parts.keys()]).toEqual(["b.txt"]);
    expect(new TextDecoder().decode(parts.get("b.txt"))).toBe("deflated ".repeat(100));
  });
});

describe("lying archives are refused with their reason", () => {
  const cases: [string, () => Uint8Array | Promise<Uint8Array>, RegExp][] = [
    ["a directory that understates a part (2 GB declared as 1,000 bytes)", () => docxLyingDirectory(2048), /part word\/document\.xml expands beyond the 1000 bytes its directory declares; refused as a possible zip bomb/],
    ["the same in an XLSX sheet", () => xlsxLyingDirectory(64), /part xl\/worksheets\/sheet1\.xml expands beyond the 1000 bytes/],
    ["many directory entries over one compressed stream", () => docxOverlappingEntries(8, 200), /disagree on its name/],
    ["an honest directory declaring too much for the file's size", () => xlsxBomb(), /expands to more than 200 times its size; refused as a possible zip bomb/],
    ["more parts than the cap", () => pptxManySlides(5001), /ZIP of 5003 parts, more than 5000/],
    ["a part listed twice", () => rawZip([deflated("a.xml", "<a/>"), deflated("a.xml", "<b/>")]), /the part a\.xml is listed twice/],
    ["a stored part whose sizes disagree", () => rawZip([{ name: "a.xml", data: strToU8("12345"), method: 0, declaredSize: 3 }]), /stored part a\.xml declares 3 bytes but holds 5/],
    ["a part that inflates to less than declared", () => rawZip([{ ...deflated("a.xml", "<a/>"), declaredSize: 10 }]), /expands to 4 bytes, not the 10 its directory declares/],
    ["an unknown compression method", () => rawZip([{ ...deflated("a.xml", "<a/>"), method: 12 as 8 }]), /compression method 12/],
    ["a directory pointing past the parts", () => rawZip([deflated("a.xml", "<a/>")], ([l]) => [{ name: "a.xml", offset: l.offset + 1000, entry: l.entry }]), /points part a\.xml at no part/],
    ["a cut-off file", () => docxFile(["A deck."]).subarray(0, 100), /no end-of-directory record/],
    ["not a ZIP at all", () => strToU8("PK\u0003\u0004 just text"), /not a readable ZIP container/],
  ];
  test.each(cases)("%s", async (_name, file, why) => {
    const bytes = await file();
    expect(refusal(() => checkZip(bytes))).toMatch(why);
  });

  test("overlapping parts under different local headers: refused", () => {
    const a = deflated("a.xml", "<a/>".repeat(50));
    const b = deflated("b.xml", "<b/>");
    // The directory claims a's data runs over b's local header.
    const zip = rawZip([a, b], ([la, lb]) => [
      { name: "a.xml", offset: la.offset, entry: { ...la.entry, data: new Uint8Array(la.entry.data.byteLength + 40) } },
      { name: "b.xml", offset: lb.offset, entry: lb.entry },
    ]);
    expect(refusal(() => zipDirectory(zip))).toMatch(/parts a\.xml and b\.xml overlap/);
  });

  test("the directory check alone expands nothing; the names it reads tell the Office kinds apart", async () => {
    const liar = await docxLyingDirectory(2048);
    expect(() => zipDirectory(liar)).not.toThrow();
    expect(zipPartNames(docxFile(["x"]))).toContain("word/document.xml");
    // A part whose content mentions another kind's main part does not make it that kind.
    const decoy = zipSync({ "notes.txt": [strToU8("see ppt/presentation.xml and word/document.xml"), { level: 0 }] });
    expect(detectFileKind(decoy)).toBe("unknown");
    expect(detectFileKind(pptxFile([["x"]]))).toBe("pptx");
    // A directory too damaged to read still tells the kind by its bytes, so the check can say why.
    const cut = docxFile(["x"]);
    expect(detectFileKind(cut.subarray(0, cut.byteLength - 30))).toBe("docx");
  });

  test("entities are not the ZIP check's business: the billion laughs pass it (the XML reader never expands them)", () => {
    expect(() => checkZip(docxBillionLaughs())).not.toThrow();
  });
});
