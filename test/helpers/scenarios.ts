// Scenario tables: one row per case (name, request, expected status, what the body and headers
// must hold), each run as its own test on a fresh app and fixture.
import { afterEach, expect, test } from "bun:test";
import { createTestApp, type RequestOptions, type TestApp, type TestAppOptions } from "./app.ts";
import { seedIdentity, type Fixture } from "./fixtures.ts";

type Resolvable<T> = T | ((f: Fixture, t: TestApp) => T);

export type Scenario = {
  name: string;
  method: string;
  path: Resolvable<string>;
  /** A fixture key by name, a raw string, or null for none. */
  key?: keyof Fixture["keys"] | { raw: string } | null;
  via?: RequestOptions["via"];
  body?: Resolvable<unknown>;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Runs before the request: spend a budget, revoke a key... */
  before?: (f: Fixture, t: TestApp) => void | Promise<void>;
  expect: {
    status: number;
    /** Partial match on the JSON body, or a function that asserts. */
    body?: Record<string, unknown> | ((body: any, f: Fixture, t: TestApp) => void);
    /** Header value (string or pattern), `true` = present, `false` = absent. */
    headers?: Record<string, string | RegExp | boolean>;
  };
};

const resolve = <T>(v: Resolvable<T>, f: Fixture, t: TestApp): T =>
  typeof v === "function" ? (v as (f: Fixture, t: TestApp) => T)(f, t) : v;

export async function runScenario(s: Scenario, t: TestApp, f: Fixture) {
  await s.before?.(f, t);
  const key = s.key == null ? null : typeof s.key === "string" ? f.keys[s.key].secret : s.key.raw;
  const res = await t.request(s.method, resolve(s.path, f, t), {
    key,
    via: s.via,
    body: s.body === undefined ? undefined : resolve(s.body, f, t),
    rawBody: s.rawBody,
    contentType: s.contentType,
    headers: s.headers,
  });
  const where = `${s.method} ${resolve(s.path, f, t)} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBe(s.expect.status);
  // Every response of every kind carries a request id and, when it fails, a JSON detail.
  expect(res.headers.get("x-request-id"), where).toBeTruthy();
  if (res.status >= 400) expect(res.json?.detail, where).toBeDefined();
  if (typeof s.expect.body === "function") s.expect.body(res.json, f, t);
  else if (s.expect.body) expect(res.json).toMatchObject(s.expect.body);
  for (const [name, want] of Object.entries(s.expect.headers ?? {})) {
    const got = res.headers.get(name);
    if (want === true) expect(got, `${where}: header ${name}`).not.toBeNull();
    else if (want === false) expect(got, `${where}: header ${name}`).toBeNull();
    else if (want instanceof RegExp) expect(got ?? "", `${where}: header ${name}`).toMatch(want);
    else expect(got, `${where}: header ${name}`).toBe(want);
  }
  return res;
}

/** Registers one test per scenario, each on a fresh app with the standard fixture. */
export function runScenarios(scenarios: Scenario[], opts: TestAppOptions = {}) {
  let current: TestApp | null = null;
  afterEach(() => {
    current?.close();
    current = null;
  });
  for (const s of scenarios) {
    test(s.name, async () => {
      current = createTestApp(opts);
      await runScenario(s, current, seedIdentity(current.deps));
    });
  }
}
