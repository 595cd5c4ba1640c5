// The server's own secret key, kept outside the database: DEALGRAPH_SECRET_KEY (base64 of 32
// bytes), else the file `<data-dir>/secret.key`, created with mode 0600 on first use. Whoever
// needs a key asks for one by purpose and gets a subkey of its own (HMAC-SHA256 of the purpose
// under the server key), so no module holds the key another one signs or seals with. (An
// in-memory database, which dies with its process, gets a key that does too.)
import { createHmac } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";

export const KEY_FILE = "secret.key";

/**
 * What each purpose's key is derived with. Webhook secrets were sealed with the server key itself
 * before subkeys existed, and deriving one now would leave every stored secret unreadable.
 */
const DERIVATION = {
  "webhook-secrets": null,
  "contacts-cursor": "dealgraph contacts cursor v1",
} as const;

/** The box's purpose name predates it serving more than webhooks; it stays, so what is sealed still opens. */
export const SECRET_BOX_PURPOSE = "webhook-secrets" satisfies KeyPurpose;

export type KeyPurpose = keyof typeof DERIVATION;

function decodeKey(base64: string, where: string): Uint8Array {
  const bytes = Buffer.from(base64.trim(), "base64");
  if (bytes.length !== 32) throw new Error(`${where} must hold the base64 of exactly 32 bytes (got ${bytes.length})`);
  return new Uint8Array(bytes);
}

/** Reads the data dir's key file, creating it (0600, exclusively: two processes agree) if absent. */
function loadOrCreateKeyFile(dataDir: string): Uint8Array {
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

export type ServerKeySource = {
  /** DEALGRAPH_SECRET_KEY, when set. */
  secretKey: string | null | undefined;
  dataDir: string;
  /** An in-memory database dies with its process: its key does too (no file is written). */
  ephemeral: boolean;
  warn(message: string, fields: Record<string, unknown>): void;
};

/** The server key itself. */
export function loadServerKey(source: ServerKeySource): Uint8Array {
  if (source.secretKey) return decodeKey(source.secretKey, "DEALGRAPH_SECRET_KEY");
  if (source.ephemeral) return crypto.getRandomValues(new Uint8Array(32));
  const key = loadOrCreateKeyFile(source.dataDir);
  const path = join(source.dataDir, KEY_FILE);
  if ((statSync(path).mode & 0o077) !== 0) source.warn("the server's secret key file is readable by others", { path, fix: `chmod 600 ${path}` });
  return key;
}

/** The 32-byte key for one purpose, derived from the server key. */
export function purposeKey(master: Uint8Array, purpose: KeyPurpose): Uint8Array {
  const label = DERIVATION[purpose];
  return label === null ? master : new Uint8Array(createHmac("sha256", master).update(label).digest());
}
