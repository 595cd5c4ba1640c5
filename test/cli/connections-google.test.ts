// Google Workspace sign-in end to end, against real servers on loopback: Dovecot taking OAuth tokens
// (XOAUTH2 and OAUTHBEARER offered, as Gmail does; imapflow logs in with OAUTHBEARER)
// through its oauth2 passdb (asking the imitation's introspection endpoint), Radicale behind an
// imitation of Google's CalDAV (the bearer token checked first), and an imitation of Google's token
// endpoint that verifies the RS256 assertion with the test service account's public key. The
// administrator sets the key with the command line; users connect with no password; their mail
// and meetings count in who-knows; a user outside the domain, or whose delegation is withdrawn,
// fails alone; the key and the tokens are nowhere in clear; bad key files change nothing.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/index.ts";
import { providerTokens } from "../../src/modules/connections/connections.providers.ts";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../src/modules/connections/connections.sync.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { captureIo } from "../helpers/cli.ts";
import { TestClock } from "../helpers/clock.ts";
import { message } from "../helpers/import-files.ts";
import { googleServiceAccount, startProviderImitation, type ProviderImitation } from "../helpers/mail-oauth.ts";
import { hasDovecot, hasRadicale, startDovecot, startRadicale, type Dovecot, type Radicale } from "../helpers/mail-servers.ts";

const ALICE = "alice@acme.vc";
const BOB = "bob@acme.vc";
const CAROL = "carol@acme.vc";
// Radicale's own logins: known to the CalDAV imitation only (Dealgraph never has a password).
const RADICALE_USERS = [ALICE, BOB].map((login) => ({ login, password: `radicale-${login}` }));

let dovecot: Dovecot | null = null;
let radicale: Radicale | null = null;
let providers: ProviderImitation;
let t: TestApp;
let work: string;
const sa = googleServiceAccount();
/** Everything the command line printed, and what the server's log was told. */
const printed: string[] = [];
const logged: string[] = [];
const log = { info: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})), warn: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})), error: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})) };

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
const icsTime = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

async function run(...argv: string[]) {
  const { io, out, err } = captureIo({ ...providers.env, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" }, "");
  let stdinRead = false;
  const readStdin = io.readStdin;
  io.readStdin = async () => {
    stdinRead = true;
    return readStdin();
  };
  const code = await runCli([...argv, "--data-dir", t.dataDir!], io);
  const stdout = out.join("\n");
  const stderr = err.join("\n");
  printed.push(stdout, stderr);
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json, stdinRead };
}

const ready = hasDovecot() && hasRadicale();

beforeAll(async () => {
  if (!ready && process.env.CI !== "1") return;
  radicale = await startRadicale({ users: RADICALE_USERS });
  providers = await startProviderImitation({ googlePublicPem: sa.publicPem, googleClientEmail: sa.clientEmail, radicale, radicaleUsers: RADICALE_USERS });
  for (const u of [ALICE, BOB]) providers.google.users.add(u);
  // The passwd-file logins are never used: every login here is a token.
  dovecot = await startDovecot({ users: [ALICE, BOB, CAROL].map((login) => ({ login, password: `unused-${Math.random()}` })), oauth2: { introspectionUrl: providers.introspectionUrl } });
  t = createTestApp({ file: true, log, clock: new TestClock(new Date()), env: { ...providers.env, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } });
  work = mkdtempSync(join(tmpdir(), "dealgraph-google-"));
});
afterAll(async () => {
  await dovecot?.close();
  await radicale?.close();
  await providers?.close();
  t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function newOrg() {
  return (await run("admin", "org", "create", "--name", "Acme Ventures", "--json")).json.org_id as string;
}

async function firm() {
  const org = (await run("admin", "org", "create", "--name", "Acme Ventures", "--json")).json.org_id as string;
  const user = async (email: string) => (await run("admin", "user", "create", "--org", org, "--email", email, "--name", email.split("@")[0], "--json")).json.user_id as string;
  return { org, alice: await user(ALICE), bob: await user(BOB), carol: await user(CAROL) };
}

function keyFile(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

const serverRow = (org: string) => t.deps.db.$client.query("SELECT provider, provider_settings, provider_sealed, updated_at FROM mail_servers WHERE org_id = ?").get(org) as Record<string, string> | null;

describe.skipIf(!ready && process.env.CI !== "1")("Google Workspace (Dovecot OAUTHBEARER, Radicale behind a CalDAV imitation, a token endpoint imitation)", () => {
  test("users connect with no password; their mail and meetings count in who-knows; a refused user fails alone", async () => {
    const { org, alice, bob, carol } = await firm();
    const set = await run("admin", "mail-server", "set", "--org", org, "--provider", "google", "--service-account-file", keyFile("key.json", sa.json), "--imap", `127.0.0.1:${dovecot!.port}`, "--imap-security", "plain", "--json");
    expect(set).toMatchObject({ code: 0, json: { org_id: org, imap: `127.0.0.1:${dovecot!.port}`, caldav: null, provider: "google", provider_account: { client_email: sa.clientEmail } } });
    // Without --imap: Gmail's IMAP, over TLS.
    const human = await run("admin", "mail-server", "set", "--org", org, "--provider", "google", "--service-account-file", keyFile("key.json", sa.json));
    expect(human.stdout).toBe(`mail server of ${org}: Google Workspace (service account ${sa.clientEmail}; its key sealed), IMAP imap.gmail.com:993 (tls)`);
    expect((await run("admin", "mail-server", "set", "--org", org, "--provider", "google", "--service-account-file", keyFile("key.json", sa.json), "--imap", `127.0.0.1:${dovecot!.port}`, "--imap-security", "plain")).code).toBe(0);

    // Alice's mail and calendar.
    dovecot!.deliver(ALICE, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE, date: daysAgo(3).toISOString(), id: "g-1@target.com" })]);
    dovecot!.deliver(ALICE, "Sent", [message({ from: ALICE, to: "Jane Doe <jane@target.com>", date: daysAgo(2).toISOString(), id: "g-2@acme.vc" })]);
    const calendar = await radicale!.makeCalendar(RADICALE_USERS[0], "events");
    const ics = (uid: string, at: Date) =>
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:${icsTime(at)}\r\nDTSTART:${icsTime(at)}\r\nDTEND:${icsTime(new Date(at.getTime() + 3600_000))}\r\nSUMMARY:Intro\r\nORGANIZER:mailto:${ALICE}\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:${ALICE}\r\nATTENDEE;PARTSTAT=ACCEPTED;CN=Jane Doe:mailto:jane@target.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
    await radicale!.put(RADICALE_USERS[0], calendar, "intro", ics("intro-1@acme.vc", daysAgo(5)));

    const mail = await run("connect", "mail", "--user", alice, "--json");
    expect(mail).toMatchObject({ code: 0, json: { connection_id: expect.any(String) }, stdinRead: false });
    const cal = await run("connect", "calendar", "--user", alice, "--json");
    expect(cal).toMatchObject({ code: 0, json: { connection_id: expect.any(String) }, stdinRead: false });
    // The assertion Google received: signed by the service account (verified), for Alice, both scopes, aud the token URL.
    expect(providers.google.assertions.at(-1)).toMatchObject({ iss: sa.clientEmail, sub: ALICE, aud: providers.env.DEALGRAPH_GOOGLE_TOKEN_URL, scope: "https://mail.google.com/ https://www.googleapis.com/auth/calendar.readonly" });
    const listed = await run("connections", "list", "--user", alice, "--json");
    expect(listed.json.connections).toMatchObject([
      { kind: "mail", account: ALICE, status: "never_synced", source: "imap" },
      { kind: "calendar", account: `${ALICE} (Google Calendar)`, status: "never_synced", source: "caldav" },
    ]);

    const synced = await run("sync", "--user", alice, "--json");
    expect(synced.code).toBe(0);
    expect(synced.json.connections).toMatchObject([
      { connection_id: mail.json.connection_id, status: "ok", messages_new: 2 },
      { connection_id: cal.json.connection_id, status: "ok", meetings_new: 1 },
    ]);
    const key = (await run("admin", "key", "create", "--user", alice, "--scope", "read", "--json")).json.secret as string;
    const who = (await t.request("GET", "/api/v1/network/who-knows?domain=target.com", { key })).json;
    expect(who.paths).toMatchObject([{ email: "jane@target.com", signals: { emails_sent: 1, emails_received: 1, meetings: 1 } }]);

    // Carol is not in the Workspace domain: Google's reason, nothing stored.
    const refused = await run("connect", "mail", "--user", carol, "--json");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Google's token endpoint \(for carol@acme\.vc\) refused: invalid_grant: Invalid email or User ID/);
    expect((await run("connections", "list", "--user", carol, "--json")).json).toEqual({ connections: [] });
    expect((await run("connect", "calendar", "--user", carol)).stderr).toMatch(/invalid_grant: Invalid email or User ID/);

    // A member connecting for themselves (the web app) gets their own mailbox only: the domain's token would open any.
    await expect(connectionsService(t.deps).connectMail(alice, { login: BOB })).rejects.toThrow(/you connect your own mailbox \(alice@acme\.vc\)/);
    expect(connectionsService(t.deps).list(alice).map((c) => c.account)).toEqual([ALICE, `${ALICE} (Google Calendar)`]);

    // Bob connects; then his delegation is withdrawn: his connection errors with Google's reason, Alice's goes on.
    expect((await run("connect", "mail", "--user", bob, "--login", BOB, "--json")).code).toBe(0);
    providers.google.withdrawn.add(BOB);
    dovecot!.deliver(ALICE, "INBOX", [message({ from: "Omar <omar@fund.vc>", to: ALICE, date: daysAgo(1).toISOString(), id: "g-3@fund.vc" })]);
    const sync = connectionsSync(t.deps);
    const job = await sync.syncDue();
    expect(job).toMatchObject({ connections: 3, failed: 1, messages_new: 1 });
    const views = [...connectionsService(t.deps).list(alice), ...connectionsService(t.deps).list(bob)];
    expect(views.map((v) => [v.account, v.status])).toEqual([
      [ALICE, "ok"],
      [`${ALICE} (Google Calendar)`, "ok"],
      [BOB, "error"],
    ]);
    expect(views[2].last_error).toMatch(/unauthorized_client: Client is unauthorized to retrieve access tokens/);

    // Alice's cached token is revoked before it expires: IMAP and CalDAV refuse it, a fresh one is asked for once, both go on.
    const server = connectionsService(t.deps).getMailServer(org)!;
    const cached = await providerTokens(t.deps).token(server, ALICE, "mail");
    providers.revoke(cached);
    dovecot!.deliver(ALICE, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE, date: daysAgo(0.5).toISOString(), id: "g-4@target.com" })]);
    const again = await sync.syncUser(alice);
    expect(again.connections).toMatchObject([
      { status: "ok", messages_new: 1 },
      { status: "ok", meetings_new: 0 },
    ]);
    const renewed = await providerTokens(t.deps).token(server, ALICE, "mail");
    expect(renewed).not.toBe(cached);
  }, 60_000);

  test("tokens are cached until shortly before they expire, then asked for again", async () => {
    const org = await newOrg();
    await run("admin", "mail-server", "set", "--org", org, "--provider", "google", "--service-account-file", keyFile("key.json", sa.json));
    const server = connectionsService(t.deps).getMailServer(org)!;
    const tokens = providerTokens(t.deps);
    providers.google.withdrawn.clear();
    providers.google.expiresIn = 600;
    const before = providers.google.assertions.length;
    const first = await tokens.token(server, ALICE, "mail");
    expect(await tokens.token(server, ALICE, "calendar")).toBe(first);
    expect(providers.google.assertions.length).toBe(before + 1);
    // Another user: a token of their own.
    expect(await tokens.token(server, BOB, "mail")).not.toBe(first);
    // Reused while more than half its life (or 5 minutes) remains; then a new one.
    (t.clock as TestClock).advance(299_000);
    expect(await tokens.token(server, ALICE, "mail")).toBe(first);
    (t.clock as TestClock).advance(2_000);
    const second = await tokens.token(server, ALICE, "mail");
    expect(second).not.toBe(first);
    expect(providers.google.assertions.length).toBe(before + 3);
    providers.google.expiresIn = 3600;
  }, 30_000);

  test("bad key files and options: a clear error, and nothing changes", async () => {
    const org = await newOrg();
    const cases: [string[], RegExp][] = [
      [["--service-account-file", join(work, "missing.json")], /--service-account-file .*missing\.json cannot be read \(ENOENT\)/],
      [["--service-account-file", keyFile("bad.json", "{ not json")], /--service-account-file is not JSON/],
      [["--service-account-file", keyFile("other.json", JSON.stringify({ type: "authorized_user", client_id: "x" }))], /not a service account's key \(its "type" is "authorized_user"/],
      [["--service-account-file", keyFile("nokey.json", JSON.stringify({ type: "service_account", client_email: sa.clientEmail }))], /has no "private_key"/],
      [["--service-account-file", keyFile("badkey.json", JSON.stringify({ ...JSON.parse(sa.json), private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" }))], /"private_key" of --service-account-file cannot be used to sign/],
      [[], /--service-account-file KEY\.json is required with --provider google/],
      [["--service-account-file", keyFile("k.json", sa.json), "--tenant", "contoso.onmicrosoft.com"], /--tenant is not used with --provider google/],
      [["--service-account-file", keyFile("k.json", sa.json), "--caldav", "https://dav.example/"], /--caldav is not used with --provider google/],
    ];
    for (const [args, reason] of cases) {
      const r = await run("admin", "mail-server", "set", "--org", org, "--provider", "google", ...args);
      expect([r.code === 0, r.stderr]).toEqual([false, expect.stringMatching(reason)]);
    }
    expect((await run("admin", "mail-server", "set", "--org", org, "--provider", "yahoo")).stderr).toMatch(/--provider must be google or microsoft/);
    expect((await run("admin", "mail-server", "set", "--org", org, "--imap", "mail.acme.vc", "--service-account-file", "k.json")).stderr).toMatch(/--service-account-file is for --provider google or microsoft/);
    expect(serverRow(org)).toBeNull();
    // Set, then a bad file: the server stays as it was.
    await run("admin", "mail-server", "set", "--org", org, "--provider", "google", "--service-account-file", keyFile("k.json", sa.json));
    const kept = serverRow(org);
    expect(kept).toMatchObject({ provider: "google" });
    expect((await run("admin", "mail-server", "set", "--org", org, "--provider", "google", "--service-account-file", keyFile("bad.json", "[]"))).code).not.toBe(0);
    expect(serverRow(org)).toEqual(kept);
  }, 30_000);

  test("the key and the tokens are nowhere in clear: not in the data dir, the output or the logs", async () => {
    const privateKey = JSON.parse(sa.json).private_key as string;
    // A line of the key's body, and the whole JSON file, as they would appear in clear.
    const keyLine = privateKey.split("\n")[5];
    expect(keyLine.length).toBeGreaterThan(40);
    t.deps.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const files = readdirSync(t.dataDir!, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    const sealed = (t.deps.db.$client.query("SELECT provider_sealed FROM mail_servers WHERE provider = 'google' LIMIT 1").get() as { provider_sealed: string }).provider_sealed;
    expect(sealed).toMatch(/^v1:/);
    for (const f of files) {
      const bytes = readFileSync(join(f.parentPath, f.name)).toString("latin1");
      expect(bytes.includes(keyLine)).toBe(false);
      expect(bytes.includes("BEGIN PRIVATE KEY")).toBe(false);
      expect(bytes.includes("ya29.test-")).toBe(false);
    }
    const db = new Database(join(t.dataDir!, "dealgraph.db"), { readonly: true });
    const dump = JSON.stringify(db.query("SELECT * FROM connections").all()) + JSON.stringify(db.query("SELECT * FROM mail_servers").all());
    db.close();
    expect(dump).not.toContain(keyLine);
    expect(dump).not.toContain("ya29.test-");
    // Bob's failed sync was logged (with Google's reason), and nothing secret with it.
    expect(logged.join("\n")).toMatch(/connection sync failed.*unauthorized_client/);
    const all = printed.join("\n") + logged.join("\n");
    expect(all).not.toContain(keyLine);
    expect(all).not.toContain("PRIVATE KEY");
    expect(all).not.toContain("ya29.test-");
  });
});
