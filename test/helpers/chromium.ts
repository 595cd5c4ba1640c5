// Debian's Chromium for the browser tests, driven by playwright-core (no browser is downloaded):
// where it is, whether a test file must run without it (CI must), and how it is launched.
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const chromiumAvailable = existsSync(CHROMIUM);
/** Under CI (CI=true) the browser tests always run: a missing Chromium is a failure, not a skip. */
export const browserTestsMustRun = !!process.env.CI;

export async function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable) throw new Error(`${CHROMIUM} is missing, and CI must run the browser tests: .ci/run should have installed Debian's chromium`);
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // playwright gives every launch a fresh, empty profile directory of its own.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * A new context and page, opened on `url` under `launchMs` (a fresh machine's first page and first
 * screenshot are slow: Chromium builds its font cache), then given `waitMs` for every later wait.
 */
export async function warmPage(browser: Browser, url: string, o: { viewport: { width: number; height: number }; launchMs: number; waitMs: number }) {
  const context = await browser.newContext({ viewport: o.viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(o.launchMs);
  await page.goto(url);
  await page.screenshot();
  page.setDefaultTimeout(o.waitMs);
  return { context, page };
}
