// How the server's children (document readers, Tesseract, LibreOffice, the off-loop deal engine)
// are kept from starving the server that started them:
//   - SCHED_IDLE (`chrt --idle 0`, which Linux allows without privilege): a child runs only on a
//     core nothing else wants, and a server thread that wakes takes the core from it at once
//     instead of waiting for its time slice to end. Inherited by what the child starts.
//   - nice 19 (what counts where SCHED_IDLE is unavailable).
// Not its scheduling group: each child leads its own session (so one kill reaches everything it
// started), and with the kernel's autogroups that session is a group weighing as much as the
// server's whole session; lowering the group's nice starved children on a busy machine
// (child-watcher.ts says how). Lowering a child's priority never gets it stopped for waiting:
// the limits count CPU time (cpu-time.ts).
import { watchChild } from "./child-watcher.ts";

/** The nice value children and their scheduling groups get. */
export const CHILD_NICENESS = 19;

let probed: Promise<string[]> | null = null;

/**
 * The command prefix that starts a child under SCHED_IDLE (`chrt --idle 0`), or nothing where chrt
 * is missing or refuses (probed once; started from the child watcher's thread).
 */
export function idlePrefix(): Promise<string[]> {
  probed ??= (async () => {
    const chrt = Bun.which("chrt");
    if (!chrt || process.platform !== "linux") return [];
    const prefix = [chrt, "--idle", "0"];
    const end = await watchChild(
      { cmd: [...prefix, "true"], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdin: "", nonce: "\u0000", cpuMs: null, timeoutMs: 5000, memoryBytes: null, maxOutputBytes: 1024, niceness: 0, sampleMs: 1000 },
      () => {},
    );
    return end.spawnError === null && end.stopped === null && end.code === 0 ? prefix : [];
  })();
  return probed;
}
