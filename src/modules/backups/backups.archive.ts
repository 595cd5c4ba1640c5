// One backup archive: a consistent snapshot of the database, the blob-store files the snapshot
// names, and the server key, streamed through tar and gzip into a temporary name and only then
// given its name. Nothing is ever held whole in memory, and nothing is read twice:
//   - the snapshot is the database file itself, frozen at one committed state while `serve` goes on
//     (backups.snapshot.ts), copied as it is; VACUUM INTO only when the file cannot be frozen;
//   - every entry is hashed as it is read, the archive as it is written (backups.gzip.ts: gzip
//     members compressed on a second thread where one is free, stored where none is).
// SQLite's integrity_check is `backup verify`'s and `restore`'s (CONTRACT.md), on the archived copy:
// inside `backup` a check of the live file walked every b-tree a page at a time, which once the
// database outgrew the page cache took longer than the archive itself and grew faster than the data
// (23.7 GB: about 10 minutes of random reads). The `backup` job and the operator's button verify each
// archive they write (backups.service.ts).
// Layout of format version 2 (`.tar.gz`; the previous release wrote it as `.tar.zst`):
//   backup.json (first: each entry's path and size, so a reader can bound what it unpacks before
//   it unpacks it), dealgraph.db, blobs/<2 hex>/<sha256>, secret.key (unless DEALGRAPH_SECRET_KEY
//   holds the key), manifest.json (last: each file's size and sha256, the migrations)
// Version 1 (`.tar.gz`, earlier releases): the same without backup.json. Every one is read (verify and
// restore), its compression told by its first bytes (gzip, or the previous release's zstd).
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { type WriteStream, closeSync, createReadStream, createWriteStream, existsSync, fstatSync, linkSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statfsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createGunzip, createZstdDecompress } from "node:zlib";
import { blobPath } from "../../lib/blobs.ts";
import { KEY_FILE } from "../../lib/server-key.ts";
import { readTar, TarError, tarHeader, type EntrySink } from "../../lib/tar.ts";
import { dealBlobHashes } from "../deals/deals.blobs.ts";
import { GzipSink, type GzipStats } from "./backups.gzip.ts";
import { freezeDatabase } from "./backups.snapshot.ts";
import { zstdFramesProblem } from "./backups.zstd-frames.ts";

export const ARCHIVE_FORMAT = "dealgraph-backup";
/** The version this release writes. */
export const ARCHIVE_VERSION = 2;
/** The versions this release reads: every one an earlier release wrote. */
export const READABLE_VERSIONS = [1, 2];
export const ARCHIVE_EXTENSION = ".tar.gz";
export const DB_ENTRY = "dealgraph.db";
export const MANIFEST_ENTRY = "manifest.json";
export const CONTENTS_ENTRY = "backup.json";
/**
 * libdeflate's level for the blocks a second thread compresses: 1 is its fastest (about 430 MB/s
 * per core here, archive 28% of a database's size; zlib's level 1: 37%).
 */
export const GZIP_LEVEL = 1;

export type ManifestFile = { path: string; bytes: number; sha256: string };

export type Manifest = {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  created_at: string;
  /** The migrations (and data steps) the snapshot's schema has applied. */
  migrations: string[];
  /** "file": secret.key is in the archive; "env": DEALGRAPH_SECRET_KEY held it (not archived); "none": no key existed yet. */
  server_key: "file" | "env" | "none";
  files: ManifestFile[];
  /** Files the database names that were already missing from the data dir when the backup was taken. */
  missing_blobs: string[];
  /** Version 2: how the snapshot was taken (and, in archives of the previous release, the check it ran). */
  snapshot?: { method: "frozen-file" | "vacuum-into"; check?: string };
  /** How the archive was compressed: gzip members at `level` where a thread was free, stored otherwise (absent before). */
  compression?: GzipStats & { format: "gzip" };
};

/** backup.json, the first entry of a version 2 archive: what follows, and how big each entry is. */
export type Contents = { format: typeof ARCHIVE_FORMAT; version: number; created_at: string; files: { path: string; bytes: number }[] };

export type Progress = (line: string) => void;

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

/** A backup that could not be written or an archive that does not check out; the message says what. */
export class BackupError extends Error {}

const BLOB_ENTRY = /^blobs\/([0-9a-f]{2})\/([0-9a-f]{64})$/;
const MB = 1024 * 1024;
const CHUNK = 1 << 20;
const BLOCK = 512;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const tarPadding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Reports at most every two seconds, so a long step shows it is alive without flooding stderr. */
function throttled(progress: Progress | undefined): Progress {
  let last = 0;
  return (line) => {
    const now = performance.now();
    if (now - last < 2000) return;
    last = now;
    progress?.(line);
  };
}

function ledger(sqlite: Database): string[] {
  const has = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").get();
  return has ? sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations ORDER BY tag").all().map((r) => r.tag) : [];
}

/** Writes tar entries into the compressor. */
class EntryWriter {
  private readonly readBuffer: Buffer = Buffer.allocUnsafe(CHUNK);
  constructor(private readonly out: GzipSink) {}

  put(chunk: Uint8Array): Promise<void> {
    return this.out.write(chunk);
  }

  /**
   * `size` bytes of the open file `fd` from offset 0 as `name`, hashed; `patch` may change a chunk
   * before it is written (the snapshot's header). A file shorter than promised is refused.
   */
  async addFd(name: string, fd: number, size: number, opts: { mtime: Date; mode?: number; patch?: (chunk: Buffer, at: number) => void; onChunk?: () => void }): Promise<string> {
    await this.put(tarHeader(name, size, opts.mtime, opts.mode ?? 0o644));
    const hash = createHash("sha256");
    let at = 0;
    while (at < size) {
      // One buffer for every read: put() has copied a chunk into the compressor's block when it returns.
      const buf = this.readBuffer.subarray(0, Math.min(CHUNK, size - at));
      const n = readSync(fd, buf, 0, buf.length, at);
      if (n === 0) throw new BackupError(`${name} shrank while it was archived (${at} of ${size} bytes)`);
      const chunk = n === buf.length ? buf : buf.subarray(0, n);
      opts.patch?.(chunk, at);
      hash.update(chunk);
      at += n;
      await this.put(chunk);
      opts.onChunk?.();
    }
    if (tarPadding(size)) await this.put(Buffer.alloc(tarPadding(size)));
    return hash.digest("hex");
  }

  async addPath(name: string, path: string, size: number, opts: { mtime: Date; mode?: number }): Promise<string> {
    const fd = openSync(path, "r");
    try {
      const sha = await this.addFd(name, fd, size, opts);
      if (fstatSync(fd).size !== size) throw new BackupError(`${path} changed size while it was archived`);
      return sha;
    } finally {
      closeSync(fd);
    }
  }

  async addBytes(name: string, bytes: Uint8Array, mtime: Date): Promise<void> {
    await this.put(tarHeader(name, bytes.length, mtime, 0o644));
    await this.put(bytes);
    if (tarPadding(bytes.length)) await this.put(Buffer.alloc(tarPadding(bytes.length)));
  }
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
function asRollbackJournal(chunk: Buffer, at: number) {
  if (at === 0 && chunk.length >= 20) {
    if (chunk[18] === 2) chunk[18] = 1;
    if (chunk[19] === 2) chunk[19] = 1;
  }
}

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

    const files: ManifestFile[] = [];
    const outFd = openSync(partial, "wx", 0o600);
    const sink = new GzipSink(outFd, GZIP_LEVEL);
    const tar = new EntryWriter(sink);
    const tick = throttled(progress);
    try {
      await tar.addBytes(CONTENTS_ENTRY, Buffer.from(JSON.stringify(contents) + "\n"), opts.now);
      const dbSha = await tar.addFd(DB_ENTRY, snap.fd, snap.bytes, { mtime: opts.now, patch: asRollbackJournal, onChunk: () => tick(`archive: the database, ${mb(sink.bytes)} written`) });
      files.push({ path: DB_ENTRY, bytes: snap.bytes, sha256: dbSha });
      for (const [i, b] of blobs.entries()) {
        const st = statSync(b.path);
        const sha = await tar.addPath(b.name, b.path, b.bytes, { mtime: st.mtime });
        if (sha !== b.sha) throw new BackupError(`the file ${b.path} does not match its name (its content is corrupted in the data dir)`);
        files.push({ path: b.name, bytes: b.bytes, sha256: sha });
        tick(`archive: ${i + 1}/${blobs.length} files, ${mb(sink.bytes)} written`);
      }
      if (key) files.push({ path: KEY_FILE, bytes: key.bytes, sha256: await tar.addPath(KEY_FILE, keyPath, key.bytes, { mtime: statSync(keyPath).mtime, mode: 0o600 }) });
    } catch (error) {
      await sink.abort();
      closeSync(outFd);
      throw error;
    }
    const manifest: Manifest = {
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
    try {
      await tar.addBytes(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2) + "\n"), opts.now);
      await tar.put(Buffer.alloc(BLOCK * 2));
      await sink.end();
    } catch (error) {
      await sink.abort();
      throw error;
    } finally {
      closeSync(outFd);
    }
    snap.release();
    snap = null;
    ms.archive = performance.now() - t;
    if (missing.length) progress(`warning: ${missing.length} file(s) the database names were already missing from ${join(opts.dataDir, "blobs")}: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", ..." : ""}`);
    const { blocks, compressed } = sink.stats;
    progress(`archive: ${files.length} entries, ${mb(sink.bytes)} in ${(ms.archive / 1000).toFixed(1)} s (${compressed} of ${blocks} blocks compressed at gzip level ${GZIP_LEVEL}, the rest stored while the compressor was busy)`);
    // What was hashed on its way to the file is what the file holds: its size says it all arrived.
    if (statSync(partial).size !== sink.bytes) throw new BackupError(`the archive on disk is ${statSync(partial).size} bytes; ${sink.bytes} were written`);
    try {
      linkSync(partial, opts.out); // never replaces a file that appeared meanwhile
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") throw new BackupError(`${opts.out} appeared while the backup was written; name another file with --out`);
      throw error;
    }
    progress(`done: ${opts.out} (${mb(sink.bytes)}); \`dealgraph backup verify\` checks it through, the snapshot's integrity_check included`);
    return { file: opts.out, bytes: sink.bytes, sha256: sink.hash.digest("hex"), manifest, ms };
  } finally {
    snap?.release();
    rmSync(partial, { force: true });
  }
}

export type ArchiveCheck = {
  /** Empty when the archive is whole: every checksum matches and the snapshot passes integrity_check. */
  problems: string[];
  manifest: Manifest | null;
  /** Entries read (name -> bytes). */
  entries: Map<string, number>;
};

function describeStreamError(error: unknown): string {
  if (error instanceof TarError || error instanceof BackupError) return error.message;
  const e = error as { code?: string; message?: string };
  if (e.code === "ENOENT") return `no such file: ${e.message}`;
  if (e.code === "Z_BUF_ERROR" || /unexpected end of file/i.test(e.message ?? "")) return "the archive is truncated: its compressed stream ends early";
  if (/checksum/i.test(e.message ?? "")) return `the archive is corrupted: its compressed data fails its checksum (${e.message})`;
  if (e.code?.startsWith("Z_") || e.code?.startsWith("ZSTD_") || /zstd|unknown frame|corrupt/i.test(e.message ?? "")) return `the archive is corrupted: its compressed data is damaged (${e.message})`;
  return `the archive could not be read: ${e.message ?? String(error)}`;
}

function parseManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    // The compressed frames carry no checksum of their own: damaged bytes may decode without an error, into JSON that does not parse.
    throw new BackupError("the archive is corrupted: manifest.json is not valid JSON");
  }
  if (m?.format !== ARCHIVE_FORMAT) throw new BackupError(`manifest.json is not a Dealgraph backup's (format ${JSON.stringify(m?.format)})`);
  if (!READABLE_VERSIONS.includes(m.version)) throw new BackupError(`the archive is format version ${m.version}; this release reads versions ${READABLE_VERSIONS.join(" and ")}`);
  if (!Array.isArray(m.files)) throw new BackupError("manifest.json lists no files");
  return m;
}

function parseContents(text: string): Contents {
  let c: Contents;
  try {
    c = JSON.parse(text) as Contents;
  } catch {
    throw new BackupError("the archive is corrupted: backup.json is not valid JSON");
  }
  if (c?.format !== ARCHIVE_FORMAT) throw new BackupError(`backup.json is not a Dealgraph backup's (format ${JSON.stringify(c?.format)})`);
  if (!READABLE_VERSIONS.includes(c.version) || c.version < 2) throw new BackupError(`the archive is format version ${c.version}; this release reads versions ${READABLE_VERSIONS.join(" and ")}`);
  if (!Array.isArray(c.files) || c.files.some((f) => typeof f?.path !== "string" || !Number.isSafeInteger(f.bytes) || f.bytes < 0)) throw new BackupError("backup.json does not list its files with their sizes");
  return c;
}

/** The archive's compression, by its first bytes: zstd (version 2) or gzip (version 1). */
function decompressorFor(file: string) {
  const fd = openSync(file, "r");
  const head = Buffer.alloc(4);
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) {
    // The decoder does not notice a stream that stops at a block boundary: the frames are walked first.
    const problem = zstdFramesProblem(file);
    if (problem) throw new BackupError(problem);
    return createZstdDecompress();
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return createGunzip();
  throw new BackupError("the archive is corrupted: it is neither zstd nor gzip data (not a Dealgraph backup)");
}

/** Free bytes where `dir` is (for the bound on what an archive may unpack). */
function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/**
 * The decompressed stream, cut off as soon as it passes `bound.bytes`: a small archive that
 * inflates without end (a compression bomb) is refused after at most that much, not after the disk is full.
 */
async function* bounded(input: AsyncIterable<Buffer>, bound: { bytes: number; why: string }): AsyncIterable<Buffer> {
  let total = 0;
  for await (const chunk of input) {
    total += chunk.length;
    if (total > bound.bytes) throw new BackupError(`the archive unpacks to more than ${bound.why}; it was not read further`);
    yield chunk;
  }
}

/**
 * Reads an archive through: checks every entry against the manifest, the snapshot's integrity and
 * that every file the snapshot names is there. With `extractTo`, writes the entries there as well
 * (restore); otherwise the snapshot goes to a temp folder outside the data dir and is removed.
 * What is unpacked is bounded as it streams: in version 2, each entry by the size backup.json
 * declared for it (and the whole by their sum); in both versions, by the free space where it goes.
 */
export async function readArchive(file: string, opts: { workDir?: string; extractTo?: string; progress?: Progress }): Promise<ArchiveCheck> {
  const problems: string[] = [];
  const sums = new Map<string, { bytes: number; sha256: string }>();
  const entries = new Map<string, number>();
  let manifestText = "";
  let contentsText = "";
  let contents: Contents | null = null;
  let declared: Map<string, number> | null = null;
  const scratch = opts.extractTo ? null : mkdtempSync(join(opts.workDir ?? tmpdir(), "dealgraph-verify-"));
  const target = opts.extractTo ?? scratch!;
  const dbOut = join(target, DB_ENTRY);
  const tick = throttled(opts.progress);
  let read = 0;
  let entryIndex = 0;
  const unfinished = new Set<WriteStream>();
  const free = freeBytes(target);
  // Until backup.json says more (version 2: the declared sizes plus tar's headers and padding):
  // what fits where it goes (a version 1 archive verified writes only its database to disk).
  const bound = opts.extractTo ? { bytes: free, why: `the ${mb(free)} free at ${target}` } : { bytes: Math.max(free, 20 * statSync(file).size), why: `the ${mb(free)} free at ${target}` };
  try {
    const onEntry = (entry: { name: string; size: number; type: string }): EntrySink => {
      const { name } = entry;
      entryIndex++;
      if (entry.type !== "0") throw new BackupError(`unexpected entry ${JSON.stringify(name)} (not a regular file)`);
      if (name !== DB_ENTRY && name !== KEY_FILE && name !== MANIFEST_ENTRY && name !== CONTENTS_ENTRY && !BLOB_ENTRY.test(name)) throw new BackupError(`unexpected entry ${JSON.stringify(name)}: not part of a Dealgraph backup`);
      if (entries.has(name)) throw new BackupError(`the entry ${name} appears twice`);
      if (name === CONTENTS_ENTRY) {
        if (entryIndex !== 1) throw new BackupError("backup.json is not the archive's first entry");
        if (entry.size > 64 * MB) throw new BackupError(`backup.json is ${entry.size} bytes; a list of contents is far smaller`);
      } else if (name === MANIFEST_ENTRY) {
        if (entry.size > 256 * MB) throw new BackupError(`manifest.json is ${entry.size} bytes; a manifest is far smaller`);
      } else if (declared) {
        const expected = declared.get(name);
        if (expected === undefined) throw new BackupError(`${name} is in the archive but not in its backup.json`);
        if (expected !== entry.size) throw new BackupError(`${name} is ${entry.size} bytes in the archive; its backup.json says ${expected}`);
      } else if (entry.size > free) {
        throw new BackupError(`${name} is ${mb(entry.size)}, more than the ${mb(free)} free at ${target}`);
      }
      entries.set(name, entry.size);
      const hash = createHash("sha256");
      let bytes = 0;
      const out = name === DB_ENTRY ? dbOut : opts.extractTo && name !== MANIFEST_ENTRY && name !== CONTENTS_ENTRY ? join(opts.extractTo, name) : null;
      if (out) mkdirSync(dirname(out), { recursive: true });
      const stream = out ? createWriteStream(out, { mode: name === KEY_FILE ? 0o600 : 0o644 }) : null;
      // An entry cut short by a damaged archive leaves its file open: it is closed before the scratch
      // dir goes, and its own errors (the dir removed under it) are kept, never an unhandled event.
      let failed: Error | null = null;
      if (stream) (unfinished.add(stream), stream.on("error", (error) => (failed ??= error)));
      return {
        async write(chunk) {
          hash.update(chunk);
          bytes += chunk.length;
          read += chunk.length;
          tick(`verify: ${mb(read)} read`);
          if (name === MANIFEST_ENTRY) manifestText += chunk.toString("utf8");
          if (name === CONTENTS_ENTRY) contentsText += chunk.toString("utf8");
          if (failed) throw failed;
          if (stream && !stream.write(chunk)) await once(stream, "drain");
        },
        async end() {
          if (stream) await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error || failed ? reject(error ?? failed) : resolve())));
          if (stream) unfinished.delete(stream);
          sums.set(name, { bytes, sha256: hash.digest("hex") });
          if (name === CONTENTS_ENTRY) {
            contents = parseContents(contentsText);
            declared = new Map(contents.files.map((f) => [f.path, f.bytes]));
            const total = contents.files.reduce((s, f) => s + f.bytes, 0);
            const needed = opts.extractTo ? total : (declared.get(DB_ENTRY) ?? 0);
            if (needed > free) throw new BackupError(`the archive unpacks to ${mb(needed)}, more than the ${mb(free)} free at ${target}`);
            bound.bytes = total + (contents.files.length + 4) * 2 * BLOCK + 2 * MB + read;
            bound.why = `the ${mb(total)} its backup.json declares`;
          }
        },
      };
    };
    // pipe() does not pass the file's own errors on (a file removed or unreadable mid-read): hand them
    // to the decompressor, so they end the read as a problem instead of an unhandled 'error' event.
    // The decompressor first: it may throw (no such file, not an archive, cut short), and a read
    // stream opened before that would have no listener for its own 'error' (the file gone: ENOENT
    // thrown as an unhandled event, as the operator page's test saw under load).
    const decompress = decompressorFor(file);
    const raw = createReadStream(file, { highWaterMark: CHUNK });
    raw.on("error", (error) => decompress.destroy(error));
    // Once the read has stopped (early, at a problem) nobody listens any more: a late error is dropped, not thrown.
    decompress.on("error", () => {});
    const input = raw.pipe(decompress) as AsyncIterable<Buffer>;
    try {
      await readTar(bounded(input, bound), onEntry);
    } finally {
      raw.destroy();
    }
  } catch (error) {
    problems.push(describeStreamError(error));
  }
  for (const stream of unfinished) {
    if (stream.closed) continue;
    await new Promise<void>((resolve) => {
      stream.once("close", () => resolve());
      stream.destroy();
      setTimeout(resolve, 2_000).unref();
    });
  }
  let manifest: Manifest | null = null;
  if (!problems.length) {
    try {
      if (!sums.has(MANIFEST_ENTRY)) throw new BackupError("the archive has no manifest.json");
      manifest = parseManifest(manifestText);
      if (manifest.version >= 2 && !contents) throw new BackupError("the archive has no backup.json (its list of contents)");
    } catch (error) {
      problems.push(describeStreamError(error));
      manifest = null;
    }
  }
  if (manifest) {
    const listed = new Set<string>();
    for (const f of manifest.files) {
      listed.add(f.path);
      const got = sums.get(f.path);
      if (!got) problems.push(`${f.path} is listed in the manifest but missing from the archive`);
      else if (got.bytes !== f.bytes) problems.push(`${f.path} is ${got.bytes} bytes; the manifest says ${f.bytes}`);
      else if (got.sha256 !== f.sha256) problems.push(`${f.path} does not match its sha256 in the manifest (corrupted)`);
    }
    for (const name of sums.keys()) if (name !== MANIFEST_ENTRY && name !== CONTENTS_ENTRY && !listed.has(name)) problems.push(`${name} is in the archive but not in its manifest`);
    for (const name of sums.keys()) {
      const m = BLOB_ENTRY.exec(name);
      if (m && (m[1] !== m[2].slice(0, 2) || sums.get(name)!.sha256 !== m[2])) problems.push(`${name}: its content does not match its name (corrupted)`);
    }
    if (!sums.has(DB_ENTRY)) problems.push("the archive holds no database snapshot (dealgraph.db)");
    if (manifest.server_key === "file" && !sums.has(KEY_FILE)) problems.push("the manifest says secret.key is included, but it is not");
  }
  if (manifest && !problems.length) problems.push(...checkSnapshot(dbOut, new Set(manifest.missing_blobs ?? []), sums));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  return { problems, manifest, entries };
}

/** SQLite's own integrity check of the snapshot, and every file it names present in the archive. */
function checkSnapshot(path: string, missingAtBackup: Set<string>, sums: Map<string, unknown>): string[] {
  let sqlite: Database | null = null;
  try {
    sqlite = new Database(path, { readonly: true });
    const rows = sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((r) => r.integrity_check);
    if (rows.length !== 1 || rows[0] !== "ok") return [`the database snapshot fails integrity_check: ${rows.slice(0, 5).join("; ")}`];
    const absent = dealBlobHashes(sqlite).filter((sha) => !missingAtBackup.has(sha) && !sums.has(`blobs/${sha.slice(0, 2)}/${sha}`));
    if (absent.length) return [`the database names ${absent.length} file(s) the archive does not hold: ${absent.slice(0, 3).join(", ")}${absent.length > 3 ? ", ..." : ""}`];
    return [];
  } catch (error) {
    return [`the database snapshot cannot be opened: ${(error as Error).message}`];
  } finally {
    sqlite?.close();
  }
}
