// The source of the backup's threads (backups.gzip.ts starts each from it as a Blob URL, so the
// compiled binary needs no file beside it). One source, several roles, told by each message:
// compress a block, hash entries' ranges of a block, write members, hash the members as written
// (the archive's sha256, on a thread of its own so that it goes on while the writer waits on the
// disk), fdatasync the archive. Blocks are SharedArrayBuffers the main thread reads the files into.
// Every thread runs this; the messages it gets say which role it plays. Each accounts its busy time,
// and says at the end how much CPU time its thread used (/proc/thread-self/stat, where there is one):
// on a machine other work keeps busy, a thread's busy time is mostly its waits for a core.

/** A piece of a member: framing bytes, or a [start, end) range of its block. */
export type Piece = Uint8Array | [number, number];

/** One gzip member holding block bytes [0, length) uncompressed (`crc` their CRC-32): its pieces, in order. */
export function storedPieces(length: number, crc: number): Piece[] {
  const STORED_MAX = 65_535; // deflate's stored blocks hold at most 65,535 bytes each (inside: the threads get this function's text)
  // Header: magic, deflate, no flags, no mtime, no extra flags, OS unknown (255).
  const pieces: Piece[] = [Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)];
  let at = 0;
  do {
    const n = Math.min(STORED_MAX, length - at);
    // BFINAL on the last; BTYPE 00 (stored); LEN and NLEN little-endian.
    pieces.push(Uint8Array.of(at + n >= length ? 1 : 0, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff));
    if (n) pieces.push([at, at + n]);
    at += n;
  } while (at < length);
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, length >>> 0, true); // ISIZE: the length modulo 2^32
  pieces.push(trailer);
  return pieces;
}

export const WORKER_SOURCE = `
const fs = require("node:fs");
const storedPieces = ${storedPieces.toString()};
// A member's pieces: a stored one is framed here from its length and CRC-32.
const piecesOf = (m) => (m.stored ? storedPieces(m.stored.length, m.stored.crc) : m.pieces);
const entries = new Map();
let fd = -1, archive = null, bytes = 0, busy = 0;
const threadCpuMs = () => {
  try {
    const stat = fs.readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in USER_HZ (100 a second)
  } catch {
    return null;
  }
};
self.onmessage = (event) => {
  const m = event.data;
  const t0 = performance.now();
  try {
    if (m.op === "compress") {
      const out = Bun.gzipSync(new Uint8Array(m.sab, 0, m.length), { level: m.level, library: "libdeflate" });
      busy += performance.now() - t0;
      postMessage({ op: "compressed", block: m.block, out, busy }, [out.buffer]);
    } else if (m.op === "hash") {
      for (const [entry, start, end] of m.ranges) {
        let h = entries.get(entry);
        if (!h) entries.set(entry, (h = new Bun.CryptoHasher("sha256")));
        h.update(new Uint8Array(m.sab, start, end - start));
      }
      busy += performance.now() - t0;
      postMessage({ op: "hashed", block: m.block, busy });
    } else if (m.op === "digests") {
      const out = {};
      for (const [entry, h] of entries) out[entry] = h.digest("hex");
      entries.clear();
      postMessage({ op: "digests", out, busy });
    } else if (m.op === "open") {
      fd = m.fd;
    } else if (m.op === "archive-hash") {
      archive ??= new Bun.CryptoHasher("sha256");
      for (const p of piecesOf(m)) archive.update(Array.isArray(p) ? new Uint8Array(m.sab, p[0], p[1] - p[0]) : p);
      const ms = performance.now() - t0;
      busy += ms;
      postMessage({ op: "archive-hashed", block: m.block, busy, hashMs: ms });
    } else if (m.op === "archive-digest") {
      archive ??= new Bun.CryptoHasher("sha256");
      postMessage({ op: "archive-digest", sha256: archive.digest("hex"), busy });
    } else if (m.op === "write") {
      const views = piecesOf(m).map((p) => (Array.isArray(p) ? new Uint8Array(m.sab, p[0], p[1] - p[0]) : p));
      let total = 0;
      for (const v of views) total += v.length;
      let skip = fs.writevSync(fd, views);
      // A short gathered write (rare on a regular file): the rest piece by piece.
      if (skip < total) {
        for (const v of views) {
          if (skip >= v.length) { skip -= v.length; continue; }
          let at = skip;
          skip = 0;
          while (at < v.length) at += fs.writeSync(fd, v, at, v.length - at);
        }
      }
      bytes += total;
      const ms = performance.now() - t0;
      busy += ms;
      postMessage({ op: "written", block: m.block, bytes, busy, writeMs: ms });
    } else if (m.op === "sync") {
      fs.fdatasyncSync(m.fd);
      busy += performance.now() - t0;
      postMessage({ op: "synced", busy });
    } else if (m.op === "cpu") {
      postMessage({ op: "cpu", cpuMs: threadCpuMs() });
    } else if (m.op === "close") {
      postMessage({ op: "closed", bytes, busy });
    }
  } catch (error) {
    postMessage({ op: "error", message: String(error && error.message ? error.message : error) });
  }
};`;
