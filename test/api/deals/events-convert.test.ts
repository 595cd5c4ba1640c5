// A deal's event stream read over real HTTP while the real runner analyses it; and a DOCX upload
// converted by real LibreOffice.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findLibreOffice } from "../../../src/documents/convert.ts";
import { seededApp, serveApp, testRunner, type TestApp } from "../../helpers/app.ts";
import { LEDGERLY_DECK, pdfDeck, uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { framesOf } from "../../helpers/sse.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp({ file: true }));
  return serveApp(t);
}

describe("GET /api/v1/deals/{deal_id}/analysis/events", () => {
  test("streams the run from queued through its stages to done, then closes", async () => {
    const base = setup();
    const auth = { authorization: `Bearer ${f.keys.write.secret}` };
    const up = await fetch(`${base}/api/v1/deals/analyze/upload`, { method: "POST", body: uploadForm(await pdfDeck(), "deck.pdf"), headers: auth });
    const { deal_id } = (await up.json()) as any;
    const stream = await fetch(`${base}/api/v1/deals/${deal_id}/analysis/events`, { headers: { "x-api-key": f.keys.read.secret } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    testRunner(t);
    const got = framesOf(await stream.text()); // the stream closes after `done`
    expect(got[0]).toMatchObject({ event: "progress", data: { deal_id, status: "queued" } });
    const stages = got.filter((g) => g.data.status === "running").map((g) => g.data.progress.stage);
    expect(stages).toEqual(expect.arrayContaining(["fetch", "extract", "classify", "score", "summarize"]));
    expect(got.at(-2)).toMatchObject({ event: "progress", data: { status: "succeeded" } });
    expect(got.at(-1)).toEqual({ event: "done", data: { status: "succeeded", result_url: `/api/v1/deals/${deal_id}` } });
  });
});

describe("Office uploads", () => {
  test.if(findLibreOffice() !== null || process.env.CI === "true")("a DOCX is converted to PDF by LibreOffice and analysed like any deck", async () => {
    setup();
    const work = mkdtempSync(join(tmpdir(), "dealgraph-docx-"));
    try {
      writeFileSync(join(work, "deck.txt"), LEDGERLY_DECK.join("\n\n"));
      const make = Bun.spawnSync([findLibreOffice()!, `-env:UserInstallation=file://${join(work, "profile")}`, "--headless", "--convert-to", "docx", "--outdir", work, join(work, "deck.txt")]);
      expect(make.exitCode).toBe(0);
      const docx = new Uint8Array(await Bun.file(join(work, "deck.docx")).arrayBuffer());
      const res = await t.app.handle(
        new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: uploadForm(docx, "Ledgerly memo.docx", { company_name: "Ledgerly" }), headers: { authorization: `Bearer ${f.keys.write.secret}` } }),
      );
      expect(res.status).toBe(202);
      const { deal_id } = (await res.json()) as any;
      await testRunner(t).idle();
      const deal = await t.request("GET", `/api/v1/deals/${deal_id}?view=full`, { key: f.keys.read.secret });
      expect(deal.json.analysis_status).toBe("succeeded");
      expect(deal.json.round).toMatchObject({ amount: 4_000_000, currency: "USD" });
      const docs = await t.request("GET", `/api/v1/deals/${deal_id}/documents`, { key: f.keys.read.secret });
      expect(docs.json.documents[0]).toMatchObject({ content_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", status: "extracted" });
      expect(docs.json.documents[0].page_count).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
