// Reads an mbox file (RFC 4155: mboxo or mboxrd) as a stream of byte chunks, never the whole file
// in memory, and hands over the wanted headers of each message. Bodies are scanned for the next
// separator only and never decoded, so their escaped `>From ` lines need no unescaping: they are
// recognised as body text, never as separators. Synchronous on purpose: a file is imported inside
// one SQLite transaction, which cannot span an await. A caller may ask for the whole of a message
// (headers and body, as stored) once it has seen its headers: the message's byte range is then
// read back from the file when the message ends, and only then unescaped.
import { closeSync, openSync, readSync } from "node:fs";
import { ImportError } from "./errors.ts";
import { HeaderBuilder, isWantedHeader, MAX_WANTED_NAME, type HeaderBlock } from "./headers.ts";

const CHUNK = 1 << 20;
/** A body line longer than this is skipped to its end instead of being buffered. */
const LONG_LINE = 4096;
/** A header block longer than this is cut: past it, the rest is read as body. */
const MAX_HEADER_LINES = 2000;
/**
 * A separator is `From ` + an envelope sender + a date with a time of day
 * (`From jane@x.com Mon Jul  7 09:05:03 2025`, `From - Mon Jul 07 ...`, `From 1234@xxx Mon Jul 07 09:05:03 +0000 2025`).
 * Requiring the time keeps an unescaped "From my side..." body line (mboxo writers forget to
 * escape) from splitting a message. Escaped body lines (`>From `, `>>From ` in mboxrd) never match.
 */
const SEPARATOR = /^From \S+ .*\b\d{1,2}:\d{2}/;

export type MboxResult = { messages: number; lines: number; bytes: number };

/** A message longer than this is never handed over whole (mail that asks for it is small). */
export const MAX_WHOLE_MESSAGE_BYTES = 2_000_000;

/** The mboxrd escapes of body lines (`>From ` for `From `, `>>From ` for `>From `) undone. */
const unescapeFromLines = (raw: Buffer) => Buffer.from(raw.toString("latin1").replace(/^>(>*From )/gm, "$1"), "latin1");

/**
 * Calls `onMessage` with the header block of each message in file order. When it returns true,
 * `onWholeMessage` gets that message as stored (headers and body, mboxrd escapes undone) once
 * it ends, unless it is longer than MAX_WHOLE_MESSAGE_BYTES.
 * Throws ImportError when the first non-empty line is not a `From ` separator.
 */
export function readMbox(
  path: string,
  onMessage: (block: HeaderBlock) => boolean | void,
  file = path,
  onWholeMessage?: (raw: Buffer, block: HeaderBlock) => void,
): MboxResult {
  const fd = openSync(path, "r");
  const chunk = Buffer.allocUnsafe(CHUNK);
  let pending: Buffer | null = null;
  let lineNo = 0;
  let bytes = 0;
  let messages = 0;
  let state = "start" as "start" | "headers" | "body";
  const headers = new HeaderBuilder();
  let headerLines = 0;
  let messageLine = 0;
  /** The current body line was too long to buffer: its rest is skipped up to the newline. */
  let skipping = false;
  /** File offset of `data[0]` in `line()`, and of the current message's first header line. */
  let base = 0;
  let messageStart = 0;
  /** The message whose whole was asked for, handed over when it ends. */
  let wanted: HeaderBlock | null = null;

  const emit = () => {
    messages++;
    const block = headers.finish(messageLine);
    if (onMessage(block) === true && onWholeMessage) wanted = block;
    headerLines = 0;
  };
  /** The current message ends at file offset `end` (the next separator, or the end of the file). */
  const endMessage = (end: number) => {
    if (!wanted) return;
    const block = wanted;
    wanted = null;
    const length = end - messageStart;
    if (length <= 0 || length > MAX_WHOLE_MESSAGE_BYTES) return;
    const raw = Buffer.allocUnsafe(length);
    let got = 0;
    // Positioned reads: the sequential reading of the file goes on where it was.
    while (got < length) {
      const n = readSync(fd, raw, got, length - got, messageStart + got);
      if (n === 0) break;
      got += n;
    }
    onWholeMessage!(unescapeFromLines(raw.subarray(0, got)), block);
  };
  const startMessage = (end: number) => {
    messageLine = lineNo;
    messageStart = base + end + 1;
  };
  const isSeparator = (data: Buffer, s: number, e: number) =>
    e - s >= 5 && data[s] === 70 && data[s + 1] === 114 && data[s + 2] === 111 && data[s + 3] === 109 && data[s + 4] === 32 && SEPARATOR.test(data.toString("latin1", s, e));

  // Only wanted headers (and their folded continuations) are decoded; the name is read from the bytes first.
  // (An escaped `>From ` line cannot be a header: it has no colon right after a name, so it is passed over.)
  const header = (data: Buffer, s: number, e: number) => {
    const c = data[s];
    if (c === 32 || c === 9) {
      if (headers.open) headers.continue(data.toString("utf8", s, e).trim());
      return;
    }
    let colon = s;
    while (colon < e && colon - s <= MAX_WANTED_NAME + 2 && data[colon] !== 58) colon++;
    const name = data[colon] === 58 && colon < e ? data.toString("latin1", s, colon).trim().toLowerCase() : "";
    if (isWantedHeader(name)) headers.start(name, data.toString("utf8", colon + 1, e).trim(), lineNo);
    else headers.skip();
  };

  const line = (data: Buffer, s: number, end: number) => {
    lineNo++;
    const e = end > s && data[end - 1] === 13 ? end - 1 : end;
    if (state === "body") {
      if (isSeparator(data, s, e)) {
        endMessage(base + s);
        state = "headers";
        startMessage(end);
      }
      return;
    }
    if (state === "headers") {
      if (e === s || headerLines >= MAX_HEADER_LINES) {
        emit();
        state = "body";
      } else if (isSeparator(data, s, e)) {
        emit(); // a message with no body
        endMessage(base + s);
        startMessage(end);
      } else {
        headerLines++;
        header(data, s, e);
      }
      return;
    }
    if (e === s || (e - s <= 3 && /^\s*$/.test(data.toString("latin1", s, e)))) return; // blank lines before the first message
    if (!isSeparator(data, s, e)) {
      const shown = data.toString("utf8", s, Math.min(e, s + 60));
      throw new ImportError(file, lineNo, `not an mbox file: the first line must be a "From " separator line (got ${JSON.stringify(shown)})`);
    }
    state = "headers";
    startMessage(end);
  };

  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      base = bytes;
      bytes += n;
      let data = chunk.subarray(0, n);
      let pos = 0;
      if (skipping) {
        const nl = data.indexOf(10);
        if (nl === -1) continue;
        skipping = false;
        lineNo++;
        pos = nl + 1;
      } else if (pending) {
        base -= pending.length;
        data = Buffer.concat([pending, data]);
        pending = null;
      }
      for (let nl = data.indexOf(10, pos); nl !== -1; nl = data.indexOf(10, pos)) {
        line(data, pos, nl);
        pos = nl + 1;
      }
      if (pos < data.length) {
        if (state === "body" && data.length - pos > LONG_LINE && !isSeparator(data, pos, pos + 64)) skipping = true;
        else pending = Buffer.from(data.subarray(pos)); // copied: `chunk` is reused
      }
    }
    if (skipping) lineNo++;
    else if (pending) {
      base = bytes - pending.length;
      line(pending, 0, pending.length);
    }
    if (state === "headers") emit();
    endMessage(bytes);
  } finally {
    closeSync(fd);
  }
  return { messages, lines: lineNo, bytes };
}
