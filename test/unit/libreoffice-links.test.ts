// LibreOffice converting documents that link to a loopback listener: it must never reach it, with
// the full sandbox (no network, data dir hidden) and with the profile settings alone (what a
// machine without unshare gets). Before the locked profile and the namespaces, converting the DOCX
// below sent OPTIONS/GET to the listener, the DOC OPTIONS/HEAD/GET, the PPTX, ODT and XLS a GET each.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conversionOptions, convertToPdf, findLibreOffice } from "../../src/documents/convert.ts";
import { detectFileKind } from "../../src/documents/file-type.ts";
import { docWithLinks, docxExternalImage, linkListener, odtWithLinks, pptxExternalImage, xlsWithLinks } from "../helpers/hostile-office.ts";

const soffice = findLibreOffice();
let listener: ReturnType<typeof linkListener>;
let dataDir = "";
const files: Record<string, { bytes: Uint8Array; ext: string }> = {};

beforeAll(async () => {
  if (!soffice) return;
  listener = linkListener();
  dataDir = mkdtempSync(join(tmpdir(), "dealgraph-lo-links-"));
  const secret = join(dataDir, "secret.txt");
  writeFileSync(secret, "SECRET-IN-THE-DATA-DIR");
  files.docx = { bytes: docxExternalImage(listener.base), ext: "docx" };
  files.pptx = { bytes: pptxExternalImage(listener.base), ext: "pptx" };
  files.odt = { bytes: odtWithLinks(listener.base, { localFile: secret }), ext: "odt" };
  files["odt as docx"] = { bytes: odtWithLinks(listener.base, { asDocx: true, localFile: secret }), ext: "docx" };
  files.xls = { bytes: await xlsWithLinks(listener.base), ext: "xls" };
  files.doc = { bytes: await docWithLinks(listener.base), ext: "doc" };
  listener.hits.length = 0; // writing the XLS ran with no network; nothing should be here anyway
}, 120_000);

afterAll(() => {
  listener?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const text = async (pdf: Uint8Array) => {
  const { extractText, getDocumentProxy } = await import("unpdf");
  return (await extractText(await getDocumentProxy(pdf, { verbosity: 0 } as never), { mergePages: true })).text as string;
};

describe.if(soffice !== null)("LibreOffice loads nothing a document links", () => {
  test("the disguised ODT passes for a DOCX by its content (so it reaches LibreOffice on the deck path)", () => {
    expect(detectFileKind(files["odt as docx"].bytes, "memo.docx")).toBe("docx");
    expect(detectFileKind(files.xls.bytes, "model.xls")).toBe("xls");
  });

  // The profile alone for every kind; with the sandbox the ODT itself (the others go through the
  // real server, sandboxed, in test/e2e/hostile-uploads.test.ts).
  const runs: [string, "sandbox" | "profile-only"][] = [
    ...["docx", "doc", "pptx", "odt", "odt as docx", "xls"].map((name) => [name, "profile-only"] as [string, "profile-only"]),
    ["odt", "sandbox"],
  ];
  for (const [name, isolation] of runs) {
    test(`${name} (${isolation}): converted, and the listener saw nothing`, async () => {
      const { bytes, ext } = files[name];
      const input = join(dataDir, `input-${name.replace(/ /g, "-")}.${ext}`);
      writeFileSync(input, bytes);
      const pdf = await convertToPdf(input, ext, { ...conversionOptions(dataDir, 60_000), isolation });
      const words = await text(pdf);
      expect(words.length).toBeGreaterThan(0);
      // A linked section keeps its stored text: the local file it names is not read in.
      expect(words).not.toContain("SECRET-IN-THE-DATA-DIR");
      expect(listener.hits).toEqual([]);
    }, 60_000);
  }
});
