// One backup archive: a consistent snapshot of the database (VACUUM INTO on its own connection, so
// writers go on: WAL keeps their commits out of the reader's snapshot), the blob-store files the
// snapshot names, and the server key, streamed through tar and gzip into a temporary name, checked
// by reading it back, and only then given its name. manifest.json (last entry) holds each file's
// size and sha256. Nothing is ever held whole in memory. The archive layout:
//   dealgraph.db, blobs/<2 hex>/<sha256>, secret.key (unless DEALGRAPH_SECRET_KEY holds the key), manifest.json
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync, linkSync, mkdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { blobPath } from "../../lib/blobs.ts";
import { KEY_FILE } from "../../lib/server-key.ts";
import { readTar, TarError, TarWriter, type EntrySink } from "../../lib/tar.ts";
import { dealBlobHashes } from "../deals/deals.blobs.ts";

export const ARCHIVE_FORMAT = "dealgraph-backup";
export const ARCHIVE_VERSION = 1;
export const DB_ENTRY = "dealgraph.db";
export const MANIFEST_ENTRY = "manifest.json";

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
};

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
};

export type WrittenBackup = { file: string; bytes: number; sha256: string; manifest: Manifest; verified_at: string; ms: { snapshot: number; archive: number; verify: number } };

/** A backup that could not be written or an archive that does not check out; the message says what. */
export class BackupError extends Error {}

const BLOB_ENTRY = /^blobs\/([0-9a-f]{2})\/([0-9a-f]{64})$/;
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

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

function workDir(dataDir: string): string {
  const dir = join(dataDir, "tmp");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The database as of one moment, in a file of its own (rollback journal: opens read-only anywhere). */
function snapshot(dbPath: string, into: string, busyTimeoutMs: number): { migrations: string[]; blobs: string[] } {
  // Read-write (though it writes nothing): a read-only handle cannot open a WAL database whose
  // -shm file is missing, as after a clean stop.
  const live = new Database(dbPath);
  try {
    live.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    live.query("VACUUM INTO ?").run(into);
  } finally {
    live.close();
  }
  const snap = new Database(into);
  try {
    snap.exec("PRAGMA journal_mode = DELETE");
    return { migrations: ledger(snap), blobs: dealBlobHashes(snap) };
  } finally {
    snap.close();
  }
}

function ledger(sqlite: Database): string[] {
  const has = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").get();
  return has ? sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations ORDER BY tag").all().map((r) => r.tag) : [];
}

/** Counts and hashes what passes through (the archive's own sha256 as it is written). */
function tap(hash: ReturnType<typeof createHash>, count: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      count.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

/** Writes, checks and names one archive. `out` must not exist yet. */
export async function writeBackup(opts: WriteOptions): Promise<WrittenBackup> {
  const progress = opts.progress ?? (() => {});
  if (existsSync(opts.out)) throw new BackupError(`${opts.out} already exists; name another file with --out`);
  if (!existsSync(opts.dbPath)) throw new BackupError(`no database at ${opts.dbPath}: is --data-dir right?`);
  mkdirSync(dirname(opts.out), { recursive: true });
  const tmp = workDir(opts.dataDir);
  const snapPath = join(tmp, `backup-${process.pid}-${crypto.randomUUID()}.db`);
  const partial = join(dirname(opts.out), `.${basename(opts.out)}.partial-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  const ms = { snapshot: 0, archive: 0, verify: 0 };
  try {
    let t = performance.now();
    progress(`snapshot: copying the database (VACUUM INTO) while it stays open for reads and writes`);
    const snap = snapshot(opts.dbPath, snapPath, opts.busyTimeoutMs);
    ms.snapshot = performance.now() - t;
    const snapBytes = statSync(snapPath).size;
    progress(`snapshot: ${mb(snapBytes)} in ${(ms.snapshot / 1000).toFixed(1)} s; ${snap.blobs.length} files referenced`);

    t = performance.now();
    const files: ManifestFile[] = [];
    const missing: string[] = [];
    const archiveHash = createHash("sha256");
    const written = { bytes: 0 };
    const gzip = createGzip({ level: 1 });
    const done = pipeline(gzip, tap(archiveHash, written), createWriteStream(partial, { mode: 0o600 }));
    const tar = new TarWriter(gzip);
    const add = async (name: string, path: string, mode = 0o644) => {
      const st = statSync(path);
      const hash = createHash("sha256");
      await tar.addFile(name, path, st.size, { mtime: st.mtime, mode, onChunk: (c) => hash.update(c) });
      files.push({ path: name, bytes: st.size, sha256: hash.digest("hex") });
    };
    const fill = async () => {
      await add(DB_ENTRY, snapPath);
      const tick = throttled(progress);
      let i = 0;
      for (const sha of snap.blobs) {
        i++;
        const path = blobPath(opts.dataDir, sha);
        if (!/^[0-9a-f]{64}$/.test(sha) || !existsSync(path)) {
          missing.push(sha);
          continue;
        }
        await add(`blobs/${sha.slice(0, 2)}/${sha}`, path);
        tick(`archive: ${i}/${snap.blobs.length} files, ${mb(written.bytes)} written`);
      }
      const keyPath = join(opts.dataDir, KEY_FILE);
      const serverKey: Manifest["server_key"] = opts.keyFromEnv ? "env" : existsSync(keyPath) ? "file" : "none";
      if (serverKey === "file") await add(KEY_FILE, keyPath, 0o600);
      const manifest: Manifest = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        created_at: opts.now.toISOString(),
        migrations: snap.migrations,
        server_key: serverKey,
        files,
        missing_blobs: missing,
      };
      await tar.addBytes(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2) + "\n"), { mtime: opts.now });
      await tar.finish();
      gzip.end();
      return manifest;
    };
    const [manifest] = await Promise.all([fill(), done]);
    rmSync(snapPath, { force: true });
    ms.archive = performance.now() - t;
    if (missing.length) progress(`warning: ${missing.length} file(s) the database names were already missing from ${join(opts.dataDir, "blobs")}: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", ..." : ""}`);
    progress(`archive: ${files.length} entries, ${mb(written.bytes)} in ${(ms.archive / 1000).toFixed(1)} s`);

    t = performance.now();
    progress("verify: reading the archive back (checksums, integrity_check)");
    const check = await readArchive(partial, { workDir: tmp });
    ms.verify = performance.now() - t;
    if (check.problems.length) throw new BackupError(`the archive just written does not check out: ${check.problems.join("; ")}`);
    try {
      linkSync(partial, opts.out); // never replaces a file that appeared meanwhile
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") throw new BackupError(`${opts.out} appeared while the backup was written; name another file with --out`);
      throw error;
    }
    progress(`done: ${opts.out} (${mb(written.bytes)}, verified in ${(ms.verify / 1000).toFixed(1)} s)`);
    return { file: opts.out, bytes: written.bytes, sha256: archiveHash.digest("hex"), manifest, verified_at: new Date().toISOString(), ms };
  } finally {
    rmSync(snapPath, { force: true });
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
  if (e.code === "Z_BUF_ERROR" || /unexpected end of file/i.test(e.message ?? "")) return "the archive is truncated: its gzip stream ends early";
  if (e.code?.startsWith("Z_")) return `the archive is corrupted: its gzip data is damaged (${e.message})`;
  return `the archive could not be read: ${e.message ?? String(error)}`;
}

function parseManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupError("manifest.json is not valid JSON");
  }
  if (m?.format !== ARCHIVE_FORMAT) throw new BackupError(`manifest.json is not a Dealgraph backup's (format ${JSON.stringify(m?.format)})`);
  if (m.version !== ARCHIVE_VERSION) throw new BackupError(`the archive is format version ${m.version}; this release reads version ${ARCHIVE_VERSION}`);
  if (!Array.isArray(m.files)) throw new BackupError("manifest.json lists no files");
  return m;
}

/**
 * Reads an archive through: checks every entry against the manifest, the snapshot's integrity and
 * that every file the snapshot names is there. With `extractTo`, writes the entries there as well
 * (restore); otherwise the snapshot goes to a temp file in `workDir` and is removed.
 */
export async function readArchive(file: string, opts: { workDir: string; extractTo?: string; progress?: Progress }): Promise<ArchiveCheck> {
  const problems: string[] = [];
  const sums = new Map<string, { bytes: number; sha256: string }>();
  const entries = new Map<string, number>();
  let manifestText = "";
  const dbOut = opts.extractTo ? join(opts.extractTo, DB_ENTRY) : join(opts.workDir, `verify-${process.pid}-${crypto.randomUUID()}.db`);
  const tick = throttled(opts.progress);
  let read = 0;
  try {
    const onEntry = (entry: { name: string; size: number; type: string }): EntrySink => {
      const { name } = entry;
      if (entry.type !== "0") throw new BackupError(`unexpected entry ${JSON.stringify(name)} (not a regular file)`);
      if (name !== DB_ENTRY && name !== KEY_FILE && name !== MANIFEST_ENTRY && !BLOB_ENTRY.test(name)) throw new BackupError(`unexpected entry ${JSON.stringify(name)}: not part of a Dealgraph backup`);
      if (entries.has(name)) throw new BackupError(`the entry ${name} appears twice`);
      entries.set(name, entry.size);
      const hash = createHash("sha256");
      let bytes = 0;
      const target = name === DB_ENTRY ? dbOut : opts.extractTo && name !== MANIFEST_ENTRY ? join(opts.extractTo, name) : null;
      if (target) mkdirSync(dirname(target), { recursive: true });
      const out = target ? createWriteStream(target, { mode: name === KEY_FILE ? 0o600 : 0o644 }) : null;
      return {
        async write(chunk) {
          hash.update(chunk);
          bytes += chunk.length;
          read += chunk.length;
          tick(`verify: ${mb(read)} read`);
          if (name === MANIFEST_ENTRY) manifestText += chunk.toString("utf8");
          if (out && !out.write(chunk)) await once(out, "drain");
        },
        async end() {
          if (out) await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
          sums.set(name, { bytes, sha256: hash.digest("hex") });
        },
      };
    };
    await readTar(createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>, onEntry);
  } catch (error) {
    problems.push(describeStreamError(error));
  }
  let manifest: Manifest | null = null;
  if (!problems.length) {
    try {
      if (!sums.has(MANIFEST_ENTRY)) throw new BackupError("the archive has no manifest.json");
      manifest = parseManifest(manifestText);
    } catch (error) {
      problems.push(describeStreamError(error));
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
    for (const name of sums.keys()) if (name !== MANIFEST_ENTRY && !listed.has(name)) problems.push(`${name} is in the archive but not in its manifest`);
    for (const name of sums.keys()) {
      const m = BLOB_ENTRY.exec(name);
      if (m && (m[1] !== m[2].slice(0, 2) || sums.get(name)!.sha256 !== m[2])) problems.push(`${name}: its content does not match its name (corrupted)`);
    }
    if (!sums.has(DB_ENTRY)) problems.push("the archive holds no database snapshot (dealgraph.db)");
    if (manifest.server_key === "file" && !sums.has(KEY_FILE)) problems.push("the manifest says secret.key is included, but it is not");
  }
  if (manifest && !problems.length) problems.push(...checkSnapshot(dbOut, new Set(manifest.missing_blobs ?? []), sums));
  if (!opts.extractTo) rmSync(dbOut, { force: true });
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
