// How a calendar connection's HTTP requests (CalDAV, subscription URLs) go out: through safe-fetch
// always. The organization's own CalDAV server, which only an administrator names, may be on a
// private address and signed by the firm's CA: a URL on its origin gets both. Any other URL a user
// gives is an outbound fetch like any other: public addresses over https only (unless
// DEALGRAPH_ALLOW_PRIVATE_NETWORK, for development and tests).
import type { Deps } from "../../deps.ts";
import { safeFetch, SafeFetchError } from "../../lib/safe-fetch.ts";
import { ConnectionFailure } from "./connections.failures.ts";

export type HttpPolicy = { allowPrivate: boolean; ca: string | null };

/** The org's server settings a policy is derived from. */
export type OrgServer = { caldavUrl: string | null; caPem: string | null } | null;

/** The policy for requests to `url`. */
export function httpPolicy(deps: Deps, server: OrgServer, url: URL): HttpPolicy {
  if (server?.caldavUrl && new URL(server.caldavUrl).origin === url.origin) return { allowPrivate: true, ca: server.caPem };
  return { allowPrivate: deps.config.allowPrivateNetwork, ca: null };
}

const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for tsdav and the subscription reader: each request through safe-fetch under the
 * policy, failures as ConnectionFailure. Bodies are capped (a calendar is no bigger than this).
 */
export function policedFetch(deps: Deps, policy: HttpPolicy, opts: { timeoutMs?: number; maxBytes?: number } = {}): typeof fetch {
  const call = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const body = typeof init.body === "string" || init.body instanceof Uint8Array ? init.body : init.body == null ? undefined : String(init.body);
    try {
      const r = await safeFetch(url, {
        method: init.method ?? "GET",
        headers,
        body,
        allowPrivate: policy.allowPrivate,
        ...(policy.ca ? { ca: policy.ca } : {}),
        timeoutMs: opts.timeoutMs ?? 60_000,
        maxBytes: opts.maxBytes ?? 50 * 1024 * 1024,
        resolver: deps.outbound?.resolver,
        dial: deps.outbound?.dial,
      });
      if (r.truncated) throw new ConnectionFailure("protocol", `${new URL(url).host} sent more than ${Math.round((opts.maxBytes ?? 50 * 1024 * 1024) / 1048576)} MB`);
      return new Response(NO_BODY.has(r.status) ? null : (r.body as Uint8Array<ArrayBuffer>), { status: r.status, headers: r.headers });
    } catch (error) {
      throw httpFailure(error, url);
    }
  };
  return call as typeof fetch;
}

/** A safe-fetch refusal or failure in words for the person connecting. */
export function httpFailure(error: unknown, url: string): ConnectionFailure {
  if (error instanceof ConnectionFailure) return error;
  const host = URL.canParse(url) ? new URL(url).host : url;
  if (error instanceof SafeFetchError) {
    if (error.code === "tls_failed") return new ConnectionFailure("tls", `${error.message}: the certificate of ${host} is not trusted; if the firm uses a private CA, an administrator gives it with --ca-file`);
    if (error.code === "blocked_address" || error.code === "https_required" || error.code === "credentials_in_url" || error.code === "unsupported_scheme" || error.code === "invalid_url") {
      return new ConnectionFailure("config", `${error.message} (only the organization's own CalDAV server, set by an administrator, may be on a private address)`);
    }
    return new ConnectionFailure("unreachable", `cannot reach ${host}: ${error.message}`);
  }
  return new ConnectionFailure("unreachable", `cannot reach ${host}: ${(error as Error)?.message ?? String(error)}`);
}

/** A failure for an HTTP status a calendar server answered. */
export function statusFailure(status: number, what: string): ConnectionFailure {
  if (status === 401 || status === 403) return new ConnectionFailure("auth", `${what} refused the login and password (HTTP ${status})`);
  if (status === 404 || status === 410) return new ConnectionFailure("protocol", `${what} does not exist (HTTP ${status})`);
  if (status >= 500) return new ConnectionFailure("unreachable", `${what} failed on the server's side (HTTP ${status})`);
  return new ConnectionFailure("protocol", `${what} answered HTTP ${status}`);
}
