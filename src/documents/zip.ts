// The one check every ZIP container passes before anything opens it (DOCX, PPTX, XLSX: the XML
// readers, LibreOffice, the upload door, the data room, document links). A ZIP can lie: its
// directory can understate what a part expands to, point many entries at one compressed stream,
// or name parts its local headers do not. So the directory is read strictly (every entry's local
// header must agree with it, no two entries may share bytes, no name twice, only stored or
// deflated parts), and then every part is really inflated, with a hard stop at the size the
// directory declares for it: a part that expands one byte further is refused there, without the
// time or memory the rest would take. With each part exactly its declared size, the declared
// total (capped, and capped as a ratio of the file's size) bounds what anything can expand.
//
// The directory is parsed here rather than by fflate: its readers trust the declared sizes and
// hide the offsets this check compares (and its pure-JS inflate is ten times slower than zlib's).
import { inflateRawSync } from "node:zlib";

export class ZipError extends Error {}

export const ZIP_LIMITS = { maxEntries: 5_000, maxExpandedBytes: 300 * 1024 * 1024, maxRatio: 200 };
export type ZipLimits = typeof ZIP_LIMITS;

export type ZipEntry = {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** What the directory declares the part expands to (checked against what it really does). */
  size: number;
  localOffset: number;
  dataOffset: number;
};

const SIG = { eocd: 0x06054b50, zip64Locator: 0x07064b50, zip64Eocd: 0x06064b50, central: 0x02014b50, local: 0x04034b50 };

const corrupt = (why: string) => new ZipError(`The file is not a readable ZIP container (${why})`);
const bomb = (why: string) => new ZipError(`${why}; refused as a possible zip bomb`);

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 100) / 100} MB`;

/** The end-of-central-directory record: where the directory is and how many entries it has. */
function endRecord(view: DataView, length: number): { count: number; cdOffset: number; cdSize: number; end: number } {
  const last = length - 22;
  for (let at = last; at >= Math.max(0, last - 0xffff); at--) {
    if (view.getUint32(at, true) !== SIG.eocd) continue;
    if (view.getUint16(at + 4, true) !== 0 || view.getUint16(at + 6, true) !== 0) throw corrupt("it spans several disks");
    let count = view.getUint16(at + 10, true);
    let cdSize = view.getUint32(at + 12, true);
    let cdOffset = view.getUint32(at + 16, true);
    let end = at;
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      // ZIP64: the locator just before the record says where the 64-bit record is.
      const locator = at - 20;
      if (locator < 0 || view.getUint32(locator, true) !== SIG.zip64Locator) throw corrupt("a ZIP64 archive without its locator");
      const record = Number(view.getBigUint64(locator + 8, true));
      if (record + 56 > locator || view.getUint32(record, true) !== SIG.zip64Eocd) throw corrupt("a ZIP64 archive without its end record");
      count = Number(view.getBigUint64(record + 32, true));
      cdSize = Number(view.getBigUint64(record + 40, true));
      cdOffset = Number(view.getBigUint64(record + 48, true));
      end = record;
    }
    if (cdOffset + cdSize > end) throw corrupt("its directory lies outside the file");
    return { count, cdOffset, cdSize, end };
  }
  throw corrupt("no end-of-directory record: not a ZIP, or cut off");
}

/** The 64-bit values of a ZIP64 extra field, for the 32-bit fields that say 0xFFFFFFFF. */
function zip64Values(view: DataView, extraStart: number, extraLength: number, wanted: number): number[] {
  for (let at = extraStart; at + 4 <= extraStart + extraLength; ) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      if (size < wanted * 8) throw corrupt("a ZIP64 field too short for its sizes");
      return Array.from({ length: wanted }, (_, i) => Number(view.getBigUint64(at + 4 + i * 8, true)));
    }
    at += 4 + size;
  }
  throw corrupt("ZIP64 sizes without a ZIP64 field");
}

/**
 * The directory, read strictly, and held to the limits: entry count, each entry's local header
 * agreeing with it, no overlapping or repeated parts, the declared total and ratio. Expands nothing.
 */
export function zipDirectory(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  if (bytes.byteLength < 22) throw corrupt("too short");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { count, cdOffset, end } = endRecord(view, bytes.byteLength);
  if (count > limits.maxEntries) throw bomb(`The file is a ZIP of ${count} parts, more than ${limits.maxEntries}`);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let declared = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== SIG.central) throw corrupt(`directory entry ${i + 1} is damaged`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength + extraLength + commentLength > end) throw corrupt(`directory entry ${i + 1} runs past the directory`);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = decoder.decode(nameBytes);
    const wide = [size, compressedSize, localOffset].filter((v) => v === 0xffffffff).length;
    if (wide) {
      const values = zip64Values(view, at + 46 + nameLength, extraLength, wide);
      if (size === 0xffffffff) size = values.shift()!;
      if (compressedSize === 0xffffffff) compressedSize = values.shift()!;
      if (localOffset === 0xffffffff) localOffset = values.shift()!;
    }
    at += 46 + nameLength + extraLength + commentLength;

    if (flags & 1) throw new ZipError(`The file's part ${name} is encrypted; password-protected files cannot be read`);
    if (method !== 0 && method !== 8) throw corrupt(`part ${name} uses compression method ${method}; only stored and deflated parts are read`);
    if (method === 0 && size !== compressedSize) throw bomb(`The file's stored part ${name} declares ${size} bytes but holds ${compressedSize}`);
    if (names.has(name)) throw corrupt(`the part ${name} is listed twice`);
    names.add(name);
    // The local header must be where the directory says, and name the same part.
    if (localOffset + 30 > cdOffset || view.getUint32(localOffset, true) !== SIG.local) throw corrupt(`the directory points part ${name} at no part`);
    const localNameLength = view.getUint16(localOffset + 26, true);
    const localExtraLength = view.getUint16(localOffset + 28, true);
    const localName = bytes.subarray(localOffset + 30, localOffset + 30 + localNameLength);
    if (localNameLength !== nameLength || !localName.every((b, k) => b === nameBytes[k])) throw corrupt(`the directory and the part at its offset disagree on its name (${name})`);
    const dataOffset = localOffset + 30 + localNameLength + localExtraLength;
    if (dataOffset + compressedSize > cdOffset) throw corrupt(`part ${name} runs past the end of the parts`);
    entries.push({ name, method, compressedSize, size, localOffset, dataOffset });

    declared += size;
    const cap = Math.min(limits.maxExpandedBytes, Math.max(bytes.byteLength, 64 * 1024) * limits.maxRatio);
    if (declared > cap) {
      throw bomb(`The file expands to more than ${cap === limits.maxExpandedBytes ? mb(limits.maxExpandedBytes) : `${limits.maxRatio} times its size`}`);
    }
  }
  // No two parts may share bytes: many directory entries over one compressed stream is the
  // classic way to make a small file expand many times over.
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (let k = 1; k < byOffset.length; k++) {
    const before = byOffset[k - 1];
    if (before.dataOffset + before.compressedSize > byOffset[k].localOffset) throw bomb(`The file's parts ${before.name} and ${byOffset[k].name} overlap`);
  }
  return entries;
}

/** A part inflated, stopping the moment it grows past what the directory declares for it. */
function inflatePart(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 0) return data;
  let out: Uint8Array;
  try {
    out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw bomb(`The file's part ${entry.name} expands beyond the ${entry.size} bytes its directory declares`);
    }
    throw corrupt(`part ${entry.name} does not inflate: ${(error as Error).message}`);
  }
  if (out.byteLength !== entry.size) throw corrupt(`part ${entry.name} expands to ${out.byteLength} bytes, not the ${entry.size} its directory declares`);
  return out;
}

/**
 * The whole check: the directory (zipDirectory), then every part inflated and measured (each
 * thrown away unless `wanted` keeps it). Returns the wanted parts by name.
 */
export function readZip(bytes: Uint8Array, wanted: (name: string) => boolean = () => false, limits: ZipLimits = ZIP_LIMITS): Map<string, Uint8Array> {
  const parts = new Map<string, Uint8Array>();
  for (const entry of zipDirectory(bytes, limits)) {
    const data = inflatePart(bytes, entry);
    if (wanted(entry.name)) parts.set(entry.name, data);
  }
  return parts;
}

/** The whole check, keeping nothing: what a ZIP must pass before LibreOffice may open it. */
export function checkZip(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  const entries = zipDirectory(bytes, limits);
  for (const entry of entries) inflatePart(bytes, entry);
  return entries;
}

/** The part names of a readable directory, or null (for telling DOCX, PPTX and XLSX apart). */
export function zipPartNames(bytes: Uint8Array): string[] | null {
  try {
    return zipDirectory(bytes, { maxEntries: ZIP_LIMITS.maxEntries, maxExpandedBytes: Infinity, maxRatio: Infinity }).map((e) => e.name);
  } catch {
    return null;
  }
}
