// Opaque keyset cursors: the position is a row's insertion sequence, signed with an HMAC under a
// server key and bound to a scope (e.g. the key's user), so a cursor this server did not issue
// (made up, edited, or issued to someone else) is refused (422) instead of read as a position.
import { createHmac, timingSafeEqual } from "node:crypto";
import { invalid } from "./errors.ts";

const PREFIX = "k2";
/** 128 bits of HMAC-SHA256: enough that a cursor cannot be guessed, short enough for a URL. */
const MAC_BYTES = 16;

const mac = (key: Uint8Array, position: string, scope: string) =>
  createHmac("sha256", key).update(`${PREFIX}.${position}.${scope}`).digest().subarray(0, MAC_BYTES);

export function encodeCursor(position: number, key: Uint8Array, scope = ""): string {
  const p = String(position);
  return Buffer.from(`${PREFIX}.${p}.${mac(key, p, scope).toString("base64url")}`).toString("base64url");
}

/** The position a cursor stands for; 422 naming `["query","cursor"]` for anything else. */
export function decodeCursor(cursor: string, key: Uint8Array, scope = ""): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const [prefix, position, signature, ...rest] = text.split(".");
  const given = Buffer.from(signature ?? "", "base64url");
  const ok =
    prefix === PREFIX &&
    rest.length === 0 &&
    /^\d{1,15}$/.test(position ?? "") &&
    given.length === MAC_BYTES &&
    timingSafeEqual(given, mac(key, position, scope)) &&
    Buffer.from(text).toString("base64url") === cursor;
  if (!ok) throw invalid(["query", "cursor"], "Not a cursor this server issued for this key: pass the previous page's next_cursor", "value_error");
  return Number(position);
}
