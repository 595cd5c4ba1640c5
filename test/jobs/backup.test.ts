// The `backup` job (a real `dealgraph backup` child process on the test app's data dir), its
// rotation, /readyz's warning when the last backup is overdue, and the server operator's backups page.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findJob, jobs, nextRun, patternOf } from "../../jobs/index.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { backupsDir, backupsService, createBackup } from "../../src/modules/backups/backups.service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClock } from "../helpers/clock.ts";
import { seedIdentity } from "../helpers/fixtures.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { Browser, textOf, withPassword } from "../helpers/web.ts";

let t: TestApp | null = null;
afterEach(() => {
  t?.close();
  t = null;
});

function app(env: Record<string, string> = {}, clock = new TestClock("2026-11-22T12:00:00.000Z")) {
  t = createTestApp({ file: true, env, clock });
  return t;
}

/** A real archive of the test app's data dir, taken "at" `at`. */
const backupAt = (a: TestApp, at: string) => createBackup({ config: a.deps.config, now: new Date(at) });

describe("the backup job", () => {
  test("writes a verified backup into <data-dir>/backups and keeps the newest DEALGRAPH_BACKUP_KEEP", async () => {
    const a = app({ DEALGRAPH_BACKUP_KEEP: "2" });
    await backupAt(a, "2026-11-19T03:00:00Z");
    await backupAt(a, "2026-11-20T03:00:00Z");
    await backupAt(a, "2026-11-21T03:00:00Z");
    const result = (await findJob("backup")!.runOnce(a.deps)) as { file: string; bytes: number; removed: string[] };
    expect(result.removed.sort()).toEqual(["dealgraph-20261119T030000Z.tar.gz", "dealgraph-20261120T030000Z.tar.gz"]);
    const left = backupsService(a.deps).list();
    expect(left.map((b) => b.name)).toEqual([result.file.split("/").pop()!, "dealgraph-20261121T030000Z.tar.gz"]);
    // The job verifies what it writes (`backup verify` in a child); a plain `dealgraph backup` leaves that to the operator.
    expect(left.map((b) => [b.verified_at !== null, b.problem])).toEqual([[true, null], [false, null]]);
    // The records of the removed archives went with them.
    expect(readdirSync(backupsDir(a.deps.config.dataDir)).sort()).toEqual(left.flatMap((b) => [b.name, `${b.name}.json`]).sort());
  }, 30_000);

  test("rotation keeps the newest N by their time (same-second backups counted), and drops a crash's partial file after a day", async () => {
    const a = app();
    const names = [];
    for (const at of ["2026-11-20T03:00:00Z", "2026-11-20T03:00:00Z", "2026-11-21T03:00:00Z", "2026-11-18T03:00:00Z"]) names.push((await backupAt(a, at)).file.split("/").pop());
    expect(names[1]).toBe("dealgraph-20261120T030000Z-2.tar.gz");
    const partial = join(backupsDir(a.deps.config.dataDir), ".dealgraph-20261101T030000Z.tar.gz.partial-1-abc");
    writeFileSync(partial, "half");
    a.clock.advanceHours(24 * 400); // the partial file's mtime is the wall clock's: make it old to the test clock
    const removed = backupsService(a.deps).rotate(2);
    expect(removed).toEqual(["dealgraph-20261120T030000Z.tar.gz", "dealgraph-20261118T030000Z.tar.gz"]);
    expect(backupsService(a.deps).list().map((b) => b.name)).toEqual(["dealgraph-20261121T030000Z.tar.gz", "dealgraph-20261120T030000Z-2.tar.gz"]);
    expect(existsSync(partial)).toBe(false);
  });

  test("the job runs on DEALGRAPH_BACKUP_CRON (default 0 3 * * * UTC); off turns it off; a bad pattern is refused by name", () => {
    const job = jobs.find((j) => j.id === "backup")!;
    expect(patternOf(job, loadConfig({}))).toBe("0 3 * * *");
    expect(nextRun(job, new Date("2026-11-22T04:00:00Z"), loadConfig({}))?.toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(patternOf(job, loadConfig({ DEALGRAPH_BACKUP_CRON: "30 */6 * * *" }))).toBe("30 */6 * * *");
    expect(patternOf(job, loadConfig({ DEALGRAPH_BACKUP_CRON: "off" }))).toBeNull();
    expect(() => loadConfig({ DEALGRAPH_BACKUP_CRON: "every night" })).toThrow(ConfigError);
    expect(() => loadConfig({ DEALGRAPH_BACKUP_CRON: "every night" })).toThrow(/DEALGRAPH_BACKUP_CRON/);
    expect(() => loadConfig({ DEALGRAPH_BACKUP_KEEP: "0" })).toThrow(/DEALGRAPH_BACKUP_KEEP/);
  });
});

describe("/readyz warns when the last successful backup is older than two schedule periods", () => {
  const backups = async (a: TestApp) => (await a.request("GET", "/readyz")).json.checks.backups;

  test("none yet, fresh, then overdue; the warning never makes the server unready", async () => {
    const a = app();
    expect(await backups(a)).toEqual({ status: "warning", detail: expect.stringContaining("no verified backup") });
    await backupAt(a, "2026-11-22T03:00:00Z");
    // Anonymous: the time, no archive name (an operator's key gets it: test/e2e/hostile-readyz.test.ts).
    expect(await backups(a)).toEqual({ status: "ok", detail: expect.stringContaining("last backup 2026-11-22T03:00:00") });
    a.clock.set("2026-11-24T02:59:00Z"); // 47h59m: within two daily periods
    expect((await backups(a)).status).toBe("ok");
    a.clock.set("2026-11-24T03:01:00Z");
    const overdue = await a.request("GET", "/readyz");
    expect(overdue.status).toBe(200);
    expect(overdue.json.checks.backups).toEqual({ status: "warning", detail: expect.stringMatching(/48 h old, more than two periods of DEALGRAPH_BACKUP_CRON 0 3 \* \* \* \(every 24 h\)/) });
  });

  test("an archive that failed its check does not count as a successful backup", async () => {
    const a = app();
    const written = await backupAt(a, "2026-11-22T03:00:00Z");
    writeFileSync(written.file, "damaged");
    const { verifyBackup } = await import("../../src/modules/backups/backups.service.ts");
    await verifyBackup(written.file, { workDir: join(a.deps.config.dataDir, "tmp"), dataDir: a.deps.config.dataDir, now: a.clock.now() });
    expect(backupsService(a.deps).list()[0]).toMatchObject({ verified_at: null, problem: expect.stringContaining("corrupted") });
    expect((await backups(a)).status).toBe("warning");
  });

  test("with DEALGRAPH_BACKUP_CRON=off there is nothing to be late for", async () => {
    const a = app({ DEALGRAPH_BACKUP_CRON: "off" });
    expect(await backups(a)).toEqual({ status: "ok", detail: expect.stringContaining("off") });
  });
});

describe("the operator's backups page", () => {
  test("lists the latest backups (time, size, verified) and starts one; others (an org admin among them) are refused", async () => {
    const a = app();
    const f = seedIdentity(a.deps);
    await withPassword(a, f.users.alice.id);
    await withPassword(a, f.users.bob.id);
    orgsService(a.deps).setOperator(f.users.bob.id, true);
    await backupAt(a, "2026-11-22T03:00:00Z");
    const admin = new Browser(a);
    await admin.signIn("bob@acme.vc");
    const page = await admin.get("/app/backups");
    const card = page.html.split('data-testid="backups"')[1] ?? "";
    expect(textOf(card)).toContain("dealgraph-20261122T030000Z.tar.gz");
    expect(textOf(card)).toContain("Verified");
    expect(textOf(card)).toMatch(/2026-11-22 03:00/);
    const started = await admin.post("/app/backups", {});
    expect(started.status).toBe(303);
    expect(textOf((await admin.follow(started)).html)).toContain("A backup has started");
    const service = backupsService(a.deps);
    while (service.inProgress()) await Bun.sleep(50);
    expect(service.lastFailure()).toBeNull();
    expect(service.list()).toHaveLength(2);

    const member = new Browser(a);
    await member.signIn("alice@acme.vc"); // an org admin, not the operator
    await member.get("/app");
    expect((await member.post("/app/admin/backups", {})).status).toBe(403);
    expect((await member.post("/app/backups", {})).status).toBe(403);
    expect(service.list()).toHaveLength(2);
  }, 30_000);
});
