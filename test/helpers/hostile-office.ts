// Office files that ask LibreOffice to fetch what they link, each pointing at `base` (a loopback
// listener in the tests, which must see nothing): an external image relationship (DOCX, PPTX), an
// ODT with a linked image and a linked section (also disguised as a DOCX: its manifest lists a
// word/document.xml, so it passes for one by content and LibreOffice still opens it as ODT), and an
// XLS with a WEBSERVICE formula, an external reference, a DDE link and a linked image. The XLS is
// written by LibreOffice itself from a flat ODS, with no network and the same locked profile.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { findLibreOffice, writeProfile } from "../../src/documents/convert.ts";
import { sandboxSupport, withoutNetwork } from "../../src/lib/sandbox.ts";

const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const rels = (items: string) => strToU8(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`);
const types = (overrides: string) =>
  strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
  );
const blip = (rid: string) =>
  `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="P"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic>`;

/** A DOCX whose picture is an external image relationship (`TargetMode="External"`), and an INCLUDEPICTURE field. */
export function docxExternalImage(base: string): Uint8Array {
  const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"`;
  const picture = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="P"/>${blip("rId5")}</wp:inline></w:drawing></w:r></w:p>`;
  const field = `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDEPICTURE "${base}/docx-includepicture.png" \\d </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>picture</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
  return zipSync({
    "[Content_Types].xml": types(`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>`),
    "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/>`),
    "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body><w:p><w:r><w:t>A memo with a linked picture.</w:t></w:r></w:p>${picture}${field}</w:body></w:document>`),
    "word/_rels/document.xml.rels": rels(`<Relationship Id="rId5" Type="${R}/image" Target="${base}/docx-image.png" TargetMode="External"/>`),
  });
}

/** A PPTX whose slide shows an external image relationship. */
export function pptxExternalImage(base: string): Uint8Array {
  const ns = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${R}"`;
  const slide = `<?xml version="1.0"?><p:sld ${ns}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="5000000" cy="1000000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>A slide with a linked picture.</a:t></a:r></a:p></p:txBody></p:sp><p:pic><p:nvPicPr><p:cNvPr id="3" name="Pic"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:link="rId9"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="0" y="2000000"/><a:ext cx="1000000" cy="1000000"/></a:xfrm><a:prstGeom prst="rect"/></p:spPr></p:pic></p:spTree></p:cSld></p:sld>`;
  return zipSync({
    "[Content_Types].xml": types(
      `<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/><Override PartName="/ppt/slides/slide1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`,
    ),
    "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="ppt/presentation.xml"/>`),
    "ppt/presentation.xml": strToU8(`<?xml version="1.0"?><p:presentation ${ns}><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`),
    "ppt/_rels/presentation.xml.rels": rels(`<Relationship Id="rId2" Type="${R}/slide" Target="slides/slide1.xml"/>`),
    "ppt/slides/slide1.xml": strToU8(slide),
    "ppt/slides/_rels/slide1.xml.rels": rels(`<Relationship Id="rId9" Type="${R}/image" Target="${base}/pptx-image.png" TargetMode="External"/>`),
  });
}

/**
 * An ODT with a linked image, a section linked to a URL and one linked to a local file. With
 * `asDocx`, its manifest also lists a word/document.xml part, so it is a DOCX by its content.
 */
export function odtWithLinks(base: string, opts: { asDocx?: boolean; localFile?: string } = {}): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2"><office:body><office:text><text:p>A text document with links.</text:p><text:p><draw:frame draw:name="i" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${base}/odt-image.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p><text:section text:name="S1"><text:section-source xlink:href="${base}/odt-section.odt" xlink:type="simple"/><text:p>cached web section</text:p></text:section><text:section text:name="S2"><text:section-source xlink:href="file://${opts.localFile ?? "/etc/hostname"}" xlink:type="simple" text:filter-name="Text"/><text:p>cached file section</text:p></text:section></office:text></office:body></office:document-content>`;
  const entries = [`<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>`, `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>`];
  const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = { mimetype: [strToU8("application/vnd.oasis.opendocument.text"), { level: 0 }], "content.xml": strToU8(content) };
  if (opts.asDocx) {
    entries.push(`<manifest:file-entry manifest:full-path="word/document.xml" manifest:media-type="text/xml"/>`);
    files["word/document.xml"] = strToU8("<w:document/>");
  }
  files["META-INF/manifest.xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">${entries.join("")}</manifest:manifest>`,
  );
  return zipSync(files);
}

/** The flat ODS the XLS is written from: WEBSERVICE, an external reference, DDE, a linked image. */
function linkedSheetFods(base: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet"><office:body><office:spreadsheet><table:table table:name="Revenue"><table:table-row><table:table-cell office:value-type="string"><text:p>Revenue model</text:p></table:table-cell><table:table-cell table:formula="of:=WEBSERVICE(&quot;${base}/xls-webservice&quot;)" office:value-type="string"><text:p>cached</text:p></table:table-cell><table:table-cell table:formula="of:=['${base}/xls-external.xls'#$Sheet1.A1]" office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell table:formula="of:=DDE(&quot;soffice&quot;;&quot;${base}/xls-dde.ods&quot;;&quot;A1&quot;)" office:value-type="string"><text:p>dde</text:p></table:table-cell><table:table-cell><draw:frame svg:width="2cm" svg:height="2cm" svg:x="0cm" svg:y="0cm"><draw:image xlink:href="${base}/xls-image.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document>`;
}

/** A file converted by LibreOffice into a legacy format, with no network and the locked profile. */
async function legacyCopy(input: string | Uint8Array, inputName: string, format: "xls" | "doc"): Promise<Uint8Array> {
  const soffice = findLibreOffice();
  if (!soffice) throw new Error(`LibreOffice is needed to write a ${format.toUpperCase()}`);
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-legacy-"));
  try {
    await Bun.write(join(dir, inputName), input);
    writeProfile(join(dir, "profile"));
    const cmd = [soffice, `-env:UserInstallation=file://${join(dir, "profile")}`, "--headless", "--norestore", "--convert-to", format, "--outdir", join(dir, "out"), join(dir, inputName)];
    const proc = Bun.spawn(withoutNetwork(cmd, await sandboxSupport()), { cwd: dir, env: { ...process.env, HOME: dir }, stdout: "ignore", stderr: "ignore" });
    await proc.exited;
    const out = readdirSync(join(dir, "out")).find((f) => f.endsWith(`.${format}`));
    if (!out) throw new Error(`LibreOffice wrote no ${format.toUpperCase()}`);
    return new Uint8Array(await Bun.file(join(dir, "out", out)).arrayBuffer());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The XLS (BIFF8), written by LibreOffice from the flat ODS. */
export const xlsWithLinks = (base: string) => legacyCopy(linkedSheetFods(base), "linked.fods", "xls");

/** The DOCX with the external image, saved by LibreOffice as a legacy Word 97 DOC (the link kept). */
export const docWithLinks = (base: string) => legacyCopy(docxExternalImage(base), "linked.docx", "doc");

/** A loopback HTTP listener that records every request (it must record none). */
export function linkListener() {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      hits.push(`${req.method} ${new URL(req.url).pathname}`);
      return new Response("GIF89a", { headers: { "content-type": "image/gif" } });
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, hits, stop: () => server.stop(true) };
}
