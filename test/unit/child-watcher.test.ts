// Child processes are started and watched from a worker thread (src/lib/child-watcher.ts), so the
// server's thread is never held while a child starts (vfork) or while its output and memory are
// read. Where no worker can be started the same code runs on this thread: both are tested alike.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertToPdf, findLibreOffice } from "../../src/documents/convert.ts";
import { READ_COMMAND } from "../../src/documents/reader-child.ts";
import { READ_LIMITS } from "../../src/documents/reader.ts";
import { ANALYZE_DEAL_COMMAND } from "../../src/engines/off-loop.ts";
import { ChildJobError, ChildRefusal, runChildJob } from "../../src/lib/child-job.ts";
import { childWatcherThread, watchChild, watchChildrenOnThisThread } from "../../src/lib/child-watcher.ts";
import { LEDGERLY_DECK } from "../helpers/decks.ts";
import { failure } from "../helpers/failure.ts";

const dir = mkdtempSync(join(tmpdir(), "dealgraph-child-watcher-"));
afterAll(() => {
  watchChildrenOnThisThread(false);
  rmSync(dir, { recursive: true, force: true });
});

const limits = { timeoutMs: 60_000, memoryBytes: 1024 * 1024 * 1024, maxOutputBytes: 16 * 1024 * 1024, concurrency: 2 };
const job = { pages: LEDGERLY_DECK.map((text, i) => ({ documentId: "doc", url: null, page: i + 1, text })), hints: { companyName: "Ledgerly", website: null, siteTitle: null, kind: null } };

/** The threads of this process whose children include a live process (from /proc/self/task/<tid>/children). */
function threadsWithChildren(): number[] {
  return readdirSync("/proc/self/task")
    .map(Number)
    .filter((tid) => {
      try {
        return readFileSync(`/proc/self/task/${tid}/children`, "utf8").trim() !== "";
      } catch {
        return false;
      }
    });
}


test("children are watched from a worker thread here", () => {
  watchChildrenOnThisThread(false);
  expect(childWatcherThread()).toBe("worker");
});

// LibreOffice too (issue 27): before, convert.ts started soffice from the server's own thread.
test.skipIf(!findLibreOffice() || !existsSync(`/proc/self/task/${process.pid}/children`))("LibreOffice is started from the worker thread, never the server's", async () => {
  watchChildrenOnThisThread(false);
  const input = join(dir, "memo.txt");
  writeFileSync(input, "Quarterly memo\nRevenue grew.");
  const seen: number[][] = [];
  const sampler = setInterval(() => seen.push(threadsWithChildren()), 5);
  try {
    const pdf = await convertToPdf(input, "txt", { workRoot: join(dir, "convert") });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
  } finally {
    clearInterval(sampler);
  }
  // The child was seen, and always under another thread than this one (tid = pid).
  expect(seen.some((tids) => tids.length > 0)).toBe(true);
  expect(seen.some((tids) => tids.includes(process.pid))).toBe(false);
}, 120_000);

for (const where of ["worker", "thread"] as const) {
  describe(`watched from the ${where}`, () => {
    test("a child's answer, and its events in order", async () => {
      watchChildrenOnThisThread(where === "thread");
      expect(childWatcherThread()).toBe(where);
      const path = join(dir, `note-${where}.txt`);
      writeFileSync(path, "hello");
      expect(await runChildJob<string[]>(READ_COMMAND, { op: "text", path, limits: { maxPages: 500, maxTextBytes: 1e9, zip: READ_LIMITS.zip } }, limits)).toEqual(["hello"]);
      const stages: unknown[] = [];
      const starters: number[][] = [];
      await runChildJob(ANALYZE_DEAL_COMMAND, job, limits, (stage) => {
        stages.push(stage);
        // The child is alive while it sends events: which thread of ours started it?
        starters.push(threadsWithChildren());
      });
      expect(stages).toEqual(["extract", "classify", "score", "summarize"]);
      if (existsSync(`/proc/self/task/${process.pid}/children`)) {
        // Linux: the server's own thread (tid = pid) started it only when watching on this thread.
        const byMain = starters.some((tids) => tids.includes(process.pid));
        expect(byMain).toBe(where === "thread");
        expect(starters.every((tids) => tids.length > 0)).toBe(true);
      }
    }, 60_000);

    test("an event the caller refuses stops the child, with the caller's words", async () => {
      watchChildrenOnThisThread(where === "thread");
      const seen: unknown[] = [];
      const error = (await failure(
        runChildJob(ANALYZE_DEAL_COMMAND, job, limits, (stage) => {
          seen.push(stage);
          throw new ChildRefusal("Not today");
        }),
      )) as ChildJobError;
      expect(error).toBeInstanceOf(ChildJobError);
      expect(error.reason).toBe("failed");
      expect(error.message).toBe("Not today");
      // Nothing after the refusal reaches the caller.
      expect(seen).toEqual(["extract"]);
    }, 60_000);

    test("a caller's own failure on an event stops the child and is said, never thrown loose", async () => {
      watchChildrenOnThisThread(where === "thread");
      const error = (await failure(
        runChildJob(ANALYZE_DEAL_COMMAND, job, limits, () => {
          throw new Error("the caller broke");
        }),
      )) as ChildJobError;
      expect(error.reason).toBe("crash");
      expect(error.message).toBe("the child process was stopped (the caller broke)");
    }, 60_000);

    test("limits still stop it: CPU time", async () => {
      watchChildrenOnThisThread(where === "thread");
      const error = (await failure(runChildJob(ANALYZE_DEAL_COMMAND, job, { ...limits, timeoutMs: 1, wallMs: 60_000 }))) as ChildJobError;
      expect(error.reason).toBe("time");
      expect(error.limit).toBe("cpu");
      expect(error.message).toBe("stopped after 1 ms of CPU time");
    }, 60_000);

    // Issue 27: the limits were wall-clock limits, and children run at a lower priority, so on a
    // loaded machine a cheap deck's reader was killed for time it spent waiting for a core.
    test("CPU time, not the clock: a child that waits is left alone, one whose process tree spins is stopped, one that hangs meets the ceiling", async () => {
      watchChildrenOnThisThread(where === "thread");
      const req = { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdin: "", nonce: "\u0000", memoryBytes: null, maxOutputBytes: 1024, niceness: 0, sampleMs: 20 };
      const waits = await watchChild({ ...req, cmd: ["sleep", "1.5"], cpuMs: 500, timeoutMs: 30_000 }, () => {});
      expect([waits.stopped, waits.code]).toEqual([null, 0]);
      // The spinning one is a grandchild (as Tesseract is the document child's child): counted too.
      const spins = await watchChild({ ...req, cmd: ["sh", "-c", "sh -c 'while :; do :; done' & wait"], cpuMs: 300, timeoutMs: 120_000 }, () => {});
      expect(spins.stopped).toBe("cpu");
      expect(spins.allowedCpuMs).toBe(300);
      expect(spins.cpuUsedMs).toBeGreaterThan(300);
      const hangs = await watchChild({ ...req, cmd: ["sleep", "30"], cpuMs: 10_000, timeoutMs: 300 }, () => {});
      expect(hangs.stopped).toBe("time");
      expect(hangs.cpuUsedMs).toBeLessThan(10_000);
    }, 60_000);
  });
}
