// The document-conversion job after a crash: a conversion's work dir left under
// <data-dir>/tmp/convert, with a real process standing in for the orphaned soffice (a shell in its
// own session, as setsid leaves soffice, with a helper of its own), is found and cleaned up; a
// conversion in progress, another data dir's leftovers and fresh files are not touched.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findJob, jobs } from "../../jobs/index.ts";
import { cleanEnv, startServe } from "../../scripts/lib/child-process.ts";
import { CONVERSION_MARKER, conversionRoot, processStartTime, type ConversionMarker } from "../../src/documents/convert.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { docxFile, uploadForm } from "../helpers/decks.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { alive } from "../helpers/processes.ts";

const job = findJob("document-conversion")!;
let t: TestApp;
const spawned: ReturnType<typeof Bun.spawn>[] = [];
const extraDirs: string[] = [];
afterEach(async () => {
  for (const p of spawned.splice(0)) {
    try {
      process.kill(-p.pid, "SIGKILL");
    } catch {
      // already gone: what the test wanted
    }
  }
  extraDirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  t?.close();
});

/** A process that outlived its owner: a shell in its own session naming the dir, and a helper. */
async function orphan(dir: string) {
  const pidFile = join(tmpdir(), `dealgraph-orphan-${crypto.randomUUID()}.pids`);
  const proc = Bun.spawn(["setsid", "sh", "-c", 'sleep 600 & echo "$$ $!" > "$0"; wait', pidFile, `-env:UserInstallation=file://${dir}/profile`, "--headless"], { stdio: ["ignore", "ignore", "ignore"] });
  spawned.push(proc);
  for (let i = 0; i < 200 && !(existsSync(pidFile) && readFileSync(pidFile, "utf8").includes(" ")); i++) await Bun.sleep(10);
  const [shell, helper] = readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
  rmSync(pidFile);
  return { proc, shell, helper };
}

async function gone(...pids: number[]) {
  for (let i = 0; i < 100 && pids.some(alive); i++) await Bun.sleep(20);
  return pids.map(alive).every((a) => !a);
}

/** A pid that belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const p = Bun.spawn(["true"]);
  await p.exited;
  return p.pid;
}

/** A conversion work dir with its marker, as convertToPdf writes them. */
function workDir(root: string, marker: Partial<ConversionMarker> | null) {
  const dir = join(root, crypto.randomUUID());
  mkdirSync(join(dir, "profile"), { recursive: true });
  writeFileSync(join(dir, "input.pptx"), "not really a deck");
  if (marker) {
    const full: ConversionMarker = { owner_pid: process.pid, owner_start: processStartTime(process.pid), pgid: null, started_at: new Date().toISOString(), timeout_ms: 120_000, ...marker };
    writeFileSync(join(dir, CONVERSION_MARKER), JSON.stringify(full));
  }
  return dir;
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe("document-conversion job", () => {
  test("is registered, runs every 10 minutes and says what it does", () => {
    expect(jobs.map((j) => j.id)).toContain("document-conversion");
    expect(job.pattern).toBe("*/10 * * * *");
    expect(job.description).toMatch(/orphaned LibreOffice processes/);
  });

  test("a crashed server's conversion: its orphaned process group is killed and its dir removed", async () => {
    t = createTestApp({ file: true });
    const root = conversionRoot(t.deps.config.dataDir);
    const dir = workDir(root, null);
    const { proc, shell, helper } = await orphan(dir);
    writeFileSync(join(dir, CONVERSION_MARKER), JSON.stringify({ owner_pid: await deadPid(), owner_start: "1", pgid: proc.pid, started_at: new Date().toISOString(), timeout_ms: 120_000 }));
    expect([alive(shell), alive(helper)]).toEqual([true, true]);
    const result = await job.runOnce(t.deps);
    expect(result).toEqual({ conversions_removed: 1, processes_killed: 2, uploads_removed: 0 });
    expect(await gone(shell, helper)).toBe(true);
    expect(existsSync(dir)).toBe(false);
    // Nothing left: a second run finds nothing to do.
    expect(await job.runOnce(t.deps)).toEqual({ conversions_removed: 0, processes_killed: 0, uploads_removed: 0 });
  });

  test("an orphaned soffice whose dir is already gone is still found by its command line and killed", async () => {
    t = createTestApp({ file: true });
    const root = conversionRoot(t.deps.config.dataDir);
    mkdirSync(root, { recursive: true });
    const { shell, helper } = await orphan(join(root, crypto.randomUUID()));
    expect(await job.runOnce(t.deps)).toMatchObject({ processes_killed: 2 });
    expect(await gone(shell, helper)).toBe(true);
  });

  test("left alone: a conversion in progress (owner alive, within its time limit), a fresh unmarked dir, another data dir's leftovers", async () => {
    t = createTestApp({ file: true });
    const root = conversionRoot(t.deps.config.dataDir);
    const running = workDir(root, {});
    const live = await orphan(running);
    const fresh = workDir(root, null);
    const elsewhere = tempDataDir();
    extraDirs.push(elsewhere);
    const theirs = workDir(conversionRoot(elsewhere), { owner_pid: await deadPid(), owner_start: "1" });
    const theirProcess = await orphan(theirs);

    expect(await job.runOnce(t.deps)).toEqual({ conversions_removed: 0, processes_killed: 0, uploads_removed: 0 });
    expect([existsSync(running), existsSync(fresh), existsSync(theirs)]).toEqual([true, true, true]);
    expect([alive(live.shell), alive(live.helper), alive(theirProcess.shell), alive(theirProcess.helper)]).toEqual([true, true, true, true]);
  });

  test("abandoned anyway: an owner that is alive but far past the time limit, an unmarked dir 20 minutes old, a marker whose pid was reused", async () => {
    t = createTestApp({ file: true });
    const root = conversionRoot(t.deps.config.dataDir);
    const stuck = workDir(root, { started_at: minutesAgo(30).toISOString(), timeout_ms: 120_000 });
    const stuckProcess = await orphan(stuck);
    const unmarked = workDir(root, null);
    utimesSync(unmarked, minutesAgo(20), minutesAgo(20));
    // This process's pid, but another start time: the pid now belongs to someone else.
    workDir(root, { owner_start: "1" });
    const result = await job.runOnce(t.deps);
    expect(result).toEqual({ conversions_removed: 3, processes_killed: 2, uploads_removed: 0 });
    expect(await gone(stuckProcess.shell, stuckProcess.helper)).toBe(true);
    expect(readdirSync(root)).toEqual([]);
  });

  test("upload temp files a crash cut off: removed once idle for an hour; a fresh one kept", async () => {
    t = createTestApp({ file: true });
    const tmp = join(t.deps.config.dataDir, "tmp");
    mkdirSync(tmp, { recursive: true });
    const old = join(tmp, `upload-${crypto.randomUUID()}`);
    const fresh = join(tmp, `upload-${crypto.randomUUID()}`);
    const other = join(tmp, "notes.txt");
    for (const p of [old, fresh, other]) writeFileSync(p, "part of a body");
    utimesSync(old, minutesAgo(90), minutesAgo(90));
    utimesSync(other, minutesAgo(90), minutesAgo(90));
    expect(await job.runOnce(t.deps)).toEqual({ conversions_removed: 0, processes_killed: 0, uploads_removed: 1 });
    expect([existsSync(old), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
  });
});

describe("dealgraph jobs run document-conversion", () => {
  test("runs the job on the given data dir and prints what it did", async () => {
    const dataDir = tempDataDir();
    extraDirs.push(dataDir);
    const dir = workDir(conversionRoot(dataDir), { owner_pid: await deadPid(), owner_start: "1" });
    const { shell, helper } = await orphan(dir);
    const run = await cli(dataDir, "jobs", "run", "document-conversion", "--json");
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ job: "document-conversion", result: { conversions_removed: 1, processes_killed: 2, uploads_removed: 0 } });
    expect(await gone(shell, helper)).toBe(true);
    const list = await cli(dataDir, "jobs", "list", "--json");
    expect(list.json.jobs.find((j: any) => j.id === "document-conversion")).toMatchObject({ pattern: "*/10 * * * *", next_run: expect.any(String) });
  });
});

describe("after a real server is killed mid-conversion", () => {
  test("kill -9 of `dealgraph serve` leaves soffice running in its own session; the job finds and kills it", async () => {
    const dataDir = tempDataDir();
    extraDirs.push(dataDir);
    // A LibreOffice that never finishes, with a helper process, first on the server's PATH (outside
    // the data dir, which conversions do not see).
    const bin = join(tempDataDir(), "bin");
    extraDirs.push(join(bin, ".."));
    mkdirSync(bin);
    writeFileSync(join(bin, "soffice"), '#!/bin/sh\nsleep 600 &\nwait\n');
    chmodSync(join(bin, "soffice"), 0o755);
    const org = (await cli(dataDir, "admin", "org", "create", "--name", "Crash Ventures", "--json")).json.org_id;
    const user = (await cli(dataDir, "admin", "user", "create", "--org", org, "--email", "c@crash.vc", "--name", "C", "--json")).json.user_id;
    const key = (await cli(dataDir, "admin", "key", "create", "--user", user, "--scope", "write", "--json")).json.secret;
    const root = join(import.meta.dir, "../..");
    const { child, url } = await startServe([process.execPath, join(root, "src/main.ts"), "serve", "--port", "0", "--data-dir", dataDir], {
      cwd: root,
      env: cleanEnv({ PATH: `${bin}:${process.env.PATH}` }),
    });
    let pgid = 0;
    try {
      const res = await fetch(`${url}/api/v1/deals/analyze/upload`, { method: "POST", body: uploadForm(docxFile(["A memo."]), "memo.docx"), headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(202);
      // Wait until the server's runner has LibreOffice (the stand-in) converting.
      const convert = conversionRoot(dataDir);
      let marker: ConversionMarker | null = null;
      for (let i = 0; i < 300 && !marker?.pgid; i++) {
        const dir = existsSync(convert) ? readdirSync(convert)[0] : undefined;
        try {
          marker = dir ? JSON.parse(readFileSync(join(convert, dir, CONVERSION_MARKER), "utf8")) : null;
        } catch {
          marker = null;
        }
        await Bun.sleep(50);
      }
      expect(marker?.owner_pid).toBe(child.pid);
      pgid = marker!.pgid!;
      child.proc.kill("SIGKILL");
      await child.proc.exited;
      // The server is gone; its soffice is not.
      expect(alive(pgid)).toBe(true);
      const run = await cli(dataDir, "jobs", "run", "document-conversion", "--json");
      expect(run.json.result).toMatchObject({ conversions_removed: 1, processes_killed: 2 });
      expect(await gone(pgid)).toBe(true);
      expect(readdirSync(convert)).toEqual([]);
    } finally {
      await child.stop();
      if (pgid && alive(pgid)) process.kill(-pgid, "SIGKILL"); // only if the job failed to
    }
  }, 60_000);
});
