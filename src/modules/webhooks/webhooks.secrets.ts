// Webhook signing secrets: made and used here, kept encrypted at rest by the server's secret box
// (deps.secrets.box). A copy of the database alone reveals no secret.
import { createHmac } from "node:crypto";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

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
