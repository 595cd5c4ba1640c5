// A read-only iCalendar subscription URL (a published calendar, "webcal://" links): fetched through
// policed fetches, with its validators (ETag, Last-Modified) kept so an unchanged calendar costs a
// 304. Its URL is treated as a secret (such URLs usually are the only thing guarding the calendar):
// stored sealed, shown by its origin only.
import { ConnectionFailure } from "./connections.failures.ts";

export type Validators = { etag: string | null; last_modified: string | null };

/** A subscription's body is never larger than this (a busy calendar of years is a few MB at most). */
export const SUBSCRIPTION_MAX_BYTES = 5 * 1024 * 1024;

export type Subscription = { status: "not_modified" } | { status: "ok"; text: string; validators: Validators };

/** `webcal://` is https; anything else must be an http(s) URL (the policy decides which). */
export function subscriptionUrl(raw: string): URL | null {
  const given = raw.trim().replace(/^webcals?:\/\//i, "https://");
  if (!URL.canParse(given)) return null;
  const url = new URL(given);
  return /^https?:$/.test(url.protocol) && url.hostname ? url : null;
}

/** How a subscription is shown: its origin only (the rest of the URL is usually its secret). */
export const subscriptionAccount = (url: URL) => `${url.origin} (subscription)`;

/** Reads the subscription; with validators, an unchanged calendar answers not_modified. */
export async function readSubscription(url: URL, fetcher: typeof fetch, validators: Validators | null): Promise<Subscription> {
  const headers: Record<string, string> = { accept: "text/calendar, */*;q=0.5" };
  if (validators?.etag) headers["if-none-match"] = validators.etag;
  if (validators?.last_modified) headers["if-modified-since"] = validators.last_modified;
  const r = await fetcher(url.href, { headers });
  if (r.status === 304 && validators) return { status: "not_modified" };
  const where = `the subscription at ${url.origin}`;
  if (r.status === 401 || r.status === 403) throw new ConnectionFailure("auth", `${where} refused access (HTTP ${r.status}): the URL may have been reset; connect the new one`);
  if (r.status === 404 || r.status === 410) throw new ConnectionFailure("protocol", `${where} no longer exists (HTTP ${r.status})`);
  if (r.status >= 300 && r.status < 400) throw new ConnectionFailure("protocol", `${where} redirects (HTTP ${r.status}); connect the URL it points to`);
  if (r.status !== 200) throw new ConnectionFailure(r.status >= 500 ? "unreachable" : "protocol", `${where} answered HTTP ${r.status}`);
  const text = await r.text();
  if (!/^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text)) throw new ConnectionFailure("protocol", `${where} is not an iCalendar file (it does not start with BEGIN:VCALENDAR)`);
  return { status: "ok", text, validators: { etag: r.headers.get("etag"), last_modified: r.headers.get("last-modified") } };
}
