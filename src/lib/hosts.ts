// Host names as the firm's records know them: lower-cased, without "www." or a trailing dot.

/**
 * The host a website is known by: lower-cased, without the trailing dot of a fully qualified name
 * ("acme.example." is acme.example) and without a leading "www."; an IP literal as it is.
 */
export function normalizedHost(url: URL): string {
  const host = url.hostname.toLowerCase();
  // The URL parser has already written any IPv4 form (decimal, octal, short) as a dotted quad.
  if (host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host;
  return host.replace(/\.+$/, "").replace(/^www\./, "");
}

/**
 * The normalized host (as normalizedHost) of a website written as a URL or a bare host name
 * ("https://www.acme.com/", "acme.com/about", "Acme.COM."); null when it is neither.
 */
export function websiteHost(website: string | null | undefined): string | null {
  const raw = website?.trim();
  if (!raw) return null;
  try {
    return normalizedHost(new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`)) || null;
  } catch {
    return null;
  }
}

/** `https://www.Acme.com/about` -> `acme.com`; null when it is not a domain. */
export function normalizeDomain(raw: string | null | undefined): string | null {
  let d = raw?.trim().toLowerCase();
  if (!d) return null;
  d = d.replace(/^[a-z]+:\/\//, "").replace(/[/?#].*$/, "").replace(/:\d+$/, "").replace(/^www\./, "").replace(/\.$/, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d) ? d : null;
}

/** A bare domain written in text, such as acme.com (not an email, not part of a URL): group 1. */
export const DOMAIN_IN_TEXT = /(?<![@/\w.-])((?:[a-z0-9-]+\.)+(?:[a-z]{2,24}))(?![\w@-])/i;
