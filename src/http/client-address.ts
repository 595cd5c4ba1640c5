// Who a request comes from, for per-client limits. Behind a reverse proxy every connection comes
// from the proxy, so with DEALGRAPH_TRUSTED_PROXIES set the client is read from X-Forwarded-For:
// each proxy appends the address it was connected from, so the entries are read right to left,
// past the proxies the operator trusts, and the first one that is not such a proxy is the
// client. Anything to its left was written by the client itself and is never believed.
import { inRanges, parseAddress, parseForwardedAddress, parseRange, type Address, type Range } from "../lib/ip-ranges.ts";

/**
 * @param trustedProxies the configured ranges (config.trustedProxies, already validated)
 * @returns the client's address for a request that arrived from `socketAddress` (null: unknown)
 */
export function clientAddressResolver(trustedProxies: string[]): (request: Request, socketAddress: string | null) => string | null {
  const ranges = trustedProxies.map((r) => parseRange(r)).filter((r): r is Range => r !== null);
  const trusted = (a: Address) => inRanges(a, ranges);
  return (request, socketAddress) => {
    const peer = socketAddress === null ? null : parseAddress(socketAddress);
    if (!peer) return socketAddress;
    if (!trusted(peer)) return peer.toString();
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").filter((h) => h.trim() !== "");
    let nearest = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseForwardedAddress(hops[i]);
      // Not an address: the trusted proxy that passed it on is as far back as can be told.
      if (!hop) break;
      if (!trusted(hop)) return hop.toString();
      nearest = hop;
    }
    return nearest.toString();
  };
}
