// safe-fetch: the address rules, host parsing, URL checks, and real fetches against loopback
// receivers (with private networks allowed, the only way a test may connect to anything). Every
// refusal is asserted to happen before a connection: the receivers count what reaches them, and
// nothing but 127.0.0.1/::1 is ever connected to.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  addressRange,
  checkPublicUrl,
  isAllowedAddress,
  parseNumericIPv4,
  safeFetch,
  SafeFetchError,
  type Resolver,
} from "../../src/lib/safe-fetch.ts";
import { refusal } from "../helpers/safe-fetch.ts";


const fakeResolver = (table: Record<string, string[]>): Resolver & { calls: string[] } => {
  const calls: string[] = [];
  const r = async (host: string) => {
    calls.push(host);
    const a = table[host];
    if (!a) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return a;
  };
  return Object.assign(r, { calls });
};

describe("numeric IPv4 hosts, parsed before any DNS", () => {
  test.each([
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["10.1", "10.0.0.1"],
    ["0xA9.0xFE.0xA9.0xFE", "169.254.169.254"],
    ["192.168.0.1.", "192.168.0.1"],
    ["8.8.8.8", "8.8.8.8"],
    ["0", "0.0.0.0"],
  ])("%s -> %s", (host, want) => expect(parseNumericIPv4(host)).toBe(want));

  test.each(["example.com", "hooks.example.com", "deadbeef", "1.2.3.example", "localhost"])("%s is a name (null)", (host) =>
    expect(parseNumericIPv4(host)).toBeNull(),
  );

  test.each(["1.2.3.4.5", "256.1.1.1", "1.2.3.256", "4294967296", "08.1.1.1", "foo.1", "1.2.0x100.1"])("%s is refused, not resolved", (host) =>
    expect(() => parseNumericIPv4(host)).toThrow(SafeFetchError),
  );
});

describe("address ranges", () => {
  const publicOnes = ["8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"];
  const privateOnes = ["127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1", "100.64.0.1", "::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1", "::127.0.0.1" /* ipaddr.js reads it as mapped: checked and connected as 127.0.0.1 */];
  const neverOnes = [
    "0.0.0.0",
    "0.1.2.3",
    "255.255.255.255",
    "224.0.0.1",
    "239.255.255.250",
    "169.254.169.254",
    "169.254.0.1",
    "192.0.2.1",
    "198.18.0.1",
    "203.0.113.7",
    "240.0.0.1",
    "::",
    "fe80::1",
    "ff02::1",
    "::ffff:169.254.169.254",
    "::7f00:1", // IPv4-compatible ::127.0.0.1 (as URLs write it)
    "::ffff:0:7f00:1", // IPv4-translated
    "64:ff9b::a00:1", // NAT64 of 10.0.0.1
    "2002:7f00:1::1", // 6to4 of 127.0.0.1
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo of 127.0.0.1
    "2001:db8::1",
    "100::1",
    "not-an-address",
  ];
  test.each(publicOnes)("%s is public", (a) => {
    expect(isAllowedAddress(a)).toBe(true);
    expect(isAllowedAddress(a, true)).toBe(true);
  });
  test.each(privateOnes)("%s is refused, and allowed only with allow-private", (a) => {
    expect(isAllowedAddress(a)).toBe(false);
    expect(isAllowedAddress(a, true)).toBe(true);
  });
  test.each(neverOnes)("%s is refused even with allow-private", (a) => {
    expect(isAllowedAddress(a)).toBe(false);
    expect(isAllowedAddress(a, true)).toBe(false);
  });
  test("IPv4-mapped IPv6 is unwrapped to its IPv4 address", () => {
    expect(addressRange("::ffff:127.0.0.1")).toEqual({ address: "127.0.0.1", range: "loopback" });
    expect(addressRange("[::ffff:a9fe:a9fe]")).toEqual({ address: "169.254.169.254", range: "linkLocal" });
  });
});

describe("checkPublicUrl (registration)", () => {
  const refusedUrls: [string, string][] = [
    ["https://10.0.0.5/hook", "blocked_address"],
    ["https://192.168.1.20/hook", "blocked_address"],
    ["https://127.0.0.1/hook", "blocked_address"],
    ["https://[::1]/hook", "blocked_address"],
    ["https://169.254.169.254/latest/meta-data", "blocked_address"],
    ["https://[::ffff:127.0.0.1]/hook", "blocked_address"],
    ["https://[::ffff:a9fe:a9fe]/hook", "blocked_address"],
    ["https://2130706433/hook", "blocked_address"],
    ["https://0177.0.0.1/hook", "blocked_address"],
    ["https://0x7f.1/hook", "blocked_address"],
    ["https://127.1/hook", "blocked_address"],
    ["https://0.0.0.0/hook", "blocked_address"],
    ["https://localhost/hook", "blocked_address"],
    ["http://8.8.8.8/hook", "https_required"],
    ["ftp://8.8.8.8/hook", "unsupported_scheme"],
    ["file:///etc/passwd", "unsupported_scheme"],
    ["https://user:pw@8.8.8.8/hook", "credentials_in_url"],
    ["not a url", "invalid_url"],
    ["https://1.2.3.4.5/", "invalid_url"],
  ];
  test.each(refusedUrls)("%s -> %s", async (url, code) => {
    const resolver = fakeResolver({ localhost: ["127.0.0.1", "::1"] });
    expect((await refusal(checkPublicUrl(url, { resolver }))).code).toBe(code as SafeFetchError["code"]);
  });

  test("a public IP literal passes without DNS; a public name resolves once", async () => {
    const resolver = fakeResolver({ "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    expect(await checkPublicUrl("https://8.8.8.8/hook", { resolver })).toMatchObject({ host: "8.8.8.8", addresses: ["8.8.8.8"], isIpLiteral: true });
    const named = await checkPublicUrl("https://hooks.example.com:8443/in", { resolver });
    expect(named).toMatchObject({ host: "hooks.example.com", isIpLiteral: false });
    expect(named.addresses).toHaveLength(2);
    expect(resolver.calls).toEqual(["hooks.example.com"]);
  });

  test("every resolved address is checked: one private among public ones refuses the host", async () => {
    const resolver = fakeResolver({ "mixed.example.com": ["93.184.215.14", "10.1.2.3"], "mapped.example.com": ["::ffff:192.168.0.1"] });
    const e = await refusal(checkPublicUrl("https://mixed.example.com/", { resolver }));
    expect(e.code).toBe("blocked_address");
    expect(e.message).toBe("mixed.example.com does not resolve to a public address; outbound requests reach public addresses only");
    expect(e.message).not.toContain("10.1.2.3"); // a name's internal address is not echoed
    expect((await refusal(checkPublicUrl("https://mapped.example.com/", { resolver }))).code).toBe("blocked_address");
  });

  test("a name that does not resolve, resolves to nothing, or resolves to a private address: one refusal, word for word", async () => {
    const resolver = fakeResolver({ "intranet.example": ["10.0.0.7"], "loop.example": ["127.0.0.1"] });
    const texts = new Set<string>();
    for (const [url, r] of [
      ["https://intranet.example/", resolver],
      ["https://loop.example/", resolver],
      ["https://nowhere.example/", resolver],
      ["https://nowhere.example/", async () => []],
    ] as const) {
      const e = await refusal(checkPublicUrl(url, { resolver: r }));
      expect(e.code).toBe("blocked_address");
      texts.add(e.message.replace(/^\S+ /, ""));
    }
    expect([...texts]).toEqual(["does not resolve to a public address; outbound requests reach public addresses only"]);
  });

  test("allow-private admits loopback and http, still not link-local", async () => {
    expect((await checkPublicUrl("http://127.0.0.1:9/x", { allowPrivate: true })).addresses).toEqual(["127.0.0.1"]);
    expect((await checkPublicUrl("http://[::ffff:127.0.0.1]:9/x", { allowPrivate: true })).addresses).toEqual(["127.0.0.1"]);
    expect((await refusal(checkPublicUrl("http://169.254.169.254/", { allowPrivate: true }))).code).toBe("blocked_address");
  });
});

describe("safeFetch against loopback receivers", () => {
  const seen: { path: string; host: string | null; method: string; body: string }[] = [];
  let plain: ReturnType<typeof Bun.serve>;
  let slowEnded: (hungUp: boolean) => void = () => {};
  let secure: ReturnType<typeof Bun.serve>;
  let closedPort = 0;
  const tlsDir = join(import.meta.dir, "../fixtures/tls");

  beforeAll(async () => {
    plain = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const url = new URL(req.url);
        seen.push({ path: url.pathname, host: req.headers.get("host"), method: req.method, body: await req.text() });
        switch (url.pathname) {
          case "/big":
            return new Response("x".repeat(100_000));
          case "/slow": {
            // Holds the answer until the client hangs up, and says whether it did.
            const hungUp = await new Promise<boolean>((resolve) => {
              const giveUp = setTimeout(() => resolve(false), 10_000);
              req.signal.addEventListener("abort", () => (clearTimeout(giveUp), resolve(true)), { once: true });
            });
            slowEnded(hungUp);
            return new Response("late");
          }
          case "/redirect-local":
            return new Response(null, { status: 302, headers: { location: "/echo" } });
          case "/redirect-303":
            return new Response(null, { status: 303, headers: { location: "/echo" } });
          case "/redirect-loop":
            return new Response(null, { status: 307, headers: { location: "/redirect-loop" } });
          case "/redirect-metadata":
            return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
          case "/redirect-unspecified":
            return new Response(null, { status: 302, headers: { location: `http://0.0.0.0:${plain.port}/second` } });
          case "/redirect-mapped":
            return new Response(null, { status: 301, headers: { location: `http://[::ffff:a9fe:a9fe]/` } });
          default:
            return Response.json({ ok: true }, { headers: { "x-answer": "42" } });
        }
      },
    });
    secure = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: Bun.file(join(tlsDir, "hook.test.crt")), key: Bun.file(join(tlsDir, "hook.test.key")) },
      fetch: (req) => new Response(`tls host=${req.headers.get("host")}`),
    });
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    closedPort = probe.port!;
    probe.stop(true);
  });
  afterAll(() => {
    plain.stop(true);
    secure.stop(true);
  });
  const base = () => `http://127.0.0.1:${plain.port}`;
  const opts = { allowPrivate: true } as const;

  test("without allow-private a loopback receiver is refused before any connection", async () => {
    const before = seen.length;
    for (const url of [`${base()}/echo`, `https://127.0.0.1:${plain.port}/echo`, `https://2130706433:${plain.port}/`, `https://[::ffff:127.0.0.1]:${plain.port}/`]) {
      expect((await refusal(safeFetch(url, { method: "POST", body: "{}" }))).code).toMatch(/blocked_address|https_required/);
    }
    const resolver = fakeResolver({ "innocent.example.com": ["127.0.0.1"] });
    expect((await refusal(safeFetch(`https://innocent.example.com:${plain.port}/`, { resolver }))).code).toBe("blocked_address");
    expect(seen.length).toBe(before);
  });

  test("POST with headers and body; the Host header names the URL's host (a caller's Host is ignored); headers and status come back", async () => {
    const res = await safeFetch(`${base()}/echo?x=1`, { ...opts, method: "POST", body: '{"a":1}', headers: { "content-type": "application/json", Host: "spoofed.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-answer")).toBe("42");
    expect(JSON.parse(new TextDecoder().decode(res.body))).toEqual({ ok: true });
    expect(res).toMatchObject({ truncated: false, address: "127.0.0.1", url: `${base()}/echo?x=1`, redirects: [] });
    expect(seen.at(-1)).toMatchObject({ path: "/echo", host: `127.0.0.1:${plain.port}`, method: "POST", body: '{"a":1}' });
  });

  test("a name is resolved once and the checked address is the one connected to", async () => {
    const resolver = fakeResolver({ "receiver.test": ["127.0.0.1"] });
    const res = await safeFetch(`http://receiver.test:${plain.port}/echo`, { ...opts, resolver });
    expect(res.status).toBe(200);
    expect(resolver.calls).toEqual(["receiver.test"]);
    expect(seen.at(-1)?.host).toBe(`receiver.test:${plain.port}`);
  });

  test("a name whose first address refuses the connection falls back to the next checked one", async () => {
    const resolver = fakeResolver({ "two.test": ["127.0.0.2", "127.0.0.1"] });
    // 127.0.0.2 is loopback too; nothing listens on it at this port.
    const res = await safeFetch(`http://two.test:${plain.port}/echo`, { ...opts, resolver });
    expect(res).toMatchObject({ status: 200, address: "127.0.0.1" });
  });

  test("HTTPS: connects to the checked address, TLS verifies the original name (SNI)", async () => {
    const resolver = fakeResolver({ "hook.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
    const ca = await Bun.file(join(tlsDir, "hook.test.crt")).text();
    const res = await safeFetch(`https://hook.test:${secure.port}/in`, { ...opts, resolver, ca });
    expect(new TextDecoder().decode(res.body)).toBe(`tls host=hook.test:${secure.port}`);
    expect((await refusal(safeFetch(`https://other.test:${secure.port}/in`, { ...opts, resolver, ca }))).code).toBe("tls_failed");
    expect((await refusal(safeFetch(`https://hook.test:${secure.port}/in`, { ...opts, resolver }))).code).toBe("tls_failed");
  });

  test("the body is capped at maxBytes", async () => {
    const res = await safeFetch(`${base()}/big`, { ...opts, maxBytes: 1000 });
    expect(res.body.byteLength).toBe(1000);
    expect(res.truncated).toBe(true);
  });

  test("a slow receiver times out: the error says so and the request is aborted (the receiver sees the client hang up)", async () => {
    const ended = new Promise<boolean>((resolve) => (slowEnded = resolve));
    const e = await refusal(safeFetch(`${base()}/slow`, { ...opts, timeoutMs: 150 }));
    expect(e.code).toBe("timeout");
    expect(e.message).toBe("No complete answer within 150 ms");
    expect(await ended).toBe(true);
  });

  test("a closed port is a connection failure", async () => {
    expect((await refusal(safeFetch(`http://127.0.0.1:${closedPort}/`, opts))).code).toBe("connection_failed");
  });

  test("redirects are not followed by default: the 3xx is returned", async () => {
    const before = seen.length;
    const res = await safeFetch(`${base()}/redirect-local`, opts);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/echo");
    expect(seen.length).toBe(before + 1);
  });

  test("allowed redirects are followed hop by hop; 303 turns a POST into a GET", async () => {
    const res = await safeFetch(`${base()}/redirect-303`, { ...opts, method: "POST", body: "x", followRedirects: 2 });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base()}/echo`);
    expect(res.redirects).toEqual([`${base()}/echo`]);
    expect(seen.at(-1)).toMatchObject({ path: "/echo", method: "GET", body: "" });
    expect((await refusal(safeFetch(`${base()}/redirect-loop`, { ...opts, followRedirects: 3 }))).code).toBe("too_many_redirects");
  });

  test("every redirect hop is checked again: to metadata, to 0.0.0.0, to mapped link-local -> refused, never connected", async () => {
    for (const path of ["/redirect-metadata", "/redirect-unspecified", "/redirect-mapped"]) {
      const before = seen.length;
      const e = await refusal(safeFetch(`${base()}${path}`, { ...opts, followRedirects: 5 }));
      expect(e.code).toBe("blocked_address");
      // only the first hop reached the receiver (0.0.0.0 would have reached it again)
      expect(seen.length).toBe(before + 1);
      expect(seen.at(-1)?.path).toBe(path);
    }
  });
});
