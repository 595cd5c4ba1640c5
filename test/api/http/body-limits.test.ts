// JSON bodies over a real listening server: the key is judged before a byte of the body is read,
// so an unauthenticated client cannot make the server buffer a 50 MB body; an authenticated one
// over the cap gets 413 (by its Content-Length without reading it, or, chunked, as soon as it
// passes the cap), and nothing is changed. The client counts how much of its body the server
// asked for: a body the server never reads stays mostly unsent.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { JSON_BODY_MAX_BYTES } from "../../../src/http/request-body.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
let base = "";

beforeEach(() => {
  ({ t, f } = seededApp());
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
});
afterEach(async () => {
  await t.app.stop(true);
  t.close();
});

const BIG = 50 * 1024 * 1024;
const CHUNK = new Uint8Array(64 * 1024).fill(0x20); // JSON whitespace: the body is valid JSON padding

/**
 * POSTs `total` bytes produced on demand, with a Content-Length or chunked; `sentBeforeAnswer`
 * is how much the server had pulled when its answer arrived.
 */
async function postLazily(path: string, o: { total: number; key?: string; contentLength: boolean }) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= o.total) return controller.close();
        const next = CHUNK.subarray(0, Math.min(CHUNK.length, o.total - pulled));
        pulled += next.length;
        controller.enqueue(next);
      },
    },
    { highWaterMark: 0 },
  );
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (o.contentLength) headers["content-length"] = String(o.total);
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  const res = await fetch(`${base}${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
  const sentBeforeAnswer = pulled;
  const json = (await res.json()) as { detail: unknown };
  return { status: res.status, json, sentBeforeAnswer };
}

async function stillServing() {
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${f.keys.read.secret}` } });
  expect(me.status).toBe(200);
}

const rotatedKeys = () => t.deps.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM api_keys WHERE rotated_from_id IS NOT NULL").get()!.n;

describe("a JSON body over the cap", () => {
  test("without a key: 401 before the body is read, whether it declares its length or not", async () => {
    const rotate = `/api/v1/keys/${f.keys.read.id}/rotate`;
    for (const contentLength of [true, false]) {
      const res = await postLazily(rotate, { total: BIG, contentLength });
      expect(res.status).toBe(401);
      expect(res.json.detail).toMatch(/no key was sent/);
      // Reading it first would have pulled all 50 MB before answering.
      expect(res.sentBeforeAnswer).toBeLessThan(BIG / 2);
    }
    await stillServing();
  });

  test("with a key and a Content-Length over the cap: 413 without reading it, nothing changed", async () => {
    const res = await postLazily(`/api/v1/keys/${f.keys.read.id}/rotate`, { total: BIG, key: f.keys.write.secret, contentLength: true });
    expect(res.status).toBe(413);
    expect(res.json.detail).toBe(`The request body is larger than ${JSON_BODY_MAX_BYTES / 1024 / 1024} MB, the most a JSON request may carry. Nothing was changed.`);
    expect(res.sentBeforeAnswer).toBeLessThan(BIG / 2);
    expect(rotatedKeys()).toBe(0);
    await stillServing();
  });

  test("with a key, chunked (no Content-Length): 413 once it passes the cap; the rest is never read", async () => {
    const res = await postLazily(`/api/v1/keys/${f.keys.read.id}/rotate`, { total: BIG, key: f.keys.write.secret, contentLength: false });
    expect(res.status).toBe(413);
    expect(res.sentBeforeAnswer).toBeGreaterThan(JSON_BODY_MAX_BYTES);
    expect(res.sentBeforeAnswer).toBeLessThan(BIG / 2);
    expect(rotatedKeys()).toBe(0);
    await stillServing();
  });

  test("a chunked body within the cap is read as usual", async () => {
    const json = new TextEncoder().encode(JSON.stringify({ overlap_hours: 2 }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(json.subarray(0, 5));
        controller.enqueue(json.subarray(5));
        controller.close();
      },
    });
    const res = await fetch(`${base}/api/v1/keys/${f.keys.read.id}/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.keys.write.secret}`, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(rotatedKeys()).toBe(1);
  });
});
