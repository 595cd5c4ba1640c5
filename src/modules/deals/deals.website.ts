// Reading a company's website for analysis: the home page and a few same-site pages (about, team,
// pricing), every request through safe-fetch (public addresses only, each redirect re-checked,
// time and size capped).
import type { Deps } from "../../deps.ts";
import type { SourcePage } from "../../engines/deal-engine.ts";
import { safeFetch, SafeFetchError } from "../../lib/safe-fetch.ts";
import { RunError } from "../../lib/run-error.ts";
import { htmlTitle, htmlToText, interestingLinks } from "../../documents/html-text.ts";

const PAGE_BYTES = 2 * 1024 * 1024;
const USER_AGENT = "Dealgraph/1.0 (+self-hosted deal analysis)";

export function describeFetchFailure(url: string, error: unknown): string {
  if (error instanceof SafeFetchError) {
    const why: Record<string, string> = {
      // One text for a name that does not resolve and one that resolves to a refused address.
      blocked_address: "its host does not resolve to a public internet address",
      timeout: "it did not answer in time",
      connection_failed: "the connection was refused or dropped",
      tls_failed: "its TLS certificate could not be verified",
      too_many_redirects: "it redirected too many times",
    };
    return `${url} could not be fetched: ${why[error.code] ?? error.message}`;
  }
  return `${url} could not be fetched: ${(error as Error).message}`;
}

async function page(deps: Deps, url: URL | string, signal?: AbortSignal) {
  const res = await safeFetch(url, {
    allowPrivate: deps.config.allowPrivateNetwork,
    requireHttps: false,
    followRedirects: 5,
    timeoutMs: 10_000,
    maxBytes: PAGE_BYTES,
    headers: { "user-agent": USER_AGENT, accept: "text/html,application/xhtml+xml" },
    resolver: deps.outbound?.resolver,
    dial: deps.outbound?.dial,
    signal,
  });
  return res;
}

export async function readWebsite(deps: Deps, websiteUrl: string, signal?: AbortSignal): Promise<{ pages: SourcePage[]; title: string | null; finalUrl: string }> {
  let home;
  try {
    home = await page(deps, websiteUrl, signal);
  } catch (error) {
    throw new RunError(describeFetchFailure(websiteUrl, error));
  }
  if (home.status >= 400) throw new RunError(`${websiteUrl} answered HTTP ${home.status}`);
  const type = home.headers.get("content-type") ?? "";
  if (!/html|text\/plain/i.test(type)) throw new RunError(`${websiteUrl} is not a web page (content type ${type || "unknown"})`);
  const html = new TextDecoder().decode(home.body);
  const base = new URL(home.url);
  const pages: SourcePage[] = [{ documentId: null, url: home.url, page: null, text: htmlToText(html) }];
  for (const link of interestingLinks(html, base)) {
    try {
      const sub = await page(deps, link, signal);
      if (sub.status < 400 && /html/i.test(sub.headers.get("content-type") ?? "")) {
        pages.push({ documentId: null, url: sub.url, page: null, text: htmlToText(new TextDecoder().decode(sub.body)) });
      }
    } catch (error) {
      // A sub-page that fails is left out (the home page already answered), unless the run is stopping.
      if (signal?.aborted) throw error;
    }
  }
  return { pages, title: htmlTitle(html), finalUrl: home.url };
}
