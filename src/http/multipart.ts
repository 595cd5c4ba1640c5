// Streaming multipart uploads: each file goes straight to a temp file (hashed on the way), so a
// 50 MB upload never sits in memory whole, and an oversized one is refused (413) as soon as it
// passes the cap. `formData()` would buffer the entire body first.
import Busboy from "busboy";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ApiError, invalid } from "./errors.ts";

export type UploadedFile = { field: string; filename: string; path: string; size: number; sha256: string };
export type Multipart = { fields: Record<string, string>; files: UploadedFile[] };

export const MB = 1024 * 1024;

export type MultipartLimits = { dir: string; maxFileBytes: number; maxFiles: number; /** Keep "Legal/SHA.pdf" whole (the caller cleans it); else the base name. */ preservePath?: boolean };

export async function readMultipart(request: Request, limits: MultipartLimits): Promise<Multipart> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw invalid(["body"], "The body must be multipart/form-data", "model_attributes_type");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limits.maxFiles * limits.maxFileBytes + MB) {
    throw new ApiError(413, `The upload is ${Math.ceil(declared / MB)} MB; the limit is ${limits.maxFileBytes / MB} MB per file.`);
  }
  if (!request.body) throw invalid(["body"], "The body is empty", "missing");

  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const pending: Promise<void>[] = [];
  let failure: ApiError | null = null;

  let bb: Busboy.Busboy;
  try {
    bb = Busboy({
      headers: { "content-type": contentType },
      preservePath: limits.preservePath ?? false,
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 50, fieldSize: 64 * 1024, parts: limits.maxFiles + 50 },
    });
  } catch {
    throw invalid(["body"], "Malformed multipart body (no boundary)", "value_error");
  }

  bb.on("field", (name, value) => {
    fields[name] = value;
  });
  bb.on("file", (field, stream, info) => {
    const path = join(limits.dir, `upload-${crypto.randomUUID()}`);
    const sink = Bun.file(path).writer();
    const hash = new Bun.CryptoHasher("sha256");
    let size = 0;
    const file: UploadedFile = { field, filename: info.filename || "upload", path, size: 0, sha256: "" };
    files.push(file);
    pending.push(
      new Promise<void>((resolve) => {
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
          sink.write(chunk);
        });
        stream.on("limit", () => {
          failure ??= new ApiError(413, `${file.filename} is larger than ${limits.maxFileBytes / MB} MB.`);
        });
        stream.on("end", async () => {
          await sink.end();
          file.size = size;
          file.sha256 = hash.digest("hex");
          resolve();
        });
      }),
    );
  });
  bb.on("filesLimit", () => {
    failure ??= invalid(["body", "files"], `At most ${limits.maxFiles} files per request`, "too_long");
  });

  const finished = new Promise<void>((resolve, reject) => {
    bb.on("close", resolve);
    bb.on("error", reject);
  });
  try {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      if (failure) break;
      if (!bb.write(chunk)) await new Promise((r) => bb.once("drain", r));
    }
    bb.end();
    if (!failure) await finished;
    await Promise.all(pending);
  } catch (error) {
    failure ??= invalid(["body"], `Malformed multipart body: ${(error as Error).message}`, "value_error");
  }
  if (failure) {
    for (const f of files) rmSync(f.path, { force: true });
    throw failure;
  }
  return { fields, files };
}

export function discard(files: UploadedFile[]): void {
  for (const f of files) rmSync(f.path, { force: true });
}
