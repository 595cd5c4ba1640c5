// gzip into a file, as fast as the archive's bytes can be read. The stream is cut into 2 MB blocks,
// each written as a gzip member of its own (RFC 1952, 2.2: a gzip file is a series of members, and
// gzip, GNU tar and node:zlib read them as one stream). A block goes to a compressor thread
// (libdeflate at `level`) when one is idle; when every one is busy it is written as a stored member
// (deflate's uncompressed blocks with their CRC-32) on this thread instead of waiting. So the backup
// never runs slower than reading, hashing and writing the data, and the second core compresses what
// it can meanwhile: on an idle machine most blocks, under load fewer (the archive is bigger, the time
// the same). The archive's sha256 and size are taken from the bytes as they are written.
import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { fsyncSync, writeSync } from "node:fs";

export const GZIP_BLOCK = 2 * 1024 * 1024;
/** Deflate's stored blocks hold at most 65,535 bytes each. */
const STORED_MAX = 65_535;
const storedSize = (n: number) => 10 + n + Math.max(1, Math.ceil(n / STORED_MAX)) * 5 + 8;
/** Blocks waiting to be written in order (compressing, or stored behind one that is): bounds memory. */
const QUEUE = 8;

/** One gzip member holding `data` uncompressed, written into `out` (at least storedSize bytes); returns its length. */
export function storedMember(data: Uint8Array, out: Buffer): number {
  // Header: magic, deflate, no flags, no mtime, no extra flags, OS unknown (255).
  out[0] = 0x1f;
  out[1] = 0x8b;
  out[2] = 8;
  out.fill(0, 3, 9);
  out[9] = 255;
  let o = 10;
  let at = 0;
  do {
    const n = Math.min(STORED_MAX, data.length - at);
    out[o] = at + n >= data.length ? 1 : 0; // BFINAL on the last; BTYPE 00 (stored)
    out.writeUInt16LE(n, o + 1);
    out.writeUInt16LE(~n & 0xffff, o + 3);
    out.set(data.subarray(at, at + n), o + 5);
    o += 5 + n;
    at += n;
  } while (at < data.length);
  out.writeUInt32LE(Bun.hash.crc32(data) >>> 0, o);
  out.writeUInt32LE(data.length >>> 0, o + 4); // ISIZE: the length modulo 2^32
  return o + 8;
}

// The compressor thread: takes a block (its buffer moved, not copied), gives back the member and the
// block's buffer for reuse.
const COMPRESS_WORKER = `
self.onmessage = (event) => {
  const { id, buf, length, level } = event.data;
  try {
    const out = Bun.gzipSync(new Uint8Array(buf, 0, length), { level, library: "libdeflate" });
    postMessage({ id, buf, out }, [buf, out.buffer]);
  } catch (error) {
    postMessage({ id, buf, error: String(error && error.message ? error.message : error) }, [buf]);
  }
};`;

type Pending = { member: Promise<Uint8Array>; ready: boolean; done(): void };

export type GzipStats = { level: number; blocks: number; compressed: number; stored: number };

export class GzipSink {
  readonly hash = createHash("sha256");
  bytes = 0;
  readonly stats: GzipStats;
  private workers: { worker: Worker; busy: boolean }[] = [];
  private url = "";
  private spare: ArrayBuffer[] = [];
  private spareOut: Buffer[] = [];
  private block: ArrayBuffer;
  private view: Uint8Array;
  private fill = 0;
  private queue: Pending[] = [];
  private waiting = new Map<number, { resolve(out: Uint8Array): void; reject(e: Error): void; worker: { busy: boolean } }>();
  private nextId = 0;

  /** `level` 0: every block stored, no thread started; 1-12: libdeflate's levels where a thread is free. */
  constructor(
    private readonly fd: number,
    level = 1,
    threads = Math.max(1, Math.min(2, availableParallelism() - 1)),
  ) {
    this.stats = { level, blocks: 0, compressed: 0, stored: 0 };
    this.block = new ArrayBuffer(GZIP_BLOCK);
    this.view = new Uint8Array(this.block);
    if (level > 0) this.startWorkers(threads);
  }

  private startWorkers(threads: number) {
    try {
      this.url = URL.createObjectURL(new Blob([COMPRESS_WORKER], { type: "application/javascript" }));
      for (let i = 0; i < threads; i++) {
        const slot = { worker: new Worker(this.url), busy: false };
        slot.worker.onmessage = (event: MessageEvent<{ id: number; buf: ArrayBuffer; out?: Uint8Array; error?: string }>) => {
          const { id, buf, out, error } = event.data;
          const w = this.waiting.get(id);
          this.waiting.delete(id);
          this.spare.push(buf);
          slot.busy = false;
          if (!w) return;
          if (error || !out) w.reject(new Error(`the compressor failed: ${error ?? "no output"}`));
          else w.resolve(out);
        };
        // A thread that fails is not used again; its block fails the backup (never silently lost).
        slot.worker.onerror = (event) => {
          for (const [id, w] of this.waiting) if (w.worker === slot) (this.waiting.delete(id), w.reject(new Error(`the compressor thread failed: ${event.message}`)));
          slot.busy = true;
        };
        this.workers.push(slot);
      }
    } catch {
      // No threads here (whatever the reason): every block is stored; slower to restore, never lost.
      this.workers = [];
    }
  }

  async write(chunk: Uint8Array): Promise<void> {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(GZIP_BLOCK - this.fill, chunk.length - at);
      this.view.set(chunk.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
      if (this.fill === GZIP_BLOCK) await this.flushBlock();
    }
  }

  private async flushBlock(): Promise<void> {
    if (!this.fill) return;
    const length = this.fill;
    this.stats.blocks++;
    const idle = this.workers.find((w) => !w.busy);
    if (idle) {
      idle.busy = true;
      this.stats.compressed++;
      const id = this.nextId++;
      const member = new Promise<Uint8Array>((resolve, reject) => this.waiting.set(id, { resolve, reject, worker: idle }));
      member.catch(() => {}); // awaited in order by writeOldest; a failure there fails the backup
      idle.worker.postMessage({ id, buf: this.block, length, level: this.stats.level }, [this.block]);
      this.block = this.spare.pop() ?? new ArrayBuffer(GZIP_BLOCK);
      this.view = new Uint8Array(this.block);
      const pending: Pending = { member, ready: false, done: () => {} };
      member.then(() => (pending.ready = true), () => (pending.ready = true));
      this.queue.push(pending);
    } else {
      this.stats.stored++;
      const out = this.spareOut.pop() ?? Buffer.allocUnsafeSlow(storedSize(GZIP_BLOCK));
      const n = storedMember(this.view.subarray(0, length), out);
      this.queue.push({ member: Promise.resolve(out.subarray(0, n)), ready: true, done: () => this.spareOut.push(out) });
    }
    this.fill = 0;
    // The threads' answers arrive as events: let them in (a resolved await alone would not), so a
    // thread that has finished is seen idle for the next block.
    if (this.workers.length) await new Promise((resolve) => setImmediate(resolve));
    // Written as soon as they are ready, in order; never more than QUEUE blocks held.
    while (this.queue.length >= QUEUE || this.queue[0]?.ready) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    const p = this.queue.shift()!;
    const bytes = await p.member;
    this.hash.update(bytes);
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at);
    this.bytes += bytes.length;
    p.done();
  }

  async end(): Promise<void> {
    await this.flushBlock();
    while (this.queue.length) await this.writeOldest();
    fsyncSync(this.fd);
    this.close();
  }

  /** Drops what is queued (on failure), without writing it, and stops the threads. */
  async abort(): Promise<void> {
    await Promise.allSettled(this.queue.map((p) => p.member));
    this.queue = [];
    this.close();
  }

  private close() {
    for (const w of this.workers) w.worker.terminate();
    this.workers = [];
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = "";
  }
}
