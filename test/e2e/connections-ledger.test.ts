// The Connections page's sync ledger in headless Chromium: a mailbox on a real Dovecot, synced
// (imported, a mailing-list skip, a message before --since), then its password changed on the
// server so the next sync fails: the page shows the connection's totals over its ledger, its
// latest folder syncs (an empty folder's row says nothing was new), and its last error, and never
// the password.
// Screenshots go to test-artifacts/screenshots/.
//
// Without /usr/bin/chromium (or Dovecot) this file skips, except under CI, where it must run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../src/modules/connections/connections.sync.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { browserTestsMustRun, CHROMIUM, chromiumAvailable, launchChromium, warmPage } from "../helpers/chromium.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";
import { message } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../helpers/mail-servers.ts";
import { PASSWORD, withPassword } from "../helpers/web.ts";

const SHOTS = join(import.meta.dir, "..", "..", "test-artifacts", "screenshots");
const LAUNCH = 90_000;
const WAIT = 20_000;
const ALICE = { login: "alice@acme.vc", password: "ledger-page-Pa55word" };
const run = (chromiumAvailable || browserTestsMustRun) && (hasDovecot() || process.env.CI === "1");

if (!run) console.warn(`test/e2e/connections-ledger.test.ts: skipped: ${CHROMIUM} or Dovecot is missing (CI installs both and always runs it)`);

describe.skipIf(!run)("the sync ledger on /app/connections (headless Chromium, Dovecot)", () => {
  let t: TestApp;
  let f: Fixture;
  let dovecot: Dovecot | null = null;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base = "";
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dovecot = await startDovecot({ users: [ALICE] });
    t = createTestApp();
    f = seedIdentity(t.deps);
    await withPassword(t, f.users.alice.id);
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    browser = await launchChromium();
    ({ context, page } = await warmPage(browser, `${base}/app/sign-in`, { viewport: { width: 1280, height: 1000 }, launchMs: LAUNCH, waitMs: WAIT }));
    page.on("pageerror", (e) => errors.push(e.message));
  }, LAUNCH + 30_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await t?.app.stop();
    t?.close();
    await dovecot?.close();
  });

  test("totals, the latest folder syncs and the last error", async () => {
    const now = t.deps.clock.now().getTime();
    const day = (n: number) => new Date(now - n * 86_400_000).toISOString();
    dovecot!.deliver(ALICE.login, "INBOX", [
      message({ from: "Jane Doe <jane@target.com>", to: ALICE.login, date: day(5), id: "page-1@target.com" }),
      message({ from: "Omar <omar@fund.vc>", to: ALICE.login, date: day(4), id: "page-2@fund.vc" }),
      message({ from: "news@letters.com", to: ALICE.login, date: day(3), id: "page-3@letters.com", headers: ["List-Id: <weekly.letters.com>"] }),
      message({ from: "Old <old@corp.com>", to: ALICE.login, date: day(500), id: "page-4@corp.com" }),
    ]);
    const service = connectionsService(t.deps);
    service.setMailServer(f.orgs.acme.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    const { connection_id } = await service.connectMail(f.users.alice.id, { login: ALICE.login, password: ALICE.password, since: day(365).slice(0, 10) });
    await connectionsSync(t.deps).syncUser(f.users.alice.id);
    // The server stops taking the password: the next sync fails with the reason.
    await dovecot!.setPassword(ALICE.login, "changed-on-the-server-1");
    expect((await connectionsSync(t.deps).syncUser(f.users.alice.id)).connections[0].status).toBe("error");

    await page.fill("#f-email", "alice@acme.vc");
    await page.fill("#f-password", PASSWORD);
    await Promise.all([page.waitForURL(`${base}/app`), page.click("button[type=submit]")]);
    await page.goto(`${base}/app/connections`);
    const card = page.locator(`[data-testid=ledger][data-connection-id="${connection_id}"]`);
    await expect(card.locator("h2").innerText()).resolves.toBe(`Sync ledger: ${ALICE.login}`);
    // INBOX's sync and Sent's (empty: a row with nothing new).
    await expect(card.getByTestId("ledger-totals").innerText()).resolves.toBe("4 messages seen over 2 folder syncs: 2 imported, 0 already known, 2 skipped, none failed.");
    await expect(card.getByTestId("ledger-last-error").innerText()).resolves.toMatch(/^Last error: 127\.0\.0\.1:\d+ refused the login and password/);
    // Newest first: Sent (nothing new), then INBOX.
    const rows = card.locator("[data-testid=ledger-rows] tbody tr");
    expect((await rows.nth(0).locator("td").allInnerTexts()).slice(1)).toEqual(["Sent", expect.stringMatching(/^nothing new after 0 \(UIDVALIDITY \d+\)$/), "0", "0", "0", "—", "—"]);
    const cells = await rows.nth(1).locator("td").allInnerTexts();
    expect(cells.slice(1)).toEqual(["INBOX", expect.stringMatching(/^1–4 \(UIDVALIDITY \d+\)$/), "4", "2", "0", expect.stringMatching(/^(mailing list 1, before since 1|before since 1, mailing list 1)$/), "—"]);
    await page.screenshot({ path: join(SHOTS, "connections-ledger.png"), fullPage: true });
    expect(await page.content()).not.toContain(ALICE.password);
    expect(errors).toEqual([]);
  }, 90_000);
});
