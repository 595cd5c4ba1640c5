// A small browser for document hosts: every request (each redirect hop included) goes through
// safe-fetch on its own, so every hop is resolved and checked again; cookies are kept the way a
// browser keeps them (a gate's session, a verification cookie, Drive's download warning); one
// deadline and one request budget cover the whole visit, and each body is capped.
import { safeFetch, SafeFetchError, type OutboundOverrides } from "../lib/safe-fetch.ts";

export type StoredCookie = { name: string; value: string; domain: string; hostOnly: boolean; path: string; expiresAt: number | null; secure: boolean };

export type SessionOptions = {
  outbound?: OutboundOverrides;
  allowPrivate: boolean;
  /** The whole visit: every request and redirect shares it. */
  deadlineMs: number;
  /**
   * Each response body is cut here (`truncated` says so). A request may allow a file more
   * (RequestOptions.maxBytes), never an HTML page: pages are parsed in the server's process.
   */
  maxBytes: number;
  /** Requests of the whole visit, redirect hops included. */
  maxRequests: number;
  now: () => Date;
  cookies?: StoredCookie[];
  signal?: AbortSignal;
};

export type HostResponse = {
  status: number;
  headers: Headers;
  body: Uint8Array;
  truncated: boolean;
  /** The URL that answered. */
  url: string;
  /** Every URL visited for this request, the first included. */
  chain: string[];
  /** A 3xx returned as is (maxRedirects 0): its target. */
  location: string | null;
};

export type RequestOptions = {
  method?: "GET" | "POST";
  /** A form body (application/x-www-form-urlencoded), as a browser submits one. */
  form?: [string, string][];
  json?: unknown;
  accept?: string;
  maxRedirects?: number;
  /** The largest file accepted for this request; an HTML page stays within the session's maxBytes. */
  maxBytes?: number;
  headers?: Record<string, string>;
};

const isIpLiteral = (host: string) => host.includes(":") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

/**
 * The domain a Set-Cookie's Domain attribute may name (RFC 6265 5.3): the host itself or a parent
 * of it, never another site, never a bare top-level domain ("com", which would send the cookie to
 * every .com host), and for an address only the address itself. Null: the cookie is ignored.
 */
export function cookieDomain(host: string, attribute: string): string | null {
  const domain = attribute.trim().replace(/^\./, "").replace(/\.$/, "").toLowerCase();
  if (!domain) return null;
  if (domain === host) return domain;
  if (isIpLiteral(host) || !domain.includes(".")) return null;
  return host.endsWith(`.${domain}`) ? domain : null;
}

const USER_AGENT = "Mozilla/5.0 (compatible; Dealgraph/1.0; +self-hosted deal analysis)";
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export const bodyText = (res: HostResponse) => new TextDecoder().decode(res.body);
const isHtmlType = (headers: Headers) => /html/i.test(headers.get("content-type") ?? "");
export const isHtml = (res: HostResponse) => isHtmlType(res.headers);

export class HostSession {
  private jar: StoredCookie[];
  private requests = 0;
  private readonly deadline: number;

  constructor(private readonly opts: SessionOptions) {
    this.jar = [...(opts.cookies ?? [])];
    this.deadline = performance.now() + opts.deadlineMs;
  }

  /** The cookies held now (expired ones dropped), to keep across a wait. */
  cookies(): StoredCookie[] {
    const now = this.opts.now().getTime();
    return this.jar.filter((c) => c.expiresAt === null || c.expiresAt > now);
  }

  /** The largest HTML page any request of the visit reads. */
  get maxPageBytes(): number {
    return this.opts.maxBytes;
  }

  get(url: string | URL, o: Omit<RequestOptions, "method"> = {}) {
    return this.request(url, { ...o, method: "GET" });
  }

  post(url: string | URL, o: Omit<RequestOptions, "method"> = {}) {
    return this.request(url, { ...o, method: "POST" });
  }

  async request(input: string | URL, o: RequestOptions = {}): Promise<HostResponse> {
    let url = new URL(String(input));
    let method = o.method ?? "GET";
    let body: string | undefined;
    const headers: Record<string, string> = { "user-agent": USER_AGENT, accept: o.accept ?? "text/html,application/xhtml+xml,application/pdf,*/*;q=0.8", ...o.headers };
    if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers["content-type"] = "application/json";
    }
    const maxRedirects = o.maxRedirects ?? 8;
    const chain = [url.href];
    for (;;) {
      if (++this.requests > this.opts.maxRequests) {
        throw new SafeFetchError("too_many_redirects", `More than ${this.opts.maxRequests} requests for one document`);
      }
      const remaining = Math.floor(this.deadline - performance.now());
      if (remaining <= 0) throw this.timeout();
      const cookie = this.cookieHeader(url);
      let res;
      try {
        res = await safeFetch(url, {
          method,
          body: method === "POST" ? body : undefined,
          headers: { ...headers, ...(cookie ? { cookie } : {}) },
          allowPrivate: this.opts.allowPrivate,
          requireHttps: false,
          followRedirects: 0,
          timeoutMs: remaining,
          maxBytesFor: (h) => (isHtmlType(h) ? Math.min(o.maxBytes ?? this.opts.maxBytes, this.opts.maxBytes) : (o.maxBytes ?? this.opts.maxBytes)),
          signal: this.opts.signal,
          resolver: this.opts.outbound?.resolver,
          dial: this.opts.outbound?.dial,
        });
      } catch (error) {
        // One deadline covers the visit: say so, not the remainder a single hop was given.
        if (error instanceof SafeFetchError && error.code === "timeout") throw this.timeout();
        throw error;
      }
      this.store(url, res.headers.getSetCookie());
      const location = res.headers.get("location");
      if (REDIRECTS.has(res.status) && location) {
        const next = new URL(location, url);
        if (maxRedirects === 0) return { ...res, url: url.href, chain, location: next.href };
        if (chain.length > maxRedirects) throw new SafeFetchError("too_many_redirects", `More than ${maxRedirects} redirects`);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          delete headers["content-type"];
        }
        url = next;
        chain.push(url.href);
        continue;
      }
      return { status: res.status, headers: res.headers, body: res.body, truncated: res.truncated, url: url.href, chain, location: null };
    }
  }

  private timeout() {
    return new SafeFetchError("timeout", `No complete answer within ${Math.round(this.opts.deadlineMs / 1000)} s`);
  }

  private cookieHeader(url: URL): string {
    const host = url.hostname.toLowerCase();
    const now = this.opts.now().getTime();
    return this.jar
      .filter((c) => (c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`)))
      .filter((c) => url.pathname.startsWith(c.path) && (c.expiresAt === null || c.expiresAt > now) && (!c.secure || url.protocol === "https:"))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  /** Set-Cookie as RFC 6265 reads it, for what hosts use: Domain, Path, Max-Age, Expires, Secure. */
  private store(url: URL, setCookies: string[]) {
    const host = url.hostname.toLowerCase();
    const now = this.opts.now().getTime();
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const cookie: StoredCookie = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), domain: host, hostOnly: true, path: "/", expiresAt: null, secure: false };
      for (const attr of attrs) {
        const [k, ...v] = attr.split("=");
        const key = k.trim().toLowerCase();
        const value = v.join("=").trim();
        if (key === "domain" && value) {
          const domain = cookieDomain(host, value);
          if (domain === null) cookie.domain = "";
          else {
            cookie.domain = domain;
            // An address, or a name without a dot (localhost), keeps the cookie to itself.
            cookie.hostOnly = domain === host && (isIpLiteral(host) || !domain.includes("."));
          }
        } else if (key === "path" && value.startsWith("/")) cookie.path = value;
        else if (key === "max-age" && /^-?\d+$/.test(value)) cookie.expiresAt = now + Number(value) * 1000;
        else if (key === "expires" && cookie.expiresAt === null && !Number.isNaN(Date.parse(value))) cookie.expiresAt = Date.parse(value);
        else if (key === "secure") cookie.secure = true;
      }
      if (!cookie.domain) continue;
      this.jar = this.jar.filter((c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path));
      if (cookie.expiresAt === null || cookie.expiresAt > now) this.jar.push(cookie);
    }
  }
}
