// The backup's gzip writer (backups.gzip.ts): blocks compressed on a second thread where one is free
// and stored where none is, as gzip members one after another, written and hashed by other threads.
// Whatever the mix, the file is one gzip stream to gzip itself and to node:zlib, byte for byte what
// went in; each entry's sha256 is that of its bytes, the archive's that of the file.
import { afterAll, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { GZIP_BLOCK, GzipSink, ShortRead, storedPieces } from "../../src/modules/backups/backups.gzip.ts";

const dir = mkdtempSync(join(tmpdir(), "dealgraph-gzip-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** Text-like bytes (compressible) with random runs (not), about 9 blocks. */
function sample(): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; parts.reduce((n, p) => n + p.length, 0) < 9 * GZIP_BLOCK + 12_345; i++) {
    parts.push(i % 3 === 0 ? Buffer.from(crypto.getRandomValues(new Uint8Array(100_000))) : Buffer.from(`row ${i}: the quick brown fox `.repeat(4000)));
  }
  return Buffer.concat(parts);
}

async function write(name: string, data: Buffer, level: number, threads = 1, spareCore = true) {
  const file = join(dir, name);
  const fd = openSync(file, "wx");
  const sink = new GzipSink(fd, level, threads, spareCore);
  // In uneven pieces, as tar entries arrive.
  for (let at = 0; at < data.length; at += 777_777) await sink.write(data.subarray(at, Math.min(data.length, at + 777_777)));
  const written = await sink.end();
  closeSync(fd);
  return { file, sink, written };
}

test("compressed and stored members make one gzip stream: gzip -t passes, gunzip gives the bytes back, the sha256 is the file's", async () => {
  const data = sample();
  const { file, sink, written } = await write("mixed.gz", data, 1);
  const bytes = readFileSync(file);
  expect(written.bytes).toBe(bytes.length);
  expect(written.sha256).toBe(sha(bytes));
  expect(sink.stats.blocks).toBe(Math.ceil(data.length / GZIP_BLOCK));
  expect(sink.stats.compressed + sink.stats.stored).toBe(sink.stats.blocks);
  expect(sink.stats.compressed).toBeGreaterThan(0); // the first block always finds the compressor idle
  expect(gunzipSync(bytes).equals(data)).toBe(true);
  const t = Bun.spawnSync(["gzip", "-t", file]);
  expect(t.exitCode, t.stderr.toString()).toBe(0);
  expect(Buffer.from(Bun.spawnSync(["gzip", "-dc", file]).stdout).equals(data)).toBe(true);
});

test("no core to spare and a disk that keeps up (the page cache here): every block stored, the same stream", async () => {
  const data = sample();
  const { file, sink, written } = await write("no-compressor.gz", data, 1, 1, false);
  // The first four are stored whatever the disk does (no measure of the writer yet); the rest unless its writes wait on the disk.
  expect(sink.stats.stored).toBeGreaterThanOrEqual(4);
  expect(sink.stats.compressed + sink.stats.stored).toBe(sink.stats.blocks);
  expect(written.sha256).toBe(sha(readFileSync(file)));
  expect(gunzipSync(readFileSync(file)).equals(data)).toBe(true);
  // Each thread's CPU time is measured at the end (Linux), for the progress's "archive CPU" line.
  if (process.platform === "linux") {
    expect(Object.keys(sink.profile.cpu!).sort()).toEqual(["archiveHash", "compressing", "entriesHash", "reading", "syncing", "writing"]);
    for (const ms of Object.values(sink.profile.cpu!)) expect(Number.isInteger(ms) && ms >= 0).toBe(true);
  }
});

test("level 0: every block stored (no thread compresses), still a gzip stream of the same bytes", async () => {
  const data = sample();
  const { file, sink, written } = await write("stored.gz", data, 0);
  expect(sink.stats).toMatchObject({ level: 0, compressed: 0, stored: sink.stats.blocks });
  expect(readFileSync(file).length).toBeGreaterThan(data.length);
  expect(written.sha256).toBe(sha(readFileSync(file)));
  expect(gunzipSync(readFileSync(file)).equals(data)).toBe(true);
});

test("entries read from files into the blocks: each one's sha256 is its bytes' (across blocks, beside unhashed bytes), the patch applied before hashing", async () => {
  const a = sample();
  const b = Buffer.from(crypto.getRandomValues(new Uint8Array(3 * GZIP_BLOCK + 17)));
  const small = Buffer.from("a small file");
  for (const [n, bytes] of [["a", a], ["b", b], ["small", small]] as const) writeFileSync(join(dir, n), bytes);
  const out = join(dir, "entries.gz");
  const fd = openSync(out, "wx");
  const sink = new GzipSink(fd, 1, 1, true);
  const ids: number[] = [];
  await sink.write(Buffer.from("header bytes not hashed"));
  for (const n of ["a", "b", "small"]) {
    const src = openSync(join(dir, n), "r");
    ids.push(sink.beginEntry());
    const size = readFileSync(join(dir, n)).length;
    await sink.readFrom(src, 0, size, n === "a" ? (chunk, at) => at === 0 && (chunk[0] = 0x58) : undefined);
    sink.endEntry();
    closeSync(src);
    await sink.write(Buffer.from("padding"));
  }
  const digests = await sink.digests();
  await sink.write(Buffer.from("the manifest"));
  const written = await sink.end();
  closeSync(fd);
  const patched = Buffer.from(a);
  patched[0] = 0x58;
  expect(ids.map((id) => digests.get(id))).toEqual([sha(patched), sha(b), sha(small)]);
  expect(gunzipSync(readFileSync(out)).equals(Buffer.concat([Buffer.from("header bytes not hashed"), patched, Buffer.from("padding"), b, Buffer.from("padding"), small, Buffer.from("padding"), Buffer.from("the manifest")]))).toBe(true);
  expect(written.sha256).toBe(sha(readFileSync(out)));
});

test("a file shorter than the bytes promised is refused (ShortRead), and the sink stops cleanly", async () => {
  writeFileSync(join(dir, "short"), Buffer.alloc(1000, 1));
  const fd = openSync(join(dir, "short.gz"), "wx");
  const sink = new GzipSink(fd, 1);
  const src = openSync(join(dir, "short"), "r");
  sink.beginEntry();
  const error = await sink.readFrom(src, 0, 5000).catch((e) => e);
  expect(error).toBeInstanceOf(ShortRead);
  expect((error as ShortRead).read).toBe(1000);
  sink.abort();
  closeSync(src);
  closeSync(fd);
});

test("a stored member of an empty block, of one byte, and of exactly 65,535 and 65,536 bytes", () => {
  for (const n of [0, 1, 65_535, 65_536, 2 * 65_535 + 3]) {
    const data = Buffer.alloc(n, 7);
    for (let i = 0; i < n; i += 997) data[i] = i & 0xff;
    const member = Buffer.concat(storedPieces(n, Bun.hash.crc32(data)).map((p) => (Array.isArray(p) ? data.subarray(p[0], p[1]) : p)));
    expect(gunzipSync(member).equals(data)).toBe(true);
  }
});
