// MCP sign-in in a real browser: the MCP SDK's client starts the flow against the app listening on
// 127.0.0.1, headless Debian Chromium opens the authorization URL, signs in, reads the consent
// page and clicks Allow (its form leads back to the app's loopback redirect URI, which the page's
// content security policy must allow), the app's callback receives the code, and the SDK finishes
// and calls the tool. Signed out and back, the same app goes through without a question. Then a
// second app is denied, and the first is revoked from Connected apps.
// Screenshots go to test-artifacts/screenshots/.
//
// Without /usr/bin/chromium this file skips, except under CI (CI=true), where it must run.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { browserTestsMustRun, CHROMIUM, chromiumAvailable, launchChromium, warmPage } from "../helpers/chromium.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";
import { MemoryOAuthProvider } from "../helpers/oauth.ts";
import { PASSWORD, withPassword } from "../helpers/web.ts";

const SHOTS = join(import.meta.dir, "..", "..", "test-artifacts", "screenshots");
const STEP = 30_000;
const LAUNCH = 90_000;
const WAIT = 20_000;

if (!chromiumAvailable && !browserTestsMustRun) {
  console.warn(`test/e2e/oauth-consent.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium; CI installs it and always runs these)`);
}

describe.skipIf(!chromiumAvailable && !browserTestsMustRun)("MCP sign-in in headless Chromium", () => {
  let t: TestApp;
  let f: Fixture;
  let base = "";
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let callback: ReturnType<typeof Bun.serve>;
  /** What reached the app's loopback redirect URI. */
  const arrived: URLSearchParams[] = [];
  const errors: string[] = [];
  let provider: MemoryOAuthProvider;

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const callbackUrl = () => `http://127.0.0.1:${callback.port}/callback`;

  /** An SDK client's first connect: refused (401), the authorization URL noted. */
  async function startSignIn(name: string) {
    const p = new MemoryOAuthProvider({ client_name: name, redirect_uris: [callbackUrl()], token_endpoint_auth_method: "none" });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: p });
    await new Client({ name, version: "1" }).connect(transport).catch(() => {});
    expect(p.authorizationUrl).not.toBeNull();
    return { provider: p, transport };
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = createTestApp();
    f = seedIdentity(t.deps);
    await withPassword(t, f.users.alice.id);
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    callback = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const url = new URL(request.url);
        if (url.pathname !== "/callback") return new Response(null, { status: 204 }); // the browser's favicon
        arrived.push(url.searchParams);
        return new Response("<!doctype html><title>Done</title><p id=done>You can close this window.</p>", { headers: { "content-type": "text/html" } });
      },
    });
    browser = await launchChromium();
    ({ context, page } = await warmPage(browser, `${base}/app/sign-in`, { viewport: { width: 1100, height: 900 }, launchMs: LAUNCH, waitMs: WAIT }));
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
  }, LAUNCH + STEP);

  afterAll(async () => {
    await browser?.close();
    callback?.stop(true);
    await t?.app.stop(true);
    t?.close();
  });

  test("sign in, read the consent page, Allow: the app gets its code and calls the tool", async () => {
    const started = await startSignIn("Claude Desktop");
    provider = started.provider;
    await page.goto(String(provider.authorizationUrl));
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    await page.fill("#f-email", "alice@acme.vc");
    await page.fill("#f-password", PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === "/app/oauth/authorize"), page.click("button[type=submit]")]);

    const consent = page.getByTestId("consent");
    await expect(consent.locator("h1").innerText()).resolves.toBe("Allow “Claude Desktop” to use Dealgraph as you?");
    await expect(page.getByTestId("redirect-host").innerText()).resolves.toBe(`127.0.0.1:${callback.port}`);
    expect(await page.locator("input[name=grant][value=write]").isChecked()).toBe(true);
    await shot("oauth-consent");

    await Promise.all([page.waitForURL((u) => u.port === String(callback.port)), page.click("button[name=decision][value=allow]")]);
    await expect(page.locator("#done").innerText()).resolves.toContain("close this window");
    const answer = arrived.at(-1)!;
    expect(answer.get("state")).toBe(provider.stateValue);
    expect(answer.get("iss")).toBe(base);
    await started.transport.finishAuth(answer.get("code")!);
    expect(provider.saved!.scope).toBe("read write");

    const client = new Client({ name: "Claude Desktop", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    const result = (await client.callTool({ name: "ask", arguments: { question: "who knows someone at acme.com?" } })) as { isError?: boolean };
    expect(result.isError).not.toBe(true);
    await client.close();
  }, STEP);

  test("allowed before, signed out since: sign in, and the browser goes on to the app without a question", async () => {
    await context.clearCookies();
    provider.saved = undefined;
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    await new Client({ name: "Claude Desktop", version: "1" }).connect(transport).catch(() => {});
    await page.goto(String(provider.authorizationUrl));
    await page.fill("#f-email", "alice@acme.vc");
    await page.fill("#f-password", PASSWORD);
    // The sign-in form's navigation ends at the app: the page moves on by itself (a form may lead only here).
    await Promise.all([page.waitForURL((u) => u.port === String(callback.port)), page.click("button[type=submit]")]);
    await transport.finishAuth(arrived.at(-1)!.get("code")!);
    expect(provider.saved!.access_token).toMatch(/^mcp_at_/);
  }, STEP);

  test("another app, denied: it is told access_denied, and nothing is granted", async () => {
    const { provider: other } = await startSignIn("Unknown Tool");
    await page.goto(String(other.authorizationUrl));
    await Promise.all([page.waitForURL((u) => u.port === String(callback.port)), page.click("button[name=decision][value=deny]")]);
    expect(arrived.at(-1)!.get("error")).toBe("access_denied");
    expect(arrived.at(-1)!.get("state")).toBe(other.stateValue);
    const names = t.deps.db.$client.query<{ name: string }, []>("SELECT c.name FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id WHERE g.revoked_at IS NULL").all();
    expect(names).toEqual([{ name: "Claude Desktop" }]);
  }, STEP);

  test("Connected apps lists it with today's usage; Revoke (confirmed) stops it at its next request", async () => {
    await page.goto(`${base}/app/connected-apps`);
    const row = page.getByTestId("my-grants").locator("tbody tr").first();
    await expect(row.innerText()).resolves.toContain("Claude Desktop");
    await shot("oauth-connected-apps");
    page.once("dialog", (d) => void d.accept());
    await Promise.all([page.waitForLoadState("load"), row.locator("button", { hasText: "Revoke" }).click()]);
    await expect(page.locator(".flash").first().innerText()).resolves.toContain("Revoked “Claude Desktop”");
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${provider.saved!.access_token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(errors).toEqual([]);
  }, STEP);
});
