// Webhook signing secrets: made here, kept encrypted at rest (AES-256-GCM, WebCrypto) under the
// server's key for them, which is never in the database (src/lib/server-key.ts:
// DEALGRAPH_SECRET_KEY, else `<data-dir>/secret.key`). A copy of the database alone reveals no secret.
import { createHmac } from "node:crypto";
import { perDeps, type Deps } from "../../deps.ts";
import { serverKey } from "../../lib/server-key.ts";

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

export type SecretBox = {
  /** `v1:` + base64(iv || ciphertext+tag); `context` (the endpoint id) is bound in as associated data. */
  encrypt(plain: string, context: string): Promise<string>;
  decrypt(sealed: string, context: string): Promise<string>;
};

export const secretBox = perDeps((deps: Deps): SecretBox => {
  let key: Promise<CryptoKey> | null = null;
  const cryptoKey = () =>
    (key ??= crypto.subtle.importKey("raw", serverKey(deps, "webhook-secrets") as Uint8Array<ArrayBuffer>, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
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
