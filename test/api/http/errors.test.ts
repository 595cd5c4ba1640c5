// The shapes of failure every endpoint shares: JSON detail, 422 lists naming the parameter,
// 404/405 on unknown routes and methods, 503 for a dependency that is down, and no stack trace.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createLog } from "../../../src/lib/log.ts";
import { seededApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

let t: TestApp;
let f: Fixture;
const setup = (opts: TestAppOptions = {}) => {
  ({ t, f } = seededApp(opts));
};

const rotate = (f: Fixture) => `/api/v1/keys/${f.keys.read.id}/rotate`;

describe("422: a list of {loc, msg, type} naming the parameter", () =>
  runScenarios([
    {
      name: "malformed JSON",
      method: "POST",
      path: rotate,
      key: "write",
      rawBody: '{"overlap_hours": ',
      expect: { status: 422, body: { detail: [{ loc: ["body"], msg: expect.stringContaining("Invalid JSON"), type: "json_invalid" }] } },
    },
    {
      // An empty body is no body (request-bodies.test.ts); one of only whitespace is no JSON.
      name: "a JSON body of only whitespace",
      method: "POST",
      path: rotate,
      key: "write",
      rawBody: " \r\n ",
      expect: { status: 422, body: { detail: [{ loc: ["body"], type: "json_invalid" }] } },
    },
    {
      name: "a wrong type",
      method: "POST",
      path: rotate,
      key: "write",
      body: { overlap_hours: "soon" },
      expect: { status: 422, body: { detail: [{ loc: ["body", "overlap_hours"], msg: "Input should be a valid integer", type: "int_parsing" }] } },
    },
    {
      name: "a number below its minimum",
      method: "POST",
      path: rotate,
      key: "write",
      body: { overlap_hours: -3 },
      expect: { status: 422, body: { detail: [{ loc: ["body", "overlap_hours"], type: "greater_than_equal", msg: "Input should be greater than or equal to 0" }] } },
    },
    {
      name: "a number above its maximum",
      method: "POST",
      path: rotate,
      key: "write",
      body: { overlap_hours: 100000 },
      expect: { status: 422, body: { detail: [{ loc: ["body", "overlap_hours"], type: "less_than_equal" }] } },
    },
    {
      name: "a body that is not an object",
      method: "POST",
      path: rotate,
      key: "write",
      body: [1, 2],
      expect: { status: 422, body: { detail: [{ loc: ["body"], type: "model_attributes_type" }] } },
    },
    {
      name: "malformed JSON from a read key is a 403 first: nothing is judged for a caller who may not call",
      method: "POST",
      path: rotate,
      key: "read",
      rawBody: "{",
      expect: { status: 403 },
    },
    {
      name: "malformed JSON without a key is a 401 first",
      method: "POST",
      path: rotate,
      key: null,
      rawBody: "{",
      expect: { status: 401 },
    },
  ]));

describe("unknown routes and methods", () =>
  runScenarios([
    { name: "unknown route: 404 JSON", method: "GET", path: "/api/v1/nowhere", key: "read", expect: { status: 404, body: { detail: "Not found" } } },
    { name: "unknown route without a key: 404 JSON", method: "GET", path: "/no/such/thing", key: null, expect: { status: 404, body: { detail: "Not found" } } },
    {
      name: "wrong method: 405 with Allow",
      method: "PUT",
      path: "/api/v1/me",
      key: "read",
      expect: { status: 405, body: { detail: expect.stringContaining("PUT") }, headers: { allow: "GET, HEAD" } },
    },
    {
      name: "wrong method on a parameterised path: 405",
      method: "PATCH",
      path: (f) => `/api/v1/keys/${f.keys.read.id}`,
      key: "write",
      expect: { status: 405, headers: { allow: "DELETE, GET, HEAD" } },
    },
    {
      name: "a path id that is not a UUID: 404",
      method: "GET",
      path: "/api/v1/keys/12345",
      key: "read",
      expect: { status: 404, body: { detail: expect.any(String) } },
    },
  ]));

describe("X-Request-Id", () => {
  test("on every response, success or error, and the caller's own id is echoed when sane", async () => {
    setup();
    const ok = await t.request("GET", "/api/v1/me", { key: f.keys.read.secret, headers: { "x-request-id": "trace-42" } });
    expect(ok.headers.get("x-request-id")).toBe("trace-42");
    const err = await t.request("GET", "/api/v1/me", { headers: { "x-request-id": "trace-43" } });
    expect(err.status).toBe(401);
    expect(err.headers.get("x-request-id")).toBe("trace-43");
    const insane = await t.request("GET", "/healthz", { headers: { "x-request-id": "<script>" } });
    expect(insane.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const a = await t.request("GET", "/healthz");
    const b = await t.request("GET", "/healthz");
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("500: never a stack trace", () => {
  test("an unexpected error answers a plain JSON detail and is logged with the request id", async () => {
    const lines: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    ({ t, f } = seededApp({ log: createLog() }));
    // A route that fails the way a bug would: mounted on the real app, behind its real error handler.
    t.app.get("/boom", () => {
      throw new Error("secret internals at /srv/app.ts:12");
    });
    process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
    let res;
    try {
      res = await t.request("GET", "/boom", { headers: { "x-request-id": "req-500" } });
    } finally {
      process.stderr.write = original;
    }
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ detail: "Internal server error" });
    expect(res.text).not.toContain("secret internals");
    expect(res.text).not.toContain(".ts");
    expect(res.headers.get("x-request-id")).toBe("req-500");
    expect(lines.join("")).toContain("req-500");
    expect(lines.join("")).toContain("secret internals");
  });
});

describe("503 when the database is unavailable", () => {
  test("a locked database answers 503 with Retry-After, never an empty or partial result, and nothing is counted", async () => {
    setup({ file: true, busyTimeoutMs: 50 });
    const other = new Database(join(t.dataDir!, "dealgraph.db"));
    other.exec("BEGIN EXCLUSIVE");
    try {
      const res = await t.request("GET", "/api/v1/me", { key: f.keys.read.secret });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.json.detail).toMatch(/temporarily unavailable/);
      expect(res.headers.get("x-request-id")).toBeTruthy();
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const after = await t.request("GET", "/api/v1/me", { key: f.keys.read.secret });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-remaining")).toBe("4999");
  });
});
