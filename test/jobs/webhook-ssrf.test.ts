// SSRF at delivery time. With DEALGRAPH_ALLOW_PRIVATE_NETWORK off, an endpoint whose address is not
// public (written straight into the table, or a name that now resolves elsewhere) fails every
// attempt BEFORE any connection. A guard around fetch proves it: it refuses, and records, any
// target other than 127.0.0.1, and a TCP listener counts every connection to the loopback port.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { webhookDelivery } from "../../jobs/webhook-delivery.ts";
import { newId } from "../../src/lib/ids.ts";
import { setWebhookResolver } from "../../src/modules/webhooks/webhooks.service.ts";
import { seededApp, type TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { driveSchedule, finishRun, ledger, register, startReceiver, type Receiver } from "../helpers/webhooks.ts";

const realFetch = globalThis.fetch;
const fetched: string[] = [];
let connections = 0;
let listener: { port: number; stop(closeActive?: boolean): void };

beforeAll(() => {
  globalThis.fetch = Object.assign(
    async (input: string | URL | Request, init?: RequestInit) => {
      const host = new URL(input instanceof Request ? input.url : String(input)).hostname;
      fetched.push(host);
      if (host !== "127.0.0.1") throw new Error(`test guard: refused to connect to ${host}`);
      return realFetch(input, init);
    },
    { preconnect: realFetch.preconnect },
  ) as typeof fetch;
  listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data: () => {} } });
});
afterAll(() => {
  globalThis.fetch = realFetch;
  listener.stop(true);
});

let t: TestApp;
let f: Fixture;
let receiver: Receiver | null = null;
afterEach(() => {
  receiver?.stop();
  receiver = null;
  fetched.length = 0;
  connections = 0;
});

function setup(env: Record<string, string> = {}) {
  ({ t, f } = seededApp({ env }));
}

/** An endpoint written past registration's checks (as if the rules or the network had changed since). */
async function insertEndpoint(url: string): Promise<string> {
  const id = newId();
  const sealed = await t.deps.secrets.box.encrypt("whsec_" + Buffer.alloc(32, 7).toString("base64"), id);
  t.deps.db.$client
    .query("INSERT INTO webhook_endpoints (id, org_id, url, description, secret_enc, created_at) VALUES (?, ?, ?, '', ?, ?)")
    .run(id, f.orgs.acme.id, url, sealed, t.clock.now().toISOString());
  return id;
}

describe("with private networks off", () => {
  const port = () => listener.port;
  const targets: [string, () => string, RegExp][] = [
    ["loopback 127.0.0.1", () => `https://127.0.0.1:${port()}/hook`, /not a public address \(loopback\)/],
    ["loopback over http", () => `http://127.0.0.1:${port()}/hook`, /must use https/],
    ["loopback [::1]", () => `https://[::1]:${port()}/hook`, /not a public address \(loopback\)/],
    ["localhost (a name resolving to loopback)", () => `https://localhost:${port()}/hook`, /^localhost does not resolve to a public address; outbound requests reach public addresses only$/],
    ["IPv4-mapped ::ffff:127.0.0.1", () => `https://[::ffff:127.0.0.1]:${port()}/hook`, /not a public address \(loopback\)/],
    ["decimal 2130706433", () => `https://2130706433:${port()}/hook`, /not a public address \(loopback\)/],
    ["octal 0177.0.0.1", () => `https://0177.0.0.1:${port()}/hook`, /not a public address \(loopback\)/],
    ["short 127.1", () => `https://127.1:${port()}/hook`, /not a public address \(loopback\)/],
    ["private 10.0.0.1", () => "https://10.0.0.1/hook", /not a public address \(private\)/],
    ["private 192.168.1.1", () => "https://192.168.1.1/hook", /not a public address \(private\)/],
    ["link-local metadata 169.254.169.254", () => "https://169.254.169.254/latest/meta-data", /not a public address \(linkLocal\)/],
    ["unique-local fd00::1", () => "https://[fd00::1]/hook", /not a public address \(uniqueLocal\)/],
  ];
  test.each(targets)("%s: the attempt fails before any connection and is retried", async (_name, url, why) => {
    setup();
    const id = await insertEndpoint(url());
    finishRun(t, f);
    expect(await webhookDelivery.runOnce(t.deps)).toMatchObject({ fannedOut: 1, attempted: 1, retrying: 1 });
    const [row] = await ledger(t, f, id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_response_code: null });
    expect(row.last_error).toMatch(why);
    expect(fetched).toEqual([]);
    expect(connections).toBe(0);
  });

  test("refused on every one of the 11 attempts, then failed; never connected", async () => {
    setup();
    const id = await insertEndpoint(`https://127.0.0.1:${listener.port}/hook`);
    finishRun(t, f);
    await driveSchedule(t);
    expect((await ledger(t, f, id))[0]).toMatchObject({ status: "failed", attempts: 11, next_attempt_at: null });
    expect(fetched).toEqual([]);
    expect(connections).toBe(0);
  });

  test("a name that was public at registration and now resolves to loopback (DNS rebinding) is refused", async () => {
    setup();
    let answer = ["93.184.215.14"];
    const lookups: string[] = [];
    setWebhookResolver(t.deps, async (host) => (lookups.push(host), answer));
    const hook = await register(t, f, `https://hooks.partner.example:${listener.port}/in`);
    answer = ["127.0.0.1"];
    finishRun(t, f);
    await webhookDelivery.runOnce(t.deps);
    const error = (await ledger(t, f, hook.id))[0].last_error;
    expect(error).toBe("hooks.partner.example does not resolve to a public address; outbound requests reach public addresses only");
    expect(error).not.toContain("127.0.0.1"); // internal DNS answers are not echoed to API clients
    // one lookup at registration, one at the attempt; nothing connected to either answer
    expect(lookups).toEqual(["hooks.partner.example", "hooks.partner.example"]);
    expect(fetched).toEqual([]);
    expect(connections).toBe(0);
  });
});

describe("a redirect with private networks off", () => {
  test("a public receiver redirecting to a private address: every attempt fails with the 3xx, the private target receives nothing", async () => {
    setup();
    const inside = startReceiver();
    const locations = [`http://127.0.0.1:${inside.server.port}/internal`, "http://10.0.0.1/internal", "http://169.254.169.254/latest/meta-data"];
    receiver = startReceiver((n) => new Response(null, { status: 302, headers: { location: locations[(n - 1) % locations.length] } }));
    try {
      // The receiver stands in for a public host: its name resolves to a public address, and the
      // connection to that checked address is dialled to the loopback receiver (tests only).
      setWebhookResolver(t.deps, async (host) => (host === "hooks.partner.example" ? ["93.184.215.14"] : []));
      t.deps.outbound = { dial: () => new URL(receiver!.url("/")) };
      const hook = await register(t, f, "https://hooks.partner.example/in");
      finishRun(t, f);
      await driveSchedule(t);
      expect(receiver.received.map((r) => [r.path, r.headers.host])).toEqual(Array(11).fill(["/in", "hooks.partner.example"]));
      expect(inside.received).toEqual([]);
      expect(fetched).toEqual(Array(11).fill("127.0.0.1")); // the dialled receiver only: no redirect hop
      const [row] = await ledger(t, f, hook.id);
      expect(row).toMatchObject({ status: "failed", attempts: 11, last_response_code: 302, next_attempt_at: null });
      expect(row.last_error).toMatch(/^Redirect not followed \(302 to /);
    } finally {
      inside.stop();
    }
  });
});

describe("with private networks allowed (loopback receivers)", () => {
  test("link-local (cloud metadata) stays refused", async () => {
    setup({ DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" });
    const id = await insertEndpoint("http://169.254.169.254/latest/meta-data");
    finishRun(t, f);
    await webhookDelivery.runOnce(t.deps);
    expect((await ledger(t, f, id))[0].last_error).toMatch(/linkLocal/);
    expect(fetched).toEqual([]);
  });

  test("a redirect to a private or metadata address is never followed: the 3xx is a failed attempt", async () => {
    setup({ DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" });
    const locations = ["http://10.0.0.1/internal", "http://169.254.169.254/latest/meta-data", "http://[::ffff:192.168.0.1]/"];
    receiver = startReceiver((n) =>
      n <= locations.length ? new Response(null, { status: 302, headers: { location: locations[n - 1] } }) : new Response(null, { status: 200 }),
    );
    const hook = await register(t, f, receiver.url());
    finishRun(t, f);
    await driveSchedule(t);
    expect(receiver.received).toHaveLength(4);
    expect(fetched.every((h) => h === "127.0.0.1")).toBe(true);
    expect(fetched).toHaveLength(4);
    expect((await ledger(t, f, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 4 });
  });
});
