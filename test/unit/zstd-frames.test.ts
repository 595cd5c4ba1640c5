// The walk over a .tar.zst file's zstd frames (backups.zstd-frames.ts): node:zlib's decoder takes a
// stream cut at a block boundary as whole, so verify and restore check the frames end the file.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, createZstdCompress, zstdDecompressSync } from "node:zlib";
import { zstdFramesProblem } from "../../src/modules/backups/backups.zstd-frames.ts";

const dir = mkdtempSync(join(tmpdir(), "dealgraph-zstd-frames-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stream as the backup writes it: one compressor, several writes, the end. */
async function streamed(parts: Buffer[], checksum = 0): Promise<Buffer> {
  const z = createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 1, [constants.ZSTD_c_checksumFlag]: checksum } });
  const out: Buffer[] = [];
  z.on("data", (b: Buffer) => out.push(b));
  const ended = new Promise((resolve) => z.on("end", resolve));
  for (const p of parts) z.write(p);
  z.end();
  await ended;
  return Buffer.concat(out);
}

let n = 0;
const file = (bytes: Uint8Array) => {
  const path = join(dir, `f${++n}.zst`);
  writeFileSync(path, bytes);
  return path;
};

// Half a megabyte of varied bytes: several 128 KB blocks, some stored raw.
const payload = Buffer.from(Array.from({ length: 512 * 1024 }, (_, i) => (i * 2654435761) >>> 24));

describe("zstdFramesProblem", () => {
  test("a whole stream, one frame or several concatenated, with or without its checksum, is whole", async () => {
    const one = await streamed([payload, Buffer.from("manifest")]);
    expect(zstdDecompressSync(one).length).toBe(payload.length + 8);
    expect(zstdFramesProblem(file(one))).toBeNull();
    expect(zstdFramesProblem(file(Buffer.concat([one, await streamed([Buffer.from("more")])])))).toBeNull();
    expect(zstdFramesProblem(file(await streamed([payload], 1)))).toBeNull();
  });

  test("cut anywhere (inside a block, at a block boundary, inside the checksum) is truncated", async () => {
    const whole = await streamed([payload, Buffer.from("the end")]);
    for (const cut of [1, 3, 10, Math.floor(whole.length / 2), whole.length - 5]) {
      expect(zstdFramesProblem(file(whole.subarray(0, cut)))).toMatch(/truncated/);
    }
    const summed = await streamed([payload], 1);
    expect(zstdFramesProblem(file(summed.subarray(0, summed.length - 2)))).toMatch(/truncated/);
  });

  test("bytes after the last frame, and a file that is not zstd, are corrupted", async () => {
    const whole = await streamed([payload]);
    expect(zstdFramesProblem(file(Buffer.concat([whole, Buffer.from("garbage!")])))).toMatch(/corrupted: bytes after its last compressed frame/);
    expect(zstdFramesProblem(file(Buffer.from("not zstd at all")))).toMatch(/not zstd/);
    expect(zstdFramesProblem(file(Buffer.alloc(0)))).toMatch(/no compressed frame/);
  });
});
