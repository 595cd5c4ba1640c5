// The source of the backup's threads (backups.gzip.ts starts each from it as a Blob URL, so the
// compiled binary needs no file beside it). One source, several roles, told by each message:
// compress a block, hash entries' ranges of a block, write members, hash the members as written
// (the archive's sha256, on a thread of its own so that it goes on while the writer waits on the
// disk), fdatasync the archive. Blocks are SharedArrayBuffers the main thread reads the files into.
// Every thread runs this; the messages it gets say which role it plays. Each accounts its busy time.
export const WORKER_SOURCE = `
const fs = require("node:fs");
const entries = new Map();
let fd = -1, archive = null, bytes = 0, busy = 0;
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
      for (const p of m.pieces) archive.update(Array.isArray(p) ? new Uint8Array(m.sab, p[0], p[1] - p[0]) : p);
      const ms = performance.now() - t0;
      busy += ms;
      postMessage({ op: "archive-hashed", block: m.block, busy, hashMs: ms });
    } else if (m.op === "archive-digest") {
      archive ??= new Bun.CryptoHasher("sha256");
      postMessage({ op: "archive-digest", sha256: archive.digest("hex"), busy });
    } else if (m.op === "write") {
      const views = m.pieces.map((p) => (Array.isArray(p) ? new Uint8Array(m.sab, p[0], p[1] - p[0]) : p));
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
    } else if (m.op === "close") {
      postMessage({ op: "closed", bytes, busy });
    }
  } catch (error) {
    postMessage({ op: "error", message: String(error && error.message ? error.message : error) });
  }
};`;
