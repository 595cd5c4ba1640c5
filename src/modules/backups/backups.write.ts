// One backup archive: a consistent snapshot of the database, the blob-store files the snapshot
// names, and the server key, streamed through tar and gzip into a temporary name and only then
// given its name (the layout: backups.archive.ts). Nothing is ever held whole in memory, and
// nothing is read twice:
//   - the snapshot is the database file itself, frozen at one committed state while `serve` goes on
//     (backups.snapshot.ts), copied as it is; VACUUM INTO only when the file cannot be frozen;
//   - each file is read once, straight into shared blocks where other threads take every entry's
//     sha256, compress what they have time for, write the archive and take its sha256
//     (backups.gzip.ts).
// SQLite's integrity_check is `backup verify`'s and `restore`'s (CONTRACT.md), on the archived copy:
// inside `backup` a check of the live file walked every b-tree a page at a time, which once the
// database outgrew the page cache took longer than the archive itself and grew faster than the data
// (23.7 GB: about 10 minutes of random reads). The `backup` job and the operator's button verify each
// archive they write (backups.service.ts).
import { Database } from "bun:sqlite";
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { blobPath } from "../../lib/blobs.ts";
import { KEY_FILE } from "../../lib/server-key.ts";
import { tarHeader } from "../../lib/tar.ts";
import { dealBlobHashes } from "../deals/deals.blobs.ts";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  BackupError,
  BLOCK,
  CONTENTS_ENTRY,
  type Contents,
  DB_ENTRY,
  GZIP_LEVEL,
  type Manifest,
  MANIFEST_ENTRY,
  type ManifestFile,
  mb,
  type Progress,
  tarPadding,
  throttled,
} from "./backups.archive.ts";
import { GzipSink, ShortRead } from "./backups.gzip.ts";
import { freezeDatabase } from "./backups.snapshot.ts";

export type WriteOptions = {
  dbPath: string;
  dataDir: string;
  /** True when DEALGRAPH_SECRET_KEY holds the server key (then secret.key is not the key in use). */
  keyFromEnv: boolean;
  out: string;
  now: Date;
  busyTimeoutMs: number;
  progress?: Progress;
  /** Called once the snapshot is taken (the write lock let go), before the archive is written. */
  afterSnapshot?: () => void;
};

export type WrittenBackup = { file: string; bytes: number; sha256: string; manifest: Manifest; ms: { snapshot: number; archive: number } };

function ledger(sqlite: Database): string[] {
  const has = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").get();
  return has ? sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations ORDER BY tag").all().map((r) => r.tag) : [];
}

type SnapshotSource = {
  method: "frozen-file" | "vacuum-into";
  /** The file integrity_check reads (it does not change until `release`). */
  path: string;
  fd: number;
  bytes: number;
  migrations: string[];
  blobs: string[];
  release(): void;
};

/** The database as of one moment: the live file frozen in place, or (when it cannot be) a VACUUM INTO copy. */
async function takeSnapshot(opts: WriteOptions, progress: Progress): Promise<SnapshotSource> {
  let frozen = null;
  try {
    frozen = await freezeDatabase(opts.dbPath, opts.busyTimeoutMs);
  } catch (error) {
    progress(`snapshot: the database file could not be frozen (${(error as Error).message}); copying it with VACUUM INTO instead`);
  }
  if (frozen) {
    const f = frozen;
    try {
      return { method: "frozen-file", path: opts.dbPath, fd: f.fd, bytes: f.bytes, migrations: ledger(f.reader), blobs: dealBlobHashes(f.reader), release: () => f.release() };
    } catch (error) {
      f.release();
      throw error;
    }
  }
  progress("snapshot: copying the database with VACUUM INTO (its WAL could not be checkpointed through)");
  const dir = mkdtempSync(join(opts.dataDir, "tmp", "backup-"));
  const path = join(dir, DB_ENTRY);
  const live = new Database(opts.dbPath);
  try {
    live.exec(`PRAGMA busy_timeout = ${Math.trunc(opts.busyTimeoutMs)}`);
    live.query("VACUUM INTO ?").run(path);
  } finally {
    live.close();
  }
  const snap = new Database(path);
  let info: { migrations: string[]; blobs: string[] };
  try {
    snap.exec("PRAGMA journal_mode = DELETE");
    info = { migrations: ledger(snap), blobs: dealBlobHashes(snap) };
  } finally {
    snap.close();
  }
  const fd = openSync(path, "r");
  return {
    method: "vacuum-into",
    path,
    fd,
    bytes: fstatSync(fd).size,
    ...info,
    release() {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The archived database says "rollback journal" in its header (bytes 18 and 19, the file format
 * versions: 2 is WAL), as VACUUM INTO's copy does: it opens read-only anywhere, with no -wal or
 * -shm beside it. `serve` puts it back into WAL mode when it opens it.
 */
function asRollbackJournal(chunk: Uint8Array, at: number) {
  if (at === 0 && chunk.length >= 20) {
    if (chunk[18] === 2) chunk[18] = 1;
    if (chunk[19] === 2) chunk[19] = 1;
  }
}

/** A tar entry of `bytes`, not hashed (backup.json, the manifest). */
async function addBytes(sink: GzipSink, name: string, bytes: Uint8Array, mtime: Date): Promise<void> {
  await sink.write(tarHeader(name, bytes.length, mtime, 0o644));
  await sink.write(bytes);
  if (tarPadding(bytes.length)) await sink.write(new Uint8Array(tarPadding(bytes.length)));
}

/**
 * `size` bytes of the open file `fd` from offset 0 as the entry `name`, read once into the stream
 * and hashed there; returns the entry's number for the sink's digests. A file shorter than promised
 * is refused.
 */
async function addFile(
  sink: GzipSink,
  name: string,
  fd: number,
  size: number,
  opts: { mtime: Date; mode?: number; patch?: (bytes: Uint8Array, at: number) => void; onBlock?: () => void },
): Promise<number> {
  await sink.write(tarHeader(name, size, opts.mtime, opts.mode ?? 0o644));
  const entry = sink.beginEntry();
  try {
    await sink.readFrom(fd, 0, size, opts.patch, opts.onBlock);
  } catch (error) {
    if (error instanceof ShortRead) throw new BackupError(`${name} shrank while it was archived (${error.read} of ${size} bytes)`);
    throw error;
  } finally {
    sink.endEntry();
  }
  if (tarPadding(size)) await sink.write(new Uint8Array(tarPadding(size)));
  return entry;
}

async function addPath(sink: GzipSink, name: string, path: string, size: number, opts: { mtime: Date; mode?: number }): Promise<number> {
  const fd = openSync(path, "r");
  try {
    const entry = await addFile(sink, name, fd, size, opts);
    if (fstatSync(fd).size !== size) throw new BackupError(`${path} changed size while it was archived`);
    return entry;
  } finally {
    closeSync(fd);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Writes and names one archive, every entry hashed on its way in. `out` must not exist yet. */
export async function writeBackup(opts: WriteOptions): Promise<WrittenBackup> {
  const progress = opts.progress ?? (() => {});
  if (existsSync(opts.out)) throw new BackupError(`${opts.out} already exists; name another file with --out`);
  if (!existsSync(opts.dbPath)) throw new BackupError(`no database at ${opts.dbPath}: is --data-dir right?`);
  mkdirSync(dirname(opts.out), { recursive: true });
  mkdirSync(join(opts.dataDir, "tmp"), { recursive: true });
  const partial = join(dirname(opts.out), `.${basename(opts.out)}.partial-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  const ms = { snapshot: 0, archive: 0 };
  let snap: SnapshotSource | null = null;
  try {
    let t = performance.now();
    progress("snapshot: freezing the database file at one committed state (serve goes on reading and writing)");
    snap = await takeSnapshot(opts, progress);
    ms.snapshot = performance.now() - t;
    progress(`snapshot: ${mb(snap.bytes)} (${snap.method}) in ${(ms.snapshot / 1000).toFixed(1)} s; ${snap.blobs.length} files referenced`);
    opts.afterSnapshot?.();

    t = performance.now();

    // What goes in, and each entry's size, known before a byte is written (backup.json).
    const keyPath = join(opts.dataDir, KEY_FILE);
    const serverKey: Manifest["server_key"] = opts.keyFromEnv ? "env" : existsSync(keyPath) ? "file" : "none";
    const missing: string[] = [];
    const blobs: { name: string; path: string; bytes: number; sha: string }[] = [];
    for (const sha of snap.blobs) {
      const path = blobPath(opts.dataDir, sha);
      let bytes: number;
      try {
        if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error("not a sha256");
        bytes = statSync(path).size;
      } catch {
        missing.push(sha);
        continue;
      }
      blobs.push({ name: `blobs/${sha.slice(0, 2)}/${sha}`, path, bytes, sha });
    }
    const key = serverKey === "file" ? { bytes: statSync(keyPath).size } : null;
    const contents: Contents = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created_at: opts.now.toISOString(),
      files: [{ path: DB_ENTRY, bytes: snap.bytes }, ...blobs.map((b) => ({ path: b.name, bytes: b.bytes })), ...(key ? [{ path: KEY_FILE, bytes: key.bytes }] : [])],
    };

    const outFd = openSync(partial, "wx", 0o600);
    let sink: GzipSink;
    try {
      sink = new GzipSink(outFd, GZIP_LEVEL);
    } catch (error) {
      closeSync(outFd);
      throw new BackupError(`the backup's threads could not be started: ${(error as Error).message}`);
    }
    const tick = throttled(progress);
    let manifest: Manifest;
    let written: { bytes: number; sha256: string };
    try {
      await addBytes(sink, CONTENTS_ENTRY, Buffer.from(JSON.stringify(contents) + "\n"), opts.now);
      // Each file's entry number, in the order of the manifest.
      const entries: { path: string; bytes: number; entry: number; expected?: string; source?: string }[] = [];
      entries.push({ path: DB_ENTRY, bytes: snap.bytes, entry: await addFile(sink, DB_ENTRY, snap.fd, snap.bytes, { mtime: opts.now, patch: asRollbackJournal, onBlock: () => tick(`archive: the database, ${mb(sink.bytes)} written`) }) });
      for (const [i, b] of blobs.entries()) {
        const st = statSync(b.path);
        entries.push({ path: b.name, bytes: b.bytes, entry: await addPath(sink, b.name, b.path, b.bytes, { mtime: st.mtime }), expected: b.sha, source: b.path });
        tick(`archive: ${i + 1}/${blobs.length} files, ${mb(sink.bytes)} written`);
      }
      if (key) entries.push({ path: KEY_FILE, bytes: key.bytes, entry: await addPath(sink, KEY_FILE, keyPath, key.bytes, { mtime: statSync(keyPath).mtime, mode: 0o600 }) });
      const digests = await sink.digests();
      const files: ManifestFile[] = entries.map((e) => {
        const sha256 = digests.get(e.entry) ?? "";
        if (e.expected && sha256 !== e.expected) throw new BackupError(`the file ${e.source} does not match its name (its content is corrupted in the data dir)`);
        return { path: e.path, bytes: e.bytes, sha256 };
      });
      manifest = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        created_at: opts.now.toISOString(),
        migrations: snap.migrations,
        server_key: serverKey,
        files,
        missing_blobs: missing,
        snapshot: { method: snap.method },
        // What the blocks up to the manifest's were (the manifest's own block is counted in the stats, not here).
        compression: { format: "gzip", ...sink.stats },
      };
      await addBytes(sink, MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2) + "\n"), opts.now);
      await sink.write(new Uint8Array(BLOCK * 2));
      written = await sink.end();
    } catch (error) {
      sink.abort();
      throw error;
    } finally {
      closeSync(outFd);
    }
    snap.release();
    snap = null;
    ms.archive = performance.now() - t;
    if (missing.length) progress(`warning: ${missing.length} file(s) the database names were already missing from ${join(opts.dataDir, "blobs")}: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", ..." : ""}`);
    const { compressed, blocks } = sink.stats;
    const p = sink.profile;
    progress(`archive: ${manifest.files.length} entries, ${mb(written.bytes)} in ${seconds(ms.archive)} (${compressed} of ${blocks} blocks compressed at gzip level ${GZIP_LEVEL}, the rest stored: ${sink.storedBecause})`);
    progress(
      `archive time: reading ${seconds(p.readMs)}, waiting for a free block ${seconds(p.stalledMs)}, the final fsync ${seconds(p.fsyncMs)}; threads busy: entries' sha256 ${seconds(p.hashMs)}, writing ${seconds(p.writeMs)}, the archive's sha256 ${seconds(p.archiveHashMs)}, compressing ${seconds(p.compressMs)}, fdatasync on the way ${seconds(p.syncMs)}`,
    );
    // Busy time counts a thread's waits for a core; its CPU time is what the work itself cost.
    if (p.cpu) {
      const c = p.cpu;
      const total = c.reading + c.entriesHash + c.archiveHash + c.writing + c.compressing + c.syncing;
      progress(
        `archive CPU: ${seconds(total)} in all: reading, CRC-32 and framing ${seconds(c.reading)}, entries' sha256 ${seconds(c.entriesHash)}, the archive's sha256 ${seconds(c.archiveHash)}, writing ${seconds(c.writing)}, compressing ${seconds(c.compressing)}, fdatasync ${seconds(c.syncing)}`,
      );
    }
    // What was hashed on its way to the file is what the file holds: its size says it all arrived.
    if (statSync(partial).size !== written.bytes) throw new BackupError(`the archive on disk is ${statSync(partial).size} bytes; ${written.bytes} were written`);
    try {
      linkSync(partial, opts.out); // never replaces a file that appeared meanwhile
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") throw new BackupError(`${opts.out} appeared while the backup was written; name another file with --out`);
      throw error;
    }
    progress(`done: ${opts.out} (${mb(written.bytes)}); \`dealgraph backup verify\` checks it through, the snapshot's integrity_check included`);
    return { file: opts.out, bytes: written.bytes, sha256: written.sha256, manifest, ms };
  } finally {
    snap?.release();
    rmSync(partial, { force: true });
  }
}
