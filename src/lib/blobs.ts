// Content-addressed files under <data-dir>/blobs/: the same bytes are stored once, whoever sends them.
import { mkdirSync, renameSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";

export function blobPath(dataDir: string, sha256: string): string {
  return join(dataDir, "blobs", sha256.slice(0, 2), sha256);
}

/** Moves a finished temp file into the store under its hash (or drops it when already stored). */
export function adoptBlob(dataDir: string, tempPath: string, sha256: string): string {
  const path = blobPath(dataDir, sha256);
  if (existsSync(path)) rmSync(tempPath, { force: true });
  else {
    mkdirSync(join(dataDir, "blobs", sha256.slice(0, 2)), { recursive: true });
    renameSync(tempPath, path);
  }
  return path;
}

export function tempDir(dataDir: string): string {
  const dir = join(dataDir, "tmp");
  mkdirSync(dir, { recursive: true });
  return dir;
}
