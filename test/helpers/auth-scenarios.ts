// The auth scenarios every /api/v1 route must pass. A route test calls
//   runScenarios(authScenarios({ method, path, scope, ok, foreignPath }))
// and so proves 401/403/404/429 behave exactly as the spec says on that route.
import { expect } from "bun:test";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import type { TestApp } from "./app.ts";
import type { Fixture } from "./fixtures.ts";
import type { Scenario } from "./scenarios.ts";

export type RouteUnderTest = {
  method: string;
  path: string | ((f: Fixture, t: TestApp) => string);
  /** read: any valid key of an org; write: a write key. */
  scope: "read" | "write";
  /** The status a permitted request answers with. */
  ok: number;
  body?: unknown | ((f: Fixture, t: TestApp) => unknown);
  /** The same route on another organization's row: must be 404 for this org's write key. */
  foreignPath?: (f: Fixture, t: TestApp) => string;
};

const invalidKey = /invalid or revoked/i;

export function authScenarios(route: RouteUnderTest): Scenario[] {
  const base = { method: route.method, path: route.path, body: route.body };
  const rateHeaders = { "x-ratelimit-limit": /^\d+$/, "x-ratelimit-remaining": /^\d+$/, "x-ratelimit-reset": /^\d+$/ };
  const scenarios: Scenario[] = [
    { ...base, name: `no key -> 401`, key: null, expect: { status: 401, body: { detail: expect.stringMatching(invalidKey) }, headers: { "www-authenticate": /Bearer/ } } },
    { ...base, name: `malformed key -> 401`, key: { raw: "ak_not-a-key" }, expect: { status: 401, body: { detail: expect.stringMatching(invalidKey) } } },
    { ...base, name: `key with a broken checksum -> 401`, key: { raw: "ak_" + "A".repeat(38) }, expect: { status: 401 } },
    { ...base, name: `unknown key -> 401`, key: "unknown", expect: { status: 401, body: { detail: expect.stringMatching(invalidKey) } } },
    { ...base, name: `revoked key -> 401`, key: "revoked", expect: { status: 401, body: { detail: expect.stringMatching(/revoked/) } } },
    { ...base, name: `expired key -> 401`, key: "expired", expect: { status: 401, body: { detail: expect.stringMatching(/expired/) } } },
    { ...base, name: `Basic auth is not a key -> 401`, key: null, headers: { authorization: "Basic YWxpY2U6c2VjcmV0" }, expect: { status: 401 } },
    {
      ...base,
      name: `user in no organization -> 403`,
      key: "noOrg",
      expect: { status: 403, body: { detail: expect.stringMatching(/no organization.*add the user to an org/i) }, headers: rateHeaders },
    },
    {
      ...base,
      name: `daily request budget spent -> 429`,
      key: "write",
      before: async (f, t) => {
        setDailyRequests(t, f.keys.write.id, 1);
        const first = await t.request("GET", "/api/v1/me", { key: f.keys.write.secret });
        expect(first.status).toBe(200);
      },
      expect: {
        status: 429,
        body: { detail: expect.stringMatching(/daily request limit of 1 reached.*00:00 UTC/i) },
        headers: { "retry-after": /^\d+$/, "x-ratelimit-remaining": "0" },
      },
    },
    { ...base, name: `write key -> ${route.ok}`, key: "write", expect: { status: route.ok, headers: rateHeaders } },
    { ...base, name: `write key via X-API-Key -> ${route.ok}`, key: "write", via: "x-api-key", expect: { status: route.ok, headers: rateHeaders } },
    route.scope === "read"
      ? { ...base, name: `read key -> ${route.ok}`, key: "read", expect: { status: route.ok, headers: rateHeaders } }
      : {
          ...base,
          name: `read key on a write route -> 403`,
          key: "read",
          expect: { status: 403, body: { detail: expect.stringMatching(/read-only.*API-key page/i) }, headers: rateHeaders },
        },
  ];
  if (route.foreignPath) {
    scenarios.push({
      method: route.method,
      path: route.foreignPath,
      body: route.body,
      name: `another organization's row -> 404`,
      key: "write",
      expect: { status: 404, body: { detail: expect.any(String) } },
    });
  }
  return scenarios;
}

function setDailyRequests(t: TestApp, keyId: string, n: number) {
  t.deps.db.$client.query("UPDATE api_keys SET daily_requests = ? WHERE id = ?").run(n, keyId);
  expect(apiKeysService(t.deps).get(keyId)?.dailyRequests).toBe(n);
}

/** Path ids that are not UUIDs, each of which must be 404 like any unknown id (CONTRACT). */
export const MALFORMED_IDS = ["12345", "not-a-uuid", "%zz", "0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9", "..%2F..%2Fetc"];

/**
 * One scenario per malformed id: the route's path template (`/api/v1/keys/:key_id`) with every
 * `:param` replaced, called with a write key, must answer 404 with a JSON detail.
 */
export function malformedIdScenarios(route: { method: string; template: string; query?: string; body?: unknown }): Scenario[] {
  return MALFORMED_IDS.map((id) => ({
    name: `${route.method} ${route.template} with id ${JSON.stringify(id)} -> 404`,
    method: route.method,
    path: route.template.replace(/:[^/]+/g, id) + (route.query ?? ""),
    body: route.body,
    key: "write" as const,
    expect: { status: 404, body: { detail: expect.any(String) } },
  }));
}
