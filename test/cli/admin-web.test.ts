// `dealgraph admin user password|link`: the operator's way into the web app, run in process on a
// real data dir; the password and the link then used against the real app on the same database.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { runCli } from "../../src/cli/index.ts";
import { loadConfig } from "../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { captureIo, cli, tempDataDir } from "../helpers/cli.ts";
import { openForm, postForm, type Handle } from "../helpers/web.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

async function setup() {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const { org_id } = (await cli(dataDir, "admin", "org", "create", "--name", "Web Capital", "--json")).json;
  const { user_id } = (await cli(dataDir, "admin", "user", "create", "--org", org_id, "--email", "wes@web.vc", "--name", "Wes Web", "--admin", "--json")).json;
  return { dataDir, userId: user_id as string };
}

async function run(dataDir: string, argv: string[], o: { stdin?: string; env?: Record<string, string> } = {}) {
  const { io, out, err } = captureIo(o.env ?? {}, o.stdin ?? "");
  const code = await runCli([...argv, "--data-dir", dataDir], io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** The real app on the data dir's database, to send requests to. */
async function onApp(dataDir: string, fn: (handle: Handle) => Promise<void>) {
  const sqlite = openSqlite(join(dataDir, "dealgraph.db"), { busyTimeoutMs: 1000 });
  try {
    const app = createApp(createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), log: silentLog }));
    await fn((r) => app.handle(r));
  } finally {
    sqlite.close();
  }
}

async function signIn(handle: Handle, email: string, password: string): Promise<number> {
  const form = await openForm(handle, "http://localhost/app/sign-in");
  return (await postForm(handle, "http://localhost/app/sign-in", form, { email, password })).status;
}

describe("admin user password", () => {
  test("reads the password from stdin (first line); it then signs in; it is stored hashed", async () => {
    const { dataDir, userId } = await setup();
    const r = await run(dataDir, ["admin", "user", "password", "--user", userId], { stdin: "a long enough pw\n" });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe("password set for Wes Web <wes@web.vc>");
    const json = await run(dataDir, ["admin", "user", "password", "--user", userId, "--json"], { stdin: "the final password\r\nignored" });
    expect(JSON.parse(json.stdout)).toEqual({ user_id: userId, password_set: true });
    await onApp(dataDir, async (handle) => {
      expect(await signIn(handle, "wes@web.vc", "the final password")).toBe(303);
      expect(await signIn(handle, "wes@web.vc", "a long enough pw")).toBe(401);
    });
    const sqlite = openSqlite(join(dataDir, "dealgraph.db"), { busyTimeoutMs: 1000 });
    const row = sqlite.query<{ h: string }, [string]>("SELECT password_hash AS h FROM users WHERE id = ?").get(userId)!;
    sqlite.close();
    expect(row.h).toStartWith("$argon2");
    expect(row.h).not.toContain("the final password");
  });

  test("one-line errors: too short, empty stdin, unknown user, missing --user", async () => {
    const { dataDir, userId } = await setup();
    const short = await run(dataDir, ["admin", "user", "password", "--user", userId], { stdin: "short\n" });
    expect(short.code).toBe(1);
    expect(short.stderr).toBe("error: password: The password must be at least 10 characters long.");
    const empty = await run(dataDir, ["admin", "user", "password", "--user", userId], { stdin: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toStartWith("error: no password on stdin");
    expect(empty.stderr.split("\n")).toHaveLength(1);
    const unknown = await run(dataDir, ["admin", "user", "password", "--user", crypto.randomUUID()], { stdin: "long enough password\n" });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: No user with id /);
    const missing = await run(dataDir, ["admin", "user", "password"], { stdin: "long enough password\n" });
    expect(missing).toMatchObject({ code: 2, stderr: "error: --user is required" });
  });
});

describe("admin user link", () => {
  test("prints a one-time link on http://127.0.0.1:8080 by default, or DEALGRAPH_PUBLIC_URL", async () => {
    const { dataDir, userId } = await setup();
    const r = await run(dataDir, ["admin", "user", "link", "--user", userId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:8080\/app\/sign-in\/link\?token=[A-Za-z0-9_-]{43}$/);
    const pub = await run(dataDir, ["admin", "user", "link", "--user", userId, "--json"], { env: { DEALGRAPH_PUBLIC_URL: "https://deals.firm.example/" } });
    const json = JSON.parse(pub.stdout);
    expect(json.url).toMatch(/^https:\/\/deals\.firm\.example\/app\/sign-in\/link\?token=/);
    expect(json.expires_at).toMatch(/Z$/);

    const path = new URL(r.stdout).pathname + new URL(r.stdout).search;
    const token = new URL(r.stdout).searchParams.get("token")!;
    await onApp(dataDir, async (handle) => {
      const page = await openForm(handle, `http://localhost${path}`);
      expect(page.status).toBe(200);
      const post = () => postForm(handle, "http://localhost/app/sign-in/link", page, { token });
      const first = await post();
      expect(first.status).toBe(303);
      expect(first.headers.getSetCookie().some((c) => c.startsWith("dg_session="))).toBe(true);
      expect((await post()).status).toBe(410);
    });
  });

  test("an unknown user, and a bad DEALGRAPH_PUBLIC_URL: one-line errors", async () => {
    const { dataDir } = await setup();
    const unknown = await run(dataDir, ["admin", "user", "link", "--user", crypto.randomUUID()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: No user with id /);
    const bad = await run(dataDir, ["admin", "user", "link", "--user", crypto.randomUUID()], { env: { DEALGRAPH_PUBLIC_URL: "ftp://x" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("DEALGRAPH_PUBLIC_URL must be an http(s) URL");
  });
});
