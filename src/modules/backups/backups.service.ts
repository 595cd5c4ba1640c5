// The data dir's backups: written into <data-dir>/backups/ (by `dealgraph backup`, the `backup`
// job, the admin page, and `serve` before an upgrade), listed with their verification, rotated to
// the newest DEALGRAPH_BACKUP_KEEP, and judged fresh or not against DEALGRAPH_BACKUP_CRON. A running
// server writes its backups in a child process (`dealgraph backup`): VACUUM INTO and the
// integrity check are long synchronous SQLite calls that would otherwise stall every request.
import { Cron } from "croner";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../../config.ts";
import { databasePath } from "../../db/open.ts";
import { perDeps, type Deps } from "../../deps.ts";
import { readArchive, writeBackup, type Progress, type WrittenBackup } from "./backups.archive.ts";

export const backupsDir = (dataDir: string) => join(dataDir, "backups");

const ARCHIVE = /^dealgraph-(\d{8}T\d{6}Z)(-[a-z0-9-]+)?\.tar\.gz$/;
const PARTIAL = /^\.dealgraph-.*\.tar\.gz\.partial-/;
const DAY_MS = 86_400_000;

/** `dealgraph-20261122T030000Z.tar.gz` (with `-suffix` before the extension when given). */
export function archiveName(now: Date, suffix?: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
  return `dealgraph-${stamp}${suffix ? `-${suffix}` : ""}.tar.gz`;
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

export type CreateOptions = { config: Pick<Config, "dataDir" | "secretKey" | "busyTimeoutMs">; now: Date; out?: string; suffix?: string; progress?: Progress };

/** Writes one backup (into <data-dir>/backups/ unless `out` says otherwise) in this process. */
export async function createBackup(opts: CreateOptions): Promise<WrittenBackup> {
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
  });
  if (inBackupsDir(config.dataDir, written.file)) {
    writeRecord(written.file, { created_at: written.manifest.created_at, bytes: written.bytes, sha256: written.sha256, verified_at: written.verified_at, problem: null });
  }
  return written;
}

/** Reads an archive through; for one of the data dir's own, records the outcome beside it. */
export async function verifyBackup(file: string, opts: { workDir: string; dataDir?: string; now: Date; progress?: Progress }) {
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

const running = new Map<string, Promise<WrittenBackup>>();

export const backupsService = perDeps((deps: Deps) => {
  const dir = backupsDir(deps.config.dataDir);
  let lastFailure: { at: string; error: string } | null = null;

  /** The data dir's archives, newest first. */
  function list(): BackupListing[] {
    if (!existsSync(dir)) return [];
    const names = readdirSync(dir).filter((n) => ARCHIVE.test(n));
    // Newest first: by timestamp, then a counter (`...Z` before `...Z-2` before `...Z-3`).
    const key = (n: string) => n.replace(/\.tar\.gz$/, "");
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

  /** Keeps the newest `keep` archives; drops partial files a crash left more than a day ago. */
  function rotate(keep = deps.config.backupKeep): string[] {
    const removed: string[] = [];
    for (const old of list().slice(keep)) {
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

  /**
   * Writes a backup in a child process (`dealgraph backup --json`) and waits for it. One at a time
   * per data dir: a second call while one runs gets the same result.
   */
  function start(): Promise<WrittenBackup> {
    const key = resolve(deps.config.dataDir);
    const inFlight = running.get(key);
    if (inFlight) return inFlight;
    const p = (async () => {
      const env: Record<string, string | undefined> = { ...process.env, DEALGRAPH_DATA_DIR: deps.config.dataDir, DEALGRAPH_BUSY_TIMEOUT_MS: String(deps.config.busyTimeoutMs) };
      if (deps.config.secretKey) env.DEALGRAPH_SECRET_KEY = deps.config.secretKey;
      else delete env.DEALGRAPH_SECRET_KEY;
      const child = Bun.spawn([...selfCommand(), "backup", "--json"], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      if (code !== 0) {
        const reason = stderr.trim().split("\n").filter((l) => l.startsWith("error:")).pop() ?? `exit code ${code}`;
        throw new Error(`the backup failed: ${reason.replace(/^error:\s*/, "")}`);
      }
      return JSON.parse(stdout) as WrittenBackup;
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
    /** True while this process waits for a backup of this data dir. */
    inProgress: () => running.has(resolve(deps.config.dataDir)),
    lastFailure: () => lastFailure,

    /** The `backup` job: one backup, then the rotation. */
    async runScheduled(): Promise<{ file: string; bytes: number; removed: string[] }> {
      const written = await start();
      return { file: written.file, bytes: written.bytes, removed: rotate() };
    },

    /** For /readyz: is the newest verified backup within two schedule periods? */
    freshness(): { status: "ok" | "warning"; detail: string } {
      const pattern = deps.config.backupCron;
      if (!pattern) return { status: "ok", detail: "scheduled backups are off (DEALGRAPH_BACKUP_CRON=off)" };
      const now = deps.clock.now();
      const period = schedulePeriodMs(pattern, now);
      const last = list().find((b) => b.verified_at !== null);
      if (!last) return { status: "warning", detail: `no verified backup in ${dir} yet (DEALGRAPH_BACKUP_CRON ${pattern})` };
      const age = now.getTime() - new Date(last.created_at).getTime();
      if (period !== null && age > 2 * period) {
        return { status: "warning", detail: `the last successful backup (${last.name}) is ${hours(age)} old, more than two periods of DEALGRAPH_BACKUP_CRON ${pattern} (every ${hours(period)})` };
      }
      return { status: "ok", detail: `last backup ${last.created_at} (${last.name})` };
    },
  };
});
