// Webhook endpoint management: registration (the record, the secret shown once, 409, every 422,
// SSRF refusals with private networks off), list, read, delete, rotation, isolation, and secrets
// encrypted at rest. Nothing here connects anywhere: registration only checks addresses.
import { afterEach, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { copyFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, seededApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { seedEndpoint } from "../../helpers/webhooks.ts";
import { CreatedWebhookModel, DeliveryListModel, RotatedSecretModel, WebhookDetailModel, WebhookListModel, WEBHOOK_EVENTS } from "../../../src/modules/webhooks/webhooks.model.ts";
import { setWebhookResolver } from "../../../src/modules/webhooks/webhooks.service.ts";
import { createDeps } from "../../../src/deps.ts";
import { openSqlite, wrapDrizzle } from "../../../src/db/client.ts";
import { loadConfig } from "../../../src/config.ts";
import { silentLog } from "../../../src/lib/log.ts";

const PUBLIC = "https://93.184.215.14/hooks/dealgraph";

let t: TestApp;
let f: Fixture;
const cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.splice(0).forEach((c) => c());
});

function setup(opts: TestAppOptions = {}) {
  ({ t, f } = seededApp(opts));
}

const post = (body: unknown, key = f.keys.write.secret) => t.request("POST", "/api/v1/webhooks", { key, body });
const get = (path: string, key = f.keys.read.secret) => t.request("GET", path, { key });
const check = (schema: Parameters<typeof Value.Check>[0], value: unknown) => expect([...Value.Errors(schema, value)].map((e) => `${e.path} ${e.message}`)).toEqual([]);

describe("POST /api/v1/webhooks", () => {
  test("201: the record with every event type (six of the spec and portfolio.update.received) and a whsec_ secret of 32 random bytes, shown once", async () => {
    setup();
    const res = await post({ url: PUBLIC, description: "  CRM sync  " });
    expect(res.status).toBe(201);
    check(CreatedWebhookModel, res.json);
    expect(res.json).toMatchObject({ url: PUBLIC, description: "CRM sync", events: [...WEBHOOK_EVENTS], created_at: t.clock.now().toISOString(), secret_rotated_at: null });
    expect(res.json.events).toHaveLength(7);
    expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.json.secret.slice(6), "base64")).toHaveLength(32);
    const again = await post({ url: "https://93.184.215.15/other" });
    expect(again.json.secret).not.toBe(res.json.secret);

    const list = await get("/api/v1/webhooks");
    expect(list.status).toBe(200);
    check(WebhookListModel, list.json);
    expect(list.json.scope).toBe("org");
    expect(list.json.webhooks.map((w: any) => w.webhook_id)).toEqual([res.json.webhook_id, again.json.webhook_id]);
    expect(list.text).not.toContain(res.json.secret.slice(6));
    expect(list.json.webhooks[0]).not.toHaveProperty("secret");
    const one = await get(`/api/v1/webhooks/${res.json.webhook_id}`);
    check(WebhookDetailModel, one.json);
    expect(one.json.webhook).toEqual(list.json.webhooks[0]);
    expect(one.text).not.toContain(res.json.secret.slice(6));
  });

  test("description is optional (\"\"); the URL is stored normalized", async () => {
    setup();
    const res = await post({ url: "HTTPS://93.184.215.14:443/In?x=1#frag" });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ url: "https://93.184.215.14/In?x=1", description: "" });
  });

  test("409 for a URL already registered in the org (also written differently); other orgs and deleted ones do not count", async () => {
    setup();
    const first = await post({ url: PUBLIC });
    expect((await post({ url: PUBLIC })).status).toBe(409);
    const dup = await post({ url: "https://93.184.215.14:443/hooks/dealgraph" });
    expect(dup.status).toBe(409);
    expect(dup.json.detail).toMatch(/already registered/);
    expect((await post({ url: PUBLIC }, f.keys.otherOrgWrite.secret)).status).toBe(201);
    expect((await t.request("DELETE", `/api/v1/webhooks/${first.json.webhook_id}`, { key: f.keys.write.secret })).status).toBe(204);
    expect((await post({ url: PUBLIC })).status).toBe(201);
  });

  test("concurrent registrations of one URL: one 201, the rest 409", async () => {
    setup();
    const all = await Promise.all(Array.from({ length: 5 }, () => post({ url: PUBLIC })));
    expect(all.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  const bad: [string, unknown, (string | number)[], string?][] = [
    ["url missing", {}, ["body", "url"], "missing"],
    ["url not a string", { url: 42 }, ["body", "url"], "string_type"],
    ["url not a URL", { url: "hooks at example dot com" }, ["body", "url"], "url_parsing"],
    ["url relative", { url: "/hooks" }, ["body", "url"], "url_parsing"],
    ["http:// url", { url: "http://93.184.215.14/hook" }, ["body", "url"], "url_scheme"],
    ["ftp url", { url: "ftp://93.184.215.14/hook" }, ["body", "url"], "url_scheme"],
    ["credentials in url", { url: "https://u:p@93.184.215.14/hook" }, ["body", "url"], "url_userinfo"],
    ["a user name alone in url", { url: "https://user@hooks.example.com/hook" }, ["body", "url"], "url_userinfo"],
    ["port 0", { url: "https://93.184.215.14:0/h" }, ["body", "url"], "url_port"],
    ["port 65536", { url: "https://93.184.215.14:65536/h" }, ["body", "url"], "url_parsing"],
    ["port not a number", { url: "https://93.184.215.14:8x/h" }, ["body", "url"], "url_parsing"],
    ["url too long", { url: `https://93.184.215.14/${"a".repeat(2100)}` }, ["body", "url"], "string_too_long"],
    ["description not a string", { url: PUBLIC, description: 7 }, ["body", "description"], "string_type"],
    ["description too long", { url: PUBLIC, description: "x".repeat(501) }, ["body", "description"], "string_too_long"],
  ];
  test.each(bad)("422: %s", async (_name, body, loc, type) => {
    setup();
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(Array.isArray(res.json.detail)).toBe(true);
    expect(res.json.detail).toContainEqual(expect.objectContaining({ loc, msg: expect.any(String), ...(type ? { type } : {}) }));
  });

  test("the refusals of a port and of credentials say why, and register nothing", async () => {
    setup();
    expect((await post({ url: "https://93.184.215.14:0/h" })).json.detail[0].msg).toBe("The URL's port must be between 1 and 65535, not 0");
    expect((await post({ url: "https://user:pass@93.184.215.14/h" })).json.detail[0].msg).toMatch(/must not contain a user name or password/);
    expect((await t.request("GET", "/api/v1/webhooks", { key: f.keys.read.secret })).json.webhooks).toEqual([]);
    expect((await post({ url: "https://93.184.215.14:8443/h" })).status).toBe(201);
  });

  test("422: malformed JSON, an array body, no body", async () => {
    setup();
    const broken = await t.request("POST", "/api/v1/webhooks", { key: f.keys.write.secret, rawBody: "{url:" });
    expect(broken.status).toBe(422);
    expect(broken.json.detail[0]).toMatchObject({ loc: ["body"], type: "json_invalid" });
    const array = await t.request("POST", "/api/v1/webhooks", { key: f.keys.write.secret, rawBody: "[]" });
    expect(array.status).toBe(422);
    const none = await t.request("POST", "/api/v1/webhooks", { key: f.keys.write.secret });
    expect(none.status).toBe(422);
  });

  const ssrf = [
    "https://10.0.0.1/hook",
    "https://10.255.1.2:8443/hook",
    "https://172.16.0.5/hook",
    "https://192.168.1.20/hook",
    "https://127.0.0.1/hook",
    "https://127.0.0.1:8080/hook",
    "https://[::1]/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:a9fe:a9fe]/hook",
    "https://2130706433/hook",
    "https://0177.0.0.1/hook",
    "https://0x7f.0.0.1/hook",
    "https://127.1/hook",
    "https://0.0.0.0/hook",
    "https://100.64.0.1/hook",
    "https://[fd00::1]/hook",
    "https://[fe80::1]/hook",
    "https://localhost/hook",
    "https://localhost./hook",
  ];
  test.each(ssrf)("422 (not public, private networks off): %s", async (url) => {
    setup();
    const res = await post({ url });
    expect(res.status).toBe(422);
    expect(res.json.detail[0]).toMatchObject({ loc: ["body", "url"], type: "url_not_public", msg: expect.stringMatching(/public address/) });
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM webhook_endpoints").get()).toEqual({ n: 0 });
  });

  test("a host name is resolved and every address checked; one that does not resolve is 422", async () => {
    setup();
    setWebhookResolver(t.deps, async (host) => {
      const table: Record<string, string[]> = {
        "hooks.partner.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "rebind.partner.example": ["93.184.215.14", "10.0.0.7"],
        "internal.partner.example": ["::ffff:192.168.0.9"],
      };
      if (!table[host]) throw Object.assign(new Error("nx"), { code: "ENOTFOUND" });
      return table[host];
    });
    expect((await post({ url: "https://hooks.partner.example/in" })).status).toBe(201);
    for (const name of ["rebind", "internal", "nowhere"]) {
      const res = await post({ url: `https://${name}.partner.example/in` });
      expect(res.status, name).toBe(422);
      // The same words whether the name resolves to a private address or not at all: nothing maps internal DNS.
      expect(res.json.detail).toEqual([
        {
          loc: ["body", "url"],
          msg: `The URL must be HTTPS on a public address: ${name}.partner.example does not resolve to a public address; outbound requests reach public addresses only`,
          type: "url_not_public",
        },
      ]);
    }
  });

  test("with DEALGRAPH_ALLOW_PRIVATE_NETWORK=1, loopback over http is accepted (development and tests)", async () => {
    setup({ env: { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } });
    expect((await post({ url: "http://127.0.0.1:9/hook" })).status).toBe(201);
    expect((await post({ url: "https://169.254.169.254/" })).status).toBe(422);
  });
});

describe("DELETE, reads after it, ids", () => {
  test("204; the endpoint and its ledger then read 404; its secrets are wiped; pending deliveries cancelled", async () => {
    setup();
    const { webhookId, deliveryId } = seedEndpoint(t, f.orgs.acme.id);
    t.deps.db.$client.query("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id = ?").run(t.clock.now().toISOString(), deliveryId);
    const del = await t.request("DELETE", `/api/v1/webhooks/${webhookId}`, { key: f.keys.write.secret });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    for (const path of [`/api/v1/webhooks/${webhookId}`, `/api/v1/webhooks/${webhookId}/deliveries`, `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}`]) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await t.request("DELETE", `/api/v1/webhooks/${webhookId}`, { key: f.keys.write.secret })).status).toBe(404);
    expect((await get("/api/v1/webhooks")).json.webhooks).toEqual([]);
    const row = t.deps.db.$client.query("SELECT secret_enc, deleted_at FROM webhook_endpoints WHERE id = ?").get(webhookId) as any;
    expect(row).toEqual({ secret_enc: null, deleted_at: t.clock.now().toISOString() });
    const d = t.deps.db.$client.query("SELECT status, next_attempt_at, last_error FROM webhook_deliveries WHERE id = ?").get(deliveryId) as any;
    expect(d).toMatchObject({ status: "failed", next_attempt_at: null, last_error: expect.stringMatching(/deleted/) });
  });

  test("ids that are not UUIDs, unknown ids and another org's ids: 404 on every route", async () => {
    setup();
    const theirs = seedEndpoint(t, f.orgs.globex.id);
    const ours = seedEndpoint(t, f.orgs.acme.id);
    const paths = [
      ["GET", "/api/v1/webhooks/not-a-uuid"],
      ["GET", "/api/v1/webhooks/not-a-uuid/deliveries"],
      ["DELETE", "/api/v1/webhooks/1"],
      ["POST", "/api/v1/webhooks/x/rotate-secret"],
      ["GET", `/api/v1/webhooks/${crypto.randomUUID()}`],
      ["GET", `/api/v1/webhooks/${ours.webhookId}/deliveries/nope`],
      ["GET", `/api/v1/webhooks/${ours.webhookId}/deliveries/${theirs.deliveryId}`],
      ["POST", `/api/v1/webhooks/${ours.webhookId}/deliveries/${theirs.deliveryId}/redeliver`],
      ["GET", `/api/v1/webhooks/${theirs.webhookId}/deliveries`],
      ["DELETE", `/api/v1/webhooks/${theirs.webhookId}`],
    ];
    for (const [method, path] of paths) {
      const res = await t.request(method, path, { key: f.keys.write.secret });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.detail).toEqual(expect.any(String));
    }
    // the other org's endpoint is untouched and invisible in our list
    expect((await get("/api/v1/webhooks")).json.webhooks.map((w: any) => w.webhook_id)).toEqual([ours.webhookId]);
    expect(t.deps.db.$client.query("SELECT deleted_at FROM webhook_endpoints WHERE id = ?").get(theirs.webhookId)).toEqual({ deleted_at: null });
  });

  test("deliveries: the list shape, limit and status filters, 422 on bad values", async () => {
    setup();
    const { webhookId } = seedEndpoint(t, f.orgs.acme.id);
    const res = await get(`/api/v1/webhooks/${webhookId}/deliveries?limit=10&status=failed`);
    expect(res.status).toBe(200);
    check(DeliveryListModel, res.json);
    expect(res.json.deliveries).toHaveLength(1);
    expect((await get(`/api/v1/webhooks/${webhookId}/deliveries?status=pending`)).json.deliveries).toEqual([]);
    const low = await get(`/api/v1/webhooks/${webhookId}/deliveries?limit=0`);
    expect(low.status).toBe(422);
    expect(low.json.detail[0].loc).toEqual(["query", "limit"]);
    const high = await get(`/api/v1/webhooks/${webhookId}/deliveries?limit=201`);
    expect(high.status).toBe(422);
    const status = await get(`/api/v1/webhooks/${webhookId}/deliveries?status=done`);
    expect(status.status).toBe(422);
    expect(status.json.detail[0].loc).toEqual(["query", "status"]);
  });
});

describe("rotate-secret", () => {
  test("a new secret once; the old one is kept for the overlap (default 24 h), not at all with 0", async () => {
    setup();
    const created = await post({ url: PUBLIC });
    const path = `/api/v1/webhooks/${created.json.webhook_id}/rotate-secret`;
    const rotated = await t.request("POST", path, { key: f.keys.write.secret });
    expect(rotated.status).toBe(200);
    check(RotatedSecretModel, rotated.json);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);
    const now = t.clock.now().getTime();
    expect(rotated.json.webhook).toMatchObject({
      secret_rotated_at: new Date(now).toISOString(),
      previous_secret_expires_at: new Date(now + 24 * 3600_000).toISOString(),
    });
    const custom = await t.request("POST", path, { key: f.keys.write.secret, body: { overlap_hours: 2 } });
    expect(custom.json.webhook.previous_secret_expires_at).toBe(new Date(now + 2 * 3600_000).toISOString());
    const none = await t.request("POST", path, { key: f.keys.write.secret, body: { overlap_hours: 0 } });
    expect(none.json.webhook.previous_secret_expires_at).toBeNull();
    t.clock.advanceHours(3);
    expect((await get(`/api/v1/webhooks/${created.json.webhook_id}`)).json.webhook.previous_secret_expires_at).toBeNull();
  });

  test("422 on a bad overlap", async () => {
    setup();
    const { webhookId } = seedEndpoint(t, f.orgs.acme.id);
    for (const overlap_hours of [-1, 169, 1.5, "x"]) {
      const res = await t.request("POST", `/api/v1/webhooks/${webhookId}/rotate-secret`, { key: f.keys.write.secret, body: { overlap_hours } });
      expect(res.status, String(overlap_hours)).toBe(422);
      expect(res.json.detail[0].loc).toEqual(["body", "overlap_hours"]);
    }
  });
});

describe("secrets at rest", () => {
  test("the column holds ciphertext, not the secret; the key file is 0600; a copied database alone reveals nothing", async () => {
    setup({ file: true });
    const res = await post({ url: PUBLIC });
    const secret: string = res.json.secret;
    const stored = (t.deps.db.$client.query("SELECT secret_enc FROM webhook_endpoints").get() as { secret_enc: string }).secret_enc;
    expect(stored).not.toBe(secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(stored).not.toContain(Buffer.from(secret.slice(6), "base64").toString("hex"));
    const dump = Buffer.from(t.deps.db.$client.serialize()).toString("latin1");
    expect(dump).not.toContain(secret.slice(6));
    const keyFile = join(t.dataDir!, "secret.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(await t.deps.secrets.box.decrypt(stored, res.json.webhook_id)).toBe(secret);

    // The database copied elsewhere, without the key file: the secret cannot be recovered.
    const elsewhere = createTestApp({ file: true });
    cleanups.push(() => elsewhere.close());
    t.deps.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const copy = join(elsewhere.dataDir!, "copied.db");
    copyFileSync(join(t.dataDir!, "dealgraph.db"), copy);
    const sqlite = openSqlite(copy, { busyTimeoutMs: 1000 });
    cleanups.push(() => sqlite.close());
    const stolen = createDeps({ db: wrapDrizzle(sqlite), config: { ...loadConfig({}), dataDir: elsewhere.dataDir! }, log: silentLog });
    const row = sqlite.query("SELECT id, secret_enc FROM webhook_endpoints").get() as { id: string; secret_enc: string };
    expect(row.secret_enc).toBe(stored);
    await expect(stolen.secrets.box.decrypt(row.secret_enc, row.id)).rejects.toThrow();
  });

  test("with DEALGRAPH_SECRET_KEY no key file is written, and the key decrypts", async () => {
    const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
    setup({ file: true, env: { DEALGRAPH_SECRET_KEY: key } });
    const res = await post({ url: PUBLIC });
    expect(existsSync(join(t.dataDir!, "secret.key"))).toBe(false);
    const row = t.deps.db.$client.query("SELECT id, secret_enc FROM webhook_endpoints").get() as { id: string; secret_enc: string };
    expect(await t.deps.secrets.box.decrypt(row.secret_enc, row.id)).toBe(res.json.secret);
    // bound to its row: the same ciphertext does not decrypt as another endpoint's
    await expect(t.deps.secrets.box.decrypt(row.secret_enc, crypto.randomUUID())).rejects.toThrow();
  });

  test("a bad DEALGRAPH_SECRET_KEY stops start-up with a reason", () => {
    expect(() => loadConfig({ DEALGRAPH_SECRET_KEY: "c2hvcnQ=" })).toThrow(/32 random bytes/);
  });
});

test("the OpenAPI document names every webhook operation", async () => {
  setup();
  const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
  const ids = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)
    .filter(([p]) => p.startsWith("/api/v1/webhooks"))
    .flatMap(([, ops]) => Object.values(ops).map((o) => o.operationId))
    .sort();
  expect(ids).toEqual(
    ["createWebhook", "deleteWebhook", "getWebhook", "getWebhookDelivery", "listWebhookDeliveries", "listWebhooks", "redeliverWebhookDelivery", "rotateWebhookSecret"].sort(),
  );
  expect(doc.paths["/api/v1/webhooks"].post.responses["201"]).toBeDefined();
  expect(doc.paths["/api/v1/webhooks"].post.requestBody.content["application/json"].schema.required).toEqual(["url"]);
});
