// CPU time a process and everything it started has used, from /proc: what the limits on children
// count (child-watcher.ts, OCR in the document child), so a child that waited for a core on a busy
// machine (it runs at the lowest priority) is never stopped for time it did not work.
import * as fs from "node:fs";

/**
 * Milliseconds of CPU time used by `pid` and its descendants: each live process's own time (utime,
 * stime) plus what the children it has reaped used (cutime, cstime), walking
 * /proc/<pid>/task/<tid>/children. Null when `pid` is gone or there is no /proc. A process that
 * left the tree (re-parented by a double fork) is no longer counted; the wall-clock ceiling the
 * callers keep covers it.
 *
 * Self-contained (its module is a parameter): child-watcher.ts sends its source text to a worker.
 */
export function treeCpuMs(fsm: typeof fs, pid: number | "self"): number | null {
  // USER_HZ: 100 on every Linux ABI (the kernel converts to it for /proc, whatever its own HZ).
  const TICK_MS = 10;
  const own = (p: number | "self"): number | null => {
    try {
      const stat = fsm.readFileSync(`/proc/${p}/stat`, "utf8");
      // After the command name (in parentheses, which may hold anything): field 3 on.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
    } catch {
      return null;
    }
  };
  const children = (p: number | "self"): number[] => {
    const found: number[] = [];
    try {
      for (const tid of fsm.readdirSync(`/proc/${p}/task`)) {
        try {
          for (const c of fsm.readFileSync(`/proc/${p}/task/${tid}/children`, "utf8").split(" ")) if (c.trim()) found.push(Number(c));
        } catch {
          // the thread ended meanwhile
        }
      }
    } catch {
      // the process ended meanwhile
    }
    return found;
  };
  const root = own(pid);
  if (root === null) return null;
  let total = root;
  const stack = children(pid);
  const seen = new Set<number>();
  // A bound on the walk: a fork bomb is stopped by the limits, not counted to its last process.
  while (stack.length && seen.size < 256) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    total += own(p) ?? 0;
    stack.push(...children(p));
  }
  return total;
}

/** CPU time used by this process and what it started (Tesseract runs), in ms; null without /proc. */
export const ownCpuMs = (): number | null => treeCpuMs(fs, "self");

/**
 * How much longer than its CPU budget a child may take on the clock: it runs at the lowest
 * priority, so on a busy machine it may wait most of the time; past this it is taken as hung.
 */
export const WALL_PER_CPU = 5;

/** The wall-clock ceiling for a CPU budget. */
export const wallCeilingMs = (cpuMs: number) => cpuMs * WALL_PER_CPU;
