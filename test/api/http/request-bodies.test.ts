// Request bodies and query strings on every JSON route, found from the app's own route table so a
// new route is covered the day it is mounted: the key is judged before anything about the body
// (401/403 first), a body that is not application/json is 415, an unreadable one 422 naming
// ["body"], and a refused request changes nothing; a repeated query parameter is 422 naming it.
import { describe, expect, test } from "bun:test";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
const setup = () => {
  ({ t, f } = seededApp());
};

/** Reads a read key may call (CONTRACT: warmth lookup is a read). */
const READ_POSTS = new Set(["/api/v1/network/warmth/lookup"]);
const SOME_UUID = "0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9d";
const BROKEN_MULTIPART = { rawBody: "--x\r\nContent-Disposition: form-da", contentType: "multipart/form-data; boundary=x" };

/** Every JSON-bodied write of the API (uploads stream multipart and are tested with the deals). */
function jsonPostRoutes(app: TestApp["app"]): { template: string; path: string }[] {
  return app.routes
    .filter((r) => r.method === "POST" && r.path.startsWith("/api/v1/"))
    .filter((r) => !((r.hooks as { parse?: { fn: unknown }[] }).parse ?? []).some((p) => p.fn === "none"))
    .map((r) => ({ template: r.path, path: r.path.replace(/:[^/]+/g, SOME_UUID) }));
}

function rateHeaders(res: { headers: Headers }) {
  return ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((h) => res.headers.get(h));
}

describe("a JSON route judges the key before the body", () => {
  test("the routes found include every JSON action of the spec", () => {
    setup();
    const found = jsonPostRoutes(t.app).map((r) => r.template);
    for (const path of ["/api/v1/research", "/api/v1/deals/analyze", "/api/v1/founders/analyze", "/api/v1/webhooks", "/api/v1/network/warmth/lookup", "/api/v1/keys/:key_id/rotate"]) {
      expect(found).toContain(path);
    }
    expect(found).not.toContain("/api/v1/deals/analyze/upload");
  });

  test("a broken multipart body: 401 without a key or with a revoked one, 403 for a read key on a write route", async () => {
    setup();
    for (const { path } of jsonPostRoutes(t.app)) {
      const none = await t.request("POST", path, BROKEN_MULTIPART);
      expect(none.status, `${path}: ${none.text}`).toBe(401);
      expect(none.json.detail).toMatch(/no key was sent/);
      const revoked = await t.request("POST", path, { ...BROKEN_MULTIPART, key: f.keys.revoked.secret });
      expect(revoked.status, path).toBe(401);
      expect(revoked.json.detail).toMatch(/revoked/);
      if (READ_POSTS.has(path)) continue;
      const read = await t.request("POST", path, { ...BROKEN_MULTIPART, key: f.keys.read.secret });
      expect(read.status, `${path}: ${read.text}`).toBe(403);
      expect(rateHeaders(read).every((h) => h !== null), path).toBe(true);
    }
  });

  test("with a permitted key: 415 for anything but application/json, with the rate-limit headers", async () => {
    setup();
    const cases = [
      BROKEN_MULTIPART,
      { rawBody: "hello", contentType: "text/plain" },
      { rawBody: "\x00\x01", contentType: "application/octet-stream" },
      { rawBody: "overlap_hours=1", contentType: "application/x-www-form-urlencoded" },
      { rawBody: "{", contentType: "application/vnd.api+json" },
      // A body with no Content-Type at all cannot be taken for JSON either.
      { rawBody: '{"overlap_hours": 1}', contentType: "" },
    ];
    for (const { path } of jsonPostRoutes(t.app)) {
      for (const c of cases) {
        const headers = c.contentType === "" ? { "content-type": "" } : undefined;
        const res = await t.request("POST", path, { key: f.keys.write.secret, rawBody: c.rawBody, contentType: c.contentType, headers });
        const where = `${path} with ${c.contentType || "no content type"}: ${res.text}`;
        expect(res.status, where).toBe(415);
        expect(res.json.detail, where).toMatch(/expects application\/json/);
        expect(rateHeaders(res).every((h) => h !== null), where).toBe(true);
      }
    }
  });

  test("malformed JSON, after the key: 422 naming the body, and a message about JSON", async () => {
    setup();
    for (const { path } of jsonPostRoutes(t.app)) {
      const res = await t.request("POST", path, { key: f.keys.write.secret, rawBody: '{"url": ', contentType: "application/json; charset=utf-8" });
      expect(res.status, `${path}: ${res.text}`).toBe(422);
      expect(res.json.detail).toEqual([{ loc: ["body"], msg: expect.stringMatching(/^Invalid JSON: /), type: "json_invalid" }]);
    }
  });
});

describe("a refused body changes nothing", () => {
  test("rotate with text/plain, octet-stream or a broken vnd+json body: 415, and the key is not rotated", async () => {
    setup();
    const rotate = `/api/v1/keys/${f.keys.read.id}/rotate`;
    for (const [rawBody, contentType] of [["hello", "text/plain"], ["\x00", "application/octet-stream"], ["{", "application/vnd.api+json"]]) {
      const res = await t.request("POST", rotate, { key: f.keys.write.secret, rawBody, contentType });
      expect(res.status, res.text).toBe(415);
    }
    const keys = (await t.request("GET", "/api/v1/keys", { key: f.keys.write.secret })).json.keys;
    expect(keys.some((k: { rotated_from_key_id: string | null }) => k.rotated_from_key_id === f.keys.read.id)).toBe(false);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.read.secret })).status).toBe(200);
  });

  test("a deal analysis sent as text/plain starts nothing and charges no action", async () => {
    setup();
    const res = await t.request("POST", "/api/v1/deals/analyze", { key: f.keys.write.secret, rawBody: '{"website_url":"https://acme.example"}', contentType: "text/plain" });
    expect(res.status).toBe(415);
    expect(res.headers.get("x-actions-remaining")).toBeNull();
    const deals = await t.request("GET", "/api/v1/deals", { key: f.keys.write.secret });
    expect(deals.json.total).toBe(0);
    const me = await t.request("GET", "/api/v1/me", { key: f.keys.write.secret });
    expect(me.json.key.usage_today.actions.used).toBe(0);
  });

  test("a body-less POST to a route whose body is all optional is still fine (rotate: the default overlap)", async () => {
    setup();
    const res = await t.app.handle(
      new Request(`http://localhost/api/v1/keys/${f.keys.read.id}/rotate`, { method: "POST", headers: { authorization: `Bearer ${f.keys.write.secret}` } }),
    );
    const body = (await res.json()) as { previous_key: { expires_at: string } };
    expect(res.status).toBe(201);
    expect(Date.parse(body.previous_key.expires_at) - t.clock.now().getTime()).toBe(24 * 3600_000);
  });

  test("an empty body is no body, whatever its Content-Type says: rotate is 201 with the default overlap", async () => {
    setup();
    for (const contentType of ["application/json", "application/json; charset=utf-8", "text/plain"]) {
      const { keyId } = apiKeysService(t.deps).create({ userId: f.users.alice.id, scope: "read", name: contentType });
      const res = await t.request("POST", `/api/v1/keys/${keyId}/rotate`, { key: f.keys.write.secret, rawBody: "", contentType });
      expect(res.status, `${contentType}: ${res.text}`).toBe(201);
      expect(Date.parse(res.json.previous_key.expires_at) - t.clock.now().getTime()).toBe(24 * 3600_000);
    }
  });
});

describe("a repeated query parameter", () => {
  test("is 422 naming it, after the key, on any route", async () => {
    setup();
    for (const path of ["/api/v1/deals?limit=2&limit=3", "/api/v1/network/contacts?limit=5&limit=5", "/api/v1/keys?view=a&view=b"]) {
      const name = new URL(path, "http://x").searchParams.keys().next().value!;
      const res = await t.request("GET", path, { key: f.keys.read.secret });
      expect(res.status, `${path}: ${res.text}`).toBe(422);
      expect(res.json.detail).toEqual([{ loc: ["query", name], msg: expect.stringContaining("repeated"), type: "repeated_parameter" }]);
      expect((await t.request("GET", path)).status).toBe(401);
    }
    expect((await t.request("GET", "/api/v1/deals?limit=2&offset=0", { key: f.keys.read.secret })).status).toBe(200);
  });
});
