// The `mail-sync` job against a real Dovecot: it syncs every connection that is due, a bounded
// number at a time; a connection whose password stopped working is marked `error` with the reason
// and backed off (15 minutes, then 30...: never a tight loop) while the others go on; a server
// that goes down makes its connections fail and back off, and when it comes back they recover.
// And the job's own timer: an interval job runs every N seconds, a failing run does not stop it.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { findJob, nextRun, patternOf, startJobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config.ts";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClock } from "../helpers/clock.ts";
import { message, relationshipsOf } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../helpers/mail-servers.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const USERS = [
  { login: "ann@acme.vc", password: "pw-ann-secret-1" },
  { login: "ben@acme.vc", password: "pw-ben-secret-1" },
];
let dovecot: Dovecot | null = null;
let t: TestApp;

beforeAll(async () => {
  dovecot = await startDovecot({ users: USERS });
});
afterAll(async () => {
  await dovecot?.close();
});
afterEach(() => t?.close());

const job = () => findJob("mail-sync")!;
const minutes = (n: number) => n * 60_000;

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("the mail-sync job (Dovecot)", () => {
  test("a refused password is marked and backed off, the other connection goes on; a server down and back recovers", async () => {
    // Every line the server would log, to look for credentials in.
    const logged: string[] = [];
    const log = { info: (m: string, f?: object) => logged.push(JSON.stringify({ m, ...f })), warn: (m: string, f?: object) => logged.push(JSON.stringify({ m, ...f })), error: (m: string, f?: object) => logged.push(JSON.stringify({ m, ...f })) };
    t = createTestApp({ clock: new TestClock(NOW), log });
    const orgs = orgsService(t.deps);
    const org = orgs.createOrg("Acme Ventures");
    const service = connectionsService(t.deps);
    service.setMailServer(org.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    const [ann, ben] = USERS.map((u) => orgs.createUser({ orgId: org.id, email: u.login, name: u.login.split("@")[0] }));
    for (const [i, u] of [ann, ben].entries()) {
      dovecot!.deliver(USERS[i].login, "INBOX", [message({ from: `Founder <founder${i}@startup.io>`, to: USERS[i].login, date: "2026-11-20T10:00:00Z", id: `job-${i}@startup.io` })]);
      await service.connectMail(u.id, { login: USERS[i].login, password: USERS[i].password });
    }
    // Ben changes his password on the server; Dealgraph still has the old one.
    await dovecot!.setPassword(USERS[1].login, "pw-ben-changed-2");

    expect(await job().runOnce(t.deps)).toEqual({ connections: 2, failed: 1, messages_new: 1, meetings_new: 0, duplicates: 0 });
    const [annConn] = service.list(ann.id);
    const [benConn] = service.list(ben.id);
    expect(annConn).toMatchObject({ status: "ok", items_synced: 1, last_error: null, next_attempt_at: null });
    expect(benConn).toMatchObject({ status: "error", items_synced: 0, last_error: expect.stringMatching(/refused the login and password/), next_attempt_at: new Date(Date.parse(NOW) + minutes(15)).toISOString() });
    expect(relationshipsOf(t.deps, ann.id).has("founder0@startup.io")).toBe(true);

    // The next runs within the backoff do not try Ben again.
    t.clock.advance(minutes(5));
    expect(await job().runOnce(t.deps)).toMatchObject({ connections: 1, failed: 0 });
    t.clock.advance(minutes(11));
    expect(await job().runOnce(t.deps)).toMatchObject({ connections: 2, failed: 1 });
    expect(service.list(ben.id)[0]).toMatchObject({ status: "error", next_attempt_at: new Date(t.clock.now().getTime() + minutes(30)).toISOString() });

    // Ben reconnects with the new password: the error is gone and he is synced at the next run.
    await service.connectMail(ben.id, { login: USERS[1].login, password: "pw-ben-changed-2" });
    expect(service.list(ben.id)[0]).toMatchObject({ status: "never_synced", last_error: null, next_attempt_at: null });
    expect(await job().runOnce(t.deps)).toMatchObject({ connections: 2, failed: 0, messages_new: 1 });

    // The server goes down: both fail, with the reason, and back off by an interval.
    await dovecot!.stop();
    t.clock.advance(minutes(1));
    expect(await job().runOnce(t.deps)).toMatchObject({ connections: 2, failed: 2 });
    for (const u of [ann, ben]) {
      expect(service.list(u.id)[0]).toMatchObject({ status: "error", last_error: expect.stringMatching(/cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/), next_attempt_at: new Date(t.clock.now().getTime() + 300_000).toISOString() });
    }
    // It comes back, with new mail; after the backoff, both recover.
    await dovecot!.start();
    dovecot!.deliver(USERS[0].login, "INBOX", [message({ from: "Founder <founder0@startup.io>", to: USERS[0].login, date: "2026-11-21T10:00:00Z", id: "job-back@startup.io" })]);
    expect(await job().runOnce(t.deps)).toMatchObject({ connections: 0 });
    t.clock.advance(minutes(6));
    expect(await job().runOnce(t.deps)).toMatchObject({ connections: 2, failed: 0, messages_new: 1 });
    for (const u of [ann, ben]) expect(service.list(u.id)[0]).toMatchObject({ status: "ok", last_error: null, next_attempt_at: null });
    expect(relationshipsOf(t.deps, ann.id).get("founder0@startup.io")).toMatchObject({ received: 2 });
    // The failures were logged, with their reasons and never a password.
    expect(logged.filter((l) => l.includes("connection sync failed")).length).toBe(4);
    for (const secret of [...USERS.map((u) => u.password), "pw-ben-changed-2"]) expect(logged.filter((l) => l.includes(secret))).toEqual([]);
  }, 60_000);
});

describe("the job's schedule", () => {
  test("mail-sync runs every DEALGRAPH_SYNC_INTERVAL_SECONDS (default 300, at least 10)", () => {
    expect(patternOf(job(), loadConfig({}))).toBe("every 300 s");
    expect(patternOf(job(), loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: "45" }))).toBe("every 45 s");
    expect(nextRun(job(), new Date(NOW), loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: "45" }))?.toISOString()).toBe("2026-11-22T12:00:45.000Z");
    expect(() => loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: "5" })).toThrow(/DEALGRAPH_SYNC_INTERVAL_SECONDS must be a number >= 10/);
    expect(() => loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: "soon" })).toThrow(/DEALGRAPH_SYNC_INTERVAL_SECONDS must be/);
  });

  test("an interval job runs on its own timer, and a failing run does not stop it", async () => {
    t = createTestApp();
    let ran = 0;
    let failed = 0;
    const running = startJobs(t.deps, [
      { id: "fails", pattern: "* * * * *", everySeconds: () => 0.05, description: "always throws", runOnce: () => { failed++; throw new Error("boom"); } },
      { id: "counts", pattern: "* * * * *", everySeconds: () => 0.05, description: "counts its runs", runOnce: () => ({ ran: ++ran }) },
    ]);
    try {
      expect(running.next("counts")).toBeInstanceOf(Date);
      const deadline = Date.now() + 5000;
      while ((ran < 3 || failed < 3) && Date.now() < deadline) await Bun.sleep(20);
    } finally {
      running.stop();
    }
    expect(ran).toBeGreaterThanOrEqual(3);
    expect(failed).toBeGreaterThanOrEqual(3);
    const stoppedAt = ran;
    await Bun.sleep(200);
    expect(ran).toBe(stoppedAt);
  });
});
