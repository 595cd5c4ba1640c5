// The backup's gzip writer (backups.gzip.ts): blocks compressed on a second thread where one is free
// and stored where none is, as gzip members one after another. Whatever the mix, the file is one
// gzip stream to gzip itself and to node:zlib, byte for byte what went in.
import { afterAll, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { GZIP_BLOCK, GzipSink, storedMember } from "../../src/modules/backups/backups.gzip.ts";

const dir = mkdtempSync(join(tmpdir(), "dealgraph-gzip-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text-like bytes (compressible) with random runs (not), about 9 blocks. */
function sample(): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; parts.reduce((n, p) => n + p.length, 0) < 9 * GZIP_BLOCK + 12_345; i++) {
    parts.push(i % 3 === 0 ? Buffer.from(crypto.getRandomValues(new Uint8Array(100_000))) : Buffer.from(`row ${i}: the quick brown fox `.repeat(4000)));
  }
  return Buffer.concat(parts);
}

async function write(name: string, data: Buffer, level: number) {
  const file = join(dir, name);
  const fd = openSync(file, "wx");
  const sink = new GzipSink(fd, level);
  // In uneven pieces, as tar entries arrive.
  for (let at = 0; at < data.length; at += 777_777) await sink.write(data.subarray(at, Math.min(data.length, at + 777_777)));
  await sink.end();
  closeSync(fd);
  return { file, sink };
}

test("compressed and stored members make one gzip stream: gzip -t passes, gunzip gives the bytes back, the sha256 is the file's", async () => {
  const data = sample();
  const { file, sink } = await write("mixed.gz", data, 1);
  const bytes = readFileSync(file);
  expect(sink.bytes).toBe(bytes.length);
  expect(sink.hash.digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
  expect(sink.stats.blocks).toBe(Math.ceil(data.length / GZIP_BLOCK));
  expect(sink.stats.compressed + sink.stats.stored).toBe(sink.stats.blocks);
  expect(sink.stats.compressed).toBeGreaterThan(0); // the first block always finds the thread idle
  expect(gunzipSync(bytes).equals(data)).toBe(true);
  const t = Bun.spawnSync(["gzip", "-t", file]);
  expect(t.exitCode, t.stderr.toString()).toBe(0);
  expect(Buffer.from(Bun.spawnSync(["gzip", "-dc", file]).stdout).equals(data)).toBe(true);
});

test("level 0: every block stored (no thread), still a gzip stream of the same bytes", async () => {
  const data = sample();
  const { file, sink } = await write("stored.gz", data, 0);
  expect(sink.stats).toMatchObject({ level: 0, compressed: 0, stored: sink.stats.blocks });
  expect(readFileSync(file).length).toBeGreaterThan(data.length);
  expect(gunzipSync(readFileSync(file)).equals(data)).toBe(true);
});

test("a stored member of an empty block, of one byte, and of exactly 65,535 and 65,536 bytes", () => {
  for (const n of [0, 1, 65_535, 65_536]) {
    const data = Buffer.alloc(n, 7);
    const out = Buffer.alloc(n + 100);
    const len = storedMember(data, out);
    expect(gunzipSync(out.subarray(0, len)).equals(data)).toBe(true);
  }
});
