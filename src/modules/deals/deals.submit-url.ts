// Checks of a URL submission that need no network: the shape of the URL, its scheme, and a host
// that is an address outside the public internet. Names are resolved (and checked again) when the
// run fetches them.
import ipaddr from "ipaddr.js";
import { invalid } from "../../http/errors.ts";
import { normalizedHost } from "../../lib/hosts.ts";
import { isAllowedAddress, parseNumericIPv4 } from "../../lib/safe-fetch.ts";

export function checkSubmittedUrl(field: string, raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(["body", field], "Input should be a valid URL", "url_parsing");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid(["body", field], "URL scheme should be 'http' or 'https'", "url_scheme");
  if (url.username || url.password) throw invalid(["body", field], "The URL must not contain a user name or password", "value_error");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = host.includes(":") ? (ipaddr.IPv6.isValid(host) ? host : null) : parseNumericIPv4(host);
  if (literal && !isAllowedAddress(literal, allowPrivate)) {
    throw invalid(["body", field], "The URL must point to a public internet address", "value_error");
  }
  if (!literal && !host.includes(".") && !allowPrivate) throw invalid(["body", field], "The URL must have a public host name", "value_error");
  return url;
}

/** The "same target" key of a website (CONTRACT.md): its normalized host. */
export const hostTarget = (url: URL) => `host:${normalizedHost(url)}`;
