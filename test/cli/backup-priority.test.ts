// `dealgraph backup` yields the CPU to a server running on its data dir (10 nicer), and only then:
// with no server beside it there is no request to keep fast, and a niced backup on a machine other
// work keeps busy was left a tenth of a core's share. A serve.pid left by a server that died (kill
// -9) names a dead process: no server. Real child processes: the command, and a real `serve`.
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { getPriority, hostname } from "node:os";
import { join } from "node:path";
import { cleanEnv, startServe, type Child } from "../../scripts/lib/child-process.ts";
import { yieldsToServer } from "../../src/cli/backup.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";

const ROOT = join(import.meta.dir, "../..");
const dirs: string[] = [];
let server: Child | null = null;
afterAll(async () => {
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function backup(dir: string) {
  const p = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "backup", "--json", "--data-dir", dir], { cwd: ROOT, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

test("with no server on the data dir the backup keeps its priority; beside a running server it runs 10 nicer and says so", async () => {
  const dir = tempDataDir();
  dirs.push(dir);
  expect((await cli(dir, "admin", "org", "create", "--name", "Nice Ventures", "--json")).code).toBe(0);
  expect(yieldsToServer(dir)).toBe(false);
  const alone = await backup(dir);
  expect(alone.code, alone.stderr).toBe(0);
  expect(alone.stderr).not.toContain("a server is running");

  const served = await startServe([process.execPath, join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data-dir", dir], { cwd: ROOT, env: cleanEnv() });
  server = served.child;
  expect(yieldsToServer(dir)).toBe(true);
  const beside = await backup(dir);
  expect(beside.code, beside.stderr).toBe(0);
  expect(beside.stderr).toContain(`the backup runs at nice ${Math.min(19, getPriority(0) + 10)}`);
  await server.stop();
  server = null;
  expect(yieldsToServer(dir)).toBe(false);
});

test("a serve.pid naming a process that is gone is no server", async () => {
  const dir = tempDataDir();
  dirs.push(dir);
  const gone = Bun.spawn(["true"]);
  await gone.exited;
  writeFileSync(join(dir, "serve.pid"), JSON.stringify({ pid: gone.pid, command: "serve", started_at: new Date().toISOString(), host: hostname() }));
  expect(yieldsToServer(dir)).toBe(false);
  // This process is alive: as a holder on this host it is a server; on another host it is not this machine's.
  writeFileSync(join(dir, "serve.pid"), JSON.stringify({ pid: process.pid, command: "serve", started_at: new Date().toISOString(), host: hostname() }));
  expect(yieldsToServer(dir)).toBe(true);
  writeFileSync(join(dir, "serve.pid"), JSON.stringify({ pid: process.pid, command: "serve", started_at: new Date().toISOString(), host: `${hostname()}-elsewhere` }));
  expect(yieldsToServer(dir)).toBe(false);
});
