// The backup archive's format: what a Dealgraph backup holds and how it is laid out, shared by the
// writer (backups.write.ts) and the reader (backups.read.ts, `backup verify` and `restore`).
// Layout of format version 2 (`.tar.gz`; the previous release wrote it as `.tar.zst`):
//   backup.json (first: each entry's path and size, so a reader can bound what it unpacks before
//   it unpacks it), dealgraph.db, blobs/<2 hex>/<sha256>, secret.key (unless DEALGRAPH_SECRET_KEY
//   holds the key), manifest.json (last: each file's size and sha256, the migrations)
// Version 1 (`.tar.gz`, earlier releases): the same without backup.json. Every one is read (verify and
// restore), its compression told by its first bytes (gzip, or the previous release's zstd).
import type { GzipStats } from "./backups.gzip.ts";

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

/** A backup that could not be written or an archive that does not check out; the message says what. */
export class BackupError extends Error {}

export const BLOB_ENTRY = /^blobs\/([0-9a-f]{2})\/([0-9a-f]{64})$/;
export const MB = 1024 * 1024;
export const CHUNK = 1 << 20;
export const BLOCK = 512;
export const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
export const tarPadding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Reports at most every two seconds, so a long step shows it is alive without flooding stderr. */
export function throttled(progress: Progress | undefined): Progress {
  let last = 0;
  return (line) => {
    const now = performance.now();
    if (now - last < 2000) return;
    last = now;
    progress?.(line);
  };
}

export function parseManifest(text: string): Manifest {
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

export function parseContents(text: string): Contents {
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
