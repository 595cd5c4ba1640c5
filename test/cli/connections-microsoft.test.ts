// Microsoft 365 sign-in end to end, against real servers on loopback: Dovecot taking XOAUTH2
// through its oauth2 passdb (the app's token is good for the tenant's mailboxes Exchange lets it
// read: the passdb's username_filter stands for Add-MailboxPermission), an imitation of
// Microsoft's token endpoint (client secret, or a client assertion signed with the certificate's
// key and named by its x5t), and an imitation of Graph's calendarView delta (pages by nextLink, a
// deltaLink for the next sync, recurrences as occurrences, a cancelled occurrence, a declined
// attendee, a meeting the user declined, future meetings). Users connect with no password; their
// mail and meetings count in who-knows; a refused user fails alone; the secret and the certificate's
// key are nowhere in clear; bad options change nothing.
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
import { googleServiceAccount, microsoftCertificate, MS_GRAPH_SCOPE, MS_IMAP_SCOPE, startProviderImitation, type GraphTestEvent, type ProviderImitation } from "../helpers/mail-oauth.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../helpers/mail-servers.ts";

const ALICE = "alice@acme.vc";
const BOB = "bob@acme.vc";
const CAROL = "carol@acme.vc";
const DAN = "dan@acme.vc";

let dovecot: Dovecot | null = null;
let providers: ProviderImitation;
let t: TestApp;
let work: string;
const cert = microsoftCertificate();
const printed: string[] = [];
const logged: string[] = [];
const log = { info: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})), warn: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})), error: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})) };

const DAY = 86_400_000;
// Whole minutes (as calendars write them): an occurrence read from a file and from Graph is the same instant.
const at = (days: number) => new Date(Math.floor((Date.now() + days * DAY) / 60_000) * 60_000).toISOString();
const icsTime = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

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

beforeAll(async () => {
  if (!hasDovecot() && process.env.CI !== "1") return;
  const google = googleServiceAccount();
  providers = await startProviderImitation({ googlePublicPem: google.publicPem, googleClientEmail: google.clientEmail, msCertPublicPem: cert.publicPem, msThumbprint: cert.thumbprint });
  // The app's token is good for the tenant's domain (%d); Exchange lets it read Alice's, Bob's and Dan's mailboxes, not Carol's.
  dovecot = await startDovecot({
    users: [ALICE, BOB, CAROL, DAN].map((login) => ({ login, password: `unused-${Math.random()}` })),
    // XOAUTH2 only among the OAuth mechanisms, as Exchange Online offers.
    oauth2: { introspectionUrl: providers.introspectionUrl, usernameFormat: "%d", usernameFilter: [ALICE, BOB, DAN], mechanisms: ["xoauth2"] },
  });
  t = createTestApp({ file: true, log, clock: new TestClock(new Date()), env: { ...providers.env, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } });
  work = mkdtempSync(join(tmpdir(), "dealgraph-microsoft-"));
});
afterAll(async () => {
  await dovecot?.close();
  await providers?.close();
  t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

async function newOrg() {
  return (await run("admin", "org", "create", "--name", "Acme Ventures", "--json")).json.org_id as string;
}

async function user(org: string, email: string) {
  return (await run("admin", "user", "create", "--org", org, "--email", email, "--name", email.split("@")[0], "--json")).json.user_id as string;
}

const imapArgs = () => ["--imap", `127.0.0.1:${dovecot!.port}`, "--imap-security", "plain"];
const serverRow = (org: string) => t.deps.db.$client.query("SELECT provider, provider_settings, provider_sealed, updated_at FROM mail_servers WHERE org_id = ?").get(org) as Record<string, string> | null;

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("Microsoft 365 (Dovecot XOAUTH2, token endpoint and Graph imitations)", () => {
  test("client secret: users connect with no password; mail and Graph meetings count as the contract says; the delta link is kept", async () => {
    const org = await newOrg();
    const alice = await user(org, ALICE);
    const ms = providers.microsoft;
    const set = await run("admin", "mail-server", "set", "--org", org, "--provider", "microsoft", "--tenant", ms.tenant, "--client-id", ms.clientId, "--client-secret-file", file("secret.txt", `${ms.secret}\n`), ...imapArgs(), "--json");
    expect(set).toMatchObject({ code: 0, json: { org_id: org, provider: "microsoft", provider_account: { tenant: ms.tenant, client_id: ms.clientId, credential: "secret" } } });

    dovecot!.deliver(ALICE, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE, date: at(-4), id: "m-1@target.com" })]);
    const people = (...xs: [string, string?][]) => xs.map(([address, response]) => ({ address, response }));
    const events: GraphTestEvent[] = [
      // A meeting Alice organized.
      { id: "e1", uid: "intro-1", start: at(-3), isOrganizer: true, organizer: ALICE, attendees: people([ALICE, "organizer"], ["jane@target.com", "accepted"]) },
      // A weekly series: two past occurrences count, the cancelled one does not.
      { id: "s1-1", uid: "weekly-1", type: "occurrence", seriesMasterId: "s1", originalStart: at(-15), start: at(-15), organizer: "omar@fund.vc", response: "accepted", attendees: people([ALICE, "accepted"], ["omar@fund.vc", "organizer"]) },
      { id: "s1-2", uid: "weekly-1", type: "occurrence", seriesMasterId: "s1", originalStart: at(-8), start: at(-8), organizer: "omar@fund.vc", response: "accepted", attendees: people([ALICE, "accepted"], ["omar@fund.vc", "organizer"]) },
      { id: "s1-3", uid: "weekly-1", type: "occurrence", seriesMasterId: "s1", originalStart: at(-1), start: at(-1), isCancelled: true, organizer: "omar@fund.vc", attendees: people([ALICE, "accepted"], ["omar@fund.vc", "organizer"]) },
      // Kim declined: the meeting counts, Kim does not.
      { id: "e2", uid: "pitch-1", start: at(-2), organizer: "jane@target.com", response: "accepted", attendees: people([ALICE, "accepted"], ["jane@target.com", "organizer"], ["kim@target.com", "declined"]) },
      // Alice declined: it does not count.
      { id: "e3", uid: "lunch-1", start: at(-6), organizer: "lee@other.com", response: "declined", attendees: people([ALICE, "declined"], ["lee@other.com", "organizer"]) },
      // Future meetings never count now: one will happen, one will be cancelled, one deleted.
      { id: "f1", uid: "later-1", start: at(10), organizer: "zed@future.com", response: "accepted", attendees: people([ALICE, "accepted"], ["zed@future.com", "organizer"]) },
      { id: "f2", uid: "later-2", start: at(5), organizer: "yan@future.com", response: "accepted", attendees: people([ALICE, "accepted"], ["yan@future.com", "organizer"]) },
      { id: "f3", uid: "later-3", start: at(6), organizer: "xia@future.com", response: "accepted", attendees: people([ALICE, "accepted"], ["xia@future.com", "organizer"]) },
    ];
    providers.graph.setEvents(ALICE, events);

    const mail = await run("connect", "mail", "--user", alice, "--json");
    expect(mail).toMatchObject({ code: 0, stdinRead: false });
    const cal = await run("connect", "calendar", "--user", alice, "--json");
    expect(cal).toMatchObject({ code: 0, stdinRead: false });
    expect(ms.requests).toEqual(expect.arrayContaining([{ auth: "secret", scope: MS_IMAP_SCOPE }, { auth: "secret", scope: MS_GRAPH_SCOPE }]));
    expect((await run("connections", "list", "--user", alice, "--json")).json.connections).toMatchObject([
      { kind: "mail", account: ALICE, source: "imap" },
      { kind: "calendar", account: `${ALICE} (Microsoft 365 calendar)`, source: "graph" },
    ]);

    const asked = providers.graph.requests.length;
    const first = await run("sync", "--user", alice, "--json");
    expect(first.code).toBe(0);
    expect(first.json.connections).toMatchObject([
      { connection_id: mail.json.connection_id, status: "ok", messages_new: 1 },
      { connection_id: cal.json.connection_id, status: "ok", meetings_new: 4 },
    ]);
    // Nine events, two a page: the window first, then four next links.
    const pages = providers.graph.requests.slice(asked).filter((r) => r.includes("/calendarView/delta"));
    expect(pages[0]).toMatch(/calendarView\/delta\?startDateTime=.*&endDateTime=/);
    expect(pages.slice(1).every((p) => p.includes("$skiptoken="))).toBe(true);
    expect(pages.length).toBe(5);

    const key = (await run("admin", "key", "create", "--user", alice, "--scope", "read", "--json")).json.secret as string;
    const who = async (domain: string) => (await t.request("GET", `/api/v1/network/who-knows?domain=${domain}`, { key })).json.paths as { email: string; signals: Record<string, number> }[];
    expect(await who("target.com")).toMatchObject([{ email: "jane@target.com", signals: { emails_received: 1, meetings: 2 } }]);
    expect((await who("fund.vc")).map((p) => [p.email, p.signals.meetings])).toEqual([["omar@fund.vc", 2]]);
    expect(await who("other.com")).toEqual([]);
    expect(await who("future.com")).toEqual([]);
    // The same series imported from a file counts once: the occurrence keys are the file importer's
    // (the first instance by UID alone: Graph's series start was asked for).
    const seriesFile = file(
      "weekly.ics",
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:weekly-1\r\nDTSTAMP:${icsTime(at(-15))}\r\nDTSTART:${icsTime(at(-15))}\r\nDTEND:${icsTime(at(-14.9))}\r\nRRULE:FREQ=WEEKLY;COUNT=2\r\nSUMMARY:Weekly\r\nORGANIZER:mailto:omar@fund.vc\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:${ALICE}\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:omar@fund.vc\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
    );
    // Graph's occurrences are 7 days apart here too (at(-15), at(-8)).
    expect((await run("import", "calendar", "--user", alice, seriesFile, "--json")).json).toMatchObject({ imported: 0, duplicates: 2 });
    expect(providers.graph.requests.filter((r) => r.includes("/events/s1")).length).toBe(1);

    // The API shows the Graph calendar like any other.
    const api = await t.request("GET", "/api/v1/me/connections", { key });
    expect(api.status).toBe(200);
    expect(api.json.connections).toMatchObject([{ source: "imap", status: "ok" }, { source: "graph", status: "ok", account: `${ALICE} (Microsoft 365 calendar)`, items_synced: 4 }]);

    // The next sync asks with the delta link: only what changed comes (a new meeting; f2 cancelled; f3 deleted).
    providers.graph.setEvents(ALICE, [
      { id: "e4", uid: "follow-1", start: at(-0.5), organizer: "sam@target.com", response: "accepted", attendees: people([ALICE, "accepted"], ["sam@target.com", "organizer"]) },
      { ...events[7], isCancelled: true },
    ]);
    providers.graph.remove(ALICE, "f3");
    const before = providers.graph.requests.length;
    const second = await run("sync", "--user", alice, "--json");
    expect(second.json.connections[1]).toMatchObject({ status: "ok", meetings_new: 1, duplicates: 0 });
    const asked2 = providers.graph.requests.slice(before).filter((r) => r.includes("/calendarView/delta"));
    expect(asked2[0]).toContain("$deltatoken=");
    expect(asked2.slice(1).every((p) => p.includes("$skiptoken=") && !p.includes("startDateTime"))).toBe(true);

    // The app's cached Graph token is revoked early: Graph answers 401, a fresh token is asked for once, the sync goes on.
    const server = connectionsService(t.deps).getMailServer(org)!;
    const cached = await providerTokens(t.deps).token(server, ALICE, "calendar");
    providers.revoke(cached);
    expect((await connectionsSync(t.deps).syncUser(alice)).connections[1]).toMatchObject({ status: "ok", meetings_new: 0 });
    expect(await providerTokens(t.deps).token(server, ALICE, "calendar")).not.toBe(cached);

    // Eleven days on: the meeting that was ahead has happened and counts; the cancelled and deleted ones never do.
    (t.clock as TestClock).advance(11 * DAY);
    const later = await connectionsSync(t.deps).syncUser(alice);
    expect(later.connections[1]).toMatchObject({ status: "ok", meetings_new: 1 });
    expect((await who("future.com")).map((p) => p.email)).toEqual(["zed@future.com"]);
    // And once only.
    expect((await connectionsSync(t.deps).syncUser(alice)).connections[1]).toMatchObject({ status: "ok", meetings_new: 0 });
    (t.clock as TestClock).set(new Date());
  }, 60_000);

  test("a mailbox the app may not read, or a calendar Graph refuses, fails alone with the provider's reason", async () => {
    const org = await newOrg();
    const ms = providers.microsoft;
    await run("admin", "mail-server", "set", "--org", org, "--provider", "microsoft", "--tenant", ms.tenant, "--client-id", ms.clientId, "--client-secret-file", file("secret.txt", ms.secret), ...imapArgs());
    const bob = await user(org, BOB);
    const carol = await user(org, CAROL);
    providers.graph.setEvents(BOB, [{ id: "b1", start: at(-1), organizer: "jo@target.com", response: "accepted", attendees: [{ address: BOB }, { address: "jo@target.com", response: "organizer" }] }]);

    // Exchange does not let the app into Carol's mailbox: the login is refused, nothing is stored.
    const refused = await run("connect", "mail", "--user", carol, "--json");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the provider's access token for carol@acme\.vc/);
    // Graph has no mailbox for her either.
    expect((await run("connect", "calendar", "--user", carol)).stderr).toMatch(/Microsoft Graph has no calendar for carol@acme\.vc \(HTTP 404 ErrorInvalidUser/);
    expect((await run("connections", "list", "--user", carol, "--json")).json).toEqual({ connections: [] });

    expect((await run("connect", "mail", "--user", bob, "--json")).code).toBe(0);
    expect((await run("connect", "calendar", "--user", bob, "--json")).code).toBe(0);
    // The app loses access to Bob's calendar: that connection errors with Graph's reason, his mail goes on.
    ms.deniedMailboxes.add(BOB);
    const synced = await run("sync", "--user", bob, "--json");
    expect(synced.code).toBe(1);
    expect(synced.json.connections.map((c: { status: string }) => c.status)).toEqual(["ok", "error"]);
    expect(synced.json.connections[1].error).toBe("Microsoft Graph refused the calendar of bob@acme.vc (HTTP 403 ErrorAccessDenied: Access is denied. Check credentials and try again.)");
    expect(connectionsService(t.deps).list(bob).map((c) => c.status)).toEqual(["ok", "error"]);
    // The server's job logs it (with Graph's reason, never a token).
    expect((await connectionsSync(t.deps).syncUser(bob)).connections.map((c) => c.status)).toEqual(["ok", "error"]);
    expect(logged.join("\n")).toMatch(/connection sync failed.*ErrorAccessDenied/);
    ms.deniedMailboxes.delete(BOB);
  }, 60_000);

  test("certificate: a client assertion signed with the certificate's key, named by its thumbprint", async () => {
    const org = await newOrg();
    const ms = providers.microsoft;
    const set = await run("admin", "mail-server", "set", "--org", org, "--provider", "microsoft", "--tenant", ms.tenant, "--client-id", ms.clientId, "--certificate-file", file("app.pem", cert.pem), ...imapArgs(), "--json");
    expect(set.json.provider_account).toEqual({ tenant: ms.tenant, client_id: ms.clientId, credential: "certificate" });
    const dan = await user(org, DAN);
    providers.graph.setEvents(DAN, [{ id: "d1", start: at(-1), organizer: "pat@target.com", response: "accepted", attendees: [{ address: DAN }, { address: "pat@target.com", response: "organizer" }] }]);
    dovecot!.deliver(DAN, "INBOX", [message({ from: "Pat <pat@target.com>", to: DAN, date: at(-2), id: "d-1@target.com" })]);
    const asked = ms.requests.length;
    expect((await run("connect", "mail", "--user", dan, "--json")).code).toBe(0);
    expect((await run("connect", "calendar", "--user", dan, "--json")).code).toBe(0);
    expect(ms.requests.slice(asked)).toEqual([
      { auth: "assertion", scope: MS_IMAP_SCOPE },
      { auth: "assertion", scope: MS_GRAPH_SCOPE },
    ]);
    const synced = await run("sync", "--user", dan, "--json");
    expect(synced.json.connections).toMatchObject([
      { status: "ok", messages_new: 1 },
      { status: "ok", meetings_new: 1 },
    ]);
  }, 60_000);

  test("bad options and files: a clear error, and nothing changes; a wrong secret is Microsoft's reason at connect, nothing stored", async () => {
    const org = await newOrg();
    const ms = providers.microsoft;
    const secretFile = file("s.txt", ms.secret);
    const base = ["admin", "mail-server", "set", "--org", org, "--provider", "microsoft"];
    const cases: [string[], RegExp][] = [
      [["--client-id", ms.clientId, "--client-secret-file", secretFile], /--tenant TENANT_ID is required with --provider microsoft/],
      [["--tenant", "not a tenant", "--client-id", ms.clientId, "--client-secret-file", secretFile], /--tenant must be the tenant's ID \(a GUID\) or its domain/],
      [["--tenant", ms.tenant, "--client-secret-file", secretFile], /--client-id ID is required/],
      [["--tenant", ms.tenant, "--client-id", "app", "--client-secret-file", secretFile], /--client-id must be the application \(client\) ID, a GUID/],
      [["--tenant", ms.tenant, "--client-id", ms.clientId], /give exactly one of --client-secret-file FILE or --certificate-file PEM/],
      [["--tenant", ms.tenant, "--client-id", ms.clientId, "--client-secret-file", secretFile, "--certificate-file", file("c.pem", cert.pem)], /give one of --client-secret-file or --certificate-file, not both/],
      [["--tenant", ms.tenant, "--client-id", ms.clientId, "--client-secret-file", join(work, "missing.txt")], /--client-secret-file .*missing\.txt cannot be read \(ENOENT\)/],
      [["--tenant", ms.tenant, "--client-id", ms.clientId, "--client-secret-file", file("empty.txt", "\n")], /--client-secret-file is empty/],
      [["--tenant", ms.tenant, "--client-id", ms.clientId, "--certificate-file", file("only-cert.pem", cert.pem.split("-----BEGIN PRIVATE KEY-----")[0])], /--certificate-file must be a PEM file holding the certificate .* and its private key/],
      [["--tenant", ms.tenant, "--client-id", ms.clientId, "--service-account-file", secretFile], /--service-account-file is not used with --provider microsoft/],
    ];
    for (const [args, reason] of cases) {
      const r = await run(...base, ...args);
      expect([r.code === 0, r.stderr]).toEqual([false, expect.stringMatching(reason)]);
    }
    expect(serverRow(org)).toBeNull();

    // Stored without asking Microsoft (the contract); a wrong secret is refused at connect, with Microsoft's reason.
    expect((await run(...base, "--tenant", ms.tenant, "--client-id", ms.clientId, "--client-secret-file", file("wrong.txt", "not-the-secret"), ...imapArgs())).code).toBe(0);
    const kept = serverRow(org);
    const erin = await user(org, "erin@acme.vc");
    const refused = await run("connect", "mail", "--user", erin);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Microsoft's token endpoint \(tenant .*, app .*\) refused: invalid_client: AADSTS7000215: Invalid client secret provided/);
    expect(refused.stderr).not.toMatch(/Trace ID/);
    expect((await run("connections", "list", "--user", erin, "--json")).json).toEqual({ connections: [] });
    // A bad change leaves the server as it was.
    expect((await run(...base, "--client-id", ms.clientId, "--client-secret-file", secretFile)).code).not.toBe(0);
    expect(serverRow(org)).toEqual(kept);
  }, 30_000);

  test("the client secret, the certificate's key and the tokens are nowhere in clear", async () => {
    const keyLine = cert.pem.split("-----BEGIN PRIVATE KEY-----")[1].split("\n")[5];
    expect(keyLine.length).toBeGreaterThan(40);
    t.deps.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const files = readdirSync(t.dataDir!, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    const sealed = t.deps.db.$client.query("SELECT provider_sealed FROM mail_servers WHERE provider = 'microsoft'").all() as { provider_sealed: string }[];
    expect(sealed.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const bytes = readFileSync(join(f.parentPath, f.name)).toString("latin1");
      expect(bytes.includes(providers.microsoft.secret)).toBe(false);
      expect(bytes.includes(keyLine)).toBe(false);
      expect(bytes.includes("PRIVATE KEY")).toBe(false);
      expect(bytes.includes("ya29.test-")).toBe(false);
    }
    expect(logged.join("\n")).toMatch(/connection sync failed/);
    const all = printed.join("\n") + logged.join("\n");
    expect(all).not.toContain(providers.microsoft.secret);
    expect(all).not.toContain(keyLine);
    expect(all).not.toContain("ya29.test-");
  });
});
