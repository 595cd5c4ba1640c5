// Reading a backup archive through (`backup verify`, and `restore` with `extractTo`): every entry
// checked against the manifest's size and sha256 as it streams, what is unpacked bounded as it
// streams, and SQLite's integrity_check on the unpacked snapshot.
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { type WriteStream, closeSync, createReadStream, createWriteStream, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statfsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createGunzip, createZstdDecompress } from "node:zlib";
import { KEY_FILE } from "../../lib/server-key.ts";
import { readTar, TarError, type EntrySink } from "../../lib/tar.ts";
import { dealBlobHashes } from "../deals/deals.blobs.ts";
import {
  BackupError,
  BLOB_ENTRY,
  BLOCK,
  CHUNK,
  CONTENTS_ENTRY,
  type Contents,
  DB_ENTRY,
  type Manifest,
  MANIFEST_ENTRY,
  MB,
  mb,
  parseContents,
  parseManifest,
  type Progress,
  throttled,
} from "./backups.archive.ts";
import { zstdFramesProblem } from "./backups.zstd-frames.ts";

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
