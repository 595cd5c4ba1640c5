// API key secrets: `ak_` + 32 random base62 characters + a 6-character checksum. The checksum
// lets a mistyped or truncated key be refused without touching the database.
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

export function hashSecret(secret: string): string {
  return new Bun.CryptoHasher("sha256").update(secret).digest("hex");
}

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
