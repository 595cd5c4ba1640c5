import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

test("defaults are the contract's", () => {
  const c = loadConfig({});
  expect(c).toMatchObject({
    dataDir: "./data",
    host: "127.0.0.1",
    port: 8080,
    allowPrivateNetwork: false,
    webhookRetryScale: 1,
    webhookTimeoutSeconds: 10,
    staleRunSeconds: 1800,
    sseKeepaliveSeconds: 25,
    sseMaxStreamsPerKey: 5,
    llm: null,
    defaultDailyRequests: 5000,
    defaultDailyActions: 25,
    sqliteCacheMb: 64,
    sqliteMmapMb: 256,
  });
});

test("environment and flags, flags winning", () => {
  const c = loadConfig(
    { DEALGRAPH_PORT: "9000", DEALGRAPH_DATA_DIR: "/srv/dg", DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1", DEALGRAPH_WEBHOOK_RETRY_SCALE: "0.001", DEALGRAPH_LLM_BASE_URL: "http://127.0.0.1:9999/v1", DEALGRAPH_ALLOWED_ORIGINS: "https://a.example, https://b.example" },
    { port: 7000 },
  );
  expect(c.port).toBe(7000);
  expect(c.dataDir).toBe("/srv/dg");
  expect(c.allowPrivateNetwork).toBe(true);
  expect(c.webhookRetryScale).toBe(0.001);
  expect(c.llm).toEqual({ baseUrl: "http://127.0.0.1:9999/v1", model: null, apiKey: null });
  expect(c.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
});

test("a bad value is refused with its name", () => {
  expect(() => loadConfig({ DEALGRAPH_PORT: "eighty" })).toThrow(ConfigError);
  expect(() => loadConfig({ DEALGRAPH_PORT: "70000" })).toThrow(/65535/);
  expect(() => loadConfig({ DEALGRAPH_SSE_MAX_STREAMS_PER_KEY: "2.5" })).toThrow(/DEALGRAPH_SSE_MAX_STREAMS_PER_KEY must be an integer/);
  expect(() => loadConfig({ DEALGRAPH_ALLOW_PRIVATE_NETWORK: "sure" })).toThrow(/DEALGRAPH_ALLOW_PRIVATE_NETWORK/);
  expect(() => loadConfig({ DEALGRAPH_LLM_BASE_URL: "not a url" })).toThrow(/DEALGRAPH_LLM_BASE_URL/);
});

test("DEALGRAPH_SQLITE_CACHE_MB and DEALGRAPH_SQLITE_MMAP_MB: whole MB within SQLite's limits, 0 turns the map off", () => {
  expect(loadConfig({ DEALGRAPH_SQLITE_CACHE_MB: "512", DEALGRAPH_SQLITE_MMAP_MB: "0" })).toMatchObject({ sqliteCacheMb: 512, sqliteMmapMb: 0 });
  expect(loadConfig({ DEALGRAPH_SQLITE_MMAP_MB: "2047" }).sqliteMmapMb).toBe(2047);
  for (const [name, bad] of [["DEALGRAPH_SQLITE_CACHE_MB", "0"], ["DEALGRAPH_SQLITE_CACHE_MB", "1.5"], ["DEALGRAPH_SQLITE_CACHE_MB", "lots"], ["DEALGRAPH_SQLITE_CACHE_MB", "65537"], ["DEALGRAPH_SQLITE_MMAP_MB", "-1"], ["DEALGRAPH_SQLITE_MMAP_MB", "2048"]]) {
    expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(`^${name} must be an integer from \\d+ to \\d+, got "${bad.replace(".", "\\.")}"$`));
  }
});

test("DEALGRAPH_TRUSTED_PROXIES: addresses and CIDR ranges, normalised; anything else refused with its name", () => {
  expect(loadConfig({}).trustedProxies).toEqual([]);
  expect(loadConfig({ DEALGRAPH_TRUSTED_PROXIES: " 10.0.0.0/8, 127.0.0.1 ,::1, 2001:db8::/32, ::ffff:192.0.2.1" }).trustedProxies).toEqual([
    "10.0.0.0/8",
    "127.0.0.1/32",
    "::1/128",
    "2001:db8::/32",
    "192.0.2.1/32",
  ]);
  for (const bad of ["proxy.internal", "10.0.0.0/33", "10.1", "0x7f.0.0.1", "::1/129", "10.0.0.0/x"]) {
    expect(() => loadConfig({ DEALGRAPH_TRUSTED_PROXIES: `127.0.0.1, ${bad}` })).toThrow(
      `DEALGRAPH_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges (e.g. 10.0.0.0/8, ::1), got ${JSON.stringify(bad)}`,
    );
  }
});

test("DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR: default 60, a whole number of at least 1; anything else refused with its name", () => {
  expect(loadConfig({}).oauthRegistrationsPerHour).toBe(60);
  expect(loadConfig({ DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR: "500" }).oauthRegistrationsPerHour).toBe(500);
  expect(loadConfig({ DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR: "" }).oauthRegistrationsPerHour).toBe(60);
  for (const bad of ["0", "-5", "2.5", "lots", "1e7"]) {
    expect(() => loadConfig({ DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR: bad })).toThrow(
      `DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR must be an integer from 1 to 1000000, got ${JSON.stringify(bad)}`,
    );
  }
});

test("Google's and Microsoft's endpoints: unset means the providers' own; an http(s) URL without a login, else refused with its name", () => {
  expect(loadConfig({}).providerEndpoints).toEqual({ googleTokenUrl: null, googleCaldavUrl: null, microsoftLoginUrl: null, graphUrl: null });
  expect(
    loadConfig({
      DEALGRAPH_GOOGLE_TOKEN_URL: "http://127.0.0.1:9000/token",
      DEALGRAPH_GOOGLE_CALDAV_URL: "https://caldav.proxy.internal/caldav/v2/",
      DEALGRAPH_MICROSOFT_LOGIN_URL: "https://login.proxy.internal",
      DEALGRAPH_GRAPH_URL: " https://graph.proxy.internal/v1.0 ",
    }).providerEndpoints,
  ).toEqual({
    googleTokenUrl: "http://127.0.0.1:9000/token",
    googleCaldavUrl: "https://caldav.proxy.internal/caldav/v2/",
    microsoftLoginUrl: "https://login.proxy.internal/",
    graphUrl: "https://graph.proxy.internal/v1.0",
  });
  expect(() => loadConfig({ DEALGRAPH_GRAPH_URL: "graph.microsoft.com" })).toThrow('DEALGRAPH_GRAPH_URL must be an http(s) URL without a login in it, got "graph.microsoft.com"');
  expect(() => loadConfig({ DEALGRAPH_GOOGLE_TOKEN_URL: "https://user:pw@proxy.internal/token" })).toThrow("DEALGRAPH_GOOGLE_TOKEN_URL must be an http(s) URL without a login in it");
  expect(() => loadConfig({ DEALGRAPH_MICROSOFT_LOGIN_URL: "ftp://login" })).toThrow("DEALGRAPH_MICROSOFT_LOGIN_URL must be an http(s) URL");
});
