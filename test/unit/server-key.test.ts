// The server's secret key (src/lib/server-key.ts): one key outside the database, a subkey per
// purpose. Moving it out of the webhooks module changed no key: a webhook secret sealed under the
// key file before, and a contacts cursor issued before, still open.
import { afterEach, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeCursor, encodeCursor } from "../../src/http/paging.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { KEY_FILE } from "../../src/lib/server-key.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
afterEach(() => t?.close());

const KEY = Buffer.alloc(32, 7);

/** A secret as the webhooks module sealed it before: AES-256-GCM under the key file's bytes themselves. */
async function sealedTheOldWay(key: Uint8Array, plain: string, context: string): Promise<string> {
  const enc = new TextEncoder();
  const cryptoKey = await crypto.subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "AES-GCM" }, false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(context) }, cryptoKey, enc.encode(plain)));
  return `v1:${Buffer.concat([iv, sealed]).toString("base64")}`;
}

test("a key file of before: webhook secrets sealed under it and contacts cursors signed with it still open", async () => {
  t = createTestApp({ file: true });
  writeFileSync(join(t.dataDir!, KEY_FILE), KEY.toString("base64") + "\n", { mode: 0o600 });
  const sealed = await sealedTheOldWay(KEY, "whsec_old", "endpoint-1");
  expect(await t.deps.secrets.box.decrypt(sealed, "endpoint-1")).toBe("whsec_old");
  const oldCursorKey = createHmac("sha256", KEY).update("dealgraph contacts cursor v1").digest();
  const cursor = encodeCursor(42, oldCursorKey, "user-1");
  expect(decodeCursor(cursor, t.deps.secrets.key("contacts-cursor"), "user-1")).toBe(42);
});

test("each purpose its own key; the same keys after a restart; the file made 0600 on first use", () => {
  t = createTestApp({ file: true });
  const cursorKey = t.deps.secrets.key("contacts-cursor");
  const webhookKey = t.deps.secrets.key("webhook-secrets");
  expect(Buffer.from(cursorKey).equals(Buffer.from(webhookKey))).toBe(false);
  const path = join(t.dataDir!, KEY_FILE);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64").equals(Buffer.from(webhookKey))).toBe(true);
  const restarted = createDeps({ db: t.deps.db, config: t.deps.config, log: silentLog });
  expect(Buffer.from(restarted.secrets.key("contacts-cursor")).equals(Buffer.from(cursorKey))).toBe(true);
});

test("DEALGRAPH_SECRET_KEY is the key when set (no file is made)", () => {
  t = createTestApp({ file: true, env: { DEALGRAPH_SECRET_KEY: KEY.toString("base64") } });
  expect(Buffer.from(t.deps.secrets.key("webhook-secrets")).equals(KEY)).toBe(true);
  expect(Buffer.from(t.deps.secrets.key("contacts-cursor")).equals(createHmac("sha256", KEY).update("dealgraph contacts cursor v1").digest())).toBe(true);
  expect(() => statSync(join(t.dataDir!, KEY_FILE))).toThrow();
});
