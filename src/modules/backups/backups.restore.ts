// `dealgraph restore`: an archive into an empty or missing data dir, never over anything. The
// archive is read through into a staging folder inside the target and checked exactly as `backup
// verify` checks it; only a whole archive is moved into place, otherwise the target is left as it
// was found (a folder it had to create is removed again).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { KEY_FILE } from "../../lib/server-key.ts";
import { BackupError, DB_ENTRY, type Manifest, type Progress } from "./backups.archive.ts";
import { readArchive } from "./backups.read.ts";

export type Restored = { data_dir: string; files: number; bytes: number; server_key: Manifest["server_key"]; created_at: string };

export async function restoreBackup(file: string, dataDir: string, progress?: Progress): Promise<Restored> {
  if (!existsSync(file)) throw new BackupError(`no such archive: ${file}`);
  const existed = existsSync(dataDir);
  if (existed) {
    if (!statSync(dataDir).isDirectory()) throw new BackupError(`${dataDir} is not a directory; nothing was changed`);
    const present = readdirSync(dataDir);
    if (present.length) {
      throw new BackupError(`${dataDir} is not empty (it holds ${present.slice(0, 3).join(", ")}${present.length > 3 ? ", ..." : ""}): restore writes only into an empty or missing directory; nothing was changed`);
    }
  } else mkdirSync(dataDir, { recursive: true });
  const staging = mkdtempSync(join(dataDir, ".restoring-"));
  try {
    progress?.(`restore: reading ${file} into ${dataDir}`);
    const check = await readArchive(file, { workDir: staging, extractTo: staging, progress });
    if (check.problems.length) throw new BackupError(`${file} cannot be restored: ${check.problems.join("; ")}; nothing was changed`);
    const manifest = check.manifest!;
    for (const name of [DB_ENTRY, "blobs", KEY_FILE]) {
      if (existsSync(join(staging, name))) renameSync(join(staging, name), join(dataDir, name));
    }
    if (existsSync(join(dataDir, KEY_FILE))) chmodSync(join(dataDir, KEY_FILE), 0o600);
    rmSync(staging, { recursive: true, force: true });
    const bytes = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
    return { data_dir: dataDir, files: manifest.files.length, bytes, server_key: manifest.server_key, created_at: manifest.created_at };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existed) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
