// The key user's own keys over REST: what a key sees, revocation that bites on the next request,
// rotation with overlap.
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../../src/http/errors.ts";
import { apiKeysService, MAX_DAILY_BUDGET } from "../../../src/modules/identity/keys.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
const setup = () => {
  ({ t, f } = seededApp());
};

describe("GET /api/v1/me", () => {
  test("resolves the key to its user and organization, server-side", async () => {
    setup();
    const res = await t.request("GET", "/api/v1/me", { key: f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      user: { user_id: f.users.alice.id, name: "Alice Archer", email: "alice@acme.vc", share_network: true },
      org: { org_id: f.orgs.acme.id, name: "Acme Ventures" },
      key: { key_id: f.keys.read.id, scope: "read", status: "active", usage_today: { requests: { used: 1, limit: 5000 }, actions: { used: 0, limit: 25 } } },
      scope: "key_user",
      as_of: t.clock.now().toISOString(),
    });
    expect(res.text).not.toContain(f.keys.read.secret);
  });

  test("a client cannot choose its user or organization", async () => {
    setup();
    const res = await t.request(
      "GET",
      `/api/v1/me?org_id=${f.orgs.globex.id}&user_id=${f.users.carol.id}`,
      { key: f.keys.read.secret, headers: { "x-org-id": f.orgs.globex.id, "x-user-id": f.users.carol.id } },
    );
    expect(res.json.org.org_id).toBe(f.orgs.acme.id);
    expect(res.json.user.user_id).toBe(f.users.alice.id);
  });
});

describe("GET /api/v1/keys", () => {
  test("lists only the key user's own keys, never a secret or hash", async () => {
    setup();
    const res = await t.request("GET", "/api/v1/keys", { key: f.keys.read.secret });
    expect(res.status).toBe(200);
    const ids = res.json.keys.map((k: { key_id: string }) => k.key_id).sort();
    expect(ids).toEqual([f.keys.read.id, f.keys.write.id, f.keys.expired.id, f.keys.revoked.id].sort());
    const byId = Object.fromEntries(res.json.keys.map((k: { key_id: string }) => [k.key_id, k]));
    expect(byId[f.keys.revoked.id].status).toBe("revoked");
    expect(byId[f.keys.expired.id].status).toBe("expired");
    expect(byId[f.keys.read.id].last_used_at).toBe(t.clock.now().toISOString());
    expect(byId[f.keys.write.id].last_used_at).toBeNull();
    for (const k of res.json.keys) {
      expect(k.prefix).toMatch(/^ak_/);
      expect(Object.keys(k)).not.toContain("secret");
      expect(Object.keys(k)).not.toContain("secret_hash");
    }
  });
});

describe("GET /api/v1/keys/{key_id}", () => {
  test("a teammate's key in the same organization is not visible either (404)", async () => {
    setup();
    const res = await t.request("GET", `/api/v1/keys/${f.keys.bobRead.id}`, { key: f.keys.read.secret });
    expect(res.status).toBe(404);
  });
});

describe("DELETE /api/v1/keys/{key_id}", () => {
  test("revocation takes effect on the very next request", async () => {
    setup();
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.read.secret })).status).toBe(200);
    const del = await t.request("DELETE", `/api/v1/keys/${f.keys.read.id}`, { key: f.keys.write.secret });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const after = await t.request("GET", "/api/v1/me", { key: f.keys.read.secret });
    expect(after.status).toBe(401);
    expect(after.json.detail).toMatch(/revoked/);
    // Revoking again is harmless and keeps the first revocation time.
    const again = await t.request("DELETE", `/api/v1/keys/${f.keys.read.id}`, { key: f.keys.write.secret });
    expect(again.status).toBe(204);
  });

  test("a write key can revoke itself, and is refused afterwards", async () => {
    setup();
    expect((await t.request("DELETE", `/api/v1/keys/${f.keys.write.id}`, { key: f.keys.write.secret })).status).toBe(204);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.write.secret })).status).toBe(401);
  });

  test("a teammate's key cannot be revoked (404) and keeps working", async () => {
    setup();
    expect((await t.request("DELETE", `/api/v1/keys/${f.keys.bobRead.id}`, { key: f.keys.write.secret })).status).toBe(404);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.bobRead.secret })).status).toBe(200);
  });

  test("another organization's key cannot be revoked (404) and keeps working", async () => {
    setup();
    expect((await t.request("DELETE", `/api/v1/keys/${f.keys.otherOrgWrite.id}`, { key: f.keys.write.secret })).status).toBe(404);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.otherOrgWrite.secret })).status).toBe(200);
  });
});

describe("POST /api/v1/keys/{key_id}/rotate", () => {
  test("the new secret works at once; the old one until the overlap ends", async () => {
    setup();
    const res = await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret, body: { overlap_hours: 2 } });
    expect(res.status).toBe(201);
    const { key, secret, previous_key } = res.json;
    expect(secret).toMatch(/^ak_[0-9A-Za-z]{38}$/);
    expect(key).toMatchObject({ scope: "read", name: "alice read", status: "active", rotated_from_key_id: f.keys.read.id });
    expect(previous_key).toMatchObject({ key_id: f.keys.read.id, expires_at: "2026-11-22T14:00:00.000Z", status: "active" });

    expect((await t.request("GET", "/api/v1/me", { key: secret })).status).toBe(200);
    t.clock.advanceHours(1.9);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.read.secret })).status).toBe(200);
    t.clock.advanceHours(0.2);
    const old = await t.request("GET", "/api/v1/me", { key: f.keys.read.secret });
    expect(old.status).toBe(401);
    expect(old.json.detail).toMatch(/expired/);
    expect((await t.request("GET", "/api/v1/me", { key: secret })).status).toBe(200);
  });

  test("without a body the overlap is 24 hours; a zero overlap retires the old key at once", async () => {
    setup();
    const a = await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret });
    expect(a.json.previous_key.expires_at).toBe("2026-11-23T12:00:00.000Z");
    const b = await t.request("POST", `/api/v1/keys/${f.keys.bobRead.id}/rotate`, { key: f.keys.write.secret });
    expect(b.status).toBe(404);
    const c = await t.request("POST", `/api/v1/keys/${f.keys.write.id}/rotate`, { key: f.keys.write.secret, body: { overlap_hours: 0 } });
    expect(c.status).toBe(201);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.write.secret })).status).toBe(401);
    expect((await t.request("GET", "/api/v1/me", { key: c.json.secret })).status).toBe(200);
  });

  test("a key stored with budgets above today's cap (set before the cap existed) still rotates, keeping them", async () => {
    setup();
    t.deps.db.$client.query("UPDATE api_keys SET daily_requests = 100000000, daily_actions = 50000000 WHERE id = ?").run(f.keys.read.id);
    const res = await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret });
    expect(res.status).toBe(201);
    expect(res.json.key.usage_today.requests.limit).toBe(100_000_000);
    expect(res.json.key.usage_today.actions.limit).toBe(50_000_000);
  });

  test("a key rotated once, revoked or expired cannot be rotated (409), and nothing changes", async () => {
    setup();
    const first = await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret });
    expect(first.status).toBe(201);
    const second = await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret });
    expect(second.status).toBe(409);
    expect(second.json.detail).toContain(first.json.key.key_id);
    expect((await t.request("POST", `/api/v1/keys/${f.keys.revoked.id}/rotate`, { key: f.keys.write.secret })).status).toBe(409);
    expect((await t.request("POST", `/api/v1/keys/${f.keys.expired.id}/rotate`, { key: f.keys.write.secret })).status).toBe(409);
    const list = await t.request("GET", "/api/v1/keys", { key: f.keys.write.secret });
    expect(list.json.keys.length).toBe(5);
  });

  test("the new key keeps the old key's budgets and a later expiry", async () => {
    setup();
    t.deps.db.$client
      .query("UPDATE api_keys SET daily_requests = 7, daily_actions = 3, expires_at = '2027-01-01T00:00:00.000Z' WHERE id = ?")
      .run(f.keys.read.id);
    const res = await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret });
    expect(res.json.key.usage_today).toEqual({ requests: { used: 0, limit: 7 }, actions: { used: 0, limit: 3 } });
    expect(res.json.key.expires_at).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("creating a key (the service the CLI and the web app share)", () => {
  test("daily budgets are whole numbers from 0 to 10,000,000; anything else is refused and nothing is stored", () => {
    setup();
    const keys = apiKeysService(t.deps);
    const count = () => keys.listForUser(f.users.bob.id).length;
    const before = count();
    for (const [field, value] of [["dailyRequests", 1e20], ["dailyActions", MAX_DAILY_BUDGET + 1], ["dailyActions", -1], ["dailyRequests", 2.5], ["dailyRequests", Number.NaN]] as const) {
      let error: unknown;
      try {
        keys.create({ userId: f.users.bob.id, scope: "read", [field]: value });
      } catch (e) {
        error = e;
      }
      expect(error, `${field} ${value}`).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(422);
      expect(JSON.stringify((error as ApiError).detail)).toContain(field === "dailyRequests" ? "daily_requests" : "daily_actions");
    }
    expect(count()).toBe(before);
    expect(keys.create({ userId: f.users.bob.id, scope: "read", dailyRequests: MAX_DAILY_BUDGET, dailyActions: 0 }).key.dailyRequests).toBe(10_000_000);
  });
});
