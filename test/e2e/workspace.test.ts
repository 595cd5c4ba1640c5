// The web workspace in a real browser: headless Debian Chromium (playwright-core) against the real
// app listening on 127.0.0.1, with the demo firm built by the demo builder (src/demo) and the real
// action runner. It signs in with the demo's one-click link and walks every page: the pipeline
// (moving a deal), a deal and the document page its evidence links to, uploading a deck and
// watching its analysis live, who-knows, the portfolio and a company's charts, the funds, research
// (started here, followed live, its citations followed), webhooks (redelivering), connections, and
// another organization's page (404). On every page the figures are checked against the API's, no
// request may leave the server's origin, and no page may log a JavaScript error. Screenshots of
// every page go to test-artifacts/screenshots/workspace-*.png.
//
// Without /usr/bin/chromium this file skips, except under CI (CI=true), where it must run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { runHandlers } from "../../jobs/index.ts";
import { buildDemo, type DemoKeys } from "../../src/demo/build.ts";
import { startRunner, type Runner } from "../../src/modules/actions/runner.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { signInUrl } from "../../src/modules/web/web.auth.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { browserTestsMustRun, CHROMIUM, chromiumAvailable, launchChromium } from "../helpers/chromium.ts";
import { importPortfolioBook } from "../helpers/book.ts";
import { TestClock } from "../helpers/clock.ts";
import { pdfDeck } from "../helpers/decks.ts";
import { seedEndpoint } from "../helpers/webhooks.ts";

const SHOTS = join(import.meta.dir, "..", "..", "test-artifacts", "screenshots");
const STEP = 60_000;
const BUILD = 240_000;
const WAIT = 30_000;
const available = chromiumAvailable;
const mustRun = browserTestsMustRun;

if (!available && !mustRun) console.warn(`test/e2e/workspace.test.ts: skipped: ${CHROMIUM} is missing`);

describe.skipIf(!available && !mustRun)("the web workspace in headless Chromium, on the demo firm", () => {
  let t: TestApp;
  let keys: DemoKeys;
  let orgId = "";
  let server: ReturnType<typeof Bun.serve>;
  let runner: Runner;
  let base = "";
  let browser: Browser;
  let page: Page;
  const offOrigin: string[] = [];
  const jsErrors: string[] = [];
  const started = performance.now();

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `workspace-${name}.png`), fullPage: true });
  const api = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${keys.read.secret}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as any;
  };
  const go = async (path: string) => {
    const res = await page.goto(`${base}${path}`);
    return res!.status();
  };
  /** The number a figure cell shows exactly (its data-value). */
  const valueOf = async (selector: string) => Number(await page.locator(selector).first().getAttribute("data-value"));
  const flash = async () => (await page.locator(".flash").first().innerText()).trim();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = createTestApp({ file: true, clock: new TestClock(new Date()) });
    keys = await buildDemo(t.deps, { err: () => {} });
    orgId = orgsService(t.deps).mustGetUser(keys.user_id).orgId!;
    runner = startRunner(t.deps, runHandlers(t.deps), { pollMs: 200 });
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => t.app.handle(request) });
    base = `http://127.0.0.1:${server.port}`;

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    page.on("request", (r) => {
      if (!r.url().startsWith(`${base}/`) && !r.url().startsWith("data:")) offOrigin.push(r.url());
    });
    page.on("pageerror", (e) => jsErrors.push(`${page.url()}: ${e.message}`));
    page.on("console", (m) => {
      // A 404 page is a page, not a script error: the browser logs its status as a failed resource.
      if (m.type() === "error" && !/Failed to load resource/.test(m.text())) jsErrors.push(`${page.url()}: ${m.text()}`);
    });
  }, BUILD);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    await runner?.stop();
    t?.close();
    console.log(`web workspace browser tests: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  test("the demo's one-click link signs in, and again (it is reusable); the overview counts the pipeline as the API does", async () => {
    await page.goto(signInUrl(base, keys.sign_in_token!));
    await shot("sign-in-link");
    await Promise.all([page.waitForURL(`${base}/app`), page.click("button[type=submit]")]);
    expect(await page.locator("h1").innerText()).toStartWith("Welcome,");
    for (const stage of ["new", "screening", "diligence", "ic", "invested", "passed"]) {
      const total = (await api(`/api/v1/deals?stage=${stage}&limit=1`)).total;
      expect(Number((await page.locator(`[data-stage-count=${stage}]`).innerText()).replace(/,/g, "")), stage).toBe(total);
    }
    await shot("overview");
    // The link works again, in another browser context.
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(signInUrl(base, keys.sign_in_token!));
    await Promise.all([second.waitForURL(`${base}/app`), second.click("button[type=submit]")]);
    await other.close();
  }, STEP);

  test("the pipeline board: every stage's total as the API's; moving a deal by choosing its stage", async () => {
    expect(await go("/app/deals")).toBe(200);
    for (const stage of ["new", "screening", "diligence", "ic", "invested", "passed"]) {
      const total = (await api(`/api/v1/deals?stage=${stage}&limit=1`)).total;
      expect(Number(await page.locator(`section[data-stage=${stage}] [data-testid=stage-total]`).innerText()), stage).toBe(total);
    }
    await shot("pipeline");
    const card = page.locator("section[data-stage=new] [data-testid=deal-card]").first();
    const dealId = (await card.getAttribute("data-deal-id"))!;
    const detail = await api(`/api/v1/deals/${dealId}`);
    if (detail.score !== null) expect(await valueOf(`[data-deal-id="${dealId}"] .score`)).toBe(detail.score);
    await Promise.all([page.waitForLoadState("load"), card.locator("select[name=stage]").selectOption("screening")]);
    await page.locator(".flash").first().waitFor();
    expect(await flash()).toContain("to Screening");
    expect((await api(`/api/v1/deals/${dealId}`)).stage).toBe("screening");
    await shot("pipeline-moved");
    await go("/app/deals?kind=fund&view=list");
    const rows = await page.locator("[data-testid=deal-table] tbody tr").count();
    expect(rows).toBe((await api("/api/v1/deals?kind=fund&limit=1")).total);
    await shot("pipeline-funds-list");
  }, STEP);

  test("a deal: its score and sections as the API's; an evidence quote leads to its document page, marked", async () => {
    const top = (await api("/api/v1/deals?status=succeeded&kind=company&limit=1")).deals[0];
    const full = await api(`/api/v1/deals/${top.deal_id}?view=full`);
    expect(await go(`/app/deals/${top.deal_id}`)).toBe(200);
    expect(await valueOf("[data-testid=deal-score] .score.big")).toBe(full.score);
    expect(await page.locator("[data-section]").count()).toBe(full.analysis.sections.length);
    for (const s of full.analysis.sections.filter((s: any) => s.score !== null)) {
      expect(await valueOf(`[data-section=${s.key}] .score`), s.key).toBe(s.score);
    }
    await shot("deal");
    const quote = full.analysis.sections.flatMap((s: any) => s.evidence).find((e: any) => e.document_id)!;
    await Promise.all([page.waitForURL(/\/documents\//), page.locator(".evidence a.src").first().click()]);
    await page.locator("mark").first().waitFor();
    expect(page.url()).toContain(`#page-`);
    expect(quote.quote.length).toBeGreaterThan(0);
    await shot("document");
  }, STEP);

  /** Runs wait until `resume` (the page shows them queued); then the page must follow them live. */
  const pauseRunner = () => runner.stop();
  const resumeRunner = () => (runner = startRunner(t.deps, runHandlers(t.deps), { pollMs: 200 }));

  test("upload a deck from the web: the analysis progresses live on the deal page, which then shows its sections", async () => {
    await pauseRunner();
    await go("/app/deals");
    await page.locator("[data-testid=new-deal] summary").click();
    const bytes = await pdfDeck([
      "Quillfeather. Contract intelligence for procurement teams. Quillfeather reads supplier contracts and flags risky clauses. Founded in 2023, based in Lisbon.",
      "Team. Ada Quill, Co-founder & CEO: previously led procurement at Siemens for 9 years. Rui Feather (CTO), ex-Google, PhD in NLP.",
      "Traction. ARR $600K, growing 12% month over month. 31 customers. Net revenue retention 128%.",
      "The round. We are raising $3M seed at a $12M pre-money valuation. quillfeather.io",
    ]);
    await page.setInputFiles("#f-file", { name: "quillfeather.pdf", mimeType: "application/pdf", buffer: Buffer.from(bytes) });
    await page.fill("#f-company", "Quillfeather");
    await Promise.all([page.waitForURL(/\/app\/deals\/[0-9a-f-]{36}$/), page.click("[data-testid=upload-form] button[type=submit]")]);
    await page.locator("[data-testid=analysis-progress] [data-progress-text]", { hasText: "Queued" }).waitFor();
    await shot("deal-analysing");
    // The progress box follows the event stream and reloads the page when the run is done.
    let reloaded = false;
    page.once("load", () => (reloaded = true));
    resumeRunner();
    await page.locator("[data-testid=deal-sections]").waitFor({ timeout: 60_000 });
    expect(reloaded).toBe(true);
    expect(await page.locator("[data-testid=analysis-progress]").count()).toBe(0);
    const dealId = page.url().split("/").pop()!;
    const full = await api(`/api/v1/deals/${dealId}?view=full`);
    expect(full.company_name).toBe("Quillfeather");
    expect(full.analysis_status).toBe("succeeded");
    expect(await page.getByTestId("actions-budget").first().innerText()).toContain("1 / 25 actions");
    await shot("deal-uploaded");
  }, 90_000);

  test("who knows: the paths as the API ranks them, each with an intro request", async () => {
    const domain = (t.deps.db.$client.query("SELECT domain FROM persons WHERE org_id = ? AND domain IS NOT NULL GROUP BY domain ORDER BY count(*) DESC LIMIT 1").get(orgId) as { domain: string }).domain;
    const found = await api(`/api/v1/network/who-knows?domain=${domain}&limit=25`);
    expect(await go(`/app/who-knows?domain=${encodeURIComponent(domain)}`)).toBe(200);
    const rows = page.locator("[data-testid=paths-table] tbody tr");
    expect(await rows.count()).toBe(found.paths.length);
    expect(await rows.first().getAttribute("data-owner")).toBe(found.paths[0].path_owner);
    expect(await valueOf("[data-testid=paths-table] tbody tr .warmth [data-value]")).toBe(found.paths[0].warmth);
    await shot("who-knows");
  }, STEP);

  test("the portfolio: the API's figures; a company's metrics drawn as charts", async () => {
    const list = await api("/api/v1/portfolio/companies?limit=50");
    expect(await go("/app/portfolio")).toBe(200);
    for (const c of list.companies.slice(0, 5)) {
      if (c.invested !== null) expect(await valueOf(`tr[data-company-id="${c.company_id}"] [data-field=invested] [data-value]`), c.name).toBe(c.invested);
    }
    await shot("portfolio");
    const company = list.companies.find((c: any) => Object.keys(c.metrics).length >= 3)!;
    await go(`/app/portfolio/${company.company_id}`);
    const metrics = await page.locator("div[data-metric]").count();
    expect(metrics).toBeGreaterThanOrEqual(Object.keys(company.metrics).length);
    await page.locator(".uplot canvas").nth(metrics - 1).waitFor();
    const arr = await api(`/api/v1/portfolio/companies/${company.company_id}/metrics?metric=arr`);
    const actuals = arr.points.filter((p: any) => p.kind === "actual");
    await page.locator("[data-testid=chart-metric-arr] summary").click();
    const last = page.locator("[data-testid=chart-table-metric-arr] tbody tr", { hasText: actuals[actuals.length - 1].statement_date.slice(0, 10) });
    expect(Number(await last.locator("[data-value]").first().getAttribute("data-value"))).toBe(actuals[actuals.length - 1].value);
    await shot("company");
  }, STEP);

  test("the funds: positions and totals as the API's, flags explained, charts drawn", async () => {
    const positions = await api("/api/v1/funds/positions");
    expect(await go("/app/funds")).toBe(200);
    for (const p of positions.positions) {
      for (const key of ["called", "distributed", "nav", "tvpi", "irr"]) {
        if (p[key] !== null) expect(await valueOf(`tr[data-commitment-id="${p.commitment_id}"] [data-field=${key}] [data-value]`), `${p.fund_name} ${key}`).toBe(p[key]);
      }
    }
    for (const g of positions.totals_by_currency) expect(await valueOf(`tr[data-totals-currency="${g.currency}"] [data-field=called] [data-value]`)).toBe(g.called);
    if (positions.positions.some((p: any) => p.data_quality_flags.length)) await page.getByTestId("flags-explained").waitFor();
    await page.locator(".uplot canvas").first().waitFor();
    expect(await page.locator(".uplot").count()).toBeGreaterThanOrEqual(3);
    await shot("funds");
  }, STEP);

  test("research: started from the web, followed live, its report rendered with citations that lead to their records", async () => {
    expect(await go("/app/research")).toBe(200);
    const deal = (await api("/api/v1/deals?status=succeeded&kind=company&limit=1")).deals[0];
    await page.fill("#f-query", `What do we know about ${deal.company_name}'s traction?`);
    await pauseRunner();
    await Promise.all([page.waitForURL(/\/app\/research\/[0-9a-f-]{36}$/), page.click("[data-testid=research-form] button[type=submit]")]);
    await page.getByTestId("research-progress").waitFor();
    resumeRunner();
    await page.locator("[data-testid=report]").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("research-progress").count()).toBe(0);
    const id = page.url().split("/").pop()!;
    const record = await api(`/api/v1/research/${id}`);
    expect(record.status).toBe("succeeded");
    expect(await page.locator("[data-testid=citations] li").count()).toBe(record.citations.length);
    await shot("research");
    if (record.citations.length) {
      await Promise.all([page.waitForLoadState("load"), page.locator("[data-testid=citations] li a").first().click()]);
      expect(new URL(page.url()).pathname).toMatch(/^\/app\/(deals|portfolio|funds|who-knows)/);
    }
    await go("/app/research");
    await shot("research-list");
  }, 90_000);

  test("webhooks: the ledger, and a delivery queued again", async () => {
    const { deliveryId } = seedEndpoint(t, orgId);
    expect(await go("/app/webhooks")).toBe(200);
    await shot("webhooks");
    await Promise.all([page.waitForLoadState("load"), page.locator(`tr[data-delivery-id="${deliveryId}"] button`, { hasText: "Redeliver" }).click()]);
    expect(await flash()).toContain("again");
    expect(await page.locator(`tr[data-delivery-id="${deliveryId}"]`).getAttribute("data-status")).toBe("pending");
  }, STEP);

  test("connections, and another organization's company (404)", async () => {
    expect(await go("/app/connections")).toBe(200);
    await page.getByTestId("no-mail-server").waitFor();
    await shot("connections");
    const globex = orgsService(t.deps).createOrg("Globex Capital");
    importPortfolioBook(t.deps, globex.id);
    const theirs = (t.deps.db.$client.query("SELECT id FROM portfolio_holdings WHERE org_id = ? LIMIT 1").get(globex.id) as { id: string }).id;
    expect(await go(`/app/portfolio/${theirs}`)).toBe(404);
    await page.getByTestId("error-page").waitFor();
    await shot("not-found");
  }, STEP);

  test("no request left the server's origin, and no page logged a JavaScript error", () => {
    expect(offOrigin).toEqual([]);
    expect(jsErrors).toEqual([]);
  });
});
