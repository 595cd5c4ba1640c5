// The compiled binary, end to end: built (or reused when newer than its inputs), run from an empty
// temp dir outside the repo, spoken to over real HTTP on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, binaryStaleness, ROOT } from "../../scripts/build.ts";
import { Child, cleanEnv, run, runJson } from "../../scripts/lib/child-process.ts";
import { dataRoomForm, docxFile, pdfDeck, uploadForm } from "../helpers/decks.ts";
import { openForm, postForm } from "../helpers/web.ts";

const BUILD_TIMEOUT = 180_000;
const STEP_TIMEOUT = 60_000;
// The demo analyses its three dozen decks (some through LibreOffice) before it listens: 51 s was
// seen on a loaded 2-core machine; the in-process demo test allows 120 s.
const DEMO_START_TIMEOUT = 150_000;
const SERVE_START_TIMEOUT = 30_000;

const children: Child[] = [];
const tempDirs: string[] = [];

/**
 * Starts a long-running command of the binary in its own process group, registered for cleanup
 * before anything is awaited, so a start that fails or times out never leaves it running.
 */
function spawnServer(cmd: string[], cwd: string): Child {
  const child = new Child(cmd, { cwd, env: cleanEnv(), detached: true });
  children.push(child);
  return child;
}

/** SIGTERM to the whole group, SIGKILL after a grace period; resolves when the leader is gone. */
async function stopGroup(child: Child, graceMs = 5000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // the group is gone already
    }
  };
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return signal("SIGKILL");
  signal("SIGTERM");
  const exited = await Promise.race([child.proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
  signal("SIGKILL");
  if (!exited) await Promise.race([child.proc.exited, Bun.sleep(graceMs)]);
}

/** Waits for the lines a server prints, stopping its group if they never come. */
async function started<T>(child: Child, read: (child: Child) => Promise<T>): Promise<T> {
  try {
    return await read(child);
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
}

const startDemo = (cmd: string[], cwd: string) =>
  started(spawnServer(cmd, cwd), async (child) => ({
    child,
    url: (await child.waitForLine(/^Dealgraph demo listening on (http:\/\/\S+)/, DEMO_START_TIMEOUT, "demo URL"))[1],
    readKey: (await child.waitForLine(/^read key:\s+(ak_\S+)/, 5000, "demo read key"))[1],
    writeKey: (await child.waitForLine(/^write key:\s+(ak_\S+)/, 5000, "demo write key"))[1],
  }));

const startServe = (cmd: string[], cwd: string) =>
  started(spawnServer(cmd, cwd), async (child) => ({
    child,
    url: (await child.waitForLine(/^Dealgraph listening on (http:\/\/\S+)/, SERVE_START_TIMEOUT, "server URL"))[1],
  }));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-e2e-"));
  tempDirs.push(dir);
  return dir;
}

beforeAll(async () => {
  const stale = binaryStaleness();
  if (!stale) return;
  const r = await run([process.execPath, join(ROOT, "scripts", "build.ts"), "--no-smoke"], { cwd: ROOT, timeoutMs: BUILD_TIMEOUT - 5000 });
  if (r.code !== 0) throw new Error(`building ${BINARY} (${stale}) failed with exit code ${r.code}:\n${r.stdout}\n${r.stderr}`);
}, BUILD_TIMEOUT);

afterAll(async () => {
  await Promise.all(children.map((c) => stopGroup(c)));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("dealgraph demo (compiled binary)", () => {
  let url = "";
  let readKey = "";
  let writeKey = "";

  beforeAll(async () => {
    const cwd = tempDir();
    ({ url, readKey, writeKey } = await startDemo([BINARY, "demo", "--port", "0", "--data-dir", join(cwd, "data")], cwd));
  }, DEMO_START_TIMEOUT + 20_000);

  test("listens on 127.0.0.1 and prints two distinct keys", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readKey).toMatch(/^ak_[0-9A-Za-z]{38}$/);
    expect(writeKey).toMatch(/^ak_[0-9A-Za-z]{38}$/);
    expect(writeKey).not.toBe(readKey);
  });

  for (const via of ["bearer", "x-api-key"] as const) {
    test(`GET /api/v1/me with the read key via ${via}`, async () => {
      const headers: Record<string, string> = via === "bearer" ? { authorization: `Bearer ${readKey}` } : { "x-api-key": readKey };
      const r = await fetch(`${url}/api/v1/me`, { headers });
      const body = (await r.json()) as { user: { user_id: string }; org: { org_id: string }; key: { scope: string }; scope: string };
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toContain("application/json");
      expect(body.user.user_id).toBeString();
      expect(body.org.org_id).toBeString();
      expect(body.key.scope).toBe("read");
      expect(body.scope).toBe("key_user");
      expect(Number(r.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
      expect(r.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(r.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
      expect(r.headers.get("x-request-id")).toBeTruthy();
    });
  }

  test("GET /api/v1/me without a key: 401 with a JSON detail", async () => {
    const r = await fetch(`${url}/api/v1/me`);
    const body = (await r.json()) as { detail: unknown };
    expect(r.status).toBe(401);
    expect(r.headers.get("content-type")).toContain("application/json");
    expect(body.detail).toBeString();
    expect(body.detail as string).toContain("no key was sent");
    expect(r.headers.get("x-request-id")).toBeTruthy();
  });

  test("GET /healthz and /readyz (migrations embedded)", async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${url}/readyz`);
    const body = (await ready.json()) as { status: string; checks: { database: { status: string } } };
    expect(ready.status).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks.database.status).toBe("ok");
  });

  test("GET /api/v1/openapi.json: OpenAPI 3.1, API 1.10.0", async () => {
    const r = await fetch(`${url}/api/v1/openapi.json`);
    const doc = (await r.json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
    expect(r.status).toBe(200);
    expect(doc.openapi.startsWith("3.1")).toBe(true);
    expect(doc.info.version).toBe("1.10.0");
    expect(doc.paths["/api/v1/me"]).toBeDefined();
  });

  test("GET /api/v1/docs and its embedded swagger-ui assets", async () => {
    const page = await fetch(`${url}/api/v1/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("/api/v1/docs/swagger-ui-bundle.js");

    const js = await fetch(`${url}/api/v1/docs/swagger-ui-bundle.js`);
    const source = await js.text();
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(source.length).toBeGreaterThan(100_000);
    expect(source).toContain("SwaggerUIBundle");

    const css = await fetch(`${url}/api/v1/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    expect((await css.text()).length).toBeGreaterThan(10_000);
  });
  // The binary is built with --splitting: these modules are chunks loaded on first use, so only
  // the binary itself can show that they load (the MCP SDK and zod, busboy, unpdf, the Office readers).
  test("modules loaded on demand work in the binary: MCP tools/list and ask", async () => {
    const mcp = (id: number, method: string, params: unknown = {}) =>
      fetch(`${url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${readKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { result?: Record<string, any> } }));
    const list = await mcp(1, "tools/list");
    expect(list.status).toBe(200);
    expect(list.body.result!.tools.map((t: { name: string }) => t.name)).toEqual(["ask"]);
    const answer = await mcp(2, "tools/call", { name: "ask", arguments: { question: "show me the pipeline" } });
    expect(answer.status).toBe(200);
    expect(answer.body.result!.structuredContent.answers[0].function).toBe("list_deals");
    expect(answer.body.result!.structuredContent.answers[0].data.deals.length).toBeGreaterThan(0);
  });

  test(
    "modules loaded on demand work in the binary: a PDF upload analysed, a DOCX data-room file read",
    async () => {
      const auth = { authorization: `Bearer ${writeKey}` };
      const upload = await fetch(`${url}/api/v1/deals/analyze/upload`, {
        method: "POST",
        headers: auth,
        body: uploadForm(await pdfDeck(), "ledgerly.pdf", { company_name: `Binary Check ${Date.now()}` }),
      });
      expect(upload.status).toBe(202);
      const { deal_id } = (await upload.json()) as { deal_id: string };
      const finished = async () => {
        for (let i = 0; i < 600; i++) {
          const s = (await (await fetch(`${url}/api/v1/deals/${deal_id}/analysis`, { headers: auth })).json()) as { status: string; error: string | null };
          if (s.status === "succeeded" || s.status === "failed") return s;
          await Bun.sleep(100);
        }
        throw new Error("the analysis did not finish");
      };
      expect(await finished()).toMatchObject({ status: "succeeded", error: null });

      const room = await fetch(`${url}/api/v1/deals/${deal_id}/documents`, {
        method: "POST",
        headers: auth,
        body: dataRoomForm([[docxFile(["Shareholders agreement between the founders and the seed investors."]), "legal/sha.docx"]]),
      });
      expect(room.status).toBe(202);
      expect(await finished()).toMatchObject({ status: "succeeded", error: null });
      const inventory = (await (await fetch(`${url}/api/v1/deals/${deal_id}/documents`, { headers: auth })).json()) as {
        documents: { filename: string; status: string; page_count: number | null }[];
      };
      expect(inventory.documents.find((d) => d.filename === "sha.docx")).toMatchObject({ status: "extracted", page_count: 1 });
    },
    STEP_TIMEOUT,
  );
});

describe("dealgraph admin CLI + serve (compiled binary)", () => {
  let cwd = "";
  let dataDir = "";
  const cli = <T>(...args: string[]) => runJson<T>([BINARY, ...args, "--data-dir", dataDir], { cwd });

  beforeAll(() => {
    cwd = tempDir();
    dataDir = join(cwd, "data");
  });

  test(
    "org, user and key created with --json; the key works on `serve`; revocation is immediate across processes",
    async () => {
      const { org_id } = await cli<{ org_id: string }>("admin", "org", "create", "--name", "Binary Capital", "--json");
      expect(org_id).toBeString();
      const { user_id } = await cli<{ user_id: string }>(
        "admin", "user", "create", "--org", org_id, "--email", "ada@binary.vc", "--name", "Ada Binary", "--json",
      );
      expect(user_id).toBeString();
      const key = await cli<{ key_id: string; secret: string }>("admin", "key", "create", "--user", user_id, "--scope", "read", "--json");
      expect(key.key_id).toBeString();
      expect(key.secret).toMatch(/^ak_/);

      const served = await startServe([BINARY, "serve", "--port", "0", "--data-dir", dataDir], cwd);
      const me = () => fetch(`${served.url}/api/v1/me`, { headers: { authorization: `Bearer ${key.secret}` } });

      const before = await me();
      const body = (await before.json()) as { user: { user_id: string; email: string }; org: { org_id: string; name: string }; key: { key_id: string } };
      expect(before.status).toBe(200);
      expect(body.user).toMatchObject({ user_id, email: "ada@binary.vc" });
      expect(body.org).toEqual({ org_id, name: "Binary Capital" });
      expect(body.key.key_id).toBe(key.key_id);

      // The revoking process is not the serving one: only the shared database file links them.
      const revoke = await run([BINARY, "admin", "key", "revoke", key.key_id, "--data-dir", dataDir], { cwd });
      if (revoke.code !== 0) throw new Error(`admin key revoke exited with ${revoke.code}: ${revoke.stderr}`);
      expect(revoke.stdout).toContain(key.key_id);

      const after = await me();
      const denied = (await after.json()) as { detail: string };
      expect(after.status).toBe(401);
      expect(denied.detail).toContain("revoked");
    },
    STEP_TIMEOUT,
  );
});

describe("web app sign-in (compiled binary)", () => {
  test(
    "`admin user password` from stdin and `admin user link` work against `serve`; the pages and assets are embedded",
    async () => {
      const cwd = tempDir();
      const dataDir = join(cwd, "data");
      const cli = <T>(...args: string[]) => runJson<T>([BINARY, ...args, "--data-dir", dataDir], { cwd });
      const { org_id } = await cli<{ org_id: string }>("admin", "org", "create", "--name", "Web Binary", "--json");
      const { user_id } = await cli<{ user_id: string }>("admin", "user", "create", "--org", org_id, "--email", "wb@web.vc", "--name", "Web Binary", "--json");

      const setPassword = Bun.spawn([BINARY, "admin", "user", "password", "--user", user_id, "--data-dir", dataDir], {
        cwd,
        env: cleanEnv(),
        stdin: new TextEncoder().encode("binary password 1\n"),
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await setPassword.exited).toBe(0);
      expect(await new Response(setPassword.stdout).text()).toContain("password set for Web Binary");

      const served = await startServe([BINARY, "serve", "--port", "0", "--data-dir", dataDir], cwd);
      const link = await run([BINARY, "admin", "user", "link", "--user", user_id, "--data-dir", dataDir], { cwd, env: cleanEnv({ DEALGRAPH_PUBLIC_URL: served.url }) });
      expect(link.code).toBe(0);
      const url = link.stdout.trim();
      expect(url.startsWith(`${served.url}/app/sign-in/link?token=`)).toBe(true);

      const linkPage = await fetch(url);
      expect(linkPage.status).toBe(200);
      expect(await linkPage.text()).toContain("Continue as Web Binary");

      const form = await openForm(fetch, `${served.url}/app/sign-in`);
      const signIn = await postForm(fetch, `${served.url}/app/sign-in`, form, { email: "wb@web.vc", password: "binary password 1" });
      expect(signIn.status).toBe(303);
      const session = signIn.headers.getSetCookie().find((c) => c.startsWith("dg_session="))!.split(";")[0];
      const keys = await fetch(`${served.url}/app/keys`, { headers: { cookie: session } });
      expect(keys.status).toBe(200);
      expect(await keys.text()).toContain("Create a key");
      const css = await fetch(`${served.url}/app/assets/app.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get("content-type")).toContain("text/css");
    },
    STEP_TIMEOUT,
  );
});
