// The sign-in limits under concurrent requests, over a real listening server (so the client's
// socket address is known): every attempt is booked before its password is checked, so a burst
// for one email cannot slip past the five-a-minute limit, and one address cannot spray passwords
// across many accounts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_WINDOW, webAuth } from "../../src/modules/web/web.auth.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import type { TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { openForm, PASSWORD, postForm, webApp, withPassword, type Form } from "../helpers/web.ts";

let t: TestApp;
let f: Fixture;
let base = "";

async function start(env: Record<string, string> = {}) {
  ({ t, f } = await webApp({ env }));
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
}

/** The same firm served again with other settings (DEALGRAPH_TRUSTED_PROXIES). */
async function restart(env: Record<string, string>) {
  await t.app.stop(true);
  t.close();
  await start(env);
}

beforeEach(() => start());
afterEach(() => t.app.stop(true));

/** A sign-in form as a browser gets it: the pre-session cookie and its CSRF token. */
const signInForm = () => openForm(fetch, `${base}/app/sign-in`);

async function attempt(form: Form, email: string, password: string, forwardedFor?: string) {
  const res = await postForm(fetch, `${base}/app/sign-in`, form, { email, password }, forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), html: await res.text() };
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe("per email", () => {
  test(`30 concurrent wrong passwords: exactly ${MAX_FAILURES_PER_WINDOW} are checked (401), the rest 429`, async () => {
    const form = await signInForm();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(form, "alice@acme.vc", `wrong guess ${i}`)));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: MAX_FAILURES_PER_WINDOW, 429: 30 - MAX_FAILURES_PER_WINDOW });
    expect(webAuth(t.deps).failureCount("alice@acme.vc")).toBe(MAX_FAILURES_PER_WINDOW);
    const limited = results.find((r) => r.status === 429)!;
    expect(limited.retryAfter).toMatch(/^\d+$/);
    expect(limited.html).toContain("Too many failed sign-ins for this email address");
  });

  test("29 wrong and the right one at once: the burst does not get the right password checked among dozens", async () => {
    const form = await signInForm();
    const passwords = [...Array.from({ length: 29 }, (_, i) => `wrong guess ${i}`), PASSWORD];
    const results = await Promise.all(passwords.map((p) => attempt(form, "alice@acme.vc", p)));
    const counts = tally(results.map((r) => r.status));
    // At most five failures are ever checked; the right password, if it was among the first
    // attempts booked, frees its own slot, so at most one more.
    expect(counts[401] ?? 0).toBeLessThanOrEqual(MAX_FAILURES_PER_WINDOW);
    expect((counts[401] ?? 0) + (counts[303] ?? 0)).toBeLessThanOrEqual(MAX_FAILURES_PER_WINDOW + 1);
    expect(counts[429]).toBeGreaterThanOrEqual(30 - MAX_FAILURES_PER_WINDOW - 1);
    expect(webAuth(t.deps).failureCount("alice@acme.vc")).toBeLessThanOrEqual(MAX_FAILURES_PER_WINDOW);
  });

  test("a right password is not a failure: it does not count against the next minute", async () => {
    const form = await signInForm();
    for (let i = 0; i <= MAX_FAILURES_PER_WINDOW; i++) expect((await attempt(form, "alice@acme.vc", PASSWORD)).status).toBe(303);
    expect(webAuth(t.deps).failureCount("alice@acme.vc")).toBe(0);
  });
});

describe("per client address", () => {
  test(`${MAX_FAILURES_PER_ADDRESS} failures a minute from one address across many emails, then 429 for every email; lifted a minute later`, async () => {
    const orgs = orgsService(t.deps);
    const emails = Array.from({ length: Math.ceil(MAX_FAILURES_PER_ADDRESS / 4) + 3 }, (_, i) => `spray${i}@acme.vc`);
    for (const [i, email] of emails.entries()) orgs.createUser({ orgId: f.orgs.acme.id, email, name: `Spray ${i}` });
    const form = await signInForm();
    // Four wrong passwords each: never five for one email, so only the address limit can bite.
    const sprayed = emails.flatMap((email) => Array.from({ length: 4 }, (_, i) => attempt(form, email, `Winter2026! ${i}`)));
    const results = await Promise.all(sprayed);
    const counts = tally(results.map((r) => r.status));
    expect(counts).toEqual({ 401: MAX_FAILURES_PER_ADDRESS, 429: results.length - MAX_FAILURES_PER_ADDRESS });
    expect(results.find((r) => r.status === 429)!.html).toContain("Too many failed sign-ins from your network address");

    // Alice has not failed once, but this address has: she is refused too, until the minute is over.
    expect((await attempt(form, "alice@acme.vc", PASSWORD)).status).toBe(429);
    t.clock.advance(61_000);
    expect((await attempt(form, "alice@acme.vc", PASSWORD)).status).toBe(303);
  });

  test("X-Forwarded-For is not trusted: a spoofed header does not give each request a fresh address", async () => {
    await withPassword(t, f.users.bob.id);
    const form = await signInForm();
    const results = await Promise.all(
      Array.from({ length: MAX_FAILURES_PER_ADDRESS + 3 }, (_, i) =>
        fetch(`${base}/app/sign-in`, {
          method: "POST",
          redirect: "manual",
          headers: { cookie: form.cookie, origin: base, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `203.0.113.${i}` },
          body: new URLSearchParams({ csrf: form.csrf, email: `nobody${i}@acme.vc`, password: "wrong password" }),
        }).then((r) => r.status),
      ),
    );
    expect(tally(results)).toEqual({ 401: MAX_FAILURES_PER_ADDRESS, 429: 3 });
  });
});

describe("behind a trusted reverse proxy (DEALGRAPH_TRUSTED_PROXIES)", () => {
  /** Four wrong passwords for each of `n` emails (never five for one email): only the address limit can bite. */
  async function spray(form: { cookie: string; csrf: string }, n: number, forwardedFor: (i: number) => string) {
    const orgs = orgsService(t.deps);
    const emails = Array.from({ length: n }, (_, i) => `spray${i}@acme.vc`);
    for (const [i, email] of emails.entries()) orgs.createUser({ orgId: f.orgs.acme.id, email, name: `Spray ${i}` });
    let k = 0;
    const tries = emails.flatMap((email) => Array.from({ length: 4 }, (_, i) => attempt(form, email, `Winter2026! ${i}`, forwardedFor(k++))));
    return (await Promise.all(tries)).map((r) => r.status);
  }

  test("the client is the right-most X-Forwarded-For entry that is not a trusted proxy: one client is limited, the others are not", async () => {
    // This test connects from 127.0.0.1: the "proxy". 10.0.0.5 is a second proxy in the chain.
    await restart({ DEALGRAPH_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" });
    const form = await signInForm();
    // Whatever the attacker puts on the left of the chain, the proxies' own entries name it as 198.51.100.7.
    const statuses = await spray(form, Math.ceil(MAX_FAILURES_PER_ADDRESS / 4) + 3, (i) => `203.0.113.${i}, 198.51.100.7, 10.0.0.5`);
    expect(tally(statuses)).toEqual({ 401: MAX_FAILURES_PER_ADDRESS, 429: statuses.length - MAX_FAILURES_PER_ADDRESS });
    // Everyone else behind the same proxy still signs in.
    expect((await attempt(form, "alice@acme.vc", PASSWORD, "192.0.2.44")).status).toBe(303);
    expect((await attempt(form, "alice@acme.vc", PASSWORD, "192.0.2.45, 10.0.0.5")).status).toBe(303);
    // And the limited client, with or without a port in the entry, is still refused.
    expect((await attempt(form, "alice@acme.vc", PASSWORD, "198.51.100.7:51234")).status).toBe(429);
  });

  test("X-Forwarded-For from an address that is not a trusted proxy is ignored", async () => {
    await restart({ DEALGRAPH_TRUSTED_PROXIES: "10.0.0.0/8" });
    const form = await signInForm();
    const statuses = await spray(form, Math.ceil(MAX_FAILURES_PER_ADDRESS / 4) + 1, (i) => `203.0.113.${i}`);
    expect(tally(statuses)).toEqual({ 401: MAX_FAILURES_PER_ADDRESS, 429: statuses.length - MAX_FAILURES_PER_ADDRESS });
  });
});
