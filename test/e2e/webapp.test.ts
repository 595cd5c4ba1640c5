// The web app in a real browser: headless Debian Chromium driven by playwright-core against the
// real app listening on 127.0.0.1 (in process, so the test clock can expire a session). Signs in,
// creates a key and uses it on the API, rotates and revokes it, sets a cadence and watches the
// going-stale list change, signs out; and the bad paths: a wrong password, a missing CSRF token,
// an expired session. Screenshots of the main pages go to test-artifacts/screenshots/.
//
// Without /usr/bin/chromium this file skips, except under CI (CI=true), where it must run:
// .ci/run installs Debian's chromium.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SESSION_IDLE_MS } from "../../src/modules/web/web.service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { browserTestsMustRun, CHROMIUM, chromiumAvailable, launchChromium, warmPage } from "../helpers/chromium.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";
import { knows, thread } from "../helpers/network.ts";
import { PASSWORD, withPassword } from "../helpers/web.ts";

const SHOTS = join(import.meta.dir, "..", "..", "test-artifacts", "screenshots");
const STEP = 30_000;
// A fresh machine's first page and first screenshot are slow (Chromium builds its font cache), so
// the launch warms both up under its own allowance and every wait gets more than a cold start.
const LAUNCH = 90_000;
const WAIT = 20_000;
const available = chromiumAvailable;
const mustRun = browserTestsMustRun;

if (!available && !mustRun) {
  console.warn(`test/e2e/webapp.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium; CI installs it and always runs these)`);
}

describe.skipIf(!available && !mustRun)("web app in headless Chromium", () => {
  let t: TestApp;
  let f: Fixture;
  let server: ReturnType<typeof Bun.serve>;
  let base = "";
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const started = performance.now();
  const secrets: { created?: string; rotated?: string } = {};

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const me = (secret: string) => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
  /** The flash message of the page a form led to (waits for it to appear). */
  const flashText = async () => {
    const flash = page.locator(".flash").first();
    await flash.waitFor();
    return flash.innerText();
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = createTestApp();
    f = seedIdentity(t.deps);
    await withPassword(t, f.users.alice.id);
    // Dana: 20 days without a touch and no learned cadence, so not stale until a cadence is declared.
    knows(t.deps, f.users.alice.id, { email: "dana@northwind.example", name: "Dana Diaz", title: "Partner" }, thread(3, 10, 20));
    knows(t.deps, f.users.alice.id, { email: "jane@target.example", name: "Jane Doe", title: "CEO" }, thread(10, 5, 3));
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => t.app.handle(request) });
    base = `http://127.0.0.1:${server.port}`;

    browser = await launchChromium();
    ({ context, page } = await warmPage(browser, `${base}/app/sign-in`, { viewport: { width: 1280, height: 860 }, launchMs: LAUNCH, waitMs: WAIT }));
  }, LAUNCH + STEP);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    t?.close();
    console.log(`web app browser tests: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  test("a signed-out visit lands on sign-in; a wrong password says so and signs nobody in", async () => {
    await page.goto(`${base}/app/keys`);
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    await shot("sign-in");
    await page.fill("#f-email", "alice@acme.vc");
    await page.fill("#f-password", "not my password");
    await page.click("button[type=submit]");
    await expect(page.getByTestId("sign-in-error").innerText()).resolves.toContain("email address or password is not right");
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    expect((await context.cookies()).some((c) => c.name === "dg_session")).toBe(false);
    await shot("sign-in-wrong-password");
  }, STEP);

  test("signing in with the password goes back to the page asked for", async () => {
    await page.fill("#f-password", PASSWORD);
    await Promise.all([page.waitForURL(`${base}/app/keys`), page.click("button[type=submit]")]);
    const cookie = (await context.cookies()).find((c) => c.name === "dg_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    expect(cookie.path).toBe("/app");
    await page.goto(`${base}/app`);
    await expect(page.locator("h1").innerText()).resolves.toBe("Welcome, Alice");
    await shot("overview");
  }, STEP);

  test("create a key: the secret is shown once with a copy button, and it works on the API", async () => {
    await page.goto(`${base}/app/keys`);
    await page.fill("#f-name", "E2E integration");
    await page.check("input[name=scope][value=write]");
    await page.click("[data-testid=create-key-form] button[type=submit]");
    const secret = (await page.getByTestId("new-secret").innerText()).trim();
    expect(secret).toMatch(/^ak_[0-9A-Za-z]{38}$/);
    secrets.created = secret;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    await page.click("button[data-copy]");
    // The label changes once the clipboard write has finished.
    await page.locator("button[data-copy]", { hasText: "Copied" }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(secret);
    await shot("keys-created");

    const res = await me(secret);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { key: { name: string; scope: string } };
    expect(body.key).toMatchObject({ name: "E2E integration", scope: "write" });

    await page.reload();
    expect(await page.getByTestId("new-secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator("tr[data-key-name='E2E integration']");
    await expect(row.innerText()).resolves.toContain("1 / 5,000 requests");
  }, STEP);

  test("rotate with an overlap: a new secret; both work during the overlap", async () => {
    const row = page.locator("tr[data-key-name='E2E integration'][data-status=active]");
    await row.locator("summary", { hasText: "Rotate" }).click();
    await row.locator("input[name=overlap_hours]").fill("1");
    await row.locator("button", { hasText: "Rotate key" }).click();
    const rotated = (await page.getByTestId("new-secret").innerText()).trim();
    expect(rotated).toMatch(/^ak_/);
    expect(rotated).not.toBe(secrets.created);
    secrets.rotated = rotated;
    await expect(flashText()).resolves.toContain("keeps working until");
    expect((await me(rotated)).status).toBe(200);
    expect((await me(secrets.created!)).status).toBe(200);
    t.clock.advanceHours(1);
    expect((await me(secrets.created!)).status).toBe(401);
  }, STEP);

  test("revoke asks first; cancelling keeps the key, confirming stops it on the API", async () => {
    await page.goto(`${base}/app/keys`);
    const row = () => page.locator("tr[data-key-name='E2E integration'][data-status=active]");
    const dismiss = (d: { dismiss(): Promise<void> }) => d.dismiss();
    page.once("dialog", dismiss);
    await row().locator("button", { hasText: "Revoke" }).click();
    expect(await row().count()).toBe(1);
    expect((await me(secrets.rotated!)).status).toBe(200);

    let question = "";
    page.once("dialog", (d) => {
      question = d.message();
      void d.accept();
    });
    await Promise.all([page.waitForLoadState("load"), row().locator("button", { hasText: "Revoke" }).click()]);
    await expect(flashText()).resolves.toContain("Revoked “E2E integration”");
    expect(question).toContain("Revoke the key “E2E integration”?");
    expect(await row().count()).toBe(0);
    const res = await me(secrets.rotated!);
    expect(res.status).toBe(401);
    await shot("keys");
  }, STEP);

  test("setting a cadence puts the contact on the going-stale list", async () => {
    await page.goto(`${base}/app/network`);
    expect(await page.getByTestId("stale-empty").count()).toBe(1);
    await page.goto(`${base}/app/contacts`);
    await page.fill("input[name=q]", "dana");
    await page.click("form[role=search] button[type=submit]");
    const row = page.locator("tr[data-contact='dana@northwind.example']");
    expect(await page.locator("tbody tr").count()).toBe(1);
    await row.locator("input[name=days]").fill("14");
    await row.locator("button", { hasText: "Save" }).click();
    await expect(flashText()).resolves.toContain("every 14 days");
    expect(new URL(page.url()).search).toBe("?q=dana");
    await shot("contacts");

    await page.goto(`${base}/app/network`);
    const stale = page.getByTestId("stale-table");
    await expect(stale.innerText()).resolves.toContain("Dana Diaz");
    await expect(page.getByTestId("stale-total").innerText()).resolves.toBe("1 relationship past its cadence");
    await shot("network");

    // A snooze takes Dana off the list again.
    await stale.locator("tr[data-contact='dana@northwind.example'] button", { hasText: "Snooze" }).click();
    await expect(flashText()).resolves.toContain("is snoozed until");
    expect(await page.getByTestId("stale-empty").count()).toBe(1);
  }, STEP);

  test("the admin page lists members and every key of the organization", async () => {
    await page.goto(`${base}/app/admin`);
    await expect(page.getByTestId("members-table").innerText()).resolves.toContain("Bob Baker");
    await expect(page.getByTestId("key-table").innerText()).resolves.toContain("bob read");
    await shot("admin");
  }, STEP);

  test("the connections page offers the digest and says who sets the mail server", async () => {
    await page.goto(`${base}/app/connections`);
    await expect(page.getByTestId("no-mail-server").innerText()).resolves.toContain("dealgraph admin mail-server set");
    await page.getByTestId("digest-toggle").click();
    await expect(flashText()).resolves.toContain("You will get the going-stale digest every Monday.");
    await shot("connections-digest");
    await page.getByTestId("digest-toggle").click();
    await expect(flashText()).resolves.toContain("The weekly digest is off.");
  }, STEP);

  test("a form without its CSRF token is refused and changes nothing", async () => {
    await page.goto(`${base}/app/keys`);
    const before = await page.locator("tr[data-key-id]").count();
    await page.fill("#f-name", "no csrf");
    await page.evaluate(`document.querySelector("[data-testid=create-key-form] input[name=csrf]").remove()`);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/app/keys")),
      page.click("[data-testid=create-key-form] button[type=submit]"),
    ]);
    expect(response.status()).toBe(403);
    await page.locator("h1", { hasText: "This form has expired" }).waitFor();
    await shot("csrf-missing");
    await page.goto(`${base}/app/keys`);
    expect(await page.locator("tr[data-key-id]").count()).toBe(before);
  }, STEP);

  test("an expired session goes back to sign-in with a notice", async () => {
    t.clock.advance(SESSION_IDLE_MS + 60_000);
    await page.goto(`${base}/app/keys`);
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    await expect(page.locator(".flash.info").innerText()).resolves.toContain("Your session has expired");
    await shot("session-expired");
  }, STEP);

  test("sign in again, then sign out: the app is closed until the next sign-in", async () => {
    await page.fill("#f-email", "alice@acme.vc");
    await page.fill("#f-password", PASSWORD);
    await Promise.all([page.waitForURL(`${base}/app/keys`), page.click("button[type=submit]")]);
    await Promise.all([page.waitForURL(/\/app\/sign-in\?signed_out=1$/), page.locator("button", { hasText: "Sign out" }).click()]);
    await expect(page.locator(".flash.info").innerText()).resolves.toContain("You are signed out");
    expect((await context.cookies()).some((c) => c.name === "dg_session")).toBe(false);
    await page.goto(`${base}/app/network`);
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
  }, STEP);
});
