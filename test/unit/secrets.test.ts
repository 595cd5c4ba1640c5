import { expect, test } from "bun:test";
import { hashSecret, isWellFormed, newSecret } from "../../src/modules/identity/key-secrets.ts";

test("secrets are ak_ + 38 base62 characters, unique, with a checksum that catches a typo", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const { secret, prefix, hash } = newSecret();
    expect(secret).toMatch(/^ak_[0-9A-Za-z]{38}$/);
    expect(isWellFormed(secret)).toBe(true);
    expect(secret.startsWith(prefix)).toBe(true);
    expect(hash).toBe(hashSecret(secret));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    seen.add(secret);
  }
  expect(seen.size).toBe(500);
  const { secret } = newSecret();
  const typo = secret.slice(0, 10) + (secret[10] === "a" ? "b" : "a") + secret.slice(11);
  expect(isWellFormed(typo)).toBe(false);
  expect(isWellFormed(secret.slice(0, -1))).toBe(false);
  expect(isWellFormed(secret + "x")).toBe(false);
  expect(isWellFormed("sk_" + secret.slice(3))).toBe(false);
});
