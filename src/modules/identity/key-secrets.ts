// The bearer secrets this server issues. API keys: `ak_` + 32 random base62 characters + a
// 6-character checksum (which lets a mistyped or truncated key be refused without touching the
// database). MCP sign-in (OAuth) tokens: `mcp_at_` (access) or `mcp_rt_` (refresh) + 32 random
// bytes in base64url, issued by the oauth module; their shape lives here so that every door can
// tell a client what it was given (the REST API takes keys only).
import { randomToken, sha256Hex } from "../../lib/tokens.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 32;
const CHECK_LENGTH = 6;
export const SECRET_PREFIX = "ak_";
const SHAPE = new RegExp(`^ak_[0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // 248 = 62 * 4: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let n = Bun.hash.crc32(body);
  let out = "";
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** How a key is stored: the SHA-256 (hex) of its secret. */
export const hashSecret = sha256Hex;

export function newSecret(): { secret: string; prefix: string; hash: string } {
  const body = randomBase62(BODY_LENGTH);
  const secret = SECRET_PREFIX + body + checksum(body);
  return { secret, prefix: secret.slice(0, 11), hash: hashSecret(secret) };
}

export function isWellFormed(secret: string): boolean {
  if (!SHAPE.test(secret)) return false;
  const body = secret.slice(3, 3 + BODY_LENGTH);
  return checksum(body) === secret.slice(3 + BODY_LENGTH);
}

export const SIGN_IN_TOKEN_PREFIXES = { access: "mcp_at_", refresh: "mcp_rt_" } as const;
export type SignInTokenKind = keyof typeof SIGN_IN_TOKEN_PREFIXES;
const SIGN_IN_SHAPE = /^mcp_(at|rt)_[A-Za-z0-9_-]{43}$/;

/** A new MCP sign-in token of a kind, and the hash it is stored as. */
export function newSignInToken(kind: SignInTokenKind): { token: string; hash: string } {
  const token = SIGN_IN_TOKEN_PREFIXES[kind] + randomToken(32);
  return { token, hash: hashSecret(token) };
}

/** The kind of MCP sign-in token a secret is shaped as; null for anything else. */
export function signInTokenKind(secret: string): SignInTokenKind | null {
  const m = SIGN_IN_SHAPE.exec(secret);
  return m ? (m[1] === "at" ? "access" : "refresh") : null;
}
