// /app/connections on a Google Workspace org and on a Microsoft 365 org, in headless Chromium,
// against real servers on loopback: Dovecots taking only tokens through their oauth2 passdb (the
// Google one OAUTHBEARER and XOAUTH2, the Microsoft one XOAUTH2), Radicale behind the imitation of
// Google's CalDAV, the imitations of Google's and Microsoft's token endpoints and of Graph. A member
// connects their mail and their calendar with no password field anywhere on the page (the
// provider's sign-in takes its place), and both sync; a member the provider refuses sees the
// provider's reason at the form, and only they do: their teammate's page shows no error. No
// token, key or client secret on any page.
// Screenshots go to test-artifacts/screenshots/.
//
// Without /usr/bin/chromium, Dovecot or Radicale this file skips, except under CI, where it must run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { providerSetup } from "../../src/modules/connections/connections.provider-setup.ts";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { browserTestsMustRun, CHROMIUM, chromiumAvailable, launchChromium, warmPage } from "../helpers/chromium.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";
import { message } from "../helpers/import-files.ts";
import { googleServiceAccount, startProviderImitation, type ProviderImitation } from "../helpers/mail-oauth.ts";
import { hasDovecot, hasRadicale, startDovecot, startRadicale, type Dovecot, type Radicale } from "../helpers/mail-servers.ts";
import { PASSWORD, withPassword } from "../helpers/web.ts";

const SHOTS = join(import.meta.dir, "..", "..", "test-artifacts", "screenshots");
const LAUNCH = 90_000;
const WAIT = 20_000;
const ALICE = "alice@acme.vc";
const BOB = "bob@acme.vc";
// The Microsoft org's members: the imitation's app token is good for the acme.vc domain, and
// Exchange (Dovecot's username_filter) lets it read Dan's mailbox, not Erin's.
const DAN = "dan@acme.vc";
const ERIN = "erin@acme.vc";
const RADICALE_USERS = [{ login: ALICE, password: `radicale-${ALICE}` }];
const run = (chromiumAvailable || browserTestsMustRun) && ((hasDovecot() && hasRadicale()) || process.env.CI === "1");

if (!run) console.warn(`test/e2e/connections-providers.test.ts: skipped: ${CHROMIUM}, Dovecot or Radicale is missing (CI installs them and always runs it)`);

describe.skipIf(!run)("/app/connections on Google Workspace and Microsoft 365 orgs (headless Chromium)", () => {
  const sa = googleServiceAccount();
  let t: TestApp;
  let f: Fixture;
  let providers: ProviderImitation;
  let radicale: Radicale | null = null;
  let google: Dovecot | null = null;
  let microsoft: Dovecot | null = null;
  let browser: Browser;
  let base = "";
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const pagesSeen: string[] = [];
  const ids: Record<string, string> = {};
  // Days before the app's clock (the test app's, not the machine's: a message after it is in the future).
  const daysAgo = (n: number) => new Date(t.deps.clock.now().getTime() - n * 86_400_000);
  const icsTime = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    radicale = await startRadicale({ users: RADICALE_USERS });
    providers = await startProviderImitation({ googlePublicPem: sa.publicPem, googleClientEmail: sa.clientEmail, radicale, radicaleUsers: RADICALE_USERS });
    // Bob is not in the Workspace domain as Google sees it: his token is refused.
    providers.google.users.add(ALICE);
    const unused = (login: string) => ({ login, password: `unused-${Math.random()}` });
    google = await startDovecot({ users: [ALICE, BOB].map(unused), oauth2: { introspectionUrl: providers.introspectionUrl, only: true } });
    microsoft = await startDovecot({ users: [DAN, ERIN].map(unused), oauth2: { introspectionUrl: providers.introspectionUrl, usernameFormat: "%d", usernameFilter: [DAN], mechanisms: ["xoauth2"], only: true } });
    t = createTestApp({ env: { ...providers.env, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } });
    f = seedIdentity(t.deps);
    const orgs = orgsService(t.deps);
    const partners = orgs.createOrg("Acme Partners");
    ids.alice = f.users.alice.id;
    ids.bob = f.users.bob.id;
    ids.dan = orgs.createUser({ orgId: partners.id, email: DAN, name: "Dan Diaz" }).id;
    ids.erin = orgs.createUser({ orgId: partners.id, email: ERIN, name: "Erin Eze" }).id;
    for (const id of Object.values(ids)) await withPassword(t, id);
    const setup = providerSetup(t.deps);
    await setup.setServer(f.orgs.acme.id, { provider: "google", serviceAccountJson: sa.json, imap: `127.0.0.1:${google!.port}`, security: "plain" });
    const ms = providers.microsoft;
    await setup.setServer(partners.id, { provider: "microsoft", tenant: ms.tenant, clientId: ms.clientId, clientSecret: ms.secret, imap: `127.0.0.1:${microsoft!.port}`, security: "plain" });

    // What there is to read: Alice's mail and her primary calendar; Dan's mail and his Graph calendar.
    google!.deliver(ALICE, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE, date: daysAgo(3).toISOString(), id: "web-g-1@target.com" })]);
    const calendar = await radicale!.makeCalendar(RADICALE_USERS[0], "events");
    const at = daysAgo(5);
    await radicale!.put(
      RADICALE_USERS[0],
      calendar,
      "intro",
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:web-intro-1@acme.vc\r\nDTSTAMP:${icsTime(at)}\r\nDTSTART:${icsTime(at)}\r\nDTEND:${icsTime(new Date(at.getTime() + 3600_000))}\r\nSUMMARY:Intro\r\nORGANIZER:mailto:${ALICE}\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:${ALICE}\r\nATTENDEE;PARTSTAT=ACCEPTED;CN=Jane Doe:mailto:jane@target.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
    );
    microsoft!.deliver(DAN, "INBOX", [message({ from: "Omar <omar@fund.vc>", to: DAN, date: daysAgo(2).toISOString(), id: "web-m-1@fund.vc" })]);
    providers.graph.setEvents(DAN, [
      { id: "d1", uid: "web-pitch-1", start: daysAgo(4).toISOString(), organizer: "omar@fund.vc", response: "accepted", attendees: [{ address: DAN, response: "accepted" }, { address: "omar@fund.vc", response: "organizer" }] },
    ]);

    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    browser = await launchChromium();
  }, LAUNCH + 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await t?.app.stop();
    t?.close();
    await google?.close();
    await microsoft?.close();
    await radicale?.close();
    await providers?.close();
  });

  /** A member signed in, in a browser context of their own, on /app/connections. */
  async function signedIn(email: string): Promise<Page> {
    const { context, page } = await warmPage(browser, `${base}/app/sign-in`, { viewport: { width: 1280, height: 1100 }, launchMs: LAUNCH, waitMs: WAIT });
    contexts.push(context);
    page.on("pageerror", (e) => errors.push(e.message));
    await page.fill("#f-email", email);
    await page.fill("#f-password", PASSWORD);
    await Promise.all([page.waitForURL(`${base}/app`), page.click("button[type=submit]")]);
    await page.goto(`${base}/app/connections`);
    return page;
  }

  /** Waits for the background syncs the connects started, then shows the page again. */
  async function syncedView(page: Page, userId: string) {
    const until = Date.now() + 60_000;
    const done = () => connectionsService(t.deps).list(userId).every((c) => c.status === "ok" || c.status === "error");
    while (!done() && Date.now() < until) await Bun.sleep(100);
    await page.goto(`${base}/app/connections`);
    pagesSeen.push(await page.content());
    return connectionsService(t.deps).list(userId);
  }

  const noPasswordField = async (page: Page) => expect(await page.locator("input[type=password]").count()).toBe(0);

  test("Google Workspace: a member connects mail and calendar with no password field; a member Google refuses sees Google's reason, and only they do", async () => {
    const alice = await signedIn(ALICE);
    await noPasswordField(alice);
    await expect(alice.locator("#connect-mail").getAttribute("data-provider")).resolves.toBe("google");
    await expect(alice.getByTestId("provider-mailbox").innerText()).resolves.toBe(ALICE);
    await Promise.all([alice.waitForURL(`${base}/app/connections`), alice.click("#connect-mail button[type=submit]")]);
    await expect(alice.locator(".flash").first().innerText()).resolves.toContain(`Connected the mailbox ${ALICE}`);
    await noPasswordField(alice);
    await Promise.all([alice.waitForURL(`${base}/app/connections`), alice.click("#connect-calendar button[type=submit]")]);
    await expect(alice.locator(".flash").first().innerText()).resolves.toContain("Connected the calendar");
    const views = await syncedView(alice, ids.alice);
    expect(views.map((v) => [v.account, v.status, v.last_error])).toEqual([
      [ALICE, "ok", null],
      [`${ALICE} (Google Calendar)`, "ok", null],
    ]);
    expect(views[0].last_result).toMatchObject({ messages_new: 1 });
    expect(views[1].last_result).toMatchObject({ meetings_new: 1 });
    const rows = alice.locator("[data-testid=connection-table] tbody tr");
    await expect(rows.count()).resolves.toBe(2);
    for (const s of await rows.locator("td:nth-child(3)").allInnerTexts()) expect(s).toBe("Synced");

    // Bob: Google refuses his token. The mail form and the calendar form show Google's reason to him.
    const bob = await signedIn(BOB);
    await noPasswordField(bob);
    await Promise.all([bob.waitForResponse((r) => r.url().endsWith("/app/connections/mail")), bob.click("#connect-mail button[type=submit]")]);
    await expect(bob.getByTestId("mail-error").innerText()).resolves.toMatch(/^Not connected: Google's token endpoint \(for bob@acme\.vc\) refused: invalid_grant/);
    await Promise.all([bob.waitForResponse((r) => r.url().endsWith("/app/connections/calendar")), bob.click("#connect-calendar button[type=submit]")]);
    await expect(bob.getByTestId("calendar-error").innerText()).resolves.toMatch(/invalid_grant/);
    await noPasswordField(bob);
    expect(connectionsService(t.deps).list(ids.bob)).toEqual([]);
    pagesSeen.push(await bob.content());
    await bob.screenshot({ path: join(SHOTS, "connections-google-refused.png"), fullPage: true });

    // Alice's page: her connections, no error of Bob's (or any).
    await alice.goto(`${base}/app/connections`);
    await expect(alice.getByTestId("mail-error").count()).resolves.toBe(0);
    await expect(alice.getByTestId("calendar-error").count()).resolves.toBe(0);
    expect(await alice.content()).not.toContain("invalid_grant");
    expect(await alice.content()).not.toContain(BOB);
    await alice.screenshot({ path: join(SHOTS, "connections-google.png"), fullPage: true });
  }, 180_000);

  test("Microsoft 365: a member connects mail (XOAUTH2) and the Graph calendar with no password field; a mailbox Exchange refuses shows its reason to that member only", async () => {
    const dan = await signedIn(DAN);
    await noPasswordField(dan);
    await expect(dan.locator("#connect-calendar").getAttribute("data-provider")).resolves.toBe("microsoft");
    await Promise.all([dan.waitForURL(`${base}/app/connections`), dan.click("#connect-mail button[type=submit]")]);
    await Promise.all([dan.waitForURL(`${base}/app/connections`), dan.click("#connect-calendar button[type=submit]")]);
    const views = await syncedView(dan, ids.dan);
    expect(views.map((v) => [v.account, v.source, v.status, v.last_error])).toEqual([
      [DAN, "imap", "ok", null],
      [`${DAN} (Microsoft 365 calendar)`, "graph", "ok", null],
    ]);
    expect(views[0].last_result).toMatchObject({ messages_new: 1 });
    expect(views[1].last_result).toMatchObject({ meetings_new: 1 });
    await expect(dan.locator("[data-testid=connection-table] tbody tr td:nth-child(2)").allInnerTexts()).resolves.toEqual(["Mail (IMAP)", "Calendar (Microsoft Graph)"]);

    const erin = await signedIn(ERIN);
    await noPasswordField(erin);
    await Promise.all([erin.waitForResponse((r) => r.url().endsWith("/app/connections/mail")), erin.click("#connect-mail button[type=submit]")]);
    await expect(erin.getByTestId("mail-error").innerText()).resolves.toMatch(/^Not connected: 127\.0\.0\.1:\d+ refused the provider's access token for erin@acme\.vc/);
    expect(connectionsService(t.deps).list(ids.erin)).toEqual([]);
    pagesSeen.push(await erin.content());

    await dan.goto(`${base}/app/connections`);
    await expect(dan.getByTestId("mail-error").count()).resolves.toBe(0);
    expect(await dan.content()).not.toContain(ERIN);
    pagesSeen.push(await dan.content());
    await dan.screenshot({ path: join(SHOTS, "connections-microsoft.png"), fullPage: true });
  }, 180_000);

  test("no token, key or client secret on any page; no script errors", () => {
    expect(pagesSeen.length).toBeGreaterThanOrEqual(4);
    const all = pagesSeen.join("\n");
    expect(all).not.toContain("ya29.test-");
    expect(all).not.toContain("PRIVATE KEY");
    expect(all).not.toContain(providers.microsoft.secret);
    expect(errors).toEqual([]);
  });
});
