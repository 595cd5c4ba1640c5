// Live mail under `serve` (the real server wiring: startServer with its background work) against a
// real Dovecot on loopback: with the interval job set to an hour, a message delivered to INBOX
// shows in who-knows because the mailbox's IMAP IDLE session said it arrived; when the server
// drops the session (Dovecot stopped and started again) it is re-established and the next message
// counts too; the server stops cleanly with the session open. Generous timeouts, no timing assertion.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type Running } from "../../../src/cli/serve.ts";
import { connectionsIdle } from "../../../src/modules/connections/connections.idle.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../../src/modules/connections/connections.sync.ts";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { message } from "../../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../../helpers/mail-servers.ts";

const MAYA = { login: "maya@idle.vc", password: "idle-Pa55word-maya" };
let dovecot: Dovecot | null = null;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [MAYA] });
});
afterAll(async () => {
  await dovecot?.close();
});

async function until<T>(what: string, probe: () => T | Promise<T>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await Bun.sleep(100);
  }
}

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("live mail: IMAP IDLE under serve (Dovecot)", () => {
  test("a new message counts in who-knows without waiting for the interval; a dropped IDLE session comes back; the server stops cleanly", async () => {
    // What the server logs, to know when the interval job's first run is over (and that no secret is in it).
    const logged: { msg: string; fields: Record<string, unknown> }[] = [];
    const record = (msg: string, fields: Record<string, unknown> = {}) => void logged.push({ msg, fields });
    const t: TestApp = createTestApp({ file: true, clock: new TestClock(new Date().toISOString()), env: { DEALGRAPH_SYNC_INTERVAL_SECONDS: "3600" }, log: { info: record, warn: record, error: record } });
    let running: Running | null = null;
    try {
      const orgs = orgsService(t.deps);
      const org = orgs.createOrg("Idle Ventures");
      const user = orgs.createUser({ orgId: org.id, email: MAYA.login, name: "Maya", shareNetwork: true });
      const service = connectionsService(t.deps);
      service.setMailServer(org.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
      const { connection_id } = await service.connectMail(user.id, { login: MAYA.login, password: MAYA.password });
      await connectionsSync(t.deps).syncUser(user.id);
      const key = apiKeysService(t.deps).create({ userId: user.id, scope: "read" }).secret;

      t.deps.config.port = 0;
      running = startServer(t.deps);
      const base = running.url;
      const idle = connectionsIdle(t.deps);
      const watching = () => idle.states()[connection_id];
      await until("the IDLE session", () => watching()?.state === "idle");
      // One session per mailbox, on INBOX.
      expect(Object.keys(idle.states())).toEqual([connection_id]);
      // The interval job's first run comes a few seconds after start, the next one in an hour: from
      // when the first is over, only the IDLE session can bring mail in.
      await until("the interval job's first run", () => logged.some((l) => l.msg === "job finished" && l.fields.job === "mail-sync"));

      const counts = async (domain: string) => {
        const r = await fetch(`${base}/api/v1/network/who-knows?domain=${domain}`, { headers: { authorization: `Bearer ${key}` } });
        expect(r.status).toBe(200);
        return ((await r.json()) as { paths: unknown[] }).paths.length > 0;
      };
      const deliver = (n: number) => {
        const domain = `newco${n}.example`;
        const date = new Date(t.deps.clock.now().getTime() - 60_000).toISOString();
        dovecot!.deliver(MAYA.login, "INBOX", [message({ from: `Founder ${n} <founder@${domain}>`, to: MAYA.login, date, id: `idle-${n}@${domain}` })]);
        return domain;
      };

      const first = deliver(1);
      await until("the first message in who-knows", () => counts(first));

      // The server drops the session: it is re-established (with backoff) and IDLE goes on.
      await dovecot!.stop();
      await until("the watcher to notice the drop", () => watching()?.state !== "idle");
      await dovecot!.start();
      await until("the IDLE session again", () => watching()?.state === "idle" && watching()!.sessions >= 2);
      const second = deliver(2);
      await until("the second message in who-knows", () => counts(second));
      expect(watching()).toMatchObject({ state: "idle" });

      // The ledger shows each of them read on its own sync.
      const ledger = (await (await fetch(`${base}/api/v1/me/connections/${connection_id}/ledger`, { headers: { authorization: `Bearer ${key}` } })).json()) as { ledger: { folder: string; imported: number }[] };
      expect(ledger.ledger.filter((e) => e.folder === "INBOX" && e.imported > 0).length).toBeGreaterThanOrEqual(1);
      expect(ledger.ledger.reduce((n, e) => n + e.imported, 0)).toBe(2);

      // Stopping closes the session and waits for what it started.
      await running.stop();
      running = null;
      expect(idle.states()).toEqual({});
      expect(logged.some((l) => l.msg === "idle: session ended, reconnecting")).toBe(true);
      expect(JSON.stringify(logged)).not.toContain(MAYA.password);
    } finally {
      await running?.stop();
      t.close();
    }
  }, 180_000);
});
