// The web app's doors: password sign-in, one-time links, sessions (cookie attributes, expiry by the
// clock), CSRF and cross-origin refusals, the per-email rate limit, sign-out, a user in no org.
import { beforeEach, describe, expect, test } from "bun:test";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../src/modules/web/web.service.ts";
import { LINK_TTL_MS, MAX_FAILURES_PER_WINDOW, webAuth } from "../../src/modules/web/web.auth.ts";
import type { TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { Browser, csrfOf, PASSWORD, textOf, webApp, withPassword } from "../helpers/web.ts";

let t: TestApp;
let f: Fixture;
let b: Browser;

beforeEach(async () => ({ t, f, b } = await webApp()));

function linkToken(userId: string): string {
  return webAuth(t.deps).issueLink(userId).token;
}

describe("signing in with a password", () => {
  test("a signed-out visit goes to sign-in, and back to the page after", async () => {
    const first = await b.get("/app/keys");
    expect(first.status).toBe(303);
    expect(first.location).toBe("/app/sign-in?next=%2Fapp%2Fkeys");
    const form = await b.follow(first);
    expect(form.status).toBe(200);
    expect(form.headers.get("content-type")).toContain("text/html");
    expect(form.html).toContain('name="next" value="/app/keys"');
    const res = await b.post("/app/sign-in", { email: "ALICE@acme.vc", password: PASSWORD, next: "/app/keys" });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/app/keys");
    const page = await b.follow(res);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("API keys");
  });

  test("the session cookie is HttpOnly, SameSite=Lax, Path=/app; Secure only over HTTPS", async () => {
    await b.get("/app/sign-in");
    const res = await b.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD });
    const session = res.headers.getSetCookie().find((c) => c.startsWith("dg_session="))!;
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).toMatch(/; Path=\/app(;|$)/);
    expect(session).not.toMatch(/Secure/);

    const behindTls = new Browser(t);
    await behindTls.get("/app/sign-in", { "x-forwarded-proto": "https" });
    const tls = await behindTls.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD }, { headers: { "x-forwarded-proto": "https" }, origin: "https://localhost" });
    expect(tls.status).toBe(303);
    expect(tls.headers.getSetCookie().find((c) => c.startsWith("dg_session="))).toMatch(/; Secure/);
  });

  test("only a hash of the session token is stored", async () => {
    await b.signIn("alice@acme.vc");
    const token = b.jar.get("dg_session")!;
    const rows = t.deps.db.$client.query<{ id: string }, []>("SELECT id FROM web_sessions").all();
    expect(rows).toHaveLength(1);
    expect(rows[0].id).not.toBe(token);
    expect(rows[0].id).toMatch(/^[0-9a-f]{64}$/);
  });

  test("wrong password: 401, the same words as an unknown email, no session", async () => {
    await b.get("/app/sign-in");
    const wrong = await b.post("/app/sign-in", { email: "alice@acme.vc", password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(textOf(wrong.html)).toContain("The email address or password is not right.");
    expect(wrong.html).toContain('value="alice@acme.vc"');
    expect(b.jar.has("dg_session")).toBe(false);

    const unknown = await b.post("/app/sign-in", { email: "nobody@acme.vc", password: PASSWORD });
    expect(unknown.status).toBe(401);
    expect(textOf(unknown.html)).toContain("The email address or password is not right.");
  });

  test("a user without a password cannot sign in with any password", async () => {
    await b.get("/app/sign-in");
    const res = await b.post("/app/sign-in", { email: "bob@acme.vc", password: "" });
    expect(res.status).toBe(401);
  });

  test(`${MAX_FAILURES_PER_WINDOW} failures a minute per email, then 429 even with the right password; it lifts a minute later`, async () => {
    await b.get("/app/sign-in");
    for (let i = 0; i < MAX_FAILURES_PER_WINDOW; i++) {
      expect((await b.post("/app/sign-in", { email: "alice@acme.vc", password: `guess ${i}` })).status).toBe(401);
    }
    const limited = await b.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(textOf(limited.html)).toContain("Too many failed sign-ins");
    // Another address is not limited by alice's failures.
    await withPassword(t, f.users.bob.id);
    expect((await b.post("/app/sign-in", { email: "bob@acme.vc", password: PASSWORD })).status).toBe(303);

    t.clock.advance(61_000);
    const again = new Browser(t);
    await again.get("/app/sign-in");
    expect((await again.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD })).status).toBe(303);
  });

  test("a signed-in visit to /app/sign-in goes to the app", async () => {
    await b.signIn("alice@acme.vc");
    const res = await b.get("/app/sign-in");
    expect(res.status).toBe(303);
    expect(res.location).toBe("/app");
  });

  test("next never leads off the app", async () => {
    await b.get("/app/sign-in");
    const res = await b.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD, next: "//evil.example/app" });
    expect(res.location).toBe("/app");
  });
});

describe("CSRF and cross-origin posts", () => {
  test("sign-in without the pre-session token: 403, nothing signed in", async () => {
    await b.get("/app/sign-in");
    const res = await b.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD }, { csrf: null });
    expect(res.status).toBe(403);
    expect(b.jar.has("dg_session")).toBe(false);
  });

  test("a signed-in form without its CSRF token, or with a wrong one: 403, nothing changed", async () => {
    await b.signIn("alice@acme.vc");
    await b.get("/app/keys");
    const before = t.deps.db.$client.query("SELECT COUNT(*) AS n FROM api_keys").get();
    const missing = await b.post("/app/keys", { name: "no token", scope: "read" }, { csrf: null });
    expect(missing.status).toBe(403);
    expect(textOf(missing.html)).toContain("This form has expired");
    const wrong = await b.post("/app/keys", { name: "wrong token", scope: "read" }, { csrf: "A".repeat(43) });
    expect(wrong.status).toBe(403);
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM api_keys").get()).toEqual(before);
  });

  test("another session's token is not this session's", async () => {
    const other = new Browser(t);
    await other.signIn("alice@acme.vc");
    await other.get("/app/keys");
    await b.signIn("alice@acme.vc");
    const res = await b.post("/app/keys", { name: "x", scope: "read" }, { csrf: (await other.get("/app/keys")).html.match(/name="csrf" value="([^"]+)"/)![1] });
    expect(res.status).toBe(403);
  });

  test("a cross-origin POST is refused even with the right token", async () => {
    await b.signIn("alice@acme.vc");
    const csrf = csrfOf((await b.get("/app/keys")).html);
    for (const origin of ["https://evil.example", "null", "http://localhost:9999"]) {
      const res = await b.post("/app/keys", { name: "cross", scope: "read" }, { origin, csrf });
      expect(res.status, origin).toBe(403);
      expect(textOf(res.html)).toContain("sent from another site");
    }
    const fetchMeta = await b.post("/app/keys", { name: "cross", scope: "read" }, { csrf, origin: null, headers: { "sec-fetch-site": "cross-site" } });
    expect(fetchMeta.status).toBe(403);
    const signInCross = await new Browser(t).post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD }, { csrf: "x", origin: "https://evil.example" });
    expect(signInCross.status).toBe(403);
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM api_keys WHERE name = 'cross'").get()).toEqual({ n: 0 });
  });

  test("DEALGRAPH_PUBLIC_URL's origin is ours too (behind a proxy)", async () => {
    const { b: pb } = await webApp({ env: { DEALGRAPH_PUBLIC_URL: "https://dealgraph.firm.example" } });
    await pb.get("/app/sign-in");
    const res = await pb.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD }, { origin: "https://dealgraph.firm.example" });
    expect(res.status).toBe(303);
  });
});

describe("session expiry by the clock", () => {
  test(`idle for ${SESSION_IDLE_MS / 3600_000} h: back to sign-in with a notice, cookie cleared, row gone`, async () => {
    await b.signIn("alice@acme.vc");
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await b.get("/app/keys")).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    const res = await b.get("/app/keys");
    expect(res.status).toBe(303);
    expect(res.location).toContain("/app/sign-in?");
    expect(res.location).toContain("expired=1");
    expect(b.jar.has("dg_session")).toBe(false);
    const form = await b.follow(res);
    expect(textOf(form.html)).toContain("Your session has expired");
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM web_sessions").get()).toEqual({ n: 0 });
  });

  test(`active sessions still end after ${SESSION_ABSOLUTE_MS / 86_400_000} days`, async () => {
    await b.signIn("alice@acme.vc");
    for (let h = 0; h < 7 * 24 - 6; h += 6) {
      t.clock.advanceHours(6);
      expect((await b.get("/app")).status).toBe(200);
    }
    t.clock.advanceHours(7);
    expect((await b.get("/app")).status).toBe(303);
  });

  test("an expired session's POST changes nothing", async () => {
    await b.signIn("alice@acme.vc");
    await b.get("/app/network");
    t.clock.advance(SESSION_IDLE_MS + 1);
    const res = await b.post("/app/network/sharing", { share: "off" });
    expect(res.status).toBe(303);
    expect(res.location).toContain("/app/sign-in");
    expect(t.deps.db.$client.query<{ s: number }, [string]>("SELECT share_network AS s FROM users WHERE id = ?").get(f.users.alice.id)!.s).toBe(1);
  });
});

describe("one-time sign-in links", () => {
  test("GET shows the link without using it; the POST signs in once", async () => {
    const token = linkToken(f.users.bob.id);
    const page = await b.get(`/app/sign-in/link?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(textOf(page.html)).toContain("Continue as Bob Baker");
    // Looking again is fine: nothing was used yet.
    expect((await b.get(`/app/sign-in/link?token=${token}`)).status).toBe(200);
    const res = await b.post("/app/sign-in/link", { token });
    expect(res.status).toBe(303);
    // Bob has no password yet: the account page, to set one.
    expect(res.location).toBe("/app/account");
    const account = await b.follow(res);
    expect(textOf(account.html)).toContain("Set a password");
    expect(account.html).not.toContain('name="current"');

    const reuse = new Browser(t);
    const used = await reuse.get(`/app/sign-in/link?token=${token}`);
    expect(used.status).toBe(410);
    expect(textOf(used.html)).toContain("already used");
    await reuse.get("/app/sign-in");
    const usedPost = await reuse.post("/app/sign-in/link", { token });
    expect(usedPost.status).toBe(410);
    expect(reuse.jar.has("dg_session")).toBe(false);
  });

  test("a link older than 15 minutes has expired", async () => {
    const token = linkToken(f.users.bob.id);
    await b.get(`/app/sign-in/link?token=${token}`);
    t.clock.advance(LINK_TTL_MS + 1000);
    const res = await b.post("/app/sign-in/link", { token });
    expect(res.status).toBe(410);
    expect(textOf(res.html)).toContain("has expired");
    expect((await b.get(`/app/sign-in/link?token=${token}`)).status).toBe(410);
  });

  test("an unknown token: 404 page; only a hash is stored", async () => {
    const token = linkToken(f.users.bob.id);
    const stored = t.deps.db.$client.query<{ token_hash: string }, []>("SELECT token_hash FROM web_sign_in_links").get()!;
    expect(stored.token_hash).not.toContain(token);
    const res = await b.get(`/app/sign-in/link?token=${token.slice(0, -2)}xx`);
    expect(res.status).toBe(404);
    expect(textOf(res.html)).toContain("not valid");
  });

  test("a link session sets a password without the current one; then the password works", async () => {
    await b.get(`/app/sign-in/link?token=${linkToken(f.users.bob.id)}`);
    await b.follow(await b.post("/app/sign-in/link", { token: b.last!.html.match(/name="token" value="([^"]+)"/)![1] }));
    const short = await b.post("/app/account/password", { password: "short", confirm: "short" });
    expect(short.status).toBe(422);
    expect(textOf(short.html)).toContain("at least 10 characters");
    const mismatch = await b.post("/app/account/password", { password: "a long password 1", confirm: "a long password 2" });
    expect(textOf(mismatch.html)).toContain("not the same");
    const ok = await b.post("/app/account/password", { password: "bob's new password", confirm: "bob's new password" });
    expect(ok.status).toBe(303);
    expect(textOf((await b.follow(ok)).html)).toContain("Your password is saved");
    await new Browser(t).signIn("bob@acme.vc", "bob's new password");
  });

  test("a password session must give the current password to change it", async () => {
    await b.signIn("alice@acme.vc");
    await b.get("/app/account");
    const res = await b.post("/app/account/password", { current: "wrong one!!", password: "another password", confirm: "another password" });
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain("not your current password");
  });
});

describe("signing out, and a user in no organization", () => {
  test("sign-out needs the CSRF token, ends the session and clears the cookie", async () => {
    await b.signIn("alice@acme.vc");
    const token = b.jar.get("dg_session")!;
    expect((await b.post("/app/sign-out", {}, { csrf: null })).status).toBe(403);
    const res = await b.post("/app/sign-out", {});
    expect(res.status).toBe(303);
    expect(res.location).toBe("/app/sign-in?signed_out=1");
    expect(b.jar.has("dg_session")).toBe(false);
    expect(textOf((await b.follow(res)).html)).toContain("You are signed out");
    // The old cookie is worth nothing now.
    const replay = await b.get("/app", { cookie: `dg_session=${token}` });
    expect(replay.status).toBe(303);
  });

  test("a user in no organization signs in and is told to ask an admin; no org pages", async () => {
    await withPassword(t, f.users.nomad.id);
    const home = await b.signIn("nomad@example.com");
    expect(home.status).toBe(200);
    expect(textOf(home.html)).toContain("not in an organization");
    expect(textOf(home.html)).toContain("Ask an administrator");
    expect(home.html).not.toContain('href="/app/keys"');
    for (const path of ["/app/keys", "/app/network", "/app/contacts", "/app/admin"]) {
      const page = await b.get(path);
      expect(page.status, path).toBe(403);
      expect(textOf(page.html)).toContain("not in an organization");
      expect(textOf(page.html)).not.toContain("nomad write");
    }
    expect((await b.get("/app/account")).status).toBe(200);
  });
});

describe("the pages themselves", () => {
  test("security headers, no external assets, embedded CSS and JS", async () => {
    const page = await b.get("/app/sign-in");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.html).not.toMatch(/(src|href)="https?:\/\//);
    const css = await b.get("/app/assets/app.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    const js = await b.get("/app/assets/app.js");
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(js.html).toContain("data-confirm");
  });

  test("an unknown /app page is an HTML 404; /app is not in the OpenAPI document", async () => {
    const res = await b.get("/app/no-such-page");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    const doc = await t.request("GET", "/api/v1/openapi.json");
    expect(Object.keys(doc.json.paths).filter((p) => p.startsWith("/app"))).toEqual([]);
  });
});
