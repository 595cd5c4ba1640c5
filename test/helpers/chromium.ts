// Debian's Chromium for the browser tests, driven by playwright-core (no browser is downloaded):
// where it is, whether a test file must run without it (CI must), and how it is launched.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const chromiumAvailable = existsSync(CHROMIUM);
/** Under CI (CI=true) the browser tests always run: a missing Chromium is a failure, not a skip. */
export const browserTestsMustRun = !!process.env.CI;

// Chromium is started here and driven over its DevTools WebSocket (connectOverCDP), not through
// playwright's launch(), which talks to the browser over two extra stdio pipes: under Bun that
// transport loses protocol messages now and then (a page's events go missing, or the client
// throws "Object with guid ... was not bound in the connection"), and a test waits out its time.
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"];

export async function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable) throw new Error(`${CHROMIUM} is missing, and CI must run the browser tests: .ci/run should have installed Debian's chromium`);
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "dealgraph-chromium-"));
  const proc = Bun.spawn([CHROMIUM, ...ARGS, `--user-data-dir=${profile}`, "about:blank"], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const stop = async () => {
    // SIGTERM lets Chromium take its renderers and helpers down with it; SIGKILL if it lingers.
    proc.kill("SIGTERM");
    const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
    if (!exited) proc.kill("SIGKILL");
    await proc.exited;
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const endpoint = await devToolsEndpoint(proc.stderr, 60_000);
    const browser = await chromium.connectOverCDP(endpoint);
    const close = browser.close.bind(browser);
    // Closing the connection leaves the browser running: stop it and remove its profile too.
    browser.close = async (options) => {
      await close(options).catch(() => {});
      await stop();
    };
    return browser;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The ws:// address Chromium prints on stderr once its DevTools server listens. */
async function devToolsEndpoint(stderr: ReadableStream<Uint8Array>, timeoutMs: number): Promise<string> {
  const reader = stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const timer = setTimeout(() => reader.cancel().catch(() => {}), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`Chromium exited or said nothing within ${timeoutMs} ms before its DevTools address: ${seen.slice(-2000)}`);
      seen += decoder.decode(value, { stream: true });
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (found) {
        // Keep draining stderr so Chromium never blocks on a full pipe.
        void (async () => {
          try {
            while (!(await reader.read()).done);
          } catch {}
        })();
        return found[1];
      }
    }
  } finally {
    clearTimeout(timer);
  }
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
