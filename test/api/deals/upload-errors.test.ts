// Every bad upload gets a clear answer and changes nothing: no deal, no run, no charge, no blob in
// the store and no temp file left behind.
import { describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { startRunner } from "../../../src/modules/actions/runner.ts";
import { runHandlers } from "../../../jobs/index.ts";
import { docxLyingDirectory } from "../../../scripts/lib/hostile-files.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { docxFile, pdfDeck, uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { storedFiles } from "./data-room-helpers.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp({ file: true }));
}

async function upload(body: string | FormData, key: string | null = f.keys.write.secret, headers: Record<string, string> = {}) {
  const h = new Headers(headers);
  if (key) h.set("authorization", `Bearer ${key}`);
  const res = await t.app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body, headers: h }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

const nothingChanged = () => {
  const q = (sql: string) => (t.deps.db.$client.query(sql).get() as { n: number }).n;
  expect(q("SELECT COUNT(*) AS n FROM deals")).toBe(0);
  expect(q("SELECT COUNT(*) AS n FROM action_runs")).toBe(0);
  expect(q("SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage")).toBe(0);
  expect(storedFiles({ t, f })).toEqual({ tmp: [], blobs: [] });
};

describe("bad uploads", () => {
  test("a file over 50 MB: 413, refused while streaming", async () => {
    setup();
    const big = new Uint8Array(50 * 1024 * 1024 + 10);
    big.set(new TextEncoder().encode("%PDF-1.7\n"));
    const res = await upload(uploadForm(big, "huge.pdf"));
    expect(res.status).toBe(413);
    expect(res.json.detail).toMatch(/larger than 50 MB/);
    nothingChanged();
  });

  test("a declared Content-Length far over the cap: 413 before reading", async () => {
    setup();
    const res = await upload("x", f.keys.write.secret, { "content-type": "multipart/form-data; boundary=x", "content-length": String(200 * 1024 * 1024) });
    expect(res.status).toBe(413);
    nothingChanged();
  });

  test("a file that is not a PDF or Office document, whatever its name: 415", async () => {
    setup();
    for (const [bytes, name] of [["just some text pretending", "deck.pdf"], [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), "deck.pptx"], [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), "deck.docx"]] as const) {
      const res = await upload(uploadForm(bytes as any, name));
      expect(res.status, name).toBe(415);
      expect(res.json.detail).toMatch(/not a PDF, PPT\/PPTX or DOC\/DOCX/);
    }
    nothingChanged();
  });

  test("a text that mentions %PDF- near its start is a text, not a PDF: 415, nothing charged", async () => {
    setup();
    for (const text of ["Deck notes: the file starts with %PDF-1.7 but this is prose.\n", " \t x %PDF-1.4\n%%EOF\n"]) {
      const res = await upload(uploadForm(text, "deck.pdf"));
      expect(res.status).toBe(415);
      expect(res.json.detail).toBe("deck.pdf is not a PDF, PPT/PPTX or DOC/DOCX file (judged by its content, not its name).");
    }
    nothingChanged();
  });

  test("a DOCX that is a zip bomb: 422 naming the file, refused before LibreOffice and before any charge", async () => {
    setup();
    const bomb = zipSync({ "[Content_Types].xml": strToU8("<Types/>"), "word/document.xml": new Uint8Array(16 * 1024 * 1024) }, { level: 9 });
    const res = await upload(uploadForm(bomb, "memo.docx", { company_name: "Bombly" }));
    expect(res.status).toBe(422);
    expect(res.json.detail[0]).toMatchObject({ loc: ["body", "file"], type: "value_error" });
    expect(res.json.detail[0].msg).toMatch(/^memo\.docx: The file expands to more than 200 times its size; refused as a possible zip bomb$/);
    // The same caps for a ZIP of too many parts.
    const parts = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`word/media/p${i}.xml`, strToU8("<a/>")]));
    const crowded = await upload(uploadForm(zipSync({ ...parts, "word/document.xml": strToU8("<w:document/>") }), "crowded.docx"));
    expect(crowded.status).toBe(422);
    expect(crowded.json.detail[0].msg).toBe("crowded.docx: The file is a ZIP of 5002 parts, more than 5000; refused as a possible zip bomb");
    nothingChanged();
  });

  test("a DOCX whose ZIP directory understates its parts: the door inflates every part against its declared size and refuses it (422)", async () => {
    setup();
    // 64 MB in a part whose directory entry (and local header) say 1,000 bytes.
    const res = await upload(uploadForm(await docxLyingDirectory(64), "memo.docx", { company_name: "Liar" }));
    expect(res.status).toBe(422);
    expect(res.json.detail[0]).toMatchObject({
      loc: ["body", "file"],
      type: "value_error",
      msg: "memo.docx: The file's part word/document.xml expands beyond the 1000 bytes its directory declares; refused as a possible zip bomb",
    });
    nothingChanged();
  });

  test("a PPT or DOC without LibreOffice on the server: 503 with Retry-After, nothing charged or stored", async () => {
    setup();
    const ole2 = (stream: string) => new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0), ...Buffer.from(stream, "utf16le")]);
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      for (const [bytes, name] of [[ole2("PowerPoint Document"), "deck.ppt"], [ole2("WordDocument"), "memo.doc"], [docxFile(["A memo."]), "memo.docx"]] as const) {
        const res = await upload(uploadForm(bytes, name));
        expect(res.status, name).toBe(503);
        expect(res.headers.get("retry-after")).toBe("3600");
        expect(res.json.detail).toMatch(/need LibreOffice, which is not installed/);
      }
    } finally {
      process.env.PATH = path;
    }
    nothingChanged();
  });

  test("no file, a bad kind, not multipart: 422 naming the field", async () => {
    setup();
    const noFile = new FormData();
    noFile.append("company_name", "X");
    expect((await upload(noFile)).json.detail[0]).toMatchObject({ loc: ["body", "file"], type: "missing" });
    expect((await upload(uploadForm(await pdfDeck(), "a.pdf", { kind: "startup" }))).json.detail[0]).toMatchObject({ loc: ["body", "kind"], type: "enum" });
    const json = await upload(JSON.stringify({ file: "x" }), f.keys.write.secret, { "content-type": "application/json" });
    expect(json.status).toBe(422);
    expect(json.json.detail[0].loc).toEqual(["body"]);
    nothingChanged();
  });

  test("a read key: 403; no key: 401; both before the body is read", async () => {
    setup();
    expect((await upload(uploadForm(await pdfDeck(), "a.pdf"), f.keys.read.secret)).status).toBe(403);
    expect((await upload(uploadForm(await pdfDeck(), "a.pdf"), null)).status).toBe(401);
    nothingChanged();
  });

  test("the actions budget spent: 429 with X-Actions-*, and no deal is created", async () => {
    setup();
    t.deps.db.$client.query("UPDATE api_keys SET daily_actions = 0 WHERE id = ?").run(f.keys.write.id);
    const res = await upload(uploadForm(await pdfDeck(), "a.pdf"));
    expect(res.status).toBe(429);
    expect(res.headers.get("x-actions-limit")).toBe("0");
    expect(res.headers.get("x-actions-remaining")).toBe("0");
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    nothingChanged();
  });

  test("a second submission for the same company while the first is live: 409, no second run, no charge", async () => {
    setup();
    const first = await upload(uploadForm(await pdfDeck(), "a.pdf", { company_name: "Ledgerly" }));
    expect(first.status).toBe(202);
    const second = await upload(uploadForm(await pdfDeck(), "b.pdf", { company_name: "  LEDGERLY " }));
    expect(second.status).toBe(409);
    expect(second.json.detail).toContain(first.json.deal_id);
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM action_runs").get()).toEqual({ n: 1 });
    expect(t.deps.db.$client.query("SELECT SUM(actions) AS n FROM key_usage").get()).toEqual({ n: 1 });
    // The refused file is neither kept as a temp file nor stored: the store holds the first deck only.
    expect(storedFiles({ t, f })).toEqual({ tmp: [], blobs: [expect.any(String)] });
    // Once the first has finished, a new submission is welcome.
    const runner = startRunner(t.deps, runHandlers(t.deps), { pollMs: 60_000 });
    await runner.idle();
    await runner.stop();
    expect((await upload(uploadForm(await pdfDeck(), "c.pdf", { company_name: "Ledgerly" }))).status).toBe(202);
  });

  test("a corrupt PDF is accepted by type, then its run fails with an error naming the file", async () => {
    setup();
    const res = await upload(uploadForm("%PDF-1.4\nthis is not really a pdf", "broken.pdf"));
    expect(res.status).toBe(202);
    const runner = startRunner(t.deps, runHandlers(t.deps), { pollMs: 60_000 });
    await runner.idle();
    await runner.stop();
    const status = await t.request("GET", `/api/v1/deals/${res.json.deal_id}/analysis`, { key: f.keys.read.secret });
    expect(status.json).toMatchObject({ status: "failed", progress: null });
    expect(status.json.error).toBe("broken.pdf: The PDF could not be read (Invalid PDF structure.)");
    const docs = await t.request("GET", `/api/v1/deals/${res.json.deal_id}/documents`, { key: f.keys.read.secret });
    expect(docs.json.documents[0].status).toBe("failed");
    const outbox = t.deps.db.$client.query("SELECT event FROM outbox_events").all();
    expect(outbox).toEqual([{ event: "deal.analysis.failed" }]);
  });
});
