// The API-key page: list with today's usage, create (secret shown once, then usable on the API),
// rotate with an overlap, revoke; inline errors; other users' keys do not exist; names are escaped.
import { beforeEach, describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { textOf, webApp, type Browser, type Page } from "../helpers/web.ts";

let t: TestApp;
let f: Fixture;
let b: Browser;

beforeEach(async () => ({ t, f, b } = await webApp({ signIn: "alice@acme.vc" })));

const secretOn = (page: Page) => page.html.match(/data-testid="new-secret">(ak_[0-9A-Za-z]+)</)?.[1] ?? null;
const me = (secret: string) => t.request("GET", "/api/v1/me", { key: secret });

async function createKey(fields: Record<string, string>): Promise<Page> {
  await b.get("/app/keys");
  return b.post("/app/keys", fields);
}

describe("listing", () => {
  test("the user's own keys with scope, prefix, status, dates and usage against both budgets", async () => {
    for (let i = 0; i < 3; i++) expect((await me(f.keys.read.secret)).status).toBe(200);
    const page = await b.get("/app/keys");
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    for (const name of ["alice read", "alice write", "expired", "revoked"]) expect(page.html).toContain(`data-key-name="${name}"`);
    expect(page.html).not.toContain("bob read");
    expect(page.html).not.toContain("carol write");
    expect(text).toContain("Active");
    expect(text).toContain("Expired");
    expect(text).toContain("Revoked");
    expect(text).toContain(`${f.keys.read.secret.slice(0, 11)}…`);
    expect(text).toContain("3 / 5,000 requests");
    expect(text).toContain("0 / 25 actions");
    expect(text).toContain("2026-11-22 12:00 UTC");
    // No secret of an existing key is ever on the page.
    for (const k of [f.keys.read, f.keys.write]) expect(page.html).not.toContain(k.secret);
  });
});

describe("creating a key", () => {
  test("the secret is shown once, works on the API, and is gone on reload", async () => {
    const res = await createKey({ name: "CRM sync", scope: "write", expires: "2027-01-31" });
    expect(res.status).toBe(303);
    const page = await b.follow(res);
    const secret = secretOn(page);
    expect(secret).toMatch(/^ak_[0-9A-Za-z]{38}$/);
    expect(textOf(page.html)).toContain("Created the read-and-write key “CRM sync”");
    expect(page.html).toContain('data-copy="secret-0"');
    const who = await me(secret!);
    expect(who.status).toBe(200);
    expect(who.json.key).toMatchObject({ name: "CRM sync", scope: "write", expires_at: "2027-01-31T00:00:00.000Z" });

    const reload = await b.get("/app/keys");
    expect(secretOn(reload)).toBeNull();
    expect(reload.html).not.toContain(secret!);
    expect(reload.html).toContain('data-key-name="CRM sync"');
    const stored = t.deps.db.$client.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM api_keys WHERE secret_hash = ?").get(secret!);
    expect(stored!.n).toBe(0);
  });

  test("without an expiry the key does not expire; read scope is read-only on the API", async () => {
    const page = await b.follow(await createKey({ name: "reader", scope: "read", expires: "" }));
    const secret = secretOn(page)!;
    expect((await me(secret)).json.key.expires_at).toBeNull();
    expect((await t.request("DELETE", `/api/v1/keys/${f.keys.read.id}`, { key: secret })).status).toBe(403);
  });

  test("inline errors: no name, no scope, a past or malformed expiry; nothing created", async () => {
    const count = () => t.deps.db.$client.query("SELECT COUNT(*) AS n FROM api_keys").get();
    const before = count();
    const res = await createKey({ name: "  ", scope: "admin", expires: "2020-01-01" });
    expect(res.status).toBe(422);
    const text = textOf(res.html);
    expect(text).toContain("Give the key a name");
    expect(text).toContain("Choose read only, or read and write.");
    expect(text).toContain("The expiry must be in the future.");
    expect(res.html).toContain('aria-invalid="true"');
    const bad = await b.post("/app/keys", { name: "ok", scope: "read", expires: "31/01/2027" });
    expect(textOf(bad.html)).toContain("Enter a real date as YYYY-MM-DD.");
    expect(bad.html).toContain('value="ok"');
    // Days that do not exist are refused, not rolled over into the next month.
    for (const expires of ["2027-02-30", "2027-04-31", "2027-13-01", "2026-02-29"]) {
      const impossible = await b.post("/app/keys", { name: "ok", scope: "read", expires });
      expect(impossible.status, expires).toBe(422);
      expect(textOf(impossible.html), expires).toContain("Enter a real date as YYYY-MM-DD.");
    }
    expect(count()).toEqual(before);
  });

  test("a name with markup is escaped everywhere it is shown", async () => {
    const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const page = await b.follow(await createKey({ name: evil, scope: "read" }));
    expect(page.html).not.toContain("<script>alert");
    expect(page.html).not.toContain("<img src=x");
    expect(page.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const admin = await b.get("/app/admin");
    expect(admin.html).not.toContain("<script>alert");
    expect(admin.html).toContain("&lt;script&gt;");
  });
});

describe("rotating", () => {
  test("a new secret shown once; the old one works for the overlap, then stops", async () => {
    await b.get("/app/keys");
    const res = await b.post(`/app/keys/${f.keys.write.id}/rotate`, { overlap_hours: "2" });
    expect(res.status).toBe(303);
    const page = await b.follow(res);
    const secret = secretOn(page)!;
    expect(secret).not.toBe(f.keys.write.secret);
    expect(textOf(page.html)).toContain("keeps working until 2026-11-22 14:00 UTC");
    expect((await me(secret)).status).toBe(200);
    expect((await me(f.keys.write.secret)).status).toBe(200);
    t.clock.advanceHours(2);
    expect((await me(f.keys.write.secret)).status).toBe(401);
    expect((await me(secret)).status).toBe(200);
  });

  test("a bad overlap, or a key that cannot be rotated: an error message, nothing rotated", async () => {
    await b.get("/app/keys");
    const bad = await b.follow(await b.post(`/app/keys/${f.keys.write.id}/rotate`, { overlap_hours: "-3" }));
    expect(textOf(bad.html)).toContain("whole number of hours from 0 to 720");
    expect(secretOn(bad)).toBeNull();
    const revoked = await b.follow(await b.post(`/app/keys/${f.keys.revoked.id}/rotate`, { overlap_hours: "1" }));
    expect(textOf(revoked.html)).toContain("is revoked and cannot be rotated");
    expect(secretOn(revoked)).toBeNull();
  });
});

describe("revoking", () => {
  test("the key stops working on the API at once; the form asks first", async () => {
    const page = await b.get("/app/keys");
    expect(page.html).toMatch(new RegExp(`action="/app/keys/${f.keys.read.id}/revoke" data-confirm="Revoke the key`));
    const res = await b.post(`/app/keys/${f.keys.read.id}/revoke`, {});
    expect(res.status).toBe(303);
    expect(textOf((await b.follow(res)).html)).toContain("Revoked “alice read”");
    const api = await me(f.keys.read.secret);
    expect(api.status).toBe(401);
    expect(api.json.detail).toContain("revoked");
  });

  test("another user's key, another org's key, or no key at all: 404 page, nothing revoked", async () => {
    await b.get("/app/keys");
    const csrf = b.last!.html.match(/name="csrf" value="([^"]+)"/)![1];
    for (const id of [f.keys.bobRead.id, f.keys.otherOrgWrite.id, "not-a-uuid", crypto.randomUUID()]) {
      for (const action of ["revoke", "rotate"]) {
        const res = await b.post(`/app/keys/${id}/${action}`, { overlap_hours: "1" }, { csrf });
        expect(res.status, `${action} ${id}`).toBe(404);
        expect(res.headers.get("content-type")).toContain("text/html");
        expect(textOf(res.html)).toContain("Not found");
      }
    }
    expect((await me(f.keys.bobRead.secret)).status).toBe(200);
    expect((await me(f.keys.otherOrgWrite.secret)).status).toBe(200);
  });
});
