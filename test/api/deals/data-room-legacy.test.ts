// A legacy DOC (OLE2) in the data room goes through LibreOffice: made here by LibreOffice itself
// from plain text, uploaded, converted and read in the run.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findLibreOffice } from "../../../src/documents/convert.ts";
import { detectFileKind } from "../../../src/documents/file-type.ts";
import { dataRoomForm } from "../../helpers/decks.ts";
import { analysedDeal, get, post, runAll, setup, type Ctx } from "./data-room-helpers.ts";

let c: Ctx;
const dirs: string[] = [];
afterEach(() => {
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function legacyDoc(text: string): Promise<Uint8Array> {
  const work = mkdtempSync(join(tmpdir(), "dealgraph-doc-"));
  dirs.push(work);
  writeFileSync(join(work, "sha.txt"), text);
  const proc = Bun.spawn([findLibreOffice()!, `-env:UserInstallation=file://${work}/profile`, "--headless", "--convert-to", "doc:MS Word 97", "--outdir", work, join(work, "sha.txt")], {
    stdout: "ignore",
    stderr: "ignore",
    env: { ...process.env, HOME: work },
  });
  await proc.exited;
  return new Uint8Array(await Bun.file(join(work, "sha.doc")).arrayBuffer());
}

test.skipIf(!findLibreOffice())(
  "a DOC file is converted by LibreOffice in the run, extracted and classified by its content",
  async () => {
    c = setup();
    const id = await analysedDeal(c);
    const doc = await legacyDoc(
      "Shareholders Agreement.\nThis Agreement is made between the parties listed below. Whereas the Company wishes to raise capital, the parties hereby agree as follows. Governing law: Germany. Each party shall keep the terms confidential.\n",
    );
    expect(detectFileKind(doc, "scan.bin")).toBe("doc");
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[doc, "scan0001.doc"]]))).status).toBe(202);
    await runAll(c.t);
    expect(await get(c, `/api/v1/deals/${id}/analysis`)).toMatchObject({ status: "succeeded", error: null });
    const row = (await get(c, `/api/v1/deals/${id}/documents`)).documents.find((d: any) => d.filename === "scan0001.doc");
    expect(row).toMatchObject({ kind: "data_room", content_type: "application/msword", status: "extracted", category: "legal", page_count: 1 });
  },
  120_000,
);
