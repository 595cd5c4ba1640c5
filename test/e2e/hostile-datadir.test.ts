// Issue 27, finding 8 (data dir): the data dir and what a restore writes are the server's alone
// (directories 0700, files 0600, whatever the umask the program was started with), a data dir made
// world-readable by an earlier release is tightened when it is opened, and `restore` holds the
// serve lock: it refuses a data dir a `serve` holds, and a `serve` cannot start on a dir being
// restored. The real command line runs as a child process (the umask is the program's own).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireServeLock } from "../../src/db/serve-lock.ts";
import { tempDataDir } from "../helpers/cli.ts";

const MAIN = join(import.meta.dir, "../../src/main.ts");

/** `dealgraph ...` as a child process started with umask 022 (the usual default). */
async function dealgraph(...args: string[]) {
  const proc = Bun.spawn(["/bin/sh", "-c", 'umask 022; exec "$@"', "sh", process.execPath, MAIN, ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every path under `dir` (itself included) with a mode that lets anyone else in. */
function looseModes(dir: string): string[] {
  const loose: string[] = [];
  const walk = (path: string) => {
    const st = statSync(path);
    if (st.mode & 0o077) loose.push(`${path} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return loose;
}

describe("file modes", () => {
  test("a new data dir: 0700, its database and key 0600, under umask 022", async () => {
    const dir = join(tempDataDir(), "data");
    const org = await dealgraph("admin", "org", "create", "--name", "Acme", "--json", "--data-dir", dir);
    expect(org.code, org.stderr).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, "dealgraph.db"))).toBe(0o600);
    expect(looseModes(dir)).toEqual([]);
  }, 30_000);

  test("a data dir an earlier release left 0755/0644 is tightened when a command opens it", async () => {
    const dir = join(tempDataDir(), "data");
    expect((await dealgraph("admin", "org", "create", "--name", "Acme", "--data-dir", dir)).code).toBe(0);
    chmodSync(dir, 0o755);
    chmodSync(join(dir, "dealgraph.db"), 0o644);
    mkdirSync(join(dir, "blobs"), { mode: 0o755 });
    chmodSync(join(dir, "blobs"), 0o755);
    expect((await dealgraph("admin", "org", "create", "--name", "Beta", "--data-dir", dir)).code).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, "dealgraph.db"))).toBe(0o600);
    expect(mode(join(dir, "blobs"))).toBe(0o700);
  }, 30_000);

  test("backup and restore: the archive and everything restored are 0600/0700", async () => {
    const root = tempDataDir();
    const dir = join(root, "data");
    expect((await dealgraph("admin", "org", "create", "--name", "Acme", "--data-dir", dir)).code).toBe(0);
    const backup = await dealgraph("backup", "--json", "--data-dir", dir);
    expect(backup.code, backup.stderr).toBe(0);
    const { file } = JSON.parse(backup.stdout) as { file: string };
    expect(mode(file)).toBe(0o600);
    const target = join(root, "restored");
    mkdirSync(target, { mode: 0o755 });
    chmodSync(target, 0o755);
    const restored = await dealgraph("restore", file, "--data-dir", target, "--json");
    expect(restored.code, restored.stderr).toBe(0);
    expect(looseModes(target)).toEqual([]);
  }, 60_000);
});

describe("restore and the serve lock", () => {
  test("restore into a data dir a server holds: exit 1 naming the server, nothing touched", async () => {
    const root = tempDataDir();
    const dir = join(root, "data");
    expect((await dealgraph("admin", "org", "create", "--name", "Acme", "--data-dir", dir)).code).toBe(0);
    const backup = await dealgraph("backup", "--json", "--data-dir", dir);
    const { file } = JSON.parse(backup.stdout) as { file: string };
    const served = join(root, "served");
    mkdirSync(served);
    const lock = acquireServeLock(served, "serve");
    try {
      const before = readdirSync(served).sort();
      const res = await dealgraph("restore", file, "--data-dir", served);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/already being served by pid \d+ \(dealgraph serve/);
      expect(readdirSync(served).sort()).toEqual(before);
    } finally {
      lock.release();
    }
  }, 60_000);

  test("a restore holds the serve lock while it writes: a serve started meanwhile is refused", async () => {
    const root = tempDataDir();
    const dir = join(root, "data");
    expect((await dealgraph("admin", "org", "create", "--name", "Acme", "--data-dir", dir)).code).toBe(0);
    // Enough blobs that the restore takes a moment.
    mkdirSync(join(dir, "blobs"), { recursive: true });
    const big = new Uint8Array(4 * 1024 * 1024).map((_, i) => (i * 7919) & 0xff);
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, "blobs", `filler-${i}`), big.map((b) => b ^ i));
    const backup = await dealgraph("backup", "--json", "--data-dir", dir);
    expect(backup.code, backup.stderr).toBe(0);
    const { file } = JSON.parse(backup.stdout) as { file: string };
    const target = join(root, "target");
    const restore = Bun.spawn([process.execPath, MAIN, "restore", file, "--data-dir", target], { stdout: "ignore", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
    let sawLock = false;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && restore.exitCode === null) {
      // Probe only once the restore has written who holds the lock: a probe before that could take the
      // lock itself for a moment and make the restore refuse (a race of the test, not of the product).
      if (!existsSync(join(target, "serve.pid"))) {
        await Bun.sleep(5);
        continue;
      }
      try {
        acquireServeLock(target, "serve").release();
      } catch (error) {
        if ((error as Error).message.includes("dealgraph restore")) {
          sawLock = true;
          break;
        }
      }
      await Bun.sleep(5);
    }
    const code = await restore.exited;
    expect(code, await new Response(restore.stderr).text()).toBe(0);
    expect(sawLock).toBe(true);
  }, 90_000);
});
