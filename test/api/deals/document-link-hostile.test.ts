// Document links to a host Dealgraph does not recognise, served by a loopback stand-in
// (test/helpers/document-hosts-files.ts) with private networks NOT allowed: pages built to make an
// HTML parser backtrack, an oversize page, a gate form that posts elsewhere, a file name that
// does not decode, a link that never answers while the runner stops, and the link document's
// place in the content-addressed blob store.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, statSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { runHandlers } from "../../../jobs/index.ts";
import { startRunner } from "../../../src/modules/actions/runner.ts";
import { blobPath } from "../../../src/lib/blobs.ts";
import { FILES } from "../../helpers/document-hosts-files.ts";
import { analyseAll, documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";

let h: DocumentHostApp;
afterEach(() => h?.close());


describe("pages built to hurt the parser", () => {
  // 5 MB of `<input a=b ` (no `>` ever) and of `<form><input ` (no `</form>`): the regular
  // expressions these pages were once read with backtrack quadratically over them (minutes of a
  // blocked event loop, measured by hand). Read linearly, each ends in a run with a clear result.
  test("a page of unclosed inputs, and a password gate followed by unclosed forms, fail saying what they are", async () => {
    h = await documentHostApp(["files"]);
    const [inputs, gate] = await analyseAll(h, [FILES.unclosedInputs, FILES.gateThenForms]);
    expect(inputs).toMatchObject({ status: "failed", error: "the document host showed no readable text for the link (it may need a browser or a sign-in)" });
    expect(gate).toMatchObject({ status: "failed", error: "the document host asks for a password before showing the document: resubmit with document_password" });
    // The server still answers other requests.
    expect((await h.t.request("GET", "/healthz")).status).toBe(200);
  }, 60_000);

  test("an HTML page over 5 MB is refused for its size (only files may be larger)", async () => {
    h = await documentHostApp(["files"]);
    const [oversize] = await analyseAll(h, [FILES.oversizePage]);
    expect(oversize).toMatchObject({ status: "failed", error: "the document host: the page is larger than 5 MB, more than a document's page holds; upload the file instead" });
  });
});

describe("gates and names", () => {
  test("a gate form that posts the password to another site: refused before anything is sent there", async () => {
    h = await documentHostApp(["files"]);
    const [run] = await analyseAll(h, [FILES.foreignForm], { document_password: "s3cret-pass" });
    expect(run).toMatchObject({
      status: "failed",
      error: "the document host: the page's form would send the email address or password to evil.example, which is not the document host's own site; they were not sent",
    });
    expect(h.world.hits.filter((x) => x.startsWith("evil.example"))).toEqual([]);
  });

  test("a file name whose percent-encoding is broken is kept as written; the run reads the document", async () => {
    h = await documentHostApp(["files"]);
    const [run] = await analyseAll(h, [FILES.brokenName]);
    expect(run.status).toBe("succeeded");
    expect(await h.documents(run.id)).toMatchObject([{ filename: "deck%E0%A4%A.pdf", content_type: "application/pdf", status: "extracted" }]);
  });
});

describe("the runner stopping", () => {
  test("stopping aborts a link fetch the host never answers; the run is left to recovery", async () => {
    h = await documentHostApp(["files"]);
    const res = await h.analyze({ document_url: FILES.hang, company_name: "Hanging" });
    const runner = startRunner(h.t.deps, runHandlers(h.t.deps), { pollMs: 60_000 });
    runner.pump();
    while (!h.world.hits.includes("files.example.net /hang.pdf")) await Bun.sleep(5);
    await runner.stop();
    // The runner's signal reached the fetch: the host saw its client go away.
    for (let i = 0; i < 200 && !h.world.aborted.includes("files.example.net /hang.pdf"); i++) await Bun.sleep(5);
    expect(h.world.aborted).toContain("files.example.net /hang.pdf");
    // A stopped run stays running: the next start recovers it (queued again).
    expect((await h.status(res.json.deal_id)).status).toBe("running");
  }, 30_000);
});

describe("the link document in the blob store", () => {
  test("bytes already stored are not rewritten; every stored file hashes to its name", async () => {
    h = await documentHostApp(["files"]);
    const dataDir = h.t.deps.config.dataDir;
    const sha = new Bun.CryptoHasher("sha256").update(h.world.pdf).digest("hex");
    const path = blobPath(dataDir, sha);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, h.world.pdf);
    const old = new Date("2001-02-03T04:05:06Z");
    utimesSync(path, old, old);
    const before = statSync(path);

    const [run] = await analyseAll(h, [FILES.pdf]);
    expect(run.status).toBe("succeeded");
    const after = statSync(path);
    expect({ ino: after.ino, mtime: after.mtimeMs }).toEqual({ ino: before.ino, mtime: before.mtimeMs });

    const [other] = await analyseAll(h, [FILES.brokenName]); // same bytes under another name: still one blob
    expect(other.status).toBe("succeeded");
    const blobs = readdirSync(join(dataDir, "blobs"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(blobs.length).toBeGreaterThan(0);
    for (const b of blobs) {
      const bytes = await Bun.file(join(b.parentPath, b.name)).bytes();
      expect(new Bun.CryptoHasher("sha256").update(bytes).digest("hex")).toBe(b.name);
    }
    // Nothing left behind in the temp folder.
    expect(readdirSync(join(dataDir, "tmp")).filter((n) => n.startsWith("upload-"))).toEqual([]);
  });
});
