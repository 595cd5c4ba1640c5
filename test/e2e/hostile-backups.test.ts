// Issue 27, finding 3: backups hold every organization's data and the server key, so they are the
// server operator's (the CLI, and in the web app a user marked with `admin user operator`), never
// an org admin's; rotation never deletes a pre-upgrade archive however often "Back up now" is
// pressed; a manual backup cannot start while one is being written (409 on the web, exit 1 in the
// CLI).
import { describe, expect, onTestFinished, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireBackupLock, archiveName, backupsDir, backupsService } from "../../src/modules/backups/backups.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { createTestApp } from "../helpers/app.ts";
import { seedIdentity } from "../helpers/fixtures.ts";
import { Browser, textOf, withPassword } from "../helpers/web.ts";
import { tarOf } from "../helpers/tar.ts";

/** A web app on its own temp data dir (archives written here must not land in a shared ./data). */
async function webApp(o: { passwords?: ("alice" | "bob")[]; signIn?: string } = {}) {
  const t = createTestApp({ file: true });
  onTestFinished(() => t.close());
  const f = seedIdentity(t.deps);
  for (const user of o.passwords ?? ["alice"]) await withPassword(t, f.users[user].id);
  const b = new Browser(t);
  if (o.signIn) await b.signIn(o.signIn);
  return { t, f, b };
}

function fakeArchive(dataDir: string, name: string) {
  mkdirSync(backupsDir(dataDir), { recursive: true });
  writeFileSync(join(backupsDir(dataDir), name), "x");
  writeFileSync(join(backupsDir(dataDir), `${name}.json`), JSON.stringify({ created_at: "2026-01-01T00:00:00.000Z", bytes: 1, sha256: "", verified_at: null, problem: null }));
}

describe("backups belong to the server operator", () => {
  test("an org admin sees no backups and cannot start one (403); the admin page lists none", async () => {
    const { t, b } = await webApp({ signIn: "alice@acme.vc" });
    fakeArchive(t.deps.config.dataDir, archiveName(new Date("2026-01-01T03:00:00Z")));
    const admin = await b.get("/app/admin");
    expect(admin.status).toBe(200);
    expect(admin.html).not.toContain('data-testid="backups-table"');
    expect(admin.html).not.toContain("dealgraph-20260101T030000Z");
    for (const path of ["/app/backups"]) {
      const page = await b.get(path);
      expect(page.status).toBe(403);
      expect(page.html).not.toContain("dealgraph-20260101T030000Z");
    }
    for (const path of ["/app/backups", "/app/admin/backups"]) {
      await b.get("/app/admin");
      const res = await b.post(path, {});
      expect(res.status).toBe(403);
      expect(textOf(res.html)).toContain("Server operators only");
    }
    expect(backupsService(t.deps).inProgress()).toBe(false);
  });

  test("an operator sees the backups page; marked off, 403 again", async () => {
    const { t, f, b } = await webApp({ passwords: ["alice"] });
    fakeArchive(t.deps.config.dataDir, archiveName(new Date("2026-01-01T03:00:00Z")));
    orgsService(t.deps).setOperator(f.users.alice.id, true);
    await b.signIn("alice@acme.vc");
    const page = await b.get("/app/backups");
    expect(page.status).toBe(200);
    expect(page.html).toContain("dealgraph-20260101T030000Z.tar.gz");
    orgsService(t.deps).setOperator(f.users.alice.id, false);
    expect((await b.get("/app/backups")).status).toBe(403);
  });

  test("`dealgraph admin user operator --user ID on|off`", async () => {
    const dir = tempDataDir();
    const org = await cli(dir, "admin", "org", "create", "--name", "Acme", "--json");
    const user = await cli(dir, "admin", "user", "create", "--org", org.json.org_id, "--email", "op@acme.vc", "--name", "Op", "--json");
    const on = await cli(dir, "admin", "user", "operator", "--user", user.json.user_id, "on", "--json");
    expect(on.code, on.stderr).toBe(0);
    expect(on.json).toEqual({ user_id: user.json.user_id, operator: true });
    const off = await cli(dir, "admin", "user", "operator", "--user", user.json.user_id, "off", "--json");
    expect(off.json).toEqual({ user_id: user.json.user_id, operator: false });
    const bad = await cli(dir, "admin", "user", "operator", "--user", user.json.user_id, "maybe");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("usage: dealgraph admin user operator --user USER_ID on|off");
    const unknown = await cli(dir, "admin", "user", "operator", "--user", "0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9d", "on");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No user with id");
  });
});

describe("rotation never deletes a pre-upgrade archive", () => {
  test("seven backups and then more: the pre-upgrade archive stays, the others keep the newest DEALGRAPH_BACKUP_KEEP", async () => {
    const { t } = await webApp();
    const dir = t.deps.config.dataDir;
    const preUpgrade = archiveName(new Date("2026-01-01T00:00:00Z"), "pre-upgrade");
    fakeArchive(dir, preUpgrade);
    for (let i = 1; i <= 9; i++) fakeArchive(dir, archiveName(new Date(Date.UTC(2026, 0, 1, i))));
    const removed = backupsService(t.deps).rotate(7);
    expect(removed).not.toContain(preUpgrade);
    const left = readdirSync(backupsDir(dir)).filter((n) => n.endsWith(".tar.gz"));
    expect(left).toContain(preUpgrade);
    expect(left.length).toBe(8); // seven kept + the pre-upgrade one
    expect(existsSync(join(backupsDir(dir), `${preUpgrade}.json`))).toBe(true);
  });
});

describe("one backup at a time", () => {
  test("Back up now while a backup is being written: 409 with a clear detail, nothing started", async () => {
    const { t, f, b } = await webApp({ passwords: ["alice"] });
    orgsService(t.deps).setOperator(f.users.alice.id, true);
    await b.signIn("alice@acme.vc");
    const lock = acquireBackupLock(t.deps.config.dataDir);
    try {
      const page = await b.get("/app/backups");
      expect(page.html).toContain("A backup is being written");
      expect(page.html).toContain('action="/app/backups"');
      const res = await b.post("/app/backups", {});
      expect(res.status).toBe(409);
      expect(textOf(res.html)).toContain("A backup is already being written");
    } finally {
      lock.release();
    }
  });

  test("`dealgraph backup` while another is being written: exit 1 saying so", async () => {
    const dir = tempDataDir();
    expect((await cli(dir, "admin", "org", "create", "--name", "Acme")).code).toBe(0);
    const lock = acquireBackupLock(dir);
    try {
      const second = await cli(dir, "backup", "--json");
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/a backup of this data dir is already being written \(pid \d+, started /);
    } finally {
      lock.release();
    }
    const after = await cli(dir, "backup", "--json");
    expect(after.code, after.stderr).toBe(0);
  });
});

// Finding 6 for `restore` (test/cli/backup.test.ts has it for `verify`): an archive of a few KB
// that inflates far past what its backup.json declares is stopped at the first excess, and the
// data dir it was to restore into is never made.
describe("a compression bomb", () => {
  test("restore: exit 1 saying the archive unpacks to more than it declares; the target is not even created", async () => {
    const small = await tarOf([
      ["backup.json", Buffer.from(JSON.stringify({ format: "dealgraph-backup", version: 2, created_at: "2026-11-28T03:00:00.000Z", files: [{ path: "dealgraph.db", bytes: 1024 }] }))],
      ["dealgraph.db", Buffer.alloc(1024)],
    ]);
    // The archive's own end replaced by 64 MB of zeros: they compress to almost nothing.
    const bomb = Bun.gzipSync(Buffer.concat([small.subarray(0, small.length - 1024), Buffer.alloc(64 * 1024 * 1024)]));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const dir = tempDataDir();
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "bomb.tar.gz");
    writeFileSync(file, bomb);
    const target = join(dir, "restored");
    const r = await cli(target, "restore", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unpacks to more than .* declares/);
    expect(existsSync(target)).toBe(false);
  }, 60_000);
});
