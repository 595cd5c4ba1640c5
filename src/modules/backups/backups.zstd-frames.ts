// Whether a .tar.zst file ends where its last zstd frame ends. node:zlib's zstd decoder says
// nothing when its input stops early at a block boundary: an archive cut short there decodes
// "whole" up to the cut, and one cut inside its final (empty) block or its checksum decodes
// exactly as the full one. So the frames are walked from their headers (RFC 8878, section 3.1):
// each block's 3-byte header gives its size on disk, so this reads a few bytes per 128 KB block
// and decompresses nothing.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const ZSTD_MAGIC = 0xfd2fb528;
const isSkippable = (magic: number) => magic >>> 4 === 0x184d2a5;

/** null when the file is a sequence of whole zstd frames; otherwise what is wrong with it. */
export function zstdFramesProblem(file: string): string | null {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(18);
    const read = (at: number, n: number) => (at + n <= size ? readSync(fd, buf, 0, n, at) === n : false);
    let at = 0;
    let frames = 0;
    while (at < size) {
      if (!read(at, 4)) return `the archive is truncated: its compressed stream ends early (inside a frame header at byte ${at})`;
      const magic = buf.readUInt32LE(0);
      if (isSkippable(magic)) {
        if (!read(at + 4, 4)) return "the archive is truncated: its compressed stream ends early";
        at += 8 + buf.readUInt32LE(0);
        if (at > size) return "the archive is truncated: its compressed stream ends early";
        continue;
      }
      if (magic !== ZSTD_MAGIC) return frames === 0 ? "the archive is corrupted: it is not zstd data" : `the archive is corrupted: bytes after its last compressed frame (at byte ${at})`;
      if (!read(at + 4, 1)) return "the archive is truncated: its compressed stream ends early";
      const descriptor = buf[0];
      const fcsFlag = descriptor >> 6;
      const singleSegment = (descriptor >> 5) & 1;
      const checksum = (descriptor >> 2) & 1;
      const dictBytes = [0, 1, 2, 4][descriptor & 3];
      const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag];
      at += 5 + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
      for (;;) {
        if (!read(at, 3)) return "the archive is truncated: its compressed stream ends early";
        const header = buf[0] | (buf[1] << 8) | (buf[2] << 16);
        const last = header & 1;
        const type = (header >> 1) & 3;
        const blockSize = header >>> 3;
        if (type === 3) return `the archive is corrupted: a compressed block of a reserved type at byte ${at}`;
        at += 3 + (type === 1 ? 1 : blockSize);
        if (at > size) return "the archive is truncated: its compressed stream ends early";
        if (last) break;
      }
      at += checksum ? 4 : 0;
      if (at > size) return "the archive is truncated: its compressed stream ends early (inside its checksum)";
      frames++;
    }
    return frames === 0 ? "the archive is truncated: it holds no compressed frame" : null;
  } finally {
    closeSync(fd);
  }
}
