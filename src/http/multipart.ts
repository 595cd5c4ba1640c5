// Streaming multipart uploads: each file goes straight to a temp file (hashed on the way), so a
// 50 MB upload never sits in memory whole, and an oversized one is refused (413) as soon as it
// passes the cap. `formData()` would buffer the entire body first.
//
// Every way a body can go wrong (over the cap, malformed, cut off by the client) ends in an
// ApiError with its temp files removed. Busboy reports an unfinished form as an `error` event on
// itself and on the open file stream; both always have a listener here, because an unheard
// `error` is thrown by the event emitter and takes the whole process down.
import type Busboy from "busboy";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { ApiError, invalid } from "./errors.ts";

export type UploadedFile = { field: string; filename: string; path: string; size: number; sha256: string };
export type Multipart = { fields: Record<string, string>; files: UploadedFile[] };

export const MB = 1024 * 1024;

export type MultipartLimits = { dir: string; maxFileBytes: number; maxFiles: number; /** Keep "Legal/SHA.pdf" whole (the caller cleans it); else the base name. */ preservePath?: boolean };

/** How much of a refused body is still read (and discarded) so the client can read the answer. */
const DRAIN_MAX_BYTES = 64 * MB;

const malformed = (why: string) => invalid(["body"], `Malformed multipart body: ${why}`, "value_error");

export async function readMultipart(request: Request, limits: MultipartLimits): Promise<Multipart> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw invalid(["body"], "The body must be multipart/form-data", "model_attributes_type");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > limits.maxFiles * limits.maxFileBytes + MB) {
    throw new ApiError(413, `The upload is ${Math.ceil(declared / MB)} MB; the limit is ${limits.maxFileBytes / MB} MB per file.`);
  }
  if (!request.body) throw invalid(["body"], "The body is empty", "missing");

  // busboy loads with the first upload, not at start-up.
  const { default: busboy } = await import("busboy");
  let bb: Busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": contentType },
      preservePath: limits.preservePath ?? false,
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 50, fieldSize: 64 * 1024, parts: limits.maxFiles + 50 },
    });
  } catch {
    throw invalid(["body"], "Malformed multipart body (no boundary)", "value_error");
  }

  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const written: Promise<void>[] = [];
  let failure: ApiError | null = null;
  const fail = (error: ApiError) => {
    failure ??= error;
  };

  // Settles once busboy has parsed the whole form, or has given up on it.
  const parsed = new Promise<void>((resolve) => {
    bb.on("close", resolve);
    bb.on("error", (error: Error) => {
      fail(malformed(error.message));
      resolve();
    });
  });
  bb.on("field", (name, value) => {
    fields[name] = value;
  });
  bb.on("filesLimit", () => fail(invalid(["body", "files"], `At most ${limits.maxFiles} files per request`, "too_long")));
  bb.on("file", (field, stream, info) => written.push(receiveFile(field, stream, info.filename ?? "")));

  /** One file to disk; settles (never rejects) when its stream ends, fails or is cut off. */
  function receiveFile(field: string, stream: Readable, filename: string): Promise<void> {
    const file: UploadedFile = { field, filename: filename || "upload", path: join(limits.dir, `upload-${crypto.randomUUID()}`), size: 0, sha256: "" };
    files.push(file); // listed first, so the clean-up finds it whatever happens next
    const sink = Bun.file(file.path).writer({ highWaterMark: MB });
    const hash = new Bun.CryptoHasher("sha256");
    let ended = false;
    let settled = false;
    return new Promise<void>((resolve) => {
      const settle = async () => {
        if (settled) return;
        settled = true;
        stream.removeAllListeners("data");
        try {
          await sink.end();
        } catch {
          // the file is removed below; a failed flush only matters when the form is accepted
          fail(new ApiError(503, `${file.filename} could not be written to disk; retry later.`, { "Retry-After": "60" }));
        }
        if (ended) file.sha256 = hash.digest("hex");
        resolve();
      };
      stream.on("data", (chunk: Buffer) => {
        if (failure) return;
        file.size += chunk.length;
        hash.update(chunk);
        sink.write(chunk);
      });
      stream.on("limit", () => fail(new ApiError(413, `${file.filename} is larger than ${limits.maxFileBytes / MB} MB.`)));
      stream.on("error", (error: Error) => {
        fail(malformed(`${file.filename}: ${error.message}`));
        void settle();
      });
      stream.on("end", () => {
        ended = true;
        void settle();
      });
      stream.on("close", () => void settle());
    });
  }

  /** Waits for busboy to take more, or to be done with the form (then its drain never comes). */
  async function drainedOrParsed(): Promise<void> {
    let onDrain = () => {};
    const drained = new Promise<void>((resolve) => (onDrain = resolve));
    bb.once("drain", onDrain);
    try {
      await Promise.race([drained, parsed]);
    } finally {
      bb.off("drain", onDrain);
    }
  }

  const reader = request.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || failure) break;
      if (!bb.write(value)) await drainedOrParsed();
    }
    if (failure) bb.destroy();
    else bb.end();
  } catch (error) {
    // The client went away mid-body (or the body stream broke): nothing usable arrived.
    fail(malformed(`the body ended early (${(error as Error).message || "connection closed"})`));
    bb.destroy();
  }
  await parsed;
  await Promise.all(written);
  if (failure) {
    discard(files);
    // The rest of a refused body is read and thrown away (up to a bound), so the client, still
    // sending, can read the refusal instead of a reset connection. Nothing of it is kept.
    await drain(reader, DRAIN_MAX_BYTES);
    throw failure;
  }
  return { fields, files };
}

async function drain(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> }, maxBytes: number): Promise<void> {
  let read = 0;
  try {
    while (read < maxBytes) {
      const { value, done } = await reader.read();
      if (done) return;
      read += value?.byteLength ?? 0;
    }
    await reader.cancel();
  } catch {
    // the client is gone: nobody to answer
  }
}

export function discard(files: UploadedFile[]): void {
  for (const f of files) rmSync(f.path, { force: true });
}
