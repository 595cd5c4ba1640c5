// Secrets kept at rest (webhook signing secrets, document-link passwords and cookies, mail
// credentials): AES-256-GCM (WebCrypto) under a key that is never in the database (the server
// key: src/lib/server-key.ts). A copy of the database alone opens none of them. Each value is bound
// to a context (its row's id or purpose) as associated data.

const FORMAT = "v1";

export type SecretBox = {
  /** `v1:` + base64(iv || ciphertext+tag); `context` (e.g. the endpoint id) is bound in as associated data. */
  encrypt(plain: string, context: string): Promise<string>;
  decrypt(sealed: string, context: string): Promise<string>;
};

/** A box sealing with the 32-byte key `rawKey` gives (asked for on first use only). */
export function createSecretBox(rawKey: () => Uint8Array): SecretBox {
  let key: Promise<CryptoKey> | null = null;
  const cryptoKey = () => (key ??= crypto.subtle.importKey("raw", rawKey() as Uint8Array<ArrayBuffer>, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
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
}
