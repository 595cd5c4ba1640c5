// The client address behind reverse proxies: X-Forwarded-For is read right to left past the
// trusted proxies only when the connection itself comes from one; what the client wrote on the
// left is never believed. (The sign-in limit built on it: test/web/sign-in-limits.test.ts.)
import { describe, expect, test } from "bun:test";
import { clientAddressResolver } from "../../../src/http/client-address.ts";
import { loadConfig } from "../../../src/config.ts";

const withXff = (xff?: string) => new Request("http://localhost/app/sign-in", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });
const resolver = (trusted: string) => clientAddressResolver(loadConfig({ DEALGRAPH_TRUSTED_PROXIES: trusted }).trustedProxies);

describe("clientAddressResolver", () => {
  test("no trusted proxies: the connection's address, whatever X-Forwarded-For says", () => {
    const clientOf = resolver("");
    expect(clientOf(withXff("203.0.113.9"), "127.0.0.1")).toBe("127.0.0.1");
    expect(clientOf(withXff("203.0.113.9"), "::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(clientOf(withXff(), null)).toBeNull();
  });

  test("from a trusted proxy: the right-most entry that is not a trusted proxy", () => {
    const clientOf = resolver("127.0.0.1, 10.0.0.0/8, fd00::/8");
    expect(clientOf(withXff("198.51.100.7"), "127.0.0.1")).toBe("198.51.100.7");
    expect(clientOf(withXff("6.6.6.6, 198.51.100.7, 10.1.2.3"), "127.0.0.1")).toBe("198.51.100.7");
    expect(clientOf(withXff("2001:db8::7, fd00::1"), "::ffff:127.0.0.1")).toBe("2001:db8::7");
    // Ports some proxies add, and two headers (joined in order).
    expect(clientOf(withXff("198.51.100.7:5123"), "127.0.0.1")).toBe("198.51.100.7");
    expect(clientOf(withXff("[2001:db8::7]:443"), "127.0.0.1")).toBe("2001:db8::7");
    const twoHeaders = new Request("http://localhost/", { headers: [["x-forwarded-for", "198.51.100.7"], ["x-forwarded-for", "10.0.0.2"]] });
    expect(clientOf(twoHeaders, "127.0.0.1")).toBe("198.51.100.7");
  });

  test("from a trusted proxy, when no entry names a client: the nearest proxy", () => {
    const clientOf = resolver("127.0.0.1, 10.0.0.0/8");
    expect(clientOf(withXff(), "127.0.0.1")).toBe("127.0.0.1");
    expect(clientOf(withXff("10.0.0.9, 10.0.0.2"), "127.0.0.1")).toBe("10.0.0.9");
    // Not an address: nothing left of it can be told apart, so it is the proxy that passed it on.
    expect(clientOf(withXff("203.0.113.1, unknown, 10.0.0.2"), "127.0.0.1")).toBe("10.0.0.2");
  });
});
