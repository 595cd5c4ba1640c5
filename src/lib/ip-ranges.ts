// IP addresses and CIDR ranges as an operator writes them (DEALGRAPH_TRUSTED_PROXIES) and as
// proxies write them (X-Forwarded-For). Only the plain forms: dotted-quad IPv4 and IPv6, since
// ipaddr.js would also read "127.1" or "0x7f.0.0.1", which no proxy writes.
import ipaddr from "ipaddr.js";

export type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Range = [Address, number];

/** An address, IPv4-mapped IPv6 read as the IPv4 it is; null for anything else. */
export function parseAddress(text: string): Address | null {
  const plain = text.trim();
  if (!ipaddr.IPv4.isValidFourPartDecimal(plain) && !ipaddr.IPv6.isValid(plain)) return null;
  return ipaddr.process(plain);
}

/**
 * An address as it appears in X-Forwarded-For, where some proxies add the client's port:
 * `203.0.113.7`, `203.0.113.7:5123`, `2001:db8::7`, `[2001:db8::7]:443`.
 */
export function parseForwardedAddress(text: string): Address | null {
  const t = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(t);
  if (bracketed) return parseAddress(bracketed[1]);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(t);
  return parseAddress(v4WithPort ? v4WithPort[1] : t);
}

/** `10.0.0.0/8`, `2001:db8::/32`, or one address (a range of one); null when it is neither. */
export function parseRange(text: string): Range | null {
  const t = text.trim();
  const slash = t.indexOf("/");
  if (slash < 0) {
    const address = parseAddress(t);
    return address ? [address, address.kind() === "ipv4" ? 32 : 128] : null;
  }
  const address = parseAddress(t.slice(0, slash));
  const bitsText = t.slice(slash + 1);
  if (!address || !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  return bits <= (address.kind() === "ipv4" ? 32 : 128) ? [address, bits] : null;
}

export const formatRange = ([address, bits]: Range) => `${address.toString()}/${bits}`;

export function inRanges(address: Address, ranges: Range[]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}
