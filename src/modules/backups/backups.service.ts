// The data dir's backups: written into <data-dir>/backups/ (by `dealgraph backup`, the `backup`
// job, the server operator's page, and `serve` before an upgrade), listed with their verification,
// rotated to the newest DEALGRAPH_BACKUP_KEEP (a pre-upgrade archive is never rotated away: it is the
// way back from an upgrade), and judged fresh or not against DEALGRAPH_BACKUP_CRON. A running
// server writes its backups in a child process (`dealgraph backup`) and verifies each in another
// (`dealgraph backup verify`): VACUUM INTO and integrity_check are long synchronous SQLite calls that
// would otherwise stall every request.
// One backup of a data dir at a time, across processes: whoever writes one holds an exclusive
// SQLite lock on <data-dir>/backup.lock (beside serve.lock) (dropped by the OS when the process ends, however
// it ends), and a second backup is refused (BackupInProgress: the CLI exits 1, the web page 409).
import { Database } from "bun:sqlite";
import { Cron } from "croner";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../../config.ts";
import { databasePath } from "../../db/open.ts";
import { perDeps, type Deps } from "../../deps.ts";
import { ARCHIVE_EXTENSION, type Progress } from "./backups.archive.ts";
import { readArchive } from "./backups.read.ts";
import { writeBackup, type WrittenBackup } from "./backups.write.ts";

export const backupsDir = (dataDir: string) => join(dataDir, "backups");

const ARCHIVE = /^dealgraph-(\d{8}T\d{6}Z)(-[a-z0-9-]+)?\.tar\.(?:zst|gz)$/;
/** The archive `serve` writes before it migrates a data dir forward: kept whatever the rotation. */
export const PRE_UPGRADE_SUFFIX = "pre-upgrade";
const PRE_UPGRADE = /^dealgraph-\d{8}T\d{6}Z-pre-upgrade(-\d+)?\.tar\.(?:zst|gz)$/;
export const isPreUpgrade = (name: string) => PRE_UPGRADE.test(name);
const LOCK_NAME = "backup.lock";
const HOLDER_NAME = "backup.pid";

type BackupHolder = { pid: number; started_at: string };

/** A backup of this data dir is being written (by this process or another). */
export class BackupInProgress extends Error {
  constructor(readonly holder: BackupHolder | null) {
    super(
      `a backup of this data dir is already being written${holder ? ` (pid ${holder.pid}, started ${holder.started_at})` : ""}; wait for it to finish, then start another if you still need one`,
    );
  }
}

function readHolder(dir: string): BackupHolder | null {
  try {
    return JSON.parse(readFileSync(join(dir, HOLDER_NAME), "utf8")) as BackupHolder;
  } catch {
    return null;
  }
}

/** Takes the data dir's backup lock, or throws BackupInProgress. */
export function acquireBackupLock(dataDir: string, now: Date = new Date(), waitMs = 0): { release(): void } {
  const dir = dataDir;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = new Database(join(dir, LOCK_NAME), { create: true });
  try {
    lock.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") throw new BackupInProgress(readHolder(dir));
    throw error;
  }
  writeFileSync(join(dir, HOLDER_NAME), JSON.stringify({ pid: process.pid, started_at: now.toISOString() }) + "\n", { mode: 0o600 });
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      if (readHolder(dir)?.pid === process.pid) rmSync(join(dir, HOLDER_NAME), { force: true });
      lock.exec("ROLLBACK");
      lock.close();
    },
  };
}

/** Who writes a backup of this data dir right now (any process), or null when nobody does. */
export function backupHolder(dataDir: string): BackupHolder | null | "unknown" {
  const dir = dataDir;
  if (!existsSync(join(dir, LOCK_NAME))) return null;
  try {
    acquireBackupLock(dataDir).release();
    return null;
  } catch (error) {
    if (error instanceof BackupInProgress) return error.holder ?? "unknown";
    return null;
  }
}
const PARTIAL = /^\.dealgraph-.*\.tar\.(?:zst|gz)\.partial-/;
const DAY_MS = 86_400_000;

/** `dealgraph-20261122T030000Z.tar.gz` (with `-suffix` before the extension when given); the previous release wrote `.tar.zst`. */
export function archiveName(now: Date, suffix?: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
  return `dealgraph-${stamp}${suffix ? `-${suffix}` : ""}${ARCHIVE_EXTENSION}`;
}

/** What is known of one archive beside it (`<archive>.json`): written when it is made, updated by `backup verify`. */
export type BackupRecord = { created_at: string; bytes: number; sha256: string; verified_at: string | null; problem: string | null };

export type BackupListing = BackupRecord & { file: string; name: string };

const recordPath = (archive: string) => `${archive}.json`;

function readRecord(archive: string): BackupRecord | null {
  try {
    return JSON.parse(readFileSync(recordPath(archive), "utf8")) as BackupRecord;
  } catch {
    return null;
  }
}

export function writeRecord(archive: string, record: BackupRecord): void {
  writeFileSync(recordPath(archive), JSON.stringify(record, null, 2) + "\n");
}

/** Whether `file` is one of the data dir's own archives (then its record is kept beside it). */
export function inBackupsDir(dataDir: string, file: string): boolean {
  return resolve(dirname(file)) === resolve(backupsDir(dataDir)) && ARCHIVE.test(file.split("/").pop()!);
}

export type CreateOptions = {
  config: Pick<Config, "dataDir" | "secretKey" | "busyTimeoutMs">;
  now: Date;
  out?: string;
  suffix?: string;
  progress?: Progress;
  /** Called once the snapshot is taken (the write lock let go), before the archive is written. */
  afterSnapshot?: () => void;
};

/**
 * Writes one backup (into <data-dir>/backups/ unless `out` says otherwise) in this process, holding
 * the data dir's backup lock; throws BackupInProgress while another one is being written.
 */
export async function createBackup(opts: CreateOptions): Promise<WrittenBackup> {
  // A second or so of patience: someone may be only looking (backupHolder) while this one starts.
  const lock = acquireBackupLock(opts.config.dataDir, opts.now, 1500);
  try {
    return await createBackupLocked(opts);
  } finally {
    lock.release();
  }
}

async function createBackupLocked(opts: CreateOptions): Promise<WrittenBackup> {
  const { config } = opts;
  let out = opts.out;
  if (!out) {
    mkdirSync(backupsDir(config.dataDir), { recursive: true });
    out = join(backupsDir(config.dataDir), archiveName(opts.now, opts.suffix));
    // Two backups within one second: the second gets a counter.
    for (let n = 2; existsSync(out); n++) out = join(backupsDir(config.dataDir), archiveName(opts.now, [opts.suffix, String(n)].filter(Boolean).join("-")));
  }
  const written = await writeBackup({
    dbPath: databasePath(config.dataDir),
    dataDir: config.dataDir,
    keyFromEnv: Boolean(config.secretKey),
    out,
    now: opts.now,
    busyTimeoutMs: config.busyTimeoutMs,
    progress: opts.progress,
    afterSnapshot: opts.afterSnapshot,
  });
  if (inBackupsDir(config.dataDir, written.file)) {
    // Checksums taken on the way in; verified (integrity_check on the archived copy) only by `backup verify`.
    writeRecord(written.file, { created_at: written.manifest.created_at, bytes: written.bytes, sha256: written.sha256, verified_at: null, problem: null });
  }
  return written;
}

/** Reads an archive through; for one of the data dir's own, records the outcome beside it. */
export async function verifyBackup(file: string, opts: { workDir?: string; dataDir?: string; now: Date; progress?: Progress }) {
  const check = await readArchive(file, { workDir: opts.workDir, progress: opts.progress });
  if (opts.dataDir && inBackupsDir(opts.dataDir, file) && existsSync(file)) {
    const previous = readRecord(file);
    writeRecord(file, {
      created_at: previous?.created_at ?? check.manifest?.created_at ?? statSync(file).mtime.toISOString(),
      bytes: statSync(file).size,
      sha256: previous?.sha256 ?? "",
      verified_at: check.problems.length ? null : opts.now.toISOString(),
      problem: check.problems.length ? check.problems.join("; ") : null,
    });
  }
  return check;
}

/** The command that runs this program again: the executable itself when compiled, else bun and the entry script. */
function selfCommand(): string[] {
  const main = fileURLToPath(new URL("../../main.ts", import.meta.url));
  return !main.includes("$bunfs") && existsSync(main) ? [process.execPath, main] : [process.execPath];
}

/** A schedule's period: the time between its next two runs after `from`. */
function schedulePeriodMs(pattern: string, from: Date): number | null {
  const cron = new Cron(pattern, { paused: true, utcOffset: 0 });
  const first = cron.nextRun(from);
  const second = first ? cron.nextRun(first) : null;
  return first && second ? second.getTime() - first.getTime() : null;
}

const hours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10} h`;

/** What `dealgraph backup --json` prints (CONTRACT.md). */
export type Written = { file: string; bytes: number; sha256: string };

const running = new Map<string, Promise<Written>>();

export const backupsService = perDeps((deps: Deps) => {
  const dir = backupsDir(deps.config.dataDir);
  let lastFailure: { at: string; error: string } | null = null;

  /** The data dir's archives, newest first. */
  function list(): BackupListing[] {
    if (!existsSync(dir)) return [];
    const names = readdirSync(dir).filter((n) => ARCHIVE.test(n));
    // Newest first: by timestamp, then a counter (`...Z` before `...Z-2` before `...Z-3`).
    const key = (n: string) => n.replace(/\.tar\.(?:zst|gz)$/, "");
    names.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
    return names.map((name) => {
      const file = join(dir, name);
      const record = readRecord(file);
      const stamp = ARCHIVE.exec(name)![1].replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6.000Z");
      return {
        name,
        file,
        created_at: record?.created_at ?? stamp,
        bytes: statSync(file).size,
        sha256: record?.sha256 ?? "",
        verified_at: record?.verified_at ?? null,
        problem: record ? record.problem : "not verified: no record of a check beside it",
      };
    });
  }

  /**
   * Keeps the newest `keep` archives besides every pre-upgrade archive (never removed here: the way
   * back from an upgrade is the operator's to delete); drops partial files a crash left more than a
   * day ago.
   */
  function rotate(keep = deps.config.backupKeep): string[] {
    const removed: string[] = [];
    for (const old of list().filter((b) => !isPreUpgrade(b.name)).slice(keep)) {
      rmSync(old.file, { force: true });
      rmSync(recordPath(old.file), { force: true });
      removed.push(old.name);
    }
    if (existsSync(dir)) {
      const dayAgo = deps.clock.now().getTime() - DAY_MS;
      for (const name of readdirSync(dir).filter((n) => PARTIAL.test(n))) {
        if (statSync(join(dir, name)).mtimeMs < dayAgo) rmSync(join(dir, name), { force: true });
      }
    }
    return removed;
  }

  /** Runs this program again with `args` on this data dir: its stdout, or an error naming its last `error:` line. */
  async function child(args: string[], what: string): Promise<string> {
    const env: Record<string, string | undefined> = { ...process.env, DEALGRAPH_DATA_DIR: deps.config.dataDir, DEALGRAPH_BUSY_TIMEOUT_MS: String(deps.config.busyTimeoutMs) };
    if (deps.config.secretKey) env.DEALGRAPH_SECRET_KEY = deps.config.secretKey;
    else delete env.DEALGRAPH_SECRET_KEY;
    const proc = Bun.spawn([...selfCommand(), ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) {
      const reason = stderr.trim().split("\n").filter((l) => l.startsWith("error:")).pop() ?? `exit code ${code}`;
      throw new Error(`${what}: ${reason.replace(/^error:\s*/, "")}`);
    }
    return stdout;
  }

  /**
   * Writes a backup in a child process (`dealgraph backup --json`), then checks it through in another
   * (`dealgraph backup verify`: every checksum and the snapshot's integrity_check on the archived
   * copy, recorded beside the archive), and waits for both. One at a time
   * per data dir: a second call while one runs gets the same result (the scheduled job); `manual`
   * (the operator's button) is refused with BackupInProgress instead, as is any call while another
   * process (a `dealgraph backup` from the shell) writes one.
   */
  function start(opts: { manual?: boolean } = {}): Promise<Written> {
    const key = resolve(deps.config.dataDir);
    const inFlight = running.get(key);
    if (inFlight && opts.manual) return Promise.reject(new BackupInProgress(readHolder(deps.config.dataDir)));
    if (inFlight) return inFlight;
    const other = backupHolder(deps.config.dataDir);
    if (other) return Promise.reject(new BackupInProgress(other === "unknown" ? null : other));
    const p = (async () => {
      const written = JSON.parse(await child(["backup", "--json"], "the backup failed")) as Written;
      await child(["backup", "verify", written.file, "--json"], `the backup ${written.file} was written but does not verify`);
      return written;
    })();
    running.set(key, p);
    return p
      .then(
        (result) => {
          lastFailure = null;
          return result;
        },
        (error: Error) => {
          lastFailure = { at: deps.clock.now().toISOString(), error: error.message };
          throw error;
        },
      )
      .finally(() => running.delete(key));
  }

  return {
    list,
    rotate,
    start,
    /** True while a backup of this data dir is being written (by this process or another). */
    inProgress: () => running.has(resolve(deps.config.dataDir)) || backupHolder(deps.config.dataDir) !== null,
    lastFailure: () => lastFailure,

    /** The `backup` job: one backup, then the rotation. */
    async runScheduled(): Promise<{ file: string; bytes: number; removed: string[] }> {
      const written = await start();
      return { file: written.file, bytes: written.bytes, removed: rotate() };
    },

    /**
     * For /readyz: is the newest backup not known to be damaged within two schedule periods? `detailed: false`
     * (an anonymous probe) names no file and no path.
     */
    freshness(detailed = true): { status: "ok" | "warning"; detail: string } {
      const pattern = deps.config.backupCron;
      if (!pattern) return { status: "ok", detail: "scheduled backups are off (DEALGRAPH_BACKUP_CRON=off)" };
      const now = deps.clock.now();
      const period = schedulePeriodMs(pattern, now);
      // A backup written whole counts (its snapshot consistent, its checksums taken on the way in);
      // one that failed `backup verify` does not (its problem is recorded). The job verifies each.
      const last = list().find((b) => b.problem === null);
      if (!last) return { status: "warning", detail: detailed ? `no verified backup in ${dir} yet (DEALGRAPH_BACKUP_CRON ${pattern})` : `no verified backup yet (DEALGRAPH_BACKUP_CRON ${pattern})` };
      const age = now.getTime() - new Date(last.created_at).getTime();
      const which = detailed ? ` (${last.name})` : "";
      if (period !== null && age > 2 * period) {
        return { status: "warning", detail: `the last successful backup${which} is ${hours(age)} old, more than two periods of DEALGRAPH_BACKUP_CRON ${pattern} (every ${hours(period)})` };
      }
      return { status: "ok", detail: `last backup ${last.created_at}${which}${last.verified_at ? "" : ", not verified yet"}` };
    },
  };
});
