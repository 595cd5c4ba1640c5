// `dealgraph backup`, `backup verify` and `restore` (CONTRACT.md, "Backups and upgrades"). A backup
// opens the database beside a running server without migrating it; progress goes to stderr.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { BackupError } from "../modules/backups/backups.archive.ts";
import { restoreBackup } from "../modules/backups/backups.restore.ts";
import { createBackup, verifyBackup } from "../modules/backups/backups.service.ts";
import { hardenDataDir } from "../db/open.ts";
import { acquireServeLock, liveServer, LOCK_FILE, HOLDER_FILE, type ServeLock } from "../db/serve-lock.ts";
import { parse, report, UsageError, type Io } from "./io.ts";


const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A backup beside a running server is background work: `dealgraph backup` then runs at a lower CPU
 * priority (10 nicer than it was started with, every thread of this process, and the threads it
 * starts inherit it), so the server's requests keep their latency (the `backup` job's backups are
 * such children of `serve`). With no server on the data dir there is no request to yield to, and
 * the backup keeps the priority it was started with: niced, on a machine other work keeps busy, it
 * was left a tenth of a core's share and took several times a plain copy's time. Only when the
 * process is that command (not when the command runs inside another program, as in tests).
 */
export function yieldsToServer(dataDir: string): boolean {
  return liveServer(dataDir) !== null;
}

/** The priority it now runs at, or null when it was left as it was. */
function lowerPriority(): number | null {
  if (!process.argv.includes("backup")) return null;
  try {
    for (const tid of readdirSync("/proc/self/task")) setPriority(Number(tid), Math.min(19, getPriority(Number(tid)) + 10));
  } catch {
    try {
      setPriority(0, Math.min(19, getPriority(0) + 10));
    } catch {
      return null;
    }
  }
  return getPriority(0);
}

export async function backupCommand(args: string[], io: Io) {
  if (args[0] === "verify") return verify(args.slice(1), io);
  const { values, positionals } = parse(args, { out: { type: "string" } });
  if (positionals.length) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}; usage: dealgraph backup [--out FILE] [--json] | dealgraph backup verify FILE`);
  const config = loadConfig(io.env, values["data-dir"] ? { dataDir: values["data-dir"] as string } : {});
  // Lowered only once the snapshot is taken: taking it holds the write lock for a moment, and a
  // niced process holding it on a busy machine could wait for a core past the server's writers'
  // busy timeout (their requests would fail with 503).
  const yields = yieldsToServer(config.dataDir);
  const afterSnapshot = () => {
    const nice = yields ? lowerPriority() : null;
    if (nice !== null) io.err(`a server is running on this data dir: the backup runs at nice ${nice}, so its requests keep their latency`);
  };
  const written = await createBackup({ config, now: new Date(), out: values.out ? resolve(values.out as string) : undefined, progress: (line) => io.err(line), afterSnapshot });
  if (written.manifest.server_key === "env") io.err("note: the server key is DEALGRAPH_SECRET_KEY and is not in the archive: keep it with the backup, a restore needs it");
  report(
    io,
    values.json as boolean | undefined,
    { file: written.file, bytes: written.bytes, sha256: written.sha256 },
    `${written.file} (${mb(written.bytes)}, sha256 ${written.sha256}); check it through with: dealgraph backup verify ${written.file}`,
  );
}

async function verify(args: string[], io: Io) {
  const { values, positionals } = parse(args, {});
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("usage: dealgraph backup verify FILE [--json]");
  if (!existsSync(file)) throw new BackupError(`no such archive: ${file}`);
  const config = loadConfig(io.env, values["data-dir"] ? { dataDir: values["data-dir"] as string } : {});
  const dataDirExists = existsSync(config.dataDir);
  // The snapshot is unpacked into a temp folder outside the data dir (os.tmpdir(), or TMPDIR).
  const check = await verifyBackup(resolve(file), {
    dataDir: dataDirExists ? config.dataDir : undefined,
    now: new Date(),
    progress: (line) => io.err(line),
  });
  const ok = check.problems.length === 0;
  const files = check.manifest?.files.length ?? null;
  report(
    io,
    values.json as boolean | undefined,
    { file, ok, problems: check.problems, created_at: check.manifest?.created_at ?? null, files },
    ok ? `${file}: ok (${files} files, taken ${check.manifest!.created_at})` : `${file}: damaged`,
  );
  if (!ok) throw new BackupError(`${file}: ${check.problems.join("; ")}`);
}

export async function restoreCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, {});
  const file = positionals[0];
  if (!file || positionals.length > 1 || !values["data-dir"]) throw new UsageError("usage: dealgraph restore FILE --data-dir DIR [--json]");
  const dataDir = resolve(values["data-dir"] as string);
  // A data dir a server holds is refused with who holds it (it is not empty either).
  if (existsSync(join(dataDir, LOCK_FILE))) acquireServeLock(dataDir, "restore-probe").release();
  const restoring = restoreBackup(resolve(file), dataDir, (line) => io.err(line));
  // restoreBackup has checked that the dir is empty (or made it) before its first await: from here
  // to the end the restore holds the serve lock, so a `serve` started on the dir meanwhile is
  // refused instead of opening a half-restored database.
  let lock: ServeLock | null = null;
  const hadLockFile = existsSync(join(dataDir, LOCK_FILE));
  try {
    if (existsSync(dataDir)) lock = acquireServeLock(dataDir, "restore");
  } catch (error) {
    await restoring.catch(() => {});
    throw error;
  }
  let restored: Awaited<typeof restoring>;
  try {
    restored = await restoring;
  } catch (error) {
    lock?.release();
    // A failed restore leaves the dir as it was found: no lock files of ours.
    if (!hadLockFile && existsSync(dataDir)) for (const name of [LOCK_FILE, HOLDER_FILE]) rmSync(join(dataDir, name), { force: true });
    throw error;
  }
  lock?.release();
  hardenDataDir(dataDir);
  if (restored.server_key === "env") io.err("note: the backed-up server kept its key in DEALGRAPH_SECRET_KEY: set the same value to serve this data dir");
  report(
    io,
    values.json as boolean | undefined,
    restored,
    `restored ${restored.files} files (${mb(restored.bytes)}) taken ${restored.created_at} into ${restored.data_dir}`,
  );
}
