// The connection commands as an operator runs them, against a real Dovecot: `admin mail-server
// set` (bad settings refused, plaintext only to loopback or with --insecure), `connect mail`
// (password from stdin, probed before anything is stored), `connections list`, `sync` (its JSON,
// exit 1 when a connection failed), `connections remove`; the password never in any output, log
// or the database file; and a `dealgraph sync` killed with -9 in the middle of a backfill: the
// next sync finishes it, nothing lost and nothing counted twice.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Child, cleanEnv } from "../../scripts/lib/child-process.ts";
import { cli, cliIn, tempDataDir } from "../helpers/cli.ts";
import { message } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, writeCaFile, type Dovecot } from "../helpers/mail-servers.ts";

const ROOT = join(import.meta.dir, "../..");
const ALICE = { login: "alice@acme.vc", password: "Tr0ub4dor&3-alice" };
const BOB = { login: "bob@acme.vc", password: "c0rrect-h0rse-bob" };
let dovecot: Dovecot | null = null;
const dirs: string[] = [];

beforeAll(async () => {
  dovecot = await startDovecot({ users: [ALICE, BOB], tls: true });
});
afterAll(async () => {
  await dovecot?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Everything every command printed, to look for secrets in. */
const printed: string[] = [];

async function run(dir: string, argv: string[], stdin = "") {
  const r = await cliIn(dir, stdin, ...argv);
  printed.push(r.stdout, r.stderr);
  return r;
}

async function firm() {
  const dir = tempDataDir();
  dirs.push(dir);
  const org = (await cli(dir, "admin", "org", "create", "--name", "Acme Ventures", "--json")).json.org_id as string;
  const alice = (await cli(dir, "admin", "user", "create", "--org", org, "--email", ALICE.login, "--name", "Alice", "--json")).json.user_id as string;
  return { dir, org, alice };
}

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("connection commands (Dovecot)", () => {
  test("admin mail-server set: settings stored without probing; bad ones refused with the reason", async () => {
    const { dir, org } = await firm();
    const set = await run(dir, ["admin", "mail-server", "set", "--org", org, "--imap", "mail.acme.internal", "--caldav", "https://dav.acme.internal/", "--json"]);
    expect(set).toMatchObject({ code: 0, json: { org_id: org, imap: "mail.acme.internal:993", imap_security: "tls", caldav: "https://dav.acme.internal/", private_ca: false } });
    const starttls = await run(dir, ["admin", "mail-server", "set", "--org", org, "--imap", "mail.acme.internal", "--imap-security", "starttls", "--ca-file", writeCaFile(dir), "--json"]);
    expect(starttls.json).toMatchObject({ imap: "mail.acme.internal:143", imap_security: "starttls", caldav: null, private_ca: true });
    const human = await run(dir, ["admin", "mail-server", "set", "--org", org, "--imap", "127.0.0.1:1143", "--imap-security", "plain"]);
    expect(human).toMatchObject({ code: 0, stdout: `mail server of ${org}: IMAP 127.0.0.1:1143 (plain)` });

    const refused: [string[], RegExp][] = [
      [["--imap", "mail.acme.internal", "--imap-security", "plain"], /plain IMAP would send passwords unencrypted to mail\.acme\.internal: it is allowed only to a loopback host, or with --insecure/],
      [["--imap", "mail.acme.internal", "--imap-security", "ssl"], /--imap-security must be tls, starttls or plain/],
      [["--imap", "mail.acme.internal:99999"], /--imap must be HOST or HOST:PORT/],
      [["--imap", "bad host"], /--imap must be HOST or HOST:PORT/],
      [["--imap", "mail.acme.internal", "--caldav", "http://dav.acme.internal/"], /http:\/\/ would send passwords unencrypted to dav\.acme\.internal/],
      [["--imap", "mail.acme.internal", "--caldav", "ftp://dav"], /--caldav must be an http\(s\) URL/],
      [["--imap", "mail.acme.internal", "--ca-file", "/nonexistent.pem"], /--ca-file \/nonexistent\.pem cannot be read \(ENOENT\)/],
      [["--imap", "mail.acme.internal", "--ca-file", "/etc/hostname"], /--ca-file must be a PEM file/],
    ];
    for (const [args, reason] of refused) {
      const r = await run(dir, ["admin", "mail-server", "set", "--org", org, ...args]);
      expect([r.code, r.stderr]).toEqual([expect.any(Number), expect.stringMatching(reason)]);
      expect(r.code).not.toBe(0);
    }
    // --insecure lets an administrator choose plaintext to a private host.
    expect((await run(dir, ["admin", "mail-server", "set", "--org", org, "--imap", "mail.acme.internal", "--imap-security", "plain", "--insecure", "--json"])).json).toMatchObject({ imap: "mail.acme.internal:143", imap_security: "plain" });
    expect((await run(dir, ["admin", "mail-server", "set", "--org", "not-an-id", "--imap", "x.example"])).stderr).toMatch(/No organization with id not-an-id/);
  });

  test("connect, list, sync, remove: probed first, JSON as the contract says, the password nowhere", async () => {
    const { dir, org, alice } = await firm();
    dovecot!.deliver(ALICE.login, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE.login, date: "2026-11-20T10:00:00Z", id: "cli-1@target.com" })]);
    // No server set yet.
    expect((await run(dir, ["connect", "mail", "--user", alice, "--login", ALICE.login], ALICE.password + "\n")).stderr).toMatch(/no mail server is set for this organization: an administrator runs/);
    await run(dir, ["admin", "mail-server", "set", "--org", org, "--imap", `127.0.0.1:${dovecot!.tlsPort}`, "--ca-file", writeCaFile(dir)]);
    // No password on stdin; a wrong one: exit 1, nothing stored.
    expect(await run(dir, ["connect", "mail", "--user", alice, "--login", ALICE.login])).toMatchObject({ code: 2, stderr: expect.stringMatching(/no password on stdin/) });
    const wrong = await run(dir, ["connect", "mail", "--user", alice, "--login", ALICE.login, "--json"], "guess\n");
    expect(wrong).toMatchObject({ code: 1, stdout: "", stderr: expect.stringMatching(/^error: 127\.0\.0\.1:\d+ refused the login and password/) });
    expect((await run(dir, ["connections", "list", "--user", alice, "--json"])).json).toEqual({ connections: [] });

    const connected = await run(dir, ["connect", "mail", "--user", alice, "--login", ALICE.login, "--json"], `${ALICE.password}\nignored second line\n`);
    const id = connected.json?.connection_id as string;
    expect([connected.code, id]).toEqual([0, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const listed = await run(dir, ["connections", "list", "--user", alice, "--json"]);
    expect(listed.json).toEqual({
      connections: [{ connection_id: id, kind: "mail", account: ALICE.login, status: "never_synced", last_synced_at: null, items_synced: 0, last_error: null, source: "imap", progress: null, last_result: null, next_attempt_at: null }],
    });

    const synced = await run(dir, ["sync", "--user", alice, "--json"]);
    expect(synced).toMatchObject({ code: 0, json: { connections: [{ connection_id: id, messages_new: 1, meetings_new: 0, duplicates: 0, skipped: 0, status: "ok", error: null }] } });
    expect((await run(dir, ["connections", "list", "--user", alice])).stdout).toMatch(new RegExp(`^${id}  mail     alice@acme\\.vc  ok  last synced \\S+, 1 items$`));

    // The server refuses it now: sync prints its JSON, says why on stderr and exits 1.
    await dovecot!.setPassword(ALICE.login, "rotated-Pa55word");
    const failed = await run(dir, ["sync", "--user", alice, "--json"]);
    expect(failed.code).toBe(1);
    expect(failed.json).toMatchObject({ connections: [{ connection_id: id, status: "error", messages_new: 0, error: expect.stringMatching(/refused the login and password/) }] });
    expect(failed.stderr).toMatch(/1 of 1 connections failed to sync/);
    expect((await run(dir, ["connections", "list", "--user", alice, "--json"])).json.connections[0]).toMatchObject({ status: "error", last_error: expect.stringMatching(/refused the login and password/) });
    await dovecot!.setPassword(ALICE.login, ALICE.password);

    const removed = await run(dir, ["connections", "remove", id]);
    expect(removed).toMatchObject({ code: 0, stdout: expect.stringMatching(/removed connection .*credentials are forgotten/) });
    expect((await run(dir, ["connections", "list", "--user", alice, "--json"])).json).toEqual({ connections: [] });
    expect((await run(dir, ["connections", "remove", id])).stderr).toMatch(/No connection with id/);
    // What it recorded stays.
    const db = new Database(join(dir, "dealgraph.db"), { readonly: true });
    expect(db.query("SELECT count(*) AS n FROM interactions").get()).toEqual({ n: 1 });
    expect(db.query("SELECT count(*) AS n FROM connection_folders").get()).toEqual({ n: 0 });
    db.close();

    // The password is in no output, and not in the database's bytes (it is sealed).
    for (const secret of [ALICE.password, "rotated-Pa55word"]) {
      expect(printed.filter((l) => l.includes(secret))).toEqual([]);
      for (const f of readdirSync(dir).filter((f) => f.startsWith("dealgraph.db"))) expect(readFileSync(join(dir, f)).includes(Buffer.from(secret))).toBe(false);
    }
  }, 60_000);

  test("a `dealgraph sync` killed with -9 in the middle of a backfill: the next sync finishes it, nothing lost, nothing counted twice", async () => {
    const { dir, org, alice } = await firm();
    const N = 8_000;
    const senders = 300;
    dovecot!.deliver(
      BOB.login,
      "INBOX",
      Array.from({ length: N }, (_, i) => message({ from: `Person ${i % senders} <p${i % senders}@corp${i % 20}.com>`, to: BOB.login, date: new Date(Date.parse("2026-06-01T00:00:00Z") + i * 600_000).toISOString(), id: `kill-${i}@corp.example` })),
    );
    const bob = (await cli(dir, "admin", "user", "create", "--org", org, "--email", BOB.login, "--name", "Bob", "--json")).json.user_id as string;
    expect(alice).toBeString();
    await run(dir, ["admin", "mail-server", "set", "--org", org, "--imap", `127.0.0.1:${dovecot!.port}`, "--imap-security", "plain"]);
    const id = (await run(dir, ["connect", "mail", "--user", bob, "--login", BOB.login, "--since", "2026-01-01", "--json"], BOB.password)).json.connection_id;

    const child = new Child([process.execPath, join(ROOT, "src/main.ts"), "sync", "--user", bob, "--json", "--data-dir", dir], { cwd: ROOT, env: cleanEnv() });
    const db = new Database(join(dir, "dealgraph.db"), { readonly: true });
    const folder = () => db.query<{ last_uid: number }, []>("SELECT last_uid FROM connection_folders WHERE name = 'INBOX'").get()?.last_uid ?? 0;
    let seenSyncing = false;
    const deadline = Date.now() + 60_000;
    while (folder() === 0 && Date.now() < deadline) {
      if (!seenSyncing) {
        const list = (await run(dir, ["connections", "list", "--user", bob, "--json"])).json.connections[0];
        if (list.status === "syncing" && list.progress) {
          expect(list.progress).toMatchObject({ folder: "INBOX", total: N });
          seenSyncing = true;
        }
      }
      await Bun.sleep(5);
    }
    child.proc.kill("SIGKILL");
    await child.proc.exited;
    const committed = folder();
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(N);
    const counted = db.query<{ n: number }, []>("SELECT count(*) AS n FROM interactions").get()!.n;
    // What was committed is exactly what the folder's UID says: the rows and the UID went together.
    expect(counted).toBe(committed);
    expect(db.query("SELECT items_synced FROM connections").get()).toEqual({ items_synced: committed });
    // The killed sync's claim is left behind; its process is gone, so it does not block.
    expect((db.query("SELECT lease_token FROM connections").get() as { lease_token: string | null }).lease_token).toStartWith(`${child.pid}:`);

    const resumed = await run(dir, ["sync", "--user", bob, "--json"]);
    expect(resumed).toMatchObject({ code: 0, json: { connections: [{ connection_id: id, status: "ok", messages_new: N - committed, duplicates: 0, skipped: 0 }] } });
    expect(db.query("SELECT count(*) AS n FROM interactions").get()).toEqual({ n: N });
    expect(db.query("SELECT sum(received_count) AS n FROM relationships").get()).toEqual({ n: N });
    expect(db.query("SELECT items_synced, lease_token FROM connections").get()).toEqual({ items_synced: N, lease_token: null });
    db.close();
  }, 120_000);
});
