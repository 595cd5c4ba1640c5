// Connected mailboxes against a real Dovecot (Debian's dovecot-imapd, started by the test helper on
// loopback with its own config): connecting probes first (a wrong password, a host that is down,
// an untrusted certificate store nothing); a sync reads INBOX and Sent, never Junk, Trash or
// Drafts; it is incremental (UIDs), survives a new UIDVALIDITY without counting anything twice,
// counts a message imported from a file and synced once, is bounded by --since, and a failing
// connection is marked with its reason and backed off while the others go on.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../../src/modules/connections/connections.sync.ts";
import { importMail } from "../../../src/modules/network/import/network.import.ts";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { filesDir, mbox, message, relationshipsOf, snapshot, writeTo } from "../../helpers/import-files.ts";
import { hasDovecot, startDovecot, testPki, type Dovecot } from "../../helpers/mail-servers.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const day = (n: number) => new Date(Date.parse(NOW) - n * 86_400_000).toISOString();
const USERS = ["alice", "bob", "carol", "dan", "erin", "frank", "gina", "hank", "ivy", "jack", "kim", "leo"].map((n) => ({ login: `${n}@acme.vc`, password: `pw-${n}-secret-1` }));

let dovecot: Dovecot | null = null;
let t: TestApp;
let free = 0;

beforeAll(async () => {
  dovecot = await startDovecot({ users: USERS, tls: true });
});
afterAll(async () => {
  await dovecot?.close();
});
afterEach(() => {
  t?.close();
});

/** A fresh app with an org whose server is the test Dovecot (plaintext on loopback), and the next free mailbox user. */
function setup(server: { security?: "plain" | "tls" | "starttls"; ca?: boolean } = {}) {
  t = createTestApp({ clock: new TestClock(NOW) });
  const orgs = orgsService(t.deps);
  const org = orgs.createOrg("Acme Ventures");
  const account = USERS[free++];
  const user = orgs.createUser({ orgId: org.id, email: account.login, name: "Member" });
  const service = connectionsService(t.deps);
  const security = server.security ?? "plain";
  service.setMailServer(org.id, { imap: `127.0.0.1:${security === "tls" ? dovecot!.tlsPort : dovecot!.port}`, security, caPem: server.ca ? testPki().caPem : null });
  return { org, user, account, service, sync: connectionsSync(t.deps) };
}

const interactions = () => (t.deps.db.$client.query("SELECT count(*) AS n FROM interactions").get() as { n: number }).n;

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("connected mailboxes (Dovecot)", () => {
  test("connecting logs in first: a wrong password, a server that is down and an untrusted certificate store nothing", async () => {
    const { user, account, service } = setup();
    await expect(service.connectMail(user.id, { login: account.login, password: "not-the-password" })).rejects.toThrow(/refused the login and password/);
    expect(service.list(user.id)).toEqual([]);

    // TLS to a certificate signed by a CA nobody trusts: refused, naming --ca-file.
    const orgId = user.orgId!;
    service.setMailServer(orgId, { imap: `127.0.0.1:${dovecot!.tlsPort}`, security: "tls" });
    await expect(service.connectMail(user.id, { login: account.login, password: account.password })).rejects.toThrow(/not signed by a trusted authority.*--ca-file/);
    // STARTTLS required on the plaintext port: the same certificate, the same refusal.
    service.setMailServer(orgId, { imap: `127.0.0.1:${dovecot!.port}`, security: "starttls" });
    await expect(service.connectMail(user.id, { login: account.login, password: account.password })).rejects.toThrow(/not signed by a trusted authority/);
    // Nothing listens there.
    service.setMailServer(orgId, { imap: "127.0.0.1:1", security: "plain" });
    await expect(service.connectMail(user.id, { login: account.login, password: account.password })).rejects.toThrow(/cannot reach 127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    expect(service.list(user.id)).toEqual([]);

    // With the firm's CA: TLS and STARTTLS both verify, and the connection is stored.
    for (const [port, security] of [[dovecot!.tlsPort!, "tls"], [dovecot!.port, "starttls"]] as const) {
      service.setMailServer(orgId, { imap: `127.0.0.1:${port}`, security, caPem: testPki().caPem });
      const { connection_id } = await service.connectMail(user.id, { login: account.login, password: account.password });
      expect(service.list(user.id)).toMatchObject([{ connection_id, kind: "mail", account: account.login, status: "never_synced", items_synced: 0, last_error: null }]);
    }
    // Connecting the same account again updates it: still one connection.
    expect(service.list(user.id)).toHaveLength(1);
  }, 30_000);

  test("a sync reads INBOX and Sent (never Junk, Trash, Drafts or other folders), by the importers' rules, and only what is new the next time", async () => {
    const { user, account, service, sync } = setup({ security: "tls", ca: true });
    const me = account.login;
    dovecot!.deliver(me, "INBOX", [
      message({ from: "Jane Doe <jane@target.com>", to: me, date: day(10), id: "jane-1@target.com" }),
      message({ from: "Omar <omar@fund.vc>", to: me, cc: "jane@target.com", date: day(9), id: "omar-1@fund.vc" }),
      message({ from: "news@letters.com", to: me, date: day(8), id: "news-1@letters.com", headers: ["List-Id: <weekly.letters.com>"] }),
      message({ from: "noreply@saas.io", to: me, date: day(8), id: "robot-1@saas.io" }),
    ]);
    dovecot!.deliver(me, "Sent", [message({ from: me, to: "Jane Doe <jane@target.com>", date: day(7), id: "me-1@acme.vc" })]);
    dovecot!.deliver(me, "Junk", [message({ from: "Spammer <win@prizes.biz>", to: me, date: day(6), id: "spam-1@prizes.biz" })]);
    dovecot!.deliver(me, "Trash", [message({ from: "Old <old@gone.com>", to: me, date: day(6), id: "trash-1@gone.com" })]);
    dovecot!.deliver(me, "Drafts", [message({ from: me, to: "draft@never.com", date: day(6), id: "draft-1@acme.vc" })]);
    dovecot!.deliver(me, "Archive", [message({ from: "Arch <arch@kept.com>", to: me, date: day(6), id: "arch-1@kept.com" })]);

    const { connection_id } = await service.connectMail(user.id, { login: me, password: account.password });
    const first = await sync.syncUser(user.id);
    expect(first).toEqual({ connections: [{ connection_id, status: "ok", error: null, messages_new: 3, meetings_new: 0, duplicates: 0, skipped: 2 }] });
    const rels = relationshipsOf(t.deps, user.id);
    expect([...rels.keys()].sort()).toEqual(["jane@target.com", "omar@fund.vc"]);
    expect(rels.get("jane@target.com")).toMatchObject({ sent: 1, received: 1, name: "Jane Doe" });
    expect(rels.has("win@prizes.biz") || rels.has("old@gone.com") || rels.has("draft@never.com") || rels.has("arch@kept.com")).toBe(false);
    expect(service.list(user.id)).toMatchObject([{ status: "ok", items_synced: 3, last_synced_at: NOW, last_error: null, last_result: { messages_new: 3, skipped: 2 } }]);

    // Who-knows sees the synced mail.
    const key = apiKeysService(t.deps).create({ userId: user.id, scope: "read" }).secret;
    const who = (await t.request("GET", "/api/v1/network/who-knows?domain=target.com", { key })).json;
    expect(who.paths).toMatchObject([{ email: "jane@target.com", signals: { emails_sent: 1, emails_received: 1 } }]);

    // Nothing new: nothing read. New mail: only it.
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: 0, duplicates: 0, skipped: 0 });
    dovecot!.deliver(me, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: me, date: day(1), id: "jane-2@target.com" })]);
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: 1, duplicates: 0, skipped: 0 });
    expect(relationshipsOf(t.deps, user.id).get("jane@target.com")).toMatchObject({ sent: 1, received: 2 });
    expect(service.list(user.id)[0].items_synced).toBe(4);
  }, 30_000);

  test("a new UIDVALIDITY re-reads the folder and counts nothing twice", async () => {
    const { user, account, service, sync } = setup();
    const me = account.login;
    dovecot!.deliver(me, "INBOX", [1, 2, 3].map((i) => message({ from: `P${i} <p${i}@corp.com>`, to: me, date: day(5 - i), id: `uv-${i}@corp.com` })));
    await service.connectMail(user.id, { login: me, password: account.password });
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ messages_new: 3 });
    const before = snapshot(t.deps);

    dovecot!.setUidValidity(me, "INBOX", 4242);
    const again = (await sync.syncUser(user.id)).connections[0];
    expect(again).toMatchObject({ status: "ok", messages_new: 0, duplicates: 3 });
    expect(snapshot(t.deps)).toEqual(before);
    expect(service.list(user.id)[0].items_synced).toBe(3);
    expect(t.deps.db.$client.query("SELECT uid_validity, last_uid FROM connection_folders WHERE name = 'INBOX'").get()).toEqual({ uid_validity: "4242", last_uid: 3 });
  }, 30_000);

  test("a message imported from a file and synced counts once, whichever comes first", async () => {
    const { user, account, service, sync } = setup();
    const me = account.login;
    const shared = { from: "Jane Doe <jane@target.com>", to: me, date: day(3), id: "both-1@target.com" };
    const later = { from: "Jane Doe <jane@target.com>", to: me, date: day(2), id: "both-2@target.com" };
    importMail(t.deps, { userId: user.id, path: writeTo(filesDir(), "export.mbox", mbox([shared])) });
    dovecot!.deliver(me, "INBOX", [message(shared), message(later)]);
    await service.connectMail(user.id, { login: me, password: account.password });
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ messages_new: 1, duplicates: 1 });
    // And the file again after the sync: both already there.
    const stats = importMail(t.deps, { userId: user.id, path: writeTo(filesDir(), "export2.mbox", mbox([shared, later])) });
    expect(stats).toMatchObject({ imported: 0, duplicates: 2 });
    expect(relationshipsOf(t.deps, user.id).get("jane@target.com")).toMatchObject({ received: 2 });
    expect(interactions()).toBe(2);
  }, 30_000);

  test("a server that stops in the middle of a sync: it ends after its batch and frees the connection; the next sync resumes, counting nothing twice", async () => {
    const { user, account, service, sync } = setup();
    const me = account.login;
    const N = 5_000;
    dovecot!.deliver(me, "INBOX", Array.from({ length: N }, (_, i) => message({ from: `P${i % 97} <p${i % 97}@corp${i % 11}.com>`, to: me, date: day(40 - i / 200), id: `stop-${i}@corp.com` })));
    await service.connectMail(user.id, { login: me, password: account.password });
    const lastUid = () => (t.deps.db.$client.query("SELECT last_uid FROM connection_folders WHERE name = 'INBOX'").get() as { last_uid: number } | null)?.last_uid ?? 0;
    const running = sync.syncOne(service.list(user.id)[0].connection_id);
    while (lastUid() === 0) await Bun.sleep(2);
    sync.stop();
    expect(await running).toBeNull();
    const committed = lastUid();
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(N);
    expect(service.list(user.id)[0]).toMatchObject({ status: "never_synced", items_synced: committed, last_error: null, progress: null });
    expect(interactions()).toBe(committed);

    // The next server (its own services on the same database and key) resumes where it stopped.
    const next = { ...t.deps };
    expect((await connectionsSync(next).syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: N - committed, duplicates: 0 });
    expect(interactions()).toBe(N);
  }, 60_000);

  test("--since bounds the first backfill; folders can be chosen, never Junk", async () => {
    const { user, account, service, sync } = setup();
    const me = account.login;
    await expect(service.connectMail(user.id, { login: me, password: account.password, folders: ["INBOX", "Junk"] })).rejects.toThrow(/Junk is the Junk folder: junk, trash and drafts are never read/);
    await expect(service.connectMail(user.id, { login: me, password: account.password, folders: ["Nope"] })).rejects.toThrow(/no folder "Nope"/);
    await expect(service.connectMail(user.id, { login: me, password: account.password, since: "2026-02-30" })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(service.connectMail(user.id, { login: me, password: account.password, since: "2099-01-01" })).rejects.toThrow(/in the future/);
    expect(service.list(user.id)).toEqual([]);

    // The archive holds mail from 400 and 30 days ago; the backfill goes back a year.
    dovecot!.deliver(me, "Archive", [
      message({ from: "Old <old@corp.com>", to: me, date: day(400), id: "since-1@corp.com" }),
      message({ from: "Recent <recent@corp.com>", to: me, date: day(30), id: "since-2@corp.com" }),
    ]);
    await service.connectMail(user.id, { login: me, password: account.password, folders: ["Archive"], since: day(365).slice(0, 10) });
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: 1, skipped: 0 });
    // The backfill is done: what arrives from now on is read whatever its date; what it left out stays out.
    dovecot!.deliver(me, "Archive", [message({ from: "Forwarded <fwd@corp.com>", to: me, date: day(500), id: "since-3@corp.com" })]);
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: 1 });
    expect([...relationshipsOf(t.deps, user.id).keys()]).toEqual(["fwd@corp.com", "recent@corp.com"]);
  }, 30_000);
});
