// Which browser origins may drive /mcp (CONTRACT.md: this server's own origin, or one listed in
// DEALGRAPH_ALLOWED_ORIGINS). "Own origin" comes from what the server knows about itself (the
// address it is bound to, DEALGRAPH_PUBLIC_URL), never from the request: the Host header and the
// request URL built from it are the attacker's to choose in a DNS-rebinding attack.
import { networkInterfaces } from "node:os";
import type { Config } from "../../config.ts";
import type { BoundAddress } from "../../http/public-origin.ts";

type Interfaces = ReturnType<typeof networkInterfaces>;

const isLoopback = (host: string) => host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
const isWildcard = (host: string) => host === "" || host === "0.0.0.0" || host === "::";

/** `http://host:port` normalised as browsers send it (lower case, IPv6 in brackets, no :80). */
function originOf(host: string, port: number): string | null {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare.includes("%")) return null; // a zoned link-local address has no URL form
  try {
    return new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}:${port}`).origin;
  } catch {
    return null;
  }
}

/**
 * The origins this server is reached at: its bound address (with the loopback names of the same
 * port when bound to loopback, and every interface address when bound to all of them) and
 * DEALGRAPH_PUBLIC_URL.
 */
export function ownOrigins(bound: BoundAddress, publicUrl: string | null, interfaces: () => Interfaces = networkInterfaces): Set<string> {
  const host = bound.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const hosts = new Set<string>([host]);
  if (isLoopback(host)) {
    hosts.add("localhost");
    hosts.add(host === "localhost" ? "127.0.0.1" : host);
    if (host === "localhost" || host === "::1") hosts.add("::1");
  } else if (isWildcard(host)) {
    hosts.delete(host);
    hosts.add("localhost");
    for (const list of Object.values(interfaces())) {
      for (const a of list ?? []) if (host === "::" || a.family === "IPv4") hosts.add(a.address.toLowerCase());
    }
  }
  const origins = new Set<string>();
  for (const h of hosts) {
    const o = originOf(h, bound.port);
    if (o) origins.add(o);
  }
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  return origins;
}

function normalisedOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The machine's interfaces, read at most once per `ttlMs` (networkInterfaces() asks the kernel
 * each time, and every MCP request from a browser would call it); an address added meanwhile is
 * known within that time.
 */
export function cachedInterfaces(read: () => Interfaces = networkInterfaces, ttlMs = 30_000, now: () => number = () => performance.now()): () => Interfaces {
  let value: Interfaces | null = null;
  let readAt = 0;
  return () => {
    if (value === null || now() - readAt >= ttlMs) (value = read()), (readAt = now());
    return value;
  };
}

const processInterfaces = cachedInterfaces();

/** No Origin (not a browser): allowed. Otherwise it must be ours or listed. */
export function originAllowed(origin: string | null, config: Config, bound: BoundAddress): boolean {
  if (origin === null) return true;
  const asked = normalisedOrigin(origin);
  if (!asked) return false;
  if (ownOrigins(bound, config.publicUrl, processInterfaces).has(asked)) return true;
  return config.allowedOrigins.some((o) => normalisedOrigin(o) === asked);
}
