// Housekeeping for document conversions after a crash. A server killed mid-conversion leaves its
// work dir under `<data-dir>/tmp/convert/` and, since soffice runs in its own session (setsid),
// an soffice that keeps running with nobody to stop it. This finds both for one data dir and
// ends them. A conversion still in progress is never touched: its owner (this process or another
// live server on the same data dir) is alive and its time limit has not passed.
// Upload temp files the crash cut off (`<data-dir>/tmp/upload-*`) are removed too, once idle.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONVERSION_MARKER, conversionRoot, isActiveConversion, killGroup, processStartTime, type ConversionMarker } from "./convert.ts";

/** A conversion whose owner is alive is abandoned anyway once this long past its own time limit. */
const GRACE_MS = 5 * 60_000;
/** A work dir without a readable marker (a crash right after mkdir) is abandoned after this. */
const UNMARKED_MS = 10 * 60_000;
/** An upload temp file not written to for this long belongs to no request any more. */
const UPLOAD_IDLE_MS = 60 * 60_000;

export type CleanupResult = { conversions_removed: number; processes_killed: number; uploads_removed: number };

type Proc = { pid: number; pgid: number; sid: number; cmdline: string };

/** Every process this user can see (Linux /proc; none elsewhere, and then nothing is killed). */
function allProcesses(): Proc[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const found: Proc[] = [];
  for (const p of pids) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${p}/cmdline`, "utf8").replace(/\0/g, " ");
      found.push({ pid: Number(p), pgid: Number(fields[2]), sid: Number(fields[3]), cmdline });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function readMarker(dir: string): ConversionMarker | null {
  try {
    return JSON.parse(readFileSync(join(dir, CONVERSION_MARKER), "utf8")) as ConversionMarker;
  } catch {
    return null;
  }
}

/** The marker's owner is still the process that wrote it (same pid, same start time). */
function ownerAlive(m: ConversionMarker): boolean {
  try {
    process.kill(m.owner_pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = processStartTime(m.owner_pid);
  return m.owner_start === null || start === null || start === m.owner_start;
}

function abandoned(dir: string, now: number): boolean {
  if (isActiveConversion(dir)) return false;
  const marker = readMarker(dir);
  if (!marker) {
    const age = existsSync(dir) ? now - statSync(dir).mtimeMs : Infinity;
    return age > UNMARKED_MS;
  }
  if (!ownerAlive(marker)) return true;
  return now - Date.parse(marker.started_at) > marker.timeout_ms + GRACE_MS;
}

export function cleanUpConversions(dataDir: string, now = Date.now()): CleanupResult {
  const root = conversionRoot(dataDir);
  const result: CleanupResult = { conversions_removed: 0, processes_killed: 0, uploads_removed: 0 };
  const everyone = allProcesses();
  const procs = everyone.filter((p) => p.cmdline.includes(`${root}/`));
  const dirs = new Set<string>(existsSync(root) ? readdirSync(root).map((d) => join(root, d)) : []);
  // A process may outlive its dir (removed by hand, or by a crash in the middle of a clean-up).
  const named = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/([^/\\s]+)`, "g");
  for (const p of procs) for (const m of p.cmdline.matchAll(named)) dirs.add(join(root, m[1]));
  const killed = new Set<number>();
  for (const dir of dirs) {
    if (!abandoned(dir, now)) continue;
    const inDir = procs.filter((p) => p.pid !== process.pid && (p.cmdline.includes(`${dir}/`) || p.cmdline.includes(`${dir} `)));
    // soffice was started with setsid: it leads its own session and group, and the whole group
    // (its helpers too) goes. Any other process naming the dir is killed alone, never its group.
    const groups = new Set(inDir.filter((p) => p.pgid === p.pid && p.sid === p.pid).map((p) => p.pgid));
    for (const pgid of groups) {
      const members = everyone.filter((q) => q.pgid === pgid && !killed.has(q.pid));
      if (killGroup(pgid)) result.processes_killed += members.length;
      members.forEach((q) => killed.add(q.pid));
    }
    for (const p of inDir) {
      if (!groups.has(p.pgid) && !killed.has(p.pid) && killOne(p.pid)) result.processes_killed++;
      killed.add(p.pid);
    }
    if (existsSync(dir)) {
      rmSync(dir, { recursive: true, force: true });
      result.conversions_removed++;
    }
  }
  result.uploads_removed = removeIdleUploads(join(dataDir, "tmp"), now);
  return result;
}

function killOne(pid: number): boolean {
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

function removeIdleUploads(tmp: string, now: number): number {
  if (!existsSync(tmp)) return 0;
  let removed = 0;
  for (const name of readdirSync(tmp)) {
    if (!name.startsWith("upload-")) continue;
    const path = join(tmp, name);
    try {
      if (now - statSync(path).mtimeMs > UPLOAD_IDLE_MS) {
        rmSync(path, { force: true });
        removed++;
      }
    } catch {
      // removed meanwhile
    }
  }
  return removed;
}
