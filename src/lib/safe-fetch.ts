// Every outbound fetch of the product (webhook deliveries, websites and documents to analyse) goes
// through here. The rules, in order:
//   1. http(s) only; https unless private networks are allowed (development and tests); no
//      credentials in the URL.
//   2. The host is parsed here before any DNS: IPv6 literals, and IPv4 in every form a resolver or
//      URL parser would accept (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1).
//   3. A name is resolved once (all addresses), and EVERY address must be public unicast after
//      ipaddr.js `process()` (which unwraps IPv4-mapped IPv6). Loopback, private, link-local,
//      CGNAT, multicast, unspecified, broadcast, reserved and the IPv6 transition ranges (6to4,
//      Teredo, NAT64) are refused. A name that does not resolve and one that resolves to a
//      refused address get the same refusal, word for word, so no client can map internal DNS.
//   4. The connection goes to the checked address itself (no second lookup that could answer
//      differently): fetch("https://<ip>/path", { headers: { Host }, tls: { serverName } }).
//   5. Redirects are never followed by fetch; a caller that allows some gets each hop checked again.
//   6. Time and size are capped.
// `dial` exists for tests only (never set from configuration or a request): after every check has
// passed against the resolved public address, it says where the connection really goes, so a
// loopback server can stand in for a public host and every rule above is still exercised.
// `allowPrivate` (DEALGRAPH_ALLOW_PRIVATE_NETWORK=1) admits loopback/private/unique-local/CGNAT
// addresses and plain http. Link-local (cloud metadata at 169.254.169.254), multicast, broadcast,
// unspecified and reserved addresses stay refused even then.
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Tests only: where a connection to an already checked address really goes (e.g.
 * `http://127.0.0.1:<port>`), or null to connect to the address itself. The Host header and the
 * URL callers see stay the public ones.
 */
export type Dial = (target: { url: URL; host: string; address: string }) => URL | null;

/** What tests may put in place of the public internet: a resolver, and where checked addresses connect. */
export type OutboundOverrides = { resolver?: Resolver; dial?: Dial };

export type SafeFetchErrorCode =
  | "invalid_url"
  | "unsupported_scheme"
  | "https_required"
  | "credentials_in_url"
  | "blocked_address"
  | "timeout"
  | "aborted"
  | "connection_failed"
  | "tls_failed"
  | "too_many_redirects";

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SafeFetchError";
  }
}

export type UrlCheckOptions = {
  /** Refuse http: (default true). `allowPrivate` lifts it. */
  requireHttps?: boolean;
  allowPrivate?: boolean;
  /** DNS resolution; tests give a fake one. Defaults to the system resolver. */
  resolver?: Resolver;
};

export type CheckedUrl = { url: URL; host: string; addresses: string[]; isIpLiteral: boolean };

// Ranges an outbound request may reach when private networks are allowed. Everything outside
// these and `unicast` is refused in every mode.
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal", "carrierGradeNat"]);

const NUMERIC_LABEL = /^(0x[0-9a-f]*|\d+)$/i;

/**
 * Parses an IPv4 host written the way inet_aton (and the WHATWG URL parser) reads it: 1 to 4
 * dot-separated parts, each decimal, octal (leading 0) or hex (0x), the last filling the remaining
 * bytes. Returns the dotted quad; null when the host is not numeric at all (a name); throws when
 * it looks numeric but is not a valid address (such a host is never handed to DNS).
 */
export function parseNumericIPv4(host: string): string | null {
  const h = host.endsWith(".") ? host.slice(0, -1) : host;
  const parts = h.split(".");
  if (!NUMERIC_LABEL.test(parts[parts.length - 1] ?? "")) return null;
  const invalid = () => new SafeFetchError("invalid_url", `The host ${JSON.stringify(host)} is not a valid IPv4 address`);
  if (parts.length > 4) throw invalid();
  const values = parts.map((p) => {
    if (!NUMERIC_LABEL.test(p)) throw invalid();
    if (/^0x/i.test(p)) return p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    if (p.length > 1 && p.startsWith("0")) {
      if (!/^[0-7]+$/.test(p)) throw invalid();
      return parseInt(p, 8);
    }
    return parseInt(p, 10);
  });
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) throw invalid();
  let n = last;
  values.forEach((v, i) => (n += v * 256 ** (3 - i)));
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** The ipaddr.js range of an address after unwrapping IPv4-mapped IPv6 (`unicast` = public). */
export function addressRange(address: string): { address: string; range: string } {
  const parsed = ipaddr.process(address.replace(/^\[|\]$/g, ""));
  let range: string = parsed.range();
  // ipaddr.js calls everything it has no name for "unicast", including IPv4-compatible
  // addresses (::127.0.0.1). Only 2000::/3 is allocated as global unicast: the rest is not public.
  if (parsed.kind() === "ipv6" && range === "unicast" && !parsed.match(GLOBAL_UNICAST_V6)) range = "reserved";
  return { address: parsed.toString(), range };
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** A loopback host as written (`localhost`, 127.0.0.0/8, ::1): plaintext to it never leaves the machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  try {
    const v4 = h.includes(":") ? null : parseNumericIPv4(h);
    if (!h.includes(":") && !v4) return false;
    return addressRange(v4 ?? h).range === "loopback";
  } catch {
    return false;
  }
}

/** Whether an outbound request may connect to this address. */
export function isAllowedAddress(address: string, allowPrivate = false): boolean {
  let range: string;
  try {
    range = addressRange(address).range;
  } catch {
    return false;
  }
  return range === "unicast" || (allowPrivate && PRIVATE_RANGES.has(range));
}

function blocked(address: string): SafeFetchError {
  let range = "invalid";
  try {
    range = addressRange(address).range;
  } catch {
    // not an address at all
  }
  return new SafeFetchError("blocked_address", `${address} is not a public address (${range}); ${PUBLIC_ONLY}`);
}

const PUBLIC_ONLY = "outbound requests reach public addresses only";

/**
 * A name that does not resolve, resolves to nothing, or resolves to any address that is not public:
 * one refusal, one text. Error texts reach API clients (a webhook's 422, a run's error, the delivery
 * ledger), who must not learn from them how an internal name resolves.
 */
const notPublicName = (host: string) => new SafeFetchError("blocked_address", `${host} does not resolve to a public address; ${PUBLIC_ONLY}`);

function parseUrl(input: string | URL): URL {
  try {
    return new URL(String(input));
  } catch {
    throw new SafeFetchError("invalid_url", `${JSON.stringify(String(input))} is not a valid URL`);
  }
}

/**
 * Checks a URL against the rules above and resolves its host: what registration of a webhook
 * calls, and what every hop of safeFetch calls before it connects. Throws SafeFetchError.
 */
export async function checkPublicUrl(input: string | URL, opts: UrlCheckOptions = {}): Promise<CheckedUrl> {
  const url = parseUrl(input);
  const allowPrivate = opts.allowPrivate ?? false;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SafeFetchError("unsupported_scheme", `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, "")}`);
  }
  if (url.protocol === "http:" && (opts.requireHttps ?? true) && !allowPrivate) {
    throw new SafeFetchError("https_required", "The URL must use https");
  }
  if (url.username || url.password) throw new SafeFetchError("credentials_in_url", "The URL must not contain a user name or password");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host) throw new SafeFetchError("invalid_url", "The URL has no host");

  let addresses: string[];
  let isIpLiteral = true;
  if (host.includes(":")) {
    if (!ipaddr.IPv6.isValid(host)) throw new SafeFetchError("invalid_url", `The host ${JSON.stringify(host)} is not a valid IPv6 address`);
    addresses = [host];
  } else {
    const v4 = parseNumericIPv4(host);
    if (v4) addresses = [v4];
    else {
      isIpLiteral = false;
      addresses = await resolve(host, opts.resolver ?? systemResolver);
    }
  }
  for (const address of addresses) {
    if (!isAllowedAddress(address, allowPrivate)) throw isIpLiteral ? blocked(address) : notPublicName(host);
  }
  return { url, host, addresses: addresses.map((a) => addressRange(a).address), isIpLiteral };
}

async function resolve(host: string, resolver: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch {
    throw notPublicName(host);
  }
  if (addresses.length === 0) throw notPublicName(host);
  return addresses;
}

export type SafeFetchOptions = UrlCheckOptions & {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange: resolution, connection, headers and body (default 10 s). */
  timeoutMs?: number;
  /** Bytes of body kept; the rest is not read (default 5 MiB). */
  maxBytes?: number;
  /** The cap chosen once the response's headers are in (e.g. pages smaller than files); overrides maxBytes. */
  maxBytesFor?: (headers: Headers) => number;
  /** How many redirects to follow, each hop checked again (default 0: a 3xx is returned as is). */
  followRedirects?: number;
  signal?: AbortSignal;
  /** Extra trusted CA certificates (PEM), e.g. a private PKI; tests use a self-signed one. */
  ca?: string;
  /** Tests only (see Dial). */
  dial?: Dial;
};

export type SafeFetchResult = {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** True when the body was longer than maxBytes and was cut there. */
  truncated: boolean;
  /** The URL that answered (after any redirects followed), as the caller would write it. */
  url: string;
  /** The checked address the connection went to. */
  address: string;
  redirects: string[];
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function safeFetch(input: string | URL, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const maxRedirects = opts.followRedirects ?? 0;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let method = (opts.method ?? "GET").toUpperCase();
  let body = opts.body;
  let headers: Record<string, string> = { ...opts.headers };
  let current = parseUrl(input);
  const redirects: string[] = [];

  for (;;) {
    const checked = await untilAborted(checkPublicUrl(current, opts), signal, timeoutMs);
    const tls: Record<string, unknown> = {};
    if (current.protocol === "https:" && !checked.isIpLiteral) tls.serverName = checked.host;
    if (opts.ca) tls.ca = opts.ca;
    let response: Response | null = null;
    let address = "";
    // Every address was checked; try them in order while the connection itself fails.
    for (let i = 0; !response; i++) {
      address = checked.addresses[i];
      let target = new URL(current);
      target.hostname = address.includes(":") ? `[${address}]` : address;
      const dialed = opts.dial?.({ url: current, host: checked.host, address });
      if (dialed) target = new URL(target.pathname + target.search, dialed);
      const useTls = Object.keys(tls).length > 0 && target.protocol === "https:";
      try {
        response = await fetch(target, {
          method,
          headers: { ...dropKeys(headers, ["host"]), host: current.host },
          body: method === "GET" || method === "HEAD" ? undefined : body,
          redirect: "manual",
          signal,
          ...(useTls ? { tls } : {}),
        } as RequestInit);
      } catch (error) {
        const failure = fetchFailure(error, signal, timeout, timeoutMs, current);
        if (failure.code !== "connection_failed" || i + 1 >= checked.addresses.length) throw failure;
      }
    }
    const location = response.headers.get("location");
    if (REDIRECTS.has(response.status) && location && maxRedirects > 0) {
      await response.body?.cancel().catch(() => {});
      if (redirects.length >= maxRedirects) {
        throw new SafeFetchError("too_many_redirects", `More than ${maxRedirects} redirect${maxRedirects === 1 ? "" : "s"}`);
      }
      const next = new URL(location, current);
      redirects.push(next.href);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        headers = dropKeys(headers, ["content-type", "content-length"]);
      }
      if (next.origin !== current.origin) headers = dropKeys(headers, ["authorization", "cookie", "proxy-authorization"]);
      current = next;
      continue;
    }
    let read: { body: Uint8Array; truncated: boolean };
    try {
      read = await readCapped(response, opts.maxBytesFor ? opts.maxBytesFor(response.headers) : maxBytes);
    } catch (error) {
      throw fetchFailure(error, signal, timeout, timeoutMs, current);
    }
    return { status: response.status, headers: response.headers, ...read, url: current.href, address, redirects };
  }
}

function dropKeys(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

/** DNS cannot be aborted; the caller still stops waiting for it when time is up. */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  if (signal.aborted) throw abortError(signal, timeoutMs);
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal, timeoutMs));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function abortError(signal: AbortSignal, timeoutMs: number): SafeFetchError {
  const reason = signal.reason as Error | undefined;
  return reason?.name === "TimeoutError"
    ? new SafeFetchError("timeout", `No complete answer within ${formatMs(timeoutMs)}`)
    : new SafeFetchError("aborted", "The request was cancelled");
}

function fetchFailure(error: unknown, signal: AbortSignal, timeout: AbortSignal, timeoutMs: number, url: URL): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  if (timeout.aborted) return new SafeFetchError("timeout", `No complete answer within ${formatMs(timeoutMs)}`);
  if (signal.aborted) return new SafeFetchError("aborted", "The request was cancelled");
  const code = String((error as { code?: unknown }).code ?? "");
  const message = (error as Error)?.message ?? String(error);
  if (/CERT|TLS|SSL|SELF_SIGNED/i.test(code + " " + message)) {
    return new SafeFetchError("tls_failed", `TLS with ${url.host} failed${code ? ` (${code})` : ""}`);
  }
  return new SafeFetchError("connection_failed", `Could not connect to ${url.host}${code ? ` (${code})` : ""}`);
}

const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

async function readCapped(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return { body: out, truncated };
}
