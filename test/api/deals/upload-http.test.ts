// Oversized, malformed and cut-off multipart bodies sent over real HTTP to a real `dealgraph serve`
// (a child process): each gets its clear answer, leaves no temp file and no blob, and the server
// keeps serving. In-memory requests through app.handle cannot show this: the crash they missed
// was an unheard stream error that only a socket-fed body produces.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Child, cleanEnv, startServe } from "../../../scripts/lib/child-process.ts";
import { cli } from "../../helpers/cli.ts";
import { pdfDeck, uploadForm } from "../../helpers/decks.ts";

const ROOT = join(import.meta.dir, "../../..");
const MB = 1024 * 1024;

let dir = "";
let child: Child | null = null;
let url = "";
let key = "";
let dealId = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "dealgraph-upload-http-"));
  const org = (await cli(dir, "admin", "org", "create", "--name", "Upload Ventures", "--json")).json.org_id;
  const user = (await cli(dir, "admin", "user", "create", "--org", org, "--email", "up@upload.vc", "--name", "Up", "--json")).json.user_id;
  key = (await cli(dir, "admin", "key", "create", "--user", user, "--scope", "write", "--json")).json.secret;
  const served = await startServe([process.execPath, join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data-dir", dir], { cwd: ROOT, env: cleanEnv() });
  child = served.child;
  url = served.url;
  // A deal whose analysis has finished, so its data room takes files.
  const up = await fetch(`${url}/api/v1/deals/analyze/upload`, { method: "POST", body: uploadForm(await pdfDeck(), "deck.pdf", { company_name: "Ledgerly" }), headers: auth() });
  expect(up.status).toBe(202);
  dealId = ((await up.json()) as any).deal_id;
  for (let i = 0; i < 600; i++) {
    const status = ((await (await fetch(`${url}/api/v1/deals/${dealId}/analysis`, { headers: auth() })).json()) as any).status;
    if (status === "succeeded" || status === "failed") break;
    await Bun.sleep(100);
  }
}, 60_000);

afterAll(async () => {
  await child?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${key}` });

/** The files under the data dir's temp and blob folders. */
function stored() {
  const list = (p: string) => (existsSync(p) ? readdirSync(p, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort() : []);
  return { tmp: list(join(dir, "tmp")), blobs: list(join(dir, "blobs")) };
}

/** A multipart body with one file of `size` bytes (a PDF header, then zeros), in 1 MB pieces. */
function multipartPieces(size: number, field: string, filename: string): { boundary: string; pieces: () => Generator<Uint8Array>; length: number } {
  const boundary = `----dealgraph${crypto.randomUUID()}`;
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const body = size - 9;
  function* pieces() {
    yield head;
    const zeros = new Uint8Array(MB);
    for (let sent = 0; sent < body; sent += MB) yield sent + MB <= body ? zeros : zeros.subarray(0, body - sent);
    yield tail;
  }
  return { boundary, pieces, length: head.length + body + tail.length };
}

/** Sends the body with a Content-Length (a Blob) or chunked (a stream of unknown length). */
async function send(path: string, size: number, field: string, how: "content-length" | "chunked") {
  const { boundary, pieces, length } = multipartPieces(size, field, "huge.pdf");
  const headers = { ...auth(), "content-type": `multipart/form-data; boundary=${boundary}` };
  let body: Blob | ReadableStream<Uint8Array>;
  if (how === "content-length") {
    body = new Blob([...pieces()]);
    expect(body.size).toBe(length);
  } else {
    const it = pieces();
    body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = it.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value.slice());
      },
    });
  }
  const res = await fetch(`${url}${path}`, { method: "POST", body, headers });
  return { status: res.status, json: (await res.json()) as any };
}

/** The server is still up and answering. */
async function stillServing() {
  expect(child!.proc.exitCode).toBeNull();
  expect(child!.proc.signalCode).toBeNull();
  const res = await fetch(`${url}/api/v1/deals?limit=5`, { headers: auth() });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

describe("oversize uploads over real HTTP", () => {
  const routes = [
    ["POST /api/v1/deals/analyze/upload", () => "/api/v1/deals/analyze/upload", "file"],
    ["POST /api/v1/deals/{deal_id}/documents", () => `/api/v1/deals/${dealId}/documents`, "files"],
  ] as const;
  for (const [name, path, field] of routes) {
    for (const [how, size] of [["content-length", 50 * MB + 512 * 1024], ["chunked", 60 * MB]] as const) {
      test(`${name}, ${size / MB} MB with ${how}: 413 with a detail, nothing kept, the server still serves`, async () => {
        const before = stored();
        const res = await send(path(), size, field, how);
        expect(res.status).toBe(413);
        expect(res.json.detail).toBe("huge.pdf is larger than 50 MB.");
        expect(stored()).toEqual(before);
        expect(before.tmp).toEqual([]);
        const list = await stillServing();
        expect(list.total).toBe(1); // the one deal of the set-up, no other
      }, 120_000);
    }
  }
});

describe("malformed and cut-off bodies over real HTTP", () => {
  test("a form that ends before its closing boundary: 422 naming the body, nothing kept", async () => {
    const boundary = "xx";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7\n${"0".repeat(1000)}`;
    const res = await fetch(`${url}/api/v1/deals/analyze/upload`, { method: "POST", body, headers: { ...auth(), "content-type": `multipart/form-data; boundary=${boundary}` } });
    expect(res.status).toBe(422);
    const json = (await res.json()) as any;
    expect(json.detail[0]).toMatchObject({ loc: ["body"], type: "value_error" });
    expect(json.detail[0].msg).toMatch(/^Malformed multipart body/);
    expect(stored().tmp).toEqual([]);
    await stillServing();
  });

  test("a client that disconnects half-way through a declared 20 MB body: nothing kept, the server still serves", async () => {
    const { boundary, pieces, length } = multipartPieces(20 * MB, "file", "cut.pdf");
    const port = Number(new URL(url).port);
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => (socket.once("connect", resolve), socket.once("error", reject)));
    socket.write(
      `POST /api/v1/deals/analyze/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
    );
    let sent = 0;
    for (const piece of pieces()) {
      if (sent > 10 * MB) break;
      await new Promise<void>((resolve) => (socket.write(piece) ? resolve() : socket.once("drain", resolve)));
      sent += piece.length;
    }
    socket.destroy();
    // The server notices the cut when it next reads; its answer to anyone else must not depend on it.
    for (let i = 0; i < 100 && stored().tmp.length > 0; i++) await Bun.sleep(50);
    expect(stored().tmp).toEqual([]);
    await stillServing();
  });
});
