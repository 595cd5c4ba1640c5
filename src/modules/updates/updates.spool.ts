// The messages a mail import or a sync batch hands to the updates reader while its transaction is
// open (a transaction cannot wait for the reader), kept until the reader takes them. Kept in
// memory up to a bound; past it, written to a file in the data dir's temp folder and read back one
// at a time: a big mbox full of a holding's mail (attachments included, up to 2 MB each) must not
// hold all of them in memory at once.
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../lib/ids.ts";

/** Bytes kept in memory before the rest goes to the spool file. */
export const SPOOL_MEMORY_BYTES = 32 * 1024 * 1024;

type Kept = { raw: Buffer; where: string | null } | { offset: number; length: number; where: string | null };

export class MessageSpool {
  private kept: Kept[] = [];
  private inMemory = 0;
  private file: { path: string; fd: number; size: number } | null = null;

  constructor(
    private readonly dir: string,
    private readonly memoryBytes = SPOOL_MEMORY_BYTES,
  ) {}

  get size(): number {
    return this.kept.length;
  }

  add(raw: Buffer, where: string | null): void {
    if (this.inMemory + raw.length <= this.memoryBytes) {
      this.inMemory += raw.length;
      this.kept.push({ raw, where });
      return;
    }
    if (!this.file) {
      mkdirSync(this.dir, { recursive: true });
      const path = join(this.dir, `spool-${newId()}.eml`);
      this.file = { path, fd: openSync(path, "w+", 0o600), size: 0 };
    }
    let written = 0;
    while (written < raw.length) written += writeSync(this.file.fd, raw, written, raw.length - written, this.file.size + written);
    this.kept.push({ offset: this.file.size, length: raw.length, where });
    this.file.size += raw.length;
  }

  /** The kept messages in the order they came, each let go once taken; the spool is empty after. */
  *drain(): Generator<{ raw: Buffer; where: string | null }> {
    const kept = this.kept;
    const file = this.file;
    this.kept = [];
    this.inMemory = 0;
    this.file = null;
    try {
      for (let i = 0; i < kept.length; i++) {
        const k = kept[i];
        kept[i] = undefined as unknown as Kept;
        if ("raw" in k) {
          yield k;
          continue;
        }
        const raw = Buffer.allocUnsafe(k.length);
        let got = 0;
        while (got < k.length) {
          const n = readSync(file!.fd, raw, got, k.length - got, k.offset + got);
          if (n === 0) break;
          got += n;
        }
        yield { raw: raw.subarray(0, got), where: k.where };
      }
    } finally {
      if (file) {
        closeSync(file.fd);
        rmSync(file.path, { force: true });
      }
    }
  }
}
