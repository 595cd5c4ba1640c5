// Opaque keyset cursors: the position is a row's insertion sequence, wrapped with a checksum so
// a cursor this server did not issue is refused (422) instead of silently read as a position.
import { invalid } from "./errors.ts";

const PREFIX = "k1";

export function encodeCursor(position: number): string {
  const body = `${PREFIX}.${position}`;
  return Buffer.from(`${body}.${Bun.hash.crc32(body).toString(36)}`).toString("base64url");
}

/** The position a cursor stands for; 422 naming `["query","cursor"]` for anything else. */
export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const [prefix, position, check] = text.split(".");
  const body = `${prefix}.${position}`;
  if (
    prefix !== PREFIX ||
    !/^\d{1,15}$/.test(position ?? "") ||
    check !== Bun.hash.crc32(body).toString(36) ||
    Buffer.from(text).toString("base64url") !== cursor
  ) {
    throw invalid(["query", "cursor"], "Not a cursor this server issued: pass the previous page's next_cursor", "value_error");
  }
  return Number(position);
}
