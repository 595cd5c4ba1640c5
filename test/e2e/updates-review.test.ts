// The review queue of founders' updates in headless Chromium: a member signs in with a one-time
// link, sees each figure beside its quote, corrects the period of a figure that named none and
// accepts it (the metric point is written, as the API then reads it), rejects another, and the
// company page marks the point from the update with its quote. Another org's member sees none of it.
//
// Without /usr/bin/chromium this file skips, except under CI (CI=true), where it must run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { updatesService } from "../../src/modules/updates/updates.service.ts";
import { signInUrl, webAuth } from "../../src/modules/web/web.auth.ts";
import { eml } from "../helpers/updates.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { holdingId, importPortfolioBook } from "../helpers/book.ts";
import { browserTestsMustRun, CHROMIUM, chromiumAvailable, launchChromium } from "../helpers/chromium.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";

const WAIT = 30_000;
if (!chromiumAvailable && !browserTestsMustRun) console.warn(`test/e2e/updates-review.test.ts: skipped: ${CHROMIUM} is missing`);

describe.skipIf(!chromiumAvailable && !browserTestsMustRun)("the updates review queue in headless Chromium", () => {
  let t: TestApp;
  let f: Fixture;
  let server: ReturnType<typeof Bun.serve>;
  let base = "";
  let browser: Browser;
  let page: Page;
  const jsErrors: string[] = [];

  const signIn = async (p: Page, userId: string) => {
    await p.goto(signInUrl(base, webAuth(t.deps).issueLink(userId).token));
    await Promise.all([p.waitForURL(/\/app(?:\/account)?$/), p.click("button[type=submit]")]);
  };

  beforeAll(async () => {
    t = createTestApp();
    f = seedIdentity(t.deps);
    importPortfolioBook(t.deps, f.orgs.acme.id);
    const updates = updatesService(t.deps);
    const opts = { userId: f.users.alice.id, origin: "import" as const };
    await updates.ingest(f.orgs.acme.id, eml({ from: "jane@acme.com", subject: "Our metrics", date: "Mon, 04 Nov 2024 10:00:00 +0000", id: "<np@acme.com>", body: "Quick metrics update:\nARR: $1.6M\nCash: $3.1M" }), opts);
    await updates.ingest(f.orgs.acme.id, eml({ from: "jane@acme.com", subject: "September 2024 update", date: "Fri, 04 Oct 2024 10:00:00 +0000", id: "<sep@acme.com>", body: "September 2024 update\nNet burn was $170k.\nTeam is now 40 FTEs." }), opts);
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => t.app.handle(request) });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1300, height: 900 } })).newPage();
    page.setDefaultTimeout(WAIT);
    page.on("pageerror", (e) => jsErrors.push(`${page.url()}: ${e.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    t?.close();
  });

  test("each figure beside its quote; correct the period and accept writes the point; reject; the company page shows the quote", async () => {
    await signIn(page, f.users.alice.id);
    await page.goto(`${base}/app/portfolio/updates`);
    const arr = page.locator('tr[data-metric="arr"]');
    expect(await arr.getAttribute("data-status")).toBe("needs_review");
    expect(await arr.locator('[data-field="quote"]').innerText()).toBe("ARR: $1.6M");
    expect(await arr.locator('[data-field="reason"]').innerText()).toBe("the update names no period");
    // Accepting without a period is refused with the reason; correcting it first works.
    await Promise.all([page.waitForURL(/\/app\/portfolio\/updates/), arr.locator('[data-action="accept"]').click()]);
    expect(await page.locator(".flash").first().innerText()).toContain("no period");
    await page.locator('tr[data-metric="arr"] input[name="period_end"]').fill("2024-10-31");
    await Promise.all([page.waitForURL(/\/app\/portfolio\/updates/), page.locator('tr[data-metric="arr"] [data-action="period"]').click()]);
    expect(await page.locator('tr[data-metric="arr"] [data-field="period"]').innerText()).toBe("2024-10-31");
    await Promise.all([page.waitForURL(/\/app\/portfolio\/updates/), page.locator('tr[data-metric="arr"] [data-action="accept"]').click()]);
    expect(await page.locator(".flash").first().innerText()).toContain("Applied");
    await Promise.all([page.waitForURL(/\/app\/portfolio\/updates/), page.locator('tr[data-metric="cash"] [data-action="reject"]').click()]);
    expect(await page.locator('tr[data-metric="cash"]').count()).toBe(0); // no longer waiting

    const id = holdingId(t.deps, f.orgs.acme.id);
    const history = (await t.request("GET", `/api/v1/portfolio/companies/${id}/metrics?metric=arr&from=2024-10-01`, { key: f.keys.read.secret })).json;
    expect(history.points).toMatchObject([{ value: 1_600_000, statement_date: "2024-10-31T00:00:00.000Z", source: "investor_update", evidence: { quote: "ARR: $1.6M" } }]);

    await page.goto(`${base}/app/portfolio/updates?status=applied`);
    expect(await page.locator('tr[data-metric="monthly_burn"] [data-field="quote"]').innerText()).toBe("Net burn was $170k.");

    await page.goto(`${base}/app/portfolio/${id}`);
    const marked = page.locator('[data-testid="update-points"] tr[data-metric="arr"]');
    expect(await marked.getAttribute("data-source")).toBe("investor_update");
    expect(await marked.locator("q").innerText()).toBe("ARR: $1.6M");
    expect(jsErrors).toEqual([]);
  }, 120_000);

  test("another org's member sees none of these updates; their figure forms are 404", async () => {
    const other = await (await browser.newContext()).newPage();
    await signIn(other, f.users.carol.id);
    await other.goto(`${base}/app/portfolio/updates?status=all`);
    expect(await other.locator("tr[data-figure-id]").count()).toBe(0);
    const figureId = updatesService(t.deps).list(f.orgs.acme.id, { limit: 1, offset: 0 }).updates[0].figures[0].figure_id;
    const res = await other.request.post(`${base}/app/portfolio/updates/figures/${figureId}`, { form: { decision: "accept" }, headers: { origin: base } });
    // No CSRF token of theirs: refused before anything is looked up.
    expect([403, 404]).toContain(res.status());
  }, 60_000);
});
