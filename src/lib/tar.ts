// A streaming tar (POSIX ustar) writer and reader for backup archives. Written here because no tar
// library is installed and Bun.Archive builds archives in memory (a 1 GB data dir must stream; and
// in Bun 1.4.5 it wrote a lazily read Bun.file() entry as empty). Only what backups use: regular
// files, names up to 100 bytes, sizes past 8 GiB in GNU base-256. GNU tar reads what this writes
// (test/unit/tar.test.ts checks it), so an archive can be inspected with `tar tzvf`.
import { createReadStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";

const BLOCK = 512;
const OCTAL_SIZE_MAX = 0o77777777777; // 11 octal digits: 8 GiB - 1

/** Why an archive cannot be read, in words for an operator. */
export class TarError extends Error {}

export type TarEntry = { name: string; size: number; mtime: Date; type: string };

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, "0") + "\0", offset, length, "ascii");
}

/** One entry's 512-byte header (exported for tests of the size encodings). */
export function tarHeader(name: string, size: number, mtime: Date, mode: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new TarError(`tar entry name longer than 100 bytes: ${name}`);
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, "utf8");
  writeOctal(h, 100, 8, mode);
  writeOctal(h, 108, 8, 0);
  writeOctal(h, 116, 8, 0);
  if (size <= OCTAL_SIZE_MAX) writeOctal(h, 124, 12, size);
  else {
    // GNU base-256: the high bit of the first byte set, the size big-endian in the rest.
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 128);
  }
  writeOctal(h, 136, 12, Math.floor(mtime.getTime() / 1000));
  h.fill(0x20, 148, 156); // the checksum field counts as spaces while summing
  h.write("0", 156, 1, "ascii");
  h.write("ustar\0" + "00", 257, 8, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return h;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Writes entries to `out` one after another, waiting for `out` to drain (nothing held whole in memory). */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async put(chunk: Uint8Array): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }

  /**
   * Streams the file at `path` in as `name`. The file must not change while it is read: `size` is
   * what the header promised, and a file that grew or shrank is refused. `onChunk` sees every byte.
   */
  async addFile(name: string, path: string, size: number, opts: { mtime?: Date; mode?: number; onChunk?: (chunk: Buffer) => void } = {}): Promise<void> {
    await this.put(tarHeader(name, size, opts.mtime ?? new Date(), opts.mode ?? 0o644));
    let written = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      written += chunk.length;
      if (written > size) throw new TarError(`${path} grew while it was archived`);
      opts.onChunk?.(chunk);
      await this.put(chunk);
    }
    if (written !== size) throw new TarError(`${path} shrank while it was archived (${written} of ${size} bytes)`);
    if (padding(size)) await this.put(Buffer.alloc(padding(size)));
  }

  async addBytes(name: string, bytes: Uint8Array, opts: { mtime?: Date; mode?: number } = {}): Promise<void> {
    await this.put(tarHeader(name, bytes.length, opts.mtime ?? new Date(), opts.mode ?? 0o644));
    await this.put(bytes);
    if (padding(bytes.length)) await this.put(Buffer.alloc(padding(bytes.length)));
  }

  /** The end-of-archive marker (two zero blocks); the caller ends `out`. */
  async finish(): Promise<void> {
    await this.put(Buffer.alloc(BLOCK * 2));
  }
}

function readOctal(h: Buffer, offset: number, length: number, what: string): number {
  if (h[offset] & 0x80) {
    let value = 0n;
    for (let i = offset + 1; i < offset + length; i++) value = (value << 8n) | BigInt(h[i]);
    return Number(value);
  }
  const text = h.toString("ascii", offset, offset + length).replace(/[\0 ]+$/, "").trim();
  if (!/^[0-7]*$/.test(text)) throw new TarError(`damaged tar header: ${what} is not a number`);
  return text ? parseInt(text, 8) : 0;
}

function parseHeader(h: Buffer, at: number): TarEntry {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  if (readOctal(h, 148, 8, "checksum") !== sum) throw new TarError(`damaged tar header at byte ${at} (its checksum does not match)`);
  const name = h.toString("utf8", 0, 100).replace(/\0.*$/s, "");
  const prefix = h.toString("ascii", 257, 262) === "ustar" ? h.toString("utf8", 345, 500).replace(/\0.*$/s, "") : "";
  const type = String.fromCharCode(h[156] || 0x30);
  return { name: prefix ? `${prefix}/${name}` : name, size: readOctal(h, 124, 12, "size"), mtime: new Date(readOctal(h, 136, 12, "mtime") * 1000), type };
}

/** Where an entry's bytes go. `write` may return a promise (the reader waits: backpressure). */
export type EntrySink = { write(chunk: Buffer): void | Promise<void>; end(): void | Promise<void> };

/**
 * Reads a tar stream entry by entry, handing each entry's bytes to the sink `onEntry` returns.
 * Throws a TarError when the stream ends before the end-of-archive marker (a truncated archive).
 */
export async function readTar(input: AsyncIterable<Buffer>, onEntry: (entry: TarEntry) => EntrySink | Promise<EntrySink>): Promise<void> {
  let buffered: Buffer[] = [];
  let bufferedLength = 0;
  let offset = 0; // bytes of the tar stream consumed
  let entry: { sink: EntrySink; left: number; pad: number } | null = null;
  let zeroBlocks = 0;
  let ended = false;

  const take = (n: number): Buffer => {
    const all = buffered.length === 1 ? buffered[0] : Buffer.concat(buffered, bufferedLength);
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    buffered = rest.length ? [rest] : [];
    bufferedLength = rest.length;
    offset += n;
    return head;
  };

  for await (const chunk of input) {
    if (ended) continue; // what follows the marker (a tar's record padding) is not read
    buffered.push(chunk);
    bufferedLength += chunk.length;
    for (;;) {
      if (entry) {
        if (entry.left > 0) {
          if (bufferedLength === 0) break;
          const data = take(Math.min(entry.left, bufferedLength));
          entry.left -= data.length;
          await entry.sink.write(data);
          if (entry.left > 0) break;
        }
        if (bufferedLength < entry.pad) break;
        take(entry.pad);
        await entry.sink.end();
        entry = null;
        continue;
      }
      if (bufferedLength < BLOCK) break;
      const at = offset;
      const block = take(BLOCK);
      if (block.every((b) => b === 0)) {
        if (++zeroBlocks === 2) {
          ended = true;
          break;
        }
        continue;
      }
      if (zeroBlocks) throw new TarError(`damaged tar stream: a lone zero block at byte ${at - BLOCK}`);
      const e = parseHeader(block, at);
      entry = { sink: await onEntry(e), left: e.size, pad: padding(e.size) };
    }
  }
  if (!ended) {
    const where = entry ? `inside an entry (${entry.left} bytes of it missing)` : `after ${offset} bytes`;
    throw new TarError(`the archive is truncated: it ends ${where}, before its end-of-archive marker`);
  }
}
