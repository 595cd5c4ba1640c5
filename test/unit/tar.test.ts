// The streaming tar writer and reader of backups: what one writes the other reads back byte for
// byte, GNU tar reads it too, and damage is named (a bad header, a truncated stream).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { readTar, tarHeader, TarError, TarWriter } from "../../src/lib/tar.ts";

const SIZES = [0, 1, 511, 512, 513, 1024 * 1024 + 3];

async function writeTar(files: { name: string; bytes: Uint8Array; path?: string }[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  const tar = new TarWriter(out);
  for (const f of files) {
    if (f.path) await tar.addFile(f.name, f.path, f.bytes.length);
    else await tar.addBytes(f.name, f.bytes);
  }
  await tar.finish();
  out.end();
  return Buffer.concat(chunks);
}

async function readAll(tar: Buffer, chunkSize = 777): Promise<Map<string, Buffer>> {
  const got = new Map<string, Buffer>();
  async function* pieces() {
    for (let i = 0; i < tar.length; i += chunkSize) yield tar.subarray(i, i + chunkSize);
  }
  await readTar(pieces(), (entry) => {
    const parts: Buffer[] = [];
    return { write: (c) => void parts.push(Buffer.from(c)), end: () => void got.set(entry.name, Buffer.concat(parts)) };
  });
  return got;
}

describe("tar", () => {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-tar-"));
  const files = SIZES.map((size, i) => {
    const bytes = crypto.getRandomValues(new Uint8Array(Math.min(size, 65536)));
    const full = new Uint8Array(size);
    for (let o = 0; o < size; o += bytes.length) full.set(bytes.subarray(0, Math.min(bytes.length, size - o)), o);
    const path = join(dir, `f${i}`);
    writeFileSync(path, full);
    return { name: `blobs/${i.toString(16).padStart(2, "0")}/file-${size}`, bytes: full, path: i % 2 ? path : undefined };
  });

  test("what the writer streams, the reader gives back byte for byte, in whatever chunks it arrives", async () => {
    const tar = await writeTar(files);
    expect(tar.length % 512).toBe(0);
    for (const chunk of [1, 512, 777, 1 << 20]) {
      const got = await readAll(tar, chunk);
      expect([...got.keys()]).toEqual(files.map((f) => f.name));
      for (const f of files) expect(Buffer.compare(got.get(f.name)!, Buffer.from(f.bytes))).toBe(0);
    }
  });

  test("GNU tar lists and extracts it, the same bytes", async () => {
    const archive = join(dir, "a.tar");
    writeFileSync(archive, await writeTar(files));
    const out = join(dir, "x");
    Bun.spawnSync(["mkdir", "-p", out]);
    const extract = Bun.spawnSync(["tar", "xf", archive, "-C", out]);
    expect(extract.exitCode, extract.stderr.toString()).toBe(0);
    for (const f of files) expect(Buffer.compare(readFileSync(join(out, f.name)), Buffer.from(f.bytes))).toBe(0);
  });

  test("a file that changes size while it is archived is refused", async () => {
    const tar = new TarWriter(new PassThrough().resume());
    await expect(tar.addFile("x", files[5].path!, 10)).rejects.toThrow(/grew while it was archived/);
    await expect(new TarWriter(new PassThrough().resume()).addFile("x", files[1].path!, 2)).rejects.toThrow(/shrank while it was archived/);
  });

  test("a damaged header and a truncated stream are named", async () => {
    const tar = await writeTar(files);
    const damaged = Buffer.from(tar);
    damaged[3] ^= 0x20;
    await expect(readAll(damaged)).rejects.toThrow(/damaged tar header at byte 0/);
    await expect(readAll(tar.subarray(0, 2048))).rejects.toThrow(TarError);
    await expect(readAll(tar.subarray(0, 2048))).rejects.toThrow(/the archive is truncated: it ends inside an entry/);
    await expect(readAll(tar.subarray(0, tar.length - 1024))).rejects.toThrow(/before its end-of-archive marker/);
  });

  test("sizes past 8 GiB are written in GNU base-256 and read back", async () => {
    const size = 8 * 1024 ** 3 + 1;
    await expect(readAll(tarHeader("dealgraph.db", size, new Date(0), 0o644))).rejects.toThrow(`(${size} bytes of it missing)`);
    await expect(readAll(tarHeader("small", 5, new Date(0), 0o644))).rejects.toThrow("(5 bytes of it missing)");
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});
