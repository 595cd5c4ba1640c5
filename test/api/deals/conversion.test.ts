// Office decks through POST /analyze/upload and the real runner. LibreOffice misbehaving is played
// by small shell scripts named `soffice` put first on the PATH (real processes: one that hangs with
// a helper of its own, one that exits 0 and writes nothing); the happy paths use the real
// LibreOffice, on a PPTX and on a legacy PPT it made from that PPTX. Conversions run one at a time.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deckPptx, type DeckSpec } from "../../../src/demo/decks.ts";
import { runHandlers } from "../../../jobs/index.ts";
import { dealAnalysisHandler } from "../../../src/modules/deals/deals.handlers.ts";
import { DEAL_ANALYSIS } from "../../../src/modules/deals/deals.service.ts";
import { conversionRoot, findLibreOffice } from "../../../src/documents/convert.ts";
import { describeSandbox, sandboxSupport } from "../../../src/lib/sandbox.ts";
import { detectFileKind } from "../../../src/documents/file-type.ts";
import { runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { docxFile, LEDGERLY_DECK, uploadForm } from "../../helpers/decks.ts";
import { FILES } from "../../helpers/document-hosts-files.ts";
import { startDocumentHosts } from "../../helpers/document-hosts.ts";
import { alive } from "../../helpers/processes.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
const dirs: string[] = [];
const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
  delete process.env.FAKE_SOFFICE_PIDS;
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function setup() {
  ({ t, f } = seededApp({ file: true }));
}

function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A folder holding an executable `soffice` with the given script, put first on the PATH. */
function fakeSoffice(script: string) {
  const bin = tempDir("dealgraph-fake-soffice-");
  writeFileSync(join(bin, "soffice"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, "soffice"), 0o755);
  process.env.PATH = `${bin}:${PATH}`;
  expect(findLibreOffice()).toBe(join(bin, "soffice"));
}

async function upload(bytes: Uint8Array, filename: string, fields: Record<string, string> = { company_name: "Ledgerly" }) {
  const res = await t.app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: uploadForm(bytes, filename, fields), headers: { authorization: `Bearer ${f.keys.write.secret}` } }));
  return { status: res.status, json: (await res.json()) as any };
}

/** Runs what is queued with the real runner; the deal handler's conversion limit as given. */
async function runDeals(conversionTimeoutMs?: number) {
  const handlers = runHandlers(t.deps);
  if (conversionTimeoutMs) handlers.set(DEAL_ANALYSIS.kind, dealAnalysisHandler(t.deps, { conversionTimeoutMs }));
  await runAll(t, handlers);
}

const get = async (path: string) => (await t.request("GET", path, { key: f.keys.read.secret })).json;

/** The conversion folder of the test's data dir holds nothing (every work dir removed). */
const conversionsLeft = () => {
  const root = conversionRoot(t.deps.config.dataDir);
  return existsSync(root) ? readdirSync(root) : [];
};

describe("LibreOffice misbehaving", () => {
  test("a conversion past its wall-clock ceiling (5 times its CPU budget): soffice and its helper killed as a group, the run failed saying so, nothing left behind", async () => {
    setup();
    const pids = join(tempDir("dealgraph-pids-"), "pids");
    process.env.FAKE_SOFFICE_PIDS = pids;
    // Ignores polite signals and forks a helper, as a stuck soffice.bin would.
    fakeSoffice(`trap '' TERM INT HUP\nsleep 600 &\necho "$$ $!" > "$FAKE_SOFFICE_PIDS"\nwait`);
    const res = await upload(docxFile(["Ledgerly memo."]), "memo.docx");
    expect(res.status).toBe(202);
    await runDeals(1000);
    const status = await get(`/api/v1/deals/${res.json.deal_id}/analysis`);
    expect(status).toMatchObject({ status: "failed", progress: null });
    expect(status.error).toBe("memo.docx: The conversion to PDF did not finish within 5 s although it used little processor time (LibreOffice hung, or the server is overloaded), so it was stopped (LibreOffice and its helper processes were killed)");
    const [shell, helper] = readFileSync(pids, "utf8").trim().split(" ").map(Number);
    for (let i = 0; i < 100 && (alive(shell) || alive(helper)); i++) await Bun.sleep(20);
    expect([alive(shell), alive(helper)]).toEqual([false, false]);
    expect(conversionsLeft()).toEqual([]);
    expect((await get(`/api/v1/deals/${res.json.deal_id}/documents`)).documents[0].status).toBe("failed");
  }, 30_000);

  test("a DOCX behind a document link is held to the handler's time limit too", async () => {
    setup();
    const world = await startDocumentHosts(t.deps, ["files"]);
    try {
      fakeSoffice(`trap '' TERM INT HUP\nsleep 600 &\nwait`);
      const res = await t.request("POST", "/api/v1/deals/analyze", { key: f.keys.write.secret, body: { document_url: FILES.docx, company_name: "Ledgerly" } });
      expect(res.status).toBe(202);
      await runDeals(1000);
      expect((await get(`/api/v1/deals/${res.json.deal_id}/analysis`)).error).toBe(
        "Ledgerly memo.docx: The conversion to PDF did not finish within 5 s although it used little processor time (LibreOffice hung, or the server is overloaded), so it was stopped (LibreOffice and its helper processes were killed)",
      );
      expect(conversionsLeft()).toEqual([]);
    } finally {
      world.stop();
    }
  }, 30_000);

  test("/readyz looks LibreOffice up on each probe: installed after the server started, it is reported", async () => {
    setup();
    process.env.PATH = "/nonexistent";
    expect((await t.request("GET", "/readyz")).json.checks.libreoffice).toEqual({ status: "unavailable", detail: "not installed: PPT/DOC uploads cannot be converted" });
    fakeSoffice("exit 0");
    expect(findLibreOffice()).toBeString();
    // Anonymous: installed, no path (the path is for a server operator's key: hostile-readyz.test.ts).
    expect((await t.request("GET", "/readyz")).json.checks.libreoffice).toEqual({ status: "ok", detail: `installed (${describeSandbox(await sandboxSupport())})` });
  });

  test("soffice exits 0 but writes no PDF: the run fails with that error", async () => {
    setup();
    fakeSoffice("exit 0");
    const res = await upload(docxFile(["Ledgerly memo."]), "memo.docx");
    expect(res.status).toBe(202);
    await runDeals();
    const status = await get(`/api/v1/deals/${res.json.deal_id}/analysis`);
    expect(status.status).toBe("failed");
    expect(status.error).toBe(
      "memo.docx: LibreOffice exited without an error but wrote no PDF (the file may be damaged, password-protected or not really an Office document)",
    );
    expect(conversionsLeft()).toEqual([]);
  }, 30_000);

  test("soffice fails: the run's error carries its exit code and last line of output", async () => {
    setup();
    fakeSoffice('echo "Error: source file could not be loaded" >&2\nexit 81');
    const res = await upload(docxFile(["Ledgerly memo."]), "memo.docx");
    await runDeals();
    expect((await get(`/api/v1/deals/${res.json.deal_id}/analysis`)).error).toBe("memo.docx: LibreOffice could not convert the file to PDF (exit 81: Error: source file could not be loaded)");
  }, 30_000);
});

/** The Ledgerly deck as slides: the first sentence the title, the rest the body. */
const LEDGERLY_SLIDES: DeckSpec = {
  slug: "ledgerly",
  name: "Ledgerly",
  domain: "ledgerly.io",
  kind: "company",
  richness: "rich",
  format: "pptx",
  pipeline: "new",
  daysAgo: 1,
  slides: LEDGERLY_DECK.map((text) => {
    const [title, ...rest] = text.split(". ");
    return { title, lines: [rest.join(". ")] };
  }),
};

/** A legacy PowerPoint 97 file, made by LibreOffice from the PPTX. */
async function legacyPpt(pptx: Uint8Array): Promise<Uint8Array> {
  const work = tempDir("dealgraph-ppt-");
  writeFileSync(join(work, "deck.pptx"), pptx);
  const proc = Bun.spawn([findLibreOffice()!, `-env:UserInstallation=file://${work}/profile`, "--headless", "--convert-to", "ppt", "--outdir", work, join(work, "deck.pptx")], {
    stdout: "ignore",
    stderr: "ignore",
    env: { ...process.env, HOME: work },
  });
  expect(await proc.exited).toBe(0);
  return new Uint8Array(await Bun.file(join(work, "deck.ppt")).arrayBuffer());
}

describe("real LibreOffice", () => {
  test.skipIf(!findLibreOffice())(
    "a PPTX and a legacy PPT are converted to PDF, a page per slide, and analysed like any deck",
    async () => {
      setup();
      const pptx = deckPptx(LEDGERLY_SLIDES);
      const ppt = await legacyPpt(pptx);
      expect([detectFileKind(pptx), detectFileKind(ppt)]).toEqual(["pptx", "ppt"]);
      for (const [bytes, name, contentType] of [
        [pptx, "Ledgerly deck.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
        [ppt, "Ledgerly deck.ppt", "application/vnd.ms-powerpoint"],
      ] as const) {
        const res = await upload(bytes, name);
        expect(res.status, name).toBe(202);
        await runDeals();
        const deal = await get(`/api/v1/deals/${res.json.deal_id}?view=full`);
        expect(deal.analysis_status, name).toBe("succeeded");
        expect(deal.round, name).toMatchObject({ stage: "seed", amount: 4_000_000, currency: "USD" });
        const doc = (await get(`/api/v1/deals/${res.json.deal_id}/documents`)).documents[0];
        expect(doc, name).toMatchObject({ filename: name, content_type: contentType, status: "extracted", page_count: LEDGERLY_DECK.length });
        const traction = deal.analysis.sections.find((s: any) => s.key === "traction");
        expect(traction.evidence[0], name).toMatchObject({ document_id: doc.document_id, page: 3 });
      }
      expect(conversionsLeft()).toEqual([]);
    },
    240_000,
  );
});
