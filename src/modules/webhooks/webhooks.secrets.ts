// Webhook signing secrets: made here, kept encrypted at rest (AES-256-GCM, WebCrypto) under a key
// that is never in the database: DEALGRAPH_SECRET_KEY (base64 of 32 bytes), else the file
// `<data-dir>/secret.key`, created with mode 0600 on first use. A copy of the database alone
// reveals no secret. (An in-memory database, which dies with its process, gets a key that does too.)
import { createHmac } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { perDeps, type Deps } from "../../deps.ts";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
const FORMAT = "v1";

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, "base64");
}

/** `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, one per secret, space-separated. */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  const message = `${id}.${timestamp}.${body}`;
  return secrets.map((s) => `v1,${createHmac("sha256", secretKeyBytes(s)).update(message).digest("base64")}`).join(" ");
}

export const KEY_FILE = "secret.key";

function decodeKey(base64: string, where: string): Uint8Array {
  const bytes = Buffer.from(base64.trim(), "base64");
  if (bytes.length !== 32) throw new Error(`${where} must hold the base64 of exactly 32 bytes (got ${bytes.length})`);
  return new Uint8Array(bytes);
}

/** Reads the data dir's key file, creating it (0600, exclusively: two processes agree) if absent. */
export function loadOrCreateKeyFile(dataDir: string): Uint8Array {
  const path = join(dataDir, KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64") + "\n");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
  }
  // Another process may have created the file a moment ago and not written it yet.
  for (let i = 0; ; i++) {
    const text = readFileSync(path, "utf8");
    if (text.trim() || i >= 50) return decodeKey(text, path);
    Bun.sleepSync(10);
  }
}

export function rawKey(deps: Deps): Uint8Array {
  if (deps.config.secretKey) return decodeKey(deps.config.secretKey, "DEALGRAPH_SECRET_KEY");
  const file = deps.db.$client.filename;
  if (file === ":memory:" || file === "") return crypto.getRandomValues(new Uint8Array(32));
  const key = loadOrCreateKeyFile(deps.config.dataDir);
  const path = join(deps.config.dataDir, KEY_FILE);
  if ((statSync(path).mode & 0o077) !== 0) deps.log.warn("the webhook secret key file is readable by others", { path, fix: `chmod 600 ${path}` });
  return key;
}

export type SecretBox = {
  /** `v1:` + base64(iv || ciphertext+tag); `context` (the endpoint id) is bound in as associated data. */
  encrypt(plain: string, context: string): Promise<string>;
  decrypt(sealed: string, context: string): Promise<string>;
};

export const secretBox = perDeps((deps: Deps): SecretBox => {
  let key: Promise<CryptoKey> | null = null;
  const cryptoKey = () =>
    (key ??= crypto.subtle.importKey("raw", rawKey(deps) as Uint8Array<ArrayBuffer>, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
  const enc = new TextEncoder();

  return {
    async encrypt(plain, context) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(context) }, await cryptoKey(), enc.encode(plain)),
      );
      const out = new Uint8Array(iv.length + sealed.length);
      out.set(iv);
      out.set(sealed, iv.length);
      return `${FORMAT}:${Buffer.from(out).toString("base64")}`;
    },
    async decrypt(sealed, context) {
      const [format, data] = sealed.split(":", 2);
      if (format !== FORMAT || !data) throw new Error("Unknown secret format");
      const bytes = Buffer.from(data, "base64");
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.subarray(0, 12), additionalData: enc.encode(context) },
        await cryptoKey(),
        bytes.subarray(12),
      );
      return new TextDecoder().decode(plain);
    },
  };
});
