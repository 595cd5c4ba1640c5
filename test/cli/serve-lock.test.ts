// One server per data dir: a second `serve` or `demo` on a data dir a live `dealgraph serve` (a
// child process) holds refuses to start and names it; CLI commands that write keep working beside
// it; and after a real SIGKILL, whose lock the operating system drops, the next start goes ahead.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, startServe, type Child } from "../../scripts/lib/child-process.ts";
import { runCli } from "../../src/cli/index.ts";
import { serveCommand } from "../../src/cli/serve.ts";
import { captureIo, cli, tempDataDir } from "../helpers/cli.ts";

const ROOT = join(import.meta.dir, "../..");
const serveCmd = (dir: string) => [process.execPath, join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data-dir", dir];
let dir = "";
let first: Child | null = null;

beforeAll(async () => {
  dir = tempDataDir();
  first = (await startServe(serveCmd(dir), { cwd: ROOT, env: cleanEnv() })).child;
});
afterAll(async () => {
  await first?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test.each(["serve", "demo"])("a second `%s` on the data dir refuses to start, naming the process that holds it", async (command) => {
  const { io, out, err } = captureIo();
  expect(await runCli([command, "--port", "0", "--data-dir", dir], io)).toBe(1);
  expect(out).toEqual([]);
  const said = err.join("\n");
  expect(said).toContain(`${dir} is already being served by pid ${first!.pid} (dealgraph serve, started `);
  expect(said).toMatch(/started \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z on /);
  // It touched nothing: the holder's record still names the first server.
  expect(JSON.parse(readFileSync(join(dir, "serve.pid"), "utf8")).pid).toBe(first!.pid);
});

test("CLI commands that write keep working beside the running server", async () => {
  const org = await cli(dir, "admin", "org", "create", "--name", "Beside Ventures", "--json");
  expect(org.code, org.stderr).toBe(0);
  const user = await cli(dir, "admin", "user", "create", "--org", org.json.org_id, "--email", "b@beside.vc", "--name", "B", "--json");
  expect(user.code, user.stderr).toBe(0);
  const backup = await cli(dir, "backup", "--json");
  expect(backup.code, backup.stderr).toBe(0);
});

test("after a kill -9 the lock is gone with the process: the next `serve` starts and takes the data dir", async () => {
  first!.proc.kill("SIGKILL");
  await first!.proc.exited;
  const killed = first!.pid;
  // The dead server's record is left behind; it does not block.
  expect(JSON.parse(readFileSync(join(dir, "serve.pid"), "utf8")).pid).toBe(killed);
  first = (await startServe(serveCmd(dir), { cwd: ROOT, env: cleanEnv() })).child;
  expect(JSON.parse(readFileSync(join(dir, "serve.pid"), "utf8")).pid).toBe(first.pid);
  const { io, err } = captureIo();
  expect(await runCli(["serve", "--port", "0", "--data-dir", dir], io)).toBe(1);
  expect(err.join("\n")).toContain(`pid ${first.pid}`);
});

test("a server that stops cleanly releases the data dir (in process: stop, then start again)", async () => {
  const other = tempDataDir();
  try {
    const { io } = captureIo();
    const a = await serveCommand(["--port", "0", "--data-dir", other], io);
    expect(existsSync(join(other, "serve.pid"))).toBe(true);
    await a.stop();
    expect(existsSync(join(other, "serve.pid"))).toBe(false);
    const b = await serveCommand(["--port", "0", "--data-dir", other], io);
    await b.stop();
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});
