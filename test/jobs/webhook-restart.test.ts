// A real restart: `dealgraph serve` runs as a child process on a temp data dir, delivers to a
// receiver that keeps failing, is killed with SIGKILL between two attempts, and is started again.
// The second process has nothing but the files: it must resume the same delivery (same
// webhook-id, signed with the same secret) on its schedule and deliver it once the receiver
// recovers. (webhook-resilience.test.ts covers the same in process, with a second connection.)
import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { startReceiver, verifies, type Receiver } from "../helpers/webhooks.ts";

const REPO = join(import.meta.dir, "../..");
const children: Subprocess[] = [];
let receiver: Receiver | null = null;
let dataDir: string | null = null;
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill("SIGKILL");
    await child.exited;
  }
  receiver?.stop();
  receiver = null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
});

/** Polls `check` until it holds; the test's own timeout is the only limit. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await Bun.sleep(10);
}

/** `dealgraph serve` on a free port; resolves with its base URL once it says it listens. */
async function serve(env: Record<string, string>): Promise<{ child: Subprocess<"ignore", "pipe", "pipe">; url: string }> {
  const child = Bun.spawn([process.execPath, "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir!], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  children.push(child);
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`dealgraph serve exited before listening (${await child.exited}): ${seen}\n${await stderr}`);
    seen += decoder.decode(value, { stream: true });
    const url = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
    if (url) {
      // Keep draining its output so a full pipe never blocks the server.
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return { child, url };
    }
  }
}

test("SIGKILL mid-schedule, then a new `dealgraph serve`: the delivery resumes with the same webhook-id and succeeds once the receiver recovers", async () => {
  dataDir = tempDataDir();
  // Retries at a quarter of the real delays (0.44 s, 0.9 s, 1.8 s ...): a kill between attempts is easy to
  // place, and the schedule is nowhere near its end during the test.
  const env = { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1", DEALGRAPH_WEBHOOK_RETRY_SCALE: "0.25", DEALGRAPH_WEBHOOK_TIMEOUT_SECONDS: "2" };
  const orgId = (await cli(dataDir, "admin", "org", "create", "--name", "Restart Ventures", "--json")).json.org_id;
  const userId = (await cli(dataDir, "admin", "user", "create", "--org", orgId, "--email", "ops@restart.vc", "--name", "Ops", "--json")).json.user_id;
  const key = (await cli(dataDir, "admin", "key", "create", "--user", userId, "--scope", "write", "--json")).json.secret;
  let recovered = false;
  receiver = startReceiver(() => new Response(null, { status: recovered ? 200 : 503 }));
  const api = (base: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const read = async (base: string, path: string): Promise<any> => (await api(base, "GET", path)).json();

  const first = await serve(env);
  const created = await api(first.url, "POST", "/api/v1/webhooks", { url: receiver.url() });
  expect(created.status).toBe(201);
  const hook = (await created.json()) as { webhook_id: string; secret: string };

  // A run finishing in another process: its outbox row, which the server's poll picks up.
  const db = new Database(join(dataDir, "dealgraph.db"));
  try {
    db.query("INSERT INTO outbox_events (id, org_id, event, entity_id, result_url, run_id, created_at) VALUES (?, ?, 'research.completed', ?, ?, ?, ?)").run(
      crypto.randomUUID(),
      orgId,
      "r-restart",
      "/api/v1/research/r-restart",
      crypto.randomUUID(),
      new Date(Date.now() + 1000).toISOString(),
    );
    const delivery = db.query<{ id: string; attempts: number; lease_until: string | null; status: string }, []>(
      "SELECT id, attempts, lease_until, status FROM webhook_deliveries",
    );

    // Two failed attempts recorded, none in flight: kill it there, without any chance to clean up.
    await until(() => {
      const row = delivery.get();
      return !!row && row.attempts >= 2 && row.lease_until === null && receiver!.received.length === row.attempts;
    });
    first.child.kill("SIGKILL");
    await first.child.exited;
    const before = delivery.get()!;
    expect(before).toMatchObject({ status: "pending", attempts: receiver.received.length });

    const second = await serve(env);
    // It resumes on the schedule: one more failed attempt by the new process...
    await until(() => receiver!.received.length > before.attempts);
    recovered = true;
    // ...and, the receiver back, the delivery goes through.
    const ledgerPath = `/api/v1/webhooks/${hook.webhook_id}/deliveries`;
    await until(async () => (await read(second.url, ledgerPath)).deliveries[0]?.status === "succeeded");

    const [row] = (await read(second.url, ledgerPath)).deliveries;
    expect(row).toMatchObject({ delivery_id: before.id, status: "succeeded", attempts: receiver.received.length, last_response_code: 200, next_attempt_at: null });
    expect(receiver.received.length).toBeGreaterThan(before.attempts + 1);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual(Array(receiver.received.length).fill(before.id));
    expect(receiver.received.every((r) => verifies(hook.secret, r))).toBe(true);
    const detail = (await read(second.url, `${ledgerPath}/${before.id}`)).delivery;
    const codes = detail.attempts_log.map((a: { response_code: number }) => a.response_code);
    expect(codes).toEqual([...Array(codes.length - 1).fill(503), 200]);
    expect(detail.attempts_log.map((a: { attempt: number }) => a.attempt)).toEqual(codes.map((_: unknown, i: number) => i + 1));

    second.child.kill("SIGTERM");
    expect(await second.child.exited).toBe(0);
  } finally {
    db.close();
  }
});
