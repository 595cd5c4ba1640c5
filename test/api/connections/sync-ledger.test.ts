// The sync ledger against a real Dovecot (started on loopback by the test helper): one row per sync
// and folder with the UID range and how each message was counted (imported, duplicate, skipped by
// reason, before --since included), a row with seen 0 and an empty range (uid_from = uid_to + 1)
// when nothing is new, a new row under a changed
// UIDVALIDITY that counts nothing twice; the invariant (messages on the server up to the
// high-water UID = the ledger's counts) checked against the server; and
// GET /api/v1/me/connections/{connection_id}/ledger: auth, another user's and another org's
// connection 404, malformed ids 404, the contract's shape, pages (limit, offset, total, has_more)
// and their bad values (422, before the 404 of an unknown connection).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { checkLedger } from "../../../src/modules/connections/connections.ledger.check.ts";
import { LedgerResponse } from "../../../src/modules/connections/connections.ledger.model.ts";
import { connectionsLedger } from "../../../src/modules/connections/connections.ledger.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../../src/modules/connections/connections.sync.ts";
import { connections } from "../../../src/modules/connections/connections.tables.ts";
import { apiKeysService } from "../../../src/modules/identity/keys.service.ts";
import { importMail } from "../../../src/modules/network/import/network.import.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { authScenarios, malformedIdScenarios } from "../../helpers/auth-scenarios.ts";
import { TestClock } from "../../helpers/clock.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { filesDir, mbox, message, writeTo } from "../../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../../helpers/mail-servers.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const day = (n: number) => new Date(Date.parse(NOW) - n * 86_400_000).toISOString();
const USERS = ["alice", "bob", "carol"].map((n) => ({ login: `${n}@ledger.vc`, password: `pw-${n}-ledger-1` }));

/** A connection row of the user, as connecting stores it (the auth scenarios need one synchronously; nothing syncs it). */
function insertConnection(t: TestApp, orgId: string, userId: string): string {
  const id = crypto.randomUUID();
  const now = t.deps.clock.now().toISOString();
  t.deps.db
    .insert(connections)
    .values({ id, orgId, userId, kind: "mail", source: "imap", account: `${userId}@mail.test`, accountKey: `imap:${id}`, secretSealed: "never-opened", createdAt: now, updatedAt: now })
    .run();
  return id;
}

describe("GET /api/v1/me/connections/{connection_id}/ledger", () => {
  const own = new WeakMap<Fixture, string>();
  const ownPath = (f: Fixture, t: TestApp) => {
    if (!own.has(f)) own.set(f, insertConnection(t, f.orgs.acme.id, f.users.alice.id));
    return `/api/v1/me/connections/${own.get(f)}/ledger`;
  };
  runScenarios([
    ...authScenarios({ method: "GET", path: ownPath, scope: "read", ok: 200, foreignPath: (f, t) => `/api/v1/me/connections/${insertConnection(t, f.orgs.globex.id, f.users.carol.id)}/ledger` }),
    ...malformedIdScenarios({ method: "GET", template: "/api/v1/me/connections/:connection_id/ledger" }),
    {
      name: "a teammate's connection -> 404",
      method: "GET",
      path: (f, t) => `/api/v1/me/connections/${insertConnection(t, f.orgs.acme.id, f.users.bob.id)}/ledger`,
      key: "write",
      expect: { status: 404, body: { detail: expect.stringMatching(/No connection with id/) } },
    },
    {
      name: "an unknown connection -> 404",
      method: "GET",
      path: `/api/v1/me/connections/${crypto.randomUUID()}/ledger`,
      key: "read",
      expect: { status: 404, body: { detail: expect.stringMatching(/No connection with id/) } },
    },
  ]);
});

let dovecot: Dovecot | null = null;
let t: TestApp;

beforeAll(async () => {
  dovecot = await startDovecot({ users: USERS });
});
afterAll(async () => {
  await dovecot?.close();
});
afterEach(() => t?.close());

function setup(account: { login: string; password: string }) {
  t = createTestApp({ clock: new TestClock(NOW) });
  const orgs = orgsService(t.deps);
  const org = orgs.createOrg("Ledger Ventures");
  const user = orgs.createUser({ orgId: org.id, email: account.login, name: "Member" });
  const service = connectionsService(t.deps);
  service.setMailServer(org.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
  return { user, service, sync: connectionsSync(t.deps), ledger: connectionsLedger(t.deps) };
}

const interactions = () => (t.deps.db.$client.query("SELECT count(*) AS n FROM interactions").get() as { n: number }).n;

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("the sync ledger (Dovecot)", () => {
  test("a row per sync and folder: every message on the server counted once, by how; the invariant holds against the server, across a new UIDVALIDITY", async () => {
    const me = USERS[0].login;
    const { user, service, sync, ledger } = setup(USERS[0]);
    const shared = { from: "Jane Doe <jane@target.com>", to: me, date: day(3), id: "shared-1@target.com" };
    // Imported from a file first: the sync finds it a duplicate.
    importMail(t.deps, { userId: user.id, path: writeTo(filesDir(), "export.mbox", mbox([shared])) });
    dovecot!.deliver(me, "INBOX", [
      message({ from: "Jane Doe <jane@target.com>", to: me, date: day(10), id: "jane-1@target.com" }),
      message({ from: "Omar <omar@fund.vc>", to: me, date: day(9), id: "omar-1@fund.vc" }),
      message({ from: "news@letters.com", to: me, date: day(8), id: "news-1@letters.com", headers: ["List-Id: <weekly.letters.com>"] }),
      message(shared),
      // Before --since (a year back): on the server, looked at, not read.
      message({ from: "Old <old@corp.com>", to: me, date: day(400), id: "old-1@corp.com" }),
    ]);
    const { connection_id } = await service.connectMail(user.id, { login: me, password: USERS[0].password, since: day(365).slice(0, 10) });
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: 2, duplicates: 1, skipped: 1 });

    const first = ledger.ledgerOf(connection_id).ledger;
    // Sent is empty: its row says so (seen 0, the empty range 1..0).
    expect(first).toEqual([
      { synced_at: NOW, folder: "INBOX", uidvalidity: expect.stringMatching(/^\d+$/), uid_from: 1, uid_to: 5, seen: 5, imported: 2, duplicates: 1, skipped: { mailing_list: 1, before_since: 1 }, failed: {} },
      { synced_at: NOW, folder: "Sent", uidvalidity: expect.stringMatching(/^\d+$/), uid_from: 1, uid_to: 0, seen: 0, imported: 0, duplicates: 0, skipped: {}, failed: {} },
    ]);
    expect(await checkLedger(t.deps, connection_id)).toEqual([
      { folder: "INBOX", uidvalidity: first[0].uidvalidity, uidvalidity_changed: false, high_water: 5, on_server: 5, counted: 5, missing: 0, excess: 0 },
      { folder: "Sent", uidvalidity: expect.any(String), uidvalidity_changed: false, high_water: 0, on_server: 0, counted: 0, missing: 0, excess: 0 },
    ]);

    // Two syncs with nothing new: two more rows per folder, seen 0, the empty range past the
    // high-water; the invariant still holds against the server.
    for (const minutes of [5, 10]) {
      t.clock.advance(5 * 60_000);
      await sync.syncUser(user.id);
      const at = new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
      expect(ledger.ledgerOf(connection_id).ledger.slice(-2)).toEqual([
        { synced_at: at, folder: "INBOX", uidvalidity: first[0].uidvalidity, uid_from: 6, uid_to: 5, seen: 0, imported: 0, duplicates: 0, skipped: {}, failed: {} },
        { synced_at: at, folder: "Sent", uidvalidity: first[1].uidvalidity, uid_from: 1, uid_to: 0, seen: 0, imported: 0, duplicates: 0, skipped: {}, failed: {} },
      ]);
    }
    expect(ledger.ledgerOf(connection_id).total).toBe(6);
    expect((await checkLedger(t.deps, connection_id)).map((c) => [c.folder, c.high_water, c.on_server, c.counted, c.missing, c.excess])).toEqual([
      ["INBOX", 5, 5, 5, 0, 0],
      ["Sent", 0, 0, 0, 0, 0],
    ]);
    // New mail in both folders: a row each, from the next UID.
    t.clock.advance(60_000);
    dovecot!.deliver(me, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: me, date: day(1), id: "jane-2@target.com" }), message({ from: "noreply@saas.io", to: me, date: day(1), id: "robot-1@saas.io" })]);
    dovecot!.deliver(me, "Sent", [message({ from: me, to: "Omar <omar@fund.vc>", date: day(1), id: "me-1@ledger.vc" })]);
    await sync.syncUser(user.id);
    const second = ledger.ledgerOf(connection_id).ledger;
    expect(second.slice(6)).toMatchObject([
      { synced_at: t.clock.now().toISOString(), folder: "INBOX", uid_from: 6, uid_to: 7, seen: 2, imported: 1, duplicates: 0, failed: {} },
      { folder: "Sent", uid_from: 1, uid_to: 1, seen: 1, imported: 1, duplicates: 0, skipped: {}, failed: {} },
    ]);
    expect(Object.values(second[6].skipped)).toEqual([1]);
    // What the ledger imported is what the network holds (the file's one message besides).
    expect(second.reduce((n, e) => n + e.imported, 0)).toBe(interactions() - 1);

    // The server rebuilds its index: UIDs are new names. The folder is read again under the new
    // UIDVALIDITY: every message a duplicate or skipped as before, nothing imported twice.
    dovecot!.setUidValidity(me, "INBOX", 4242);
    const before = interactions();
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", messages_new: 0 });
    expect(interactions()).toBe(before);
    const third = ledger.ledgerOf(connection_id).ledger;
    expect(third).toHaveLength(10);
    expect(third[8]).toMatchObject({ folder: "INBOX", uidvalidity: "4242", uid_from: 1, uid_to: 7, seen: 7, imported: 0, duplicates: 4, skipped: { mailing_list: 1, before_since: 1 } });
    expect(third[9]).toMatchObject({ folder: "Sent", uid_from: 2, uid_to: 1, seen: 0 });
    const checks = await checkLedger(t.deps, connection_id);
    expect(checks.map((c) => [c.folder, c.uidvalidity, c.on_server, c.counted, c.missing, c.excess])).toEqual([
      ["INBOX", "4242", 7, 7, 0, 0],
      ["Sent", expect.any(String), 1, 1, 0, 0],
    ]);

    // The API gives the same rows to the connection's user, in the contract's shape.
    const key = apiKeysService(t.deps).create({ userId: user.id, scope: "read" }).secret;
    const res = await t.request("GET", `/api/v1/me/connections/${connection_id}/ledger`, { key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ connection_id, ledger: third, total: 10, limit: 100, offset: 0, has_more: false });
    expect([...Value.Errors(LedgerResponse, res.json)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(res.text).not.toContain(USERS[0].password);
    // A page at a time, oldest first: the same rows in the same order.
    const pages: unknown[] = [];
    for (let offset = 0; ; offset += 4) {
      const page = await t.request("GET", `/api/v1/me/connections/${connection_id}/ledger?limit=4&offset=${offset}`, { key });
      expect(page.status).toBe(200);
      expect(page.json).toMatchObject({ connection_id, total: 10, limit: 4, offset, has_more: offset + 4 < 10 });
      pages.push(...page.json.ledger);
      if (!page.json.has_more) break;
    }
    expect(pages).toEqual(third);
    expect((await t.request("GET", `/api/v1/me/connections/${connection_id}/ledger?offset=50`, { key })).json).toMatchObject({ ledger: [], total: 10, has_more: false });
    // Bad paging: 422 naming the parameter, also for a connection that is not there (422 before 404).
    for (const [query, loc, type] of [
      ["limit=0", "limit", "greater_than_equal"],
      ["limit=1001", "limit", "less_than_equal"],
      ["limit=ten", "limit", "int_parsing"],
      ["offset=-1", "offset", "greater_than_equal"],
      ["offset=1.5", "offset", "int_parsing"],
    ]) {
      for (const id of [connection_id, crypto.randomUUID()]) {
        const bad = await t.request("GET", `/api/v1/me/connections/${id}/ledger?${query}`, { key });
        expect(bad.status).toBe(422);
        expect(bad.json.detail).toEqual([expect.objectContaining({ loc: ["query", loc], type })]);
      }
    }
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    expect(doc.paths["/api/v1/me/connections/{connection_id}/ledger"].get).toMatchObject({ operationId: "getMyConnectionLedger" });
  }, 60_000);

  test("a sync stopped between batches leaves a row that matches its high-water; the next sync's row goes on from there", async () => {
    const me = USERS[1].login;
    const { user, service, sync, ledger } = setup(USERS[1]);
    const N = 5_000;
    dovecot!.deliver(me, "INBOX", Array.from({ length: N }, (_, i) => message({ from: `P${i % 97} <p${i % 97}@corp${i % 11}.com>`, to: me, date: day(40 - i / 200), id: `ledger-stop-${i}@corp.com` })));
    const { connection_id } = await service.connectMail(user.id, { login: me, password: USERS[1].password });
    const lastUid = () => (t.deps.db.$client.query("SELECT last_uid FROM connection_folders WHERE name = 'INBOX'").get() as { last_uid: number } | null)?.last_uid ?? 0;
    const running = sync.syncOne(connection_id);
    while (lastUid() === 0) await Bun.sleep(2);
    sync.stop();
    expect(await running).toBeNull();
    const committed = lastUid();
    expect(committed).toBeLessThan(N);
    expect(ledger.ledgerOf(connection_id).ledger).toMatchObject([{ folder: "INBOX", uid_from: 1, uid_to: committed, seen: committed, imported: committed }]);

    await connectionsSync({ ...t.deps }).syncUser(user.id);
    const rows = ledger.ledgerOf(connection_id).ledger;
    expect(rows).toMatchObject([
      { folder: "INBOX", uid_from: 1, uid_to: committed, seen: committed },
      { folder: "INBOX", uid_from: committed + 1, uid_to: N, seen: N - committed, imported: N - committed, duplicates: 0 },
      { folder: "Sent", uid_from: 1, uid_to: 0, seen: 0 },
    ]);
    expect(await checkLedger(t.deps, connection_id)).toMatchObject([
      { folder: "INBOX", high_water: N, on_server: N, counted: N, missing: 0, excess: 0 },
      { folder: "Sent", high_water: 0, on_server: 0, counted: 0, missing: 0, excess: 0 },
    ]);
    expect(interactions()).toBe(N);
  }, 60_000);
});
