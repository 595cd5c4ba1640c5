// A folder of RFC 5322 `.eml` files (one message each, as mail clients export them): the header
// block of each file, in a stable order (sorted by path, subfolders included).
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { ImportError } from "./errors.ts";
import { parseHeaderLines, type HeaderBlock } from "./headers.ts";

/** Headers are read up to this size; a header block is far smaller in real mail. */
const HEAD_BYTES = 256 * 1024;

/** The `.eml` files under a folder, sorted. */
export function emlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith(".eml")) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

/** The header block of one .eml file (its body is never read past the first blank line). */
export function readEmlHeaders(path: string, file = path): HeaderBlock {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new ImportError(file, null, `cannot be read (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
  let text: string;
  try {
    const size = Math.min(statSync(path).size, HEAD_BYTES);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, null);
      if (n === 0) break;
      got += n;
    }
    text = buf.toString("utf8", 0, got);
  } finally {
    closeSync(fd);
  }
  const end = /\r?\n\r?\n/.exec(text);
  const lines = (end ? text.slice(0, end.index) : text).split(/\r?\n/);
  // An mbox separator line at the top (some tools save single messages that way) is not a header.
  let first = 1;
  if (lines[0]?.startsWith("From ")) {
    lines.shift();
    first = 2;
  }
  if (lines.length === 0 || !lines.some((l) => /^[!-9;-~]+:/.test(l))) {
    throw new ImportError(file, 1, "not an email message: no header lines (Name: value) at the top of the file");
  }
  return parseHeaderLines(lines, first, 1);
}
