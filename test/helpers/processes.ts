// Processes as Linux's /proc shows them, for tests that a child was killed and reaped.
import { readFileSync } from "node:fs";

/** Alive and not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
