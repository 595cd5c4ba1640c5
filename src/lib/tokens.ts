// Random bearer secrets, their at-rest hashes, and the comparison that does not leak where two
// secrets differ. Every secret this server hands out (keys, sessions, sign-in links, MCP sign-in
// tokens and codes) is stored only as the SHA-256 of itself.
import { timingSafeEqual } from "node:crypto";

/** `bytes` random bytes as base64url (32 bytes: 43 characters). */
export function randomToken(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

/** SHA-256 of a string, hex: how a secret is stored. */
export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

/** SHA-256 of a string, base64url (RFC 7636's S256 code challenge of a verifier). */
export function sha256Base64url(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("base64url");
}

/** Equal strings, compared in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}
