// Issue 27, findings 7 and 8 (the document child): a child holds itself to its limits and ends
// when its parent is gone (kill -9 of `serve` during an OCR leaves no reader and no Tesseract
// behind), and it cannot write outside its own work dir (where mount namespaces are allowed: every
// mount read-only but that dir; elsewhere it still works from its temp dir with none of the
// server's settings in its environment).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, serveOnDataDir, stopServed, uploadDeck } from "../../scripts/lib/hostile-server.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { READ_COMMAND } from "../../src/documents/reader-child.ts";
import { READ_LIMITS } from "../../src/documents/reader.ts";
import { findTesseract } from "../../src/documents/ocr.ts";
import { sandboxSupport } from "../../src/lib/sandbox.ts";
import { imageOnlyPdf, libreOfficePdf } from "../helpers/ocr-decks.ts";

/** Processes whose command line contains `needle`: pid and parent pid. */
function processes(needle: string): { pid: number; ppid: number; cmd: string }[] {
  const out: { pid: number; ppid: number; cmd: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      if (!cmd.includes(needle)) continue;
      const ppid = Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      out.push({ pid: Number(name), ppid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));

describe.if(!!findTesseract() && !!findLibreOffice() && process.platform === "linux")("kill -9 of serve during an OCR", () => {
  test("the document child and its Tesseract are gone within a few seconds", async () => {
    const pages = Array.from({ length: 4 }, (_, i) => [`Slide ${i + 1}`, "Treasury automation for mid-market CFOs, growing 12% a month.", "Anna Keller, CEO; Jonas Berg, CTO."]);
    const scanned = await imageOnlyPdf(await libreOfficePdf(pages));
    const dataDir = mkdtempSync(join(tmpdir(), "dealgraph-kill9-"));
    const served = await serveOnDataDir(dataDir);
    try {
      const res = await uploadDeck(served, scanned, "scanned.pdf", "Killed Midway");
      expect(res.status).toBe(202);
      // Wait for the reader's OCR (Tesseract running under the server's document child).
      let readers: { pid: number; ppid: number }[] = [];
      let ocr: { pid: number }[] = [];
      for (let i = 0; i < 600 && ocr.length === 0; i++) {
        await Bun.sleep(100);
        readers = processes("__read-document").filter((p) => p.ppid === served.child.pid);
        const readerPids = new Set(readers.map((r) => r.pid));
        ocr = processes("tesseract").filter((p) => readerPids.has(p.ppid));
      }
      expect(readers.length).toBeGreaterThan(0);
      expect(ocr.length).toBeGreaterThan(0);
      process.kill(served.child.pid, "SIGKILL"); // the server only: its children are in their own group
      const watched = [...readers, ...ocr].map((p) => p.pid);
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && watched.some(alive)) await Bun.sleep(100);
      expect(watched.filter(alive)).toEqual([]);
    } finally {
      await stopServed(served).catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

// Finding 7's other half: the child's own limits, with nobody else holding it to them (the
// parent here never kills it). A reader stuck opening a pipe nobody writes to would wait forever.
describe.if(process.platform === "linux" && !!Bun.which("mkfifo"))("the child holds itself to its limits when nobody else does", () => {
  const cases = [
    ["past its deadline", { maxMs: 1_500, memoryBytes: 4 * 1024 ** 3 }],
    ["past its memory bound", { maxMs: 600_000, memoryBytes: 8 * 1024 * 1024 }],
  ] as const;
  for (const [what, limits] of cases) {
    test(`a reader stuck on a pipe, its parent alive and not watching: its own watchdog kills it ${what}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "dealgraph-child-guard-"));
      const pipe = join(dir, "stuck");
      expect(Bun.spawnSync(["mkfifo", pipe]).exitCode).toBe(0);
      const envelope = { nonce: "g:", input: { op: "text", path: pipe, limits: { maxPages: 500, maxTextBytes: 1e9, zip: READ_LIMITS.zip } }, guard: { parentPid: process.pid, ...limits } };
      const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), READ_COMMAND], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "", LANG: "C.UTF-8", HOME: dir, TMPDIR: dir },
        stdin: new TextEncoder().encode(JSON.stringify(envelope)),
        stdout: "ignore",
        stderr: "ignore",
        detached: true, // its own group, as the watcher starts it: the watchdog kills the group
      });
      // Only if the watchdog never acts (the test then fails below): the test's own kill.
      let ourKill = false;
      const safety = setTimeout(() => ((ourKill = true), process.kill(-proc.pid, "SIGKILL")), 90_000);
      try {
        await proc.exited;
        expect(ourKill).toBe(false);
        expect(proc.signalCode).toBe("SIGKILL");
      } finally {
        clearTimeout(safety);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});

describe("the child cannot write outside its work dir", () => {
  test("a subverted child's writes: its work dir only (every mount read-only to it where unshare allows)", async () => {
    const support = await sandboxSupport();
    const root = mkdtempSync(join(tmpdir(), "dealgraph-confine-"));
    const dataDir = join(root, "data");
    const work = join(root, "work");
    mkdirSync(dataDir);
    mkdirSync(work);
    const targets = [join(dataDir, "planted.txt"), join(tmpdir(), `dealgraph-planted-${process.pid}.txt`), join(root, "planted.txt")];
    const script = join(import.meta.dir, "..", "fixtures", "child-write-attempts.ts");
    const cmd = support.mounts ? [support.bin.unshare, "-rnm", "--propagation", "private", process.execPath, script] : [process.execPath, script];
    const proc = Bun.spawn(cmd, {
      cwd: work,
      env: { PATH: process.env.PATH ?? "", HOME: work, TMPDIR: work, ...(support.mounts ? { DEALGRAPH_CHILD_CONFINE: "1" } : {}) },
      stdin: new TextEncoder().encode(JSON.stringify({ nonce: "n:", input: { targets }, guard: { parentPid: process.pid, maxMs: 30_000, memoryBytes: 1 << 30 } })),
      stdout: "pipe",
      stderr: "ignore",
    });
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    const line = out.split("\n").find((l) => l.startsWith("n:R"))!;
    const answer = JSON.parse(line.slice(3)) as { ok: boolean; value: { wrote: Record<string, string>; env: string[] } };
    try {
      expect(answer.ok).toBe(true);
      expect(answer.value.wrote[join(work, "inside-work-dir.txt")]).toBe("written");
      expect(answer.value.env).toEqual([]);
      if (support.mounts) {
        for (const target of targets) expect([target, answer.value.wrote[target]]).toEqual([target, "EROFS"]);
        for (const target of targets) expect(existsSync(target)).toBe(false);
      } else {
        console.log("mount namespaces unavailable here: only the work dir and the clean environment are checked");
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(targets[1], { force: true });
    }
  }, 30_000);

  test("the real reader child: no DEALGRAPH_* in its environment, its cwd a fresh temp dir removed afterwards", async () => {
    // What the parent sets up is visible in child-job.ts; here: the temp dirs it makes do not pile up.
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith("dealgraph-child-")).length;
    const { readInChild } = await import("../../src/documents/reader.ts");
    const file = join(mkdtempSync(join(tmpdir(), "dealgraph-text-")), "note.txt");
    await Bun.write(file, "hello");
    expect(await readInChild({ op: "text", path: file })).toEqual(["hello"]);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("dealgraph-child-")).length).toBe(before);
  }, 30_000);
});
