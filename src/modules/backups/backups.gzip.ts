// gzip into a file, with the work spread over threads so that the backup runs close to the speed of
// reading the data. The stream is cut into 2 MB blocks, each written as a gzip member of its own
// (RFC 1952, 2.2: a gzip file is a series of members, and gzip, GNU tar and node:zlib read them as
// one stream). The blocks are shared memory (SharedArrayBuffer): the bytes are read from their
// files straight into a block once, and every thread reads them there, none copies them:
//   - this thread reads the files into the blocks and decides each block's fate;
//   - the entry hasher takes every entry's sha256 (the manifest's), range by range as blocks fill;
//   - a compressor (libdeflate at `level`), on a core the others leave free, turns a block into a
//     compressed member when it is idle; otherwise the block is written as a stored member (deflate's
//     uncompressed blocks with gzip's CRC-32), costing little more than the copy;
//   - the writer writes the members in order (a stored one as a gathered write straight from the
//     block), and the archive hasher takes the archive's sha256 of the same members in the same
//     order, on a thread of its own: when the disk is what holds the backup back, the hashing goes on
//     while the writes wait (with both on one thread, the hashing waited for every write).
// Measured on 806 MB when one thread did the reading, both sha256s, the framing and the writing:
// sha256 was 46% of the backup's time, the writes 14%, the reads 12%. A block is reused once every
// thread that reads it is done with it; at most MAX_BLOCKS are in flight (32 MB).
import { fsyncSync, readFileSync, readSync } from "node:fs";
import { availableParallelism } from "node:os";
import { type Piece, storedPieces, WORKER_SOURCE } from "./backups.gzip-worker.ts";

export { type Piece, storedPieces };

export const GZIP_BLOCK = 2 * 1024 * 1024;
const MAX_BLOCKS = 16;
/**
 * The threads this pipeline keeps busy on its own: the reader (this thread), the entry hasher and
 * the archive hasher (the writer mostly waits on the disk). Beyond them, the compressor takes a block whenever it is idle. Without a core to
 * spare it takes one only while the disk is what holds the backup back (the writer's write calls
 * take longer than its hashing: writes wait on the disk): a compressed block is about a quarter of
 * the bytes to write. Otherwise it would take time from the hashing and writing (libdeflate level 1
 * costs about 2.3 CPU-s per GB, a stored block a tenth of that): measured on two cores with the
 * data in the page cache, the backup took longer for a smaller archive; with the disk the limit
 * (a 5.5 GB database, 92 s, the writer waiting on its writes 8 times as long as it hashed), every
 * block was stored and a core sat two-thirds idle.
 */
const PIPELINE_THREADS = 3;
/**
 * Written bytes after which the flusher thread asks the disk to catch up (fdatasync), while the
 * writer goes on: the kernel would otherwise start writing the archive back only at the final
 * fsync (its background threshold is a tenth of the memory), and the backup would wait for all of it there.
 */
const SYNC_EVERY = 64 * 1024 * 1024;

type Slot = { index: number; sab: SharedArrayBuffer; view: Uint8Array; holds: number };
/** A member to write: stored (the threads frame it themselves from its length and CRC-32), compressed, or not yet compressed (null). */
type Member = { stored: { length: number; crc: number } } | { compressed: Uint8Array };
type Queued = { slot: Slot; length: number; member: Member | null };
type Compressor = { worker: Worker; busy: boolean; ms: number };

export type GzipStats = { level: number; blocks: number; compressed: number; stored: number };

/** CPU time each thread used, in ms (null where the system does not say: not Linux). */
export type SinkCpu = { reading: number; entriesHash: number; archiveHash: number; writing: number; compressing: number; syncing: number };

/**
 * Where the time went, in ms: this thread's reads and its waits for a free block, and each thread's
 * busy time; once the archive is ended, `cpu`: what each thread used of a processor (busy time
 * counts the waits for a core too).
 */
export type SinkProfile = { readMs: number; stalledMs: number; hashMs: number; writeMs: number; archiveHashMs: number; compressMs: number; syncMs: number; fsyncMs: number; cpu: SinkCpu | null };

/** This thread's CPU time so far in ms (Linux: /proc/thread-self/stat, in USER_HZ ticks of 10 ms), or null. */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The tar stream's bytes in, a gzip file out: every entry hashed, the archive hashed as written. */
export class GzipSink {
  /** Bytes written to the file so far. */
  bytes = 0;
  readonly stats: GzipStats;
  readonly profile: SinkProfile = { readMs: 0, stalledMs: 0, hashMs: 0, writeMs: 0, archiveHashMs: 0, compressMs: 0, syncMs: 0, fsyncMs: 0, cpu: null };
  /** This thread's CPU time when the sink started (its share of the archive is what it uses from then). */
  private readonly cpuAtStart = threadCpuMs();
  private cpuReplies = new Map<Worker, number | null>();
  private readonly hasher: Worker;
  private readonly writer: Worker;
  private readonly archiveHasher: Worker;
  private readonly flusher: Worker;
  private syncing = false;
  private syncedTo = 0;
  private compressors: Compressor[] = [];
  private readonly url: string;
  private readonly slots: Slot[] = [];
  private readonly free: Slot[] = [];
  /** The recent time per block in the writer's write calls and in the archive hasher (moving averages, ms). */
  private recent = { writeMs: 0, hashMs: 0, blocks: 0 };
  private current: Slot;
  private fill = 0;
  /** [entry, start, end) ranges of the current block not yet handed to the entry hasher. */
  private ranges: [number, number, number][] = [];
  private entry = -1;
  private nextEntry = 0;
  /** Members in order, not yet handed to the writer (a compressed one waits for its compressor). */
  private queue: Queued[] = [];
  private writing = 0;
  /** Members handed to the archive hasher and not yet hashed. */
  private archiveHashing = 0;
  private archiveDigest: string | null = null;
  private failure: Error | null = null;
  private waiters: (() => void)[] = [];
  private digestsReply: Record<string, string> | null = null;
  private closed: { bytes: number } | null = null;
  private stopped = false;

  /** `level` 0: every block stored, no compressor; 1-12: libdeflate's levels where one of `threads` compressors is idle (none: every block stored). */
  constructor(
    private readonly fd: number,
    level = 1,
    threads = Math.max(1, Math.min(2, availableParallelism() - PIPELINE_THREADS)),
    /** Whether a core is left for compressing whatever the writer does (else only while the disk holds it back). */
    private readonly spareCore = availableParallelism() > PIPELINE_THREADS,
  ) {
    this.stats = { level, blocks: 0, compressed: 0, stored: 0 };
    this.url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    this.hasher = this.start();
    this.writer = this.start();
    this.archiveHasher = this.start();
    this.flusher = this.start();
    if (level > 0) for (let i = 0; i < threads; i++) this.compressors.push({ worker: this.start(), busy: false, ms: 0 });
    this.writer.postMessage({ op: "open", fd });
    this.current = this.allocate();
  }

  /** Why blocks were stored rather than compressed (for the progress line). */
  get storedBecause(): string {
    if (!this.compressors.length) return "no compressor";
    return this.spareCore ? "the compressor was busy" : "no core to spare, and the disk kept up";
  }

  private start(): Worker {
    const worker = new Worker(this.url);
    worker.onmessage = (event: MessageEvent) => this.onMessage(worker, event.data);
    // A thread that fails fails the backup (never a block silently lost).
    worker.onerror = (event) => this.fail(new Error(`a backup thread failed: ${event.message}`));
    return worker;
  }

  private allocate(): Slot {
    const sab = new SharedArrayBuffer(GZIP_BLOCK);
    const slot = { index: this.slots.length, sab, view: new Uint8Array(sab), holds: 0 };
    this.slots.push(slot);
    return slot;
  }

  private fail(error: Error) {
    this.failure ??= error;
    this.wake();
  }

  private wake() {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  /** Resolves at the next message from any thread. */
  private nextEvent(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.failure) throw this.failure;
      await this.nextEvent();
    }
    if (this.failure) throw this.failure;
  }

  private release(slot: Slot) {
    if (--slot.holds === 0 && slot !== this.current) this.free.push(slot);
  }

  private onMessage(worker: Worker, m: { op: string; block?: number; out?: unknown; bytes?: number; sha256?: string; busy?: number; message?: string; writeMs?: number; hashMs?: number; cpuMs?: number | null }) {
    if (m.op === "error") return this.fail(new Error(m.message));
    if (m.op === "cpu") {
      this.cpuReplies.set(worker, m.cpuMs ?? null);
      return this.wake();
    }
    if (m.op === "compressed") {
      const c = this.compressors.find((x) => x.worker === worker)!;
      c.busy = false;
      c.ms = m.busy!;
      const q = this.queue.find((x) => x.slot.index === m.block && x.member === null)!;
      q.member = { compressed: m.out as Uint8Array };
      this.release(q.slot);
      this.pump();
    } else if (m.op === "hashed") {
      this.profile.hashMs = m.busy!;
      this.release(this.slots[m.block!]);
    } else if (m.op === "written") {
      this.profile.writeMs = m.busy!;
      this.bytes = m.bytes!;
      this.writing--;
      if (m.block! >= 0) this.release(this.slots[m.block!]);
      this.recent.writeMs = 0.8 * this.recent.writeMs + 0.2 * m.writeMs!;
      this.recent.blocks++;
      if (!this.syncing && this.bytes - this.syncedTo >= SYNC_EVERY) {
        this.syncing = true;
        this.syncedTo = this.bytes;
        this.flusher.postMessage({ op: "sync", fd: this.fd });
      }
    } else if (m.op === "archive-hashed") {
      this.profile.archiveHashMs = m.busy!;
      this.archiveHashing--;
      if (m.block! >= 0) this.release(this.slots[m.block!]);
      this.recent.hashMs = 0.8 * this.recent.hashMs + 0.2 * m.hashMs!;
    } else if (m.op === "archive-digest") {
      this.profile.archiveHashMs = m.busy!;
      this.archiveDigest = m.sha256!;
    } else if (m.op === "synced") {
      this.syncing = false;
      this.profile.syncMs = m.busy!;
    } else if (m.op === "digests") {
      this.profile.hashMs = m.busy!;
      this.digestsReply = m.out as Record<string, string>;
    } else if (m.op === "closed") {
      this.profile.writeMs = m.busy!;
      this.closed = { bytes: m.bytes! };
    }
    this.profile.compressMs = this.compressors.reduce((s, c) => s + c.ms, 0);
    this.wake();
  }

  /** The bytes that follow belong to a new hashed entry; returns its number (for `digests`). */
  beginEntry(): number {
    this.entry = this.nextEntry++;
    return this.entry;
  }

  /** The bytes that follow are not part of a hashed entry (tar headers, padding, the manifest). */
  endEntry() {
    this.entry = -1;
  }

  private noteRange(start: number, end: number) {
    if (this.entry < 0 || end === start) return;
    const last = this.ranges[this.ranges.length - 1];
    if (last && last[0] === this.entry && last[2] === start) last[2] = end;
    else this.ranges.push([this.entry, start, end]);
  }

  /** Copies `chunk` into the stream. */
  async write(chunk: Uint8Array): Promise<void> {
    let at = 0;
    while (at < chunk.length) {
      if (this.failure) throw this.failure;
      const n = Math.min(GZIP_BLOCK - this.fill, chunk.length - at);
      this.current.view.set(chunk.subarray(at, at + n), this.fill);
      this.noteRange(this.fill, this.fill + n);
      this.fill += n;
      at += n;
      if (this.fill === GZIP_BLOCK) await this.flushBlock();
    }
  }

  /**
   * Reads `length` bytes of the open file `fd` from `position` straight into the stream; `patch` may
   * change them first (`at`: their offset in the file). Fewer bytes than promised: an error.
   */
  async readFrom(fd: number, position: number, length: number, patch?: (bytes: Uint8Array, at: number) => void, onBlock?: () => void): Promise<void> {
    let done = 0;
    while (done < length) {
      if (this.failure) throw this.failure;
      const want = Math.min(GZIP_BLOCK - this.fill, length - done);
      const t0 = performance.now();
      let got = 0;
      while (got < want) {
        const n = readSync(fd, this.current.view, this.fill + got, want - got, position + done + got);
        if (n === 0) throw new ShortRead(done + got);
        got += n;
      }
      this.profile.readMs += performance.now() - t0;
      patch?.(this.current.view.subarray(this.fill, this.fill + got), position + done);
      this.noteRange(this.fill, this.fill + got);
      this.fill += got;
      done += got;
      if (this.fill === GZIP_BLOCK) {
        await this.flushBlock();
        onBlock?.();
      }
    }
  }

  /** Hands the current block's pending entry ranges to the entry hasher (the block stays open). */
  private postRanges() {
    if (!this.ranges.length) return;
    this.current.holds++;
    this.hasher.postMessage({ op: "hash", sab: this.current.sab, block: this.current.index, ranges: this.ranges });
    this.ranges = [];
  }

  private async flushBlock(): Promise<void> {
    if (!this.fill) return;
    this.postRanges();
    const slot = this.current;
    const length = this.fill;
    this.stats.blocks++;
    const idle = this.compressors.find((c) => !c.busy);
    slot.holds++;
    if (idle && (this.spareCore || this.diskBound())) {
      idle.busy = true;
      this.stats.compressed++;
      this.queue.push({ slot, length, member: null });
      idle.worker.postMessage({ op: "compress", sab: slot.sab, block: slot.index, length, level: this.stats.level });
    } else {
      this.stats.stored++;
      this.queue.push({ slot, length, member: { stored: { length, crc: Bun.hash.crc32(slot.view.subarray(0, length)) } } });
    }
    this.pump();
    // The next block: a free one, a new one while fewer than MAX_BLOCKS exist, else wait for one.
    let next = this.free.pop();
    if (!next && this.slots.length < MAX_BLOCKS) next = this.allocate();
    if (!next) {
      const t0 = performance.now();
      // `current` is still the full block until it is replaced: a release of it must not free it yet.
      await this.until(() => this.free.length > 0);
      this.profile.stalledMs += performance.now() - t0;
      next = this.free.pop()!;
    }
    this.current = next;
    this.fill = 0;
    if (slot.holds === 0) this.free.push(slot);
  }

  /** Whether the writer's writes wait on the disk: they take longer than hashing the same bytes (after a few blocks). */
  private diskBound(): boolean {
    return this.recent.blocks >= 4 && this.recent.writeMs > 1.5 * this.recent.hashMs;
  }

  /** Hands every member that is ready, in order, to the writer and to the archive hasher. */
  private pump() {
    while (this.queue[0]?.member) {
      const q = this.queue.shift()!;
      const member = q.member!;
      this.writing++;
      this.archiveHashing++;
      if ("compressed" in member) {
        const out = member.compressed;
        // The hasher gets a copy (a compressed member is a fraction of a block); the writer the buffer itself.
        this.archiveHasher.postMessage({ op: "archive-hash", block: -1, pieces: [out] });
        this.writer.postMessage({ op: "write", block: -1, pieces: [out] }, [out.buffer as ArrayBuffer]);
      } else {
        // A stored member is read by both threads straight from its block: the block is held for each.
        // Each frames it itself (storedPieces): its 65 pieces, cloned into two messages per block,
        // made postMessage a quarter of this thread's time.
        q.slot.holds++;
        this.archiveHasher.postMessage({ op: "archive-hash", sab: q.slot.sab, block: q.slot.index, stored: member.stored });
        this.writer.postMessage({ op: "write", sab: q.slot.sab, block: q.slot.index, stored: member.stored });
      }
    }
  }

  /** The sha256 of every entry so far (by the number `beginEntry` gave), once the hasher has caught up. */
  async digests(): Promise<Map<number, string>> {
    this.postRanges();
    this.digestsReply = null;
    this.hasher.postMessage({ op: "digests" });
    await this.until(() => this.digestsReply !== null);
    return new Map(Object.entries(this.digestsReply!).map(([k, v]) => [Number(k), v]));
  }

  /** Writes what is left, syncs the file and stops the threads: the archive's size and sha256. */
  async end(): Promise<{ bytes: number; sha256: string }> {
    try {
      await this.flushBlock();
      await this.until(() => this.queue.length === 0 && this.writing === 0 && this.archiveHashing === 0);
      this.writer.postMessage({ op: "close" });
      this.archiveHasher.postMessage({ op: "archive-digest" });
      await this.until(() => this.closed !== null && this.archiveDigest !== null && !this.syncing);
      const t0 = performance.now();
      fsyncSync(this.fd);
      this.profile.fsyncMs = performance.now() - t0;
      await this.measureCpu();
      return { bytes: this.closed!.bytes, sha256: this.archiveDigest! };
    } finally {
      this.stop();
    }
  }

  /** Each thread's CPU time (profile.cpu), asked of the threads once their work is done. */
  private async measureCpu(): Promise<void> {
    const workers = [this.hasher, this.writer, this.archiveHasher, this.flusher, ...this.compressors.map((c) => c.worker)];
    for (const w of workers) w.postMessage({ op: "cpu" });
    await this.until(() => workers.every((w) => this.cpuReplies.has(w)));
    const own = threadCpuMs();
    const of = (w: Worker) => this.cpuReplies.get(w);
    const all = [own, this.cpuAtStart, ...workers.map(of)];
    if (all.some((x) => x === null || x === undefined)) return;
    this.profile.cpu = {
      reading: own! - this.cpuAtStart!,
      entriesHash: of(this.hasher)!,
      archiveHash: of(this.archiveHasher)!,
      writing: of(this.writer)!,
      compressing: this.compressors.reduce((sum, c) => sum + of(c.worker)!, 0),
      syncing: of(this.flusher)!,
    };
  }

  /** Stops the threads; nothing more is written. */
  abort() {
    this.stop();
  }

  private stop() {
    if (this.stopped) return;
    this.stopped = true;
    for (const w of [this.hasher, this.writer, this.archiveHasher, this.flusher, ...this.compressors.map((c) => c.worker)]) w.terminate();
    URL.revokeObjectURL(this.url);
    this.failure ??= new Error("the archive writer was stopped");
    this.wake();
  }
}

/** A file that ended before the bytes it was to hold (`read` of them were there). */
export class ShortRead extends Error {
  constructor(readonly read: number) {
    super(`the file ended after ${read} bytes`);
  }
}
