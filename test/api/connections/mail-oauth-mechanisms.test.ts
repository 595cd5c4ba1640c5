// Which SASL mechanism a provider's token goes over, against real Dovecot servers on loopback that
// take tokens only (no PLAIN or LOGIN), through their oauth2 passdb and the loopback introspection
// endpoint: one offering only OAUTHBEARER (RFC 7628; Gmail offers it beside XOAUTH2, and imapflow
// takes it whenever it is offered), one offering only XOAUTH2 (what Microsoft 365 offers). Each
// org's member connects with no password, a sync reads the mail, Dovecot's own log names the
// mechanism of every login, a password is refused there, and no token or key reaches the log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { connectionsLedger } from "../../../src/modules/connections/connections.ledger.ts";
import { providerSetup } from "../../../src/modules/connections/connections.provider-setup.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../../src/modules/connections/connections.sync.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { message } from "../../helpers/import-files.ts";
import { googleServiceAccount, startProviderImitation, type ProviderImitation } from "../../helpers/mail-oauth.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../../helpers/mail-servers.ts";

const ALICE = "alice@acme.vc";
const BOB = "bob@acme.vc";
const sa = googleServiceAccount();
let providers: ProviderImitation;
let bearerOnly: Dovecot | null = null;
let xoauth2Only: Dovecot | null = null;
let t: TestApp;
const logged: string[] = [];
const log = { info: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})), warn: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})), error: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})) };
const run = hasDovecot() || process.env.CI === "1";

beforeAll(async () => {
  if (!run) return;
  providers = await startProviderImitation({ googlePublicPem: sa.publicPem, googleClientEmail: sa.clientEmail });
  providers.google.users.add(ALICE);
  const users = [ALICE, BOB].map((login) => ({ login, password: "a-password-never-taken-1" }));
  bearerOnly = await startDovecot({ users, oauth2: { introspectionUrl: providers.introspectionUrl, mechanisms: ["oauthbearer"], only: true } });
  // Microsoft's app token is good for the tenant's domain (%d), for the mailboxes Exchange lets it read.
  xoauth2Only = await startDovecot({ users, oauth2: { introspectionUrl: providers.introspectionUrl, usernameFormat: "%d", usernameFilter: [BOB], mechanisms: ["xoauth2"], only: true } });
  t = createTestApp({ log, clock: new TestClock(new Date()), env: { ...providers.env, DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } });
});
afterAll(async () => {
  await bearerOnly?.close();
  await xoauth2Only?.close();
  await providers?.close();
  t?.close();
});

/** The mechanisms of the logins Dovecot accepted, from its log (`Login: user=<…>, method=…`). */
function loginMethods(d: Dovecot): string[] {
  return [...readFileSync(join(d.dir, "dovecot.log"), "utf8").matchAll(/imap-login: (?:Info: )?Login: user=<[^>]*>, method=([A-Z0-9-]+)/g)].map((m) => m[1]);
}

/** Whether a server takes a password, and the AUTH= mechanisms it offers, asked by a client of its own. */
async function greeting(d: Dovecot): Promise<string> {
  const client = new ImapFlow({ host: "127.0.0.1", port: d.port, secure: false, doSTARTTLS: false, auth: { user: ALICE, pass: "a-password-never-taken-1" }, logger: false, disableAutoIdle: true });
  try {
    await client.connect();
    await client.logout();
    return "logged in with a password";
  } catch (error) {
    return `refused: ${[...client.capabilities.keys()].filter((c) => c.startsWith("AUTH=")).join(" ")} (${(error as Error).message})`;
  }
}

async function connectAndSync(d: Dovecot, provider: "google" | "microsoft", address: string) {
  const orgs = orgsService(t.deps);
  const org = orgs.createOrg(`${provider} org`);
  const user = orgs.createUser({ orgId: org.id, email: address, name: address.split("@")[0] });
  const ms = providers.microsoft;
  const input = provider === "google" ? { provider, serviceAccountJson: sa.json } : { provider, tenant: ms.tenant, clientId: ms.clientId, clientSecret: ms.secret };
  await providerSetup(t.deps).setServer(org.id, { ...input, imap: `127.0.0.1:${d.port}`, security: "plain" });
  d.deliver(address, "INBOX", [message({ from: `Jane Doe <jane@${provider}-target.com>`, to: address, date: new Date(Date.now() - 86_400_000).toISOString(), id: `mech-${provider}@target.com` })]);
  const { connection_id } = await connectionsService(t.deps).connectMail(user.id, {});
  const synced = (await connectionsSync(t.deps).syncUser(user.id)).connections[0];
  return { connection_id, synced };
}

describe.skipIf(!run)("OAuth 2.0 SASL mechanisms (Dovecot oauth2 passdb, tokens only)", () => {
  test("a server offering only OAUTHBEARER: a Google org's member connects with no password and the sync logs in with OAUTHBEARER", async () => {
    expect(await greeting(bearerOnly!)).toMatch(/^refused: AUTH=OAUTHBEARER \(/);
    const { connection_id, synced } = await connectAndSync(bearerOnly!, "google", ALICE);
    expect(synced).toMatchObject({ status: "ok", messages_new: 1, error: null });
    expect(connectionsLedger(t.deps).ledgerOf(connection_id).ledger).toMatchObject([{ folder: "INBOX", uid_from: 1, uid_to: 1, seen: 1, imported: 1 }, { folder: "Sent", seen: 0 }]);
    // The connect's probe and the sync: both OAUTHBEARER, nothing else.
    const methods = loginMethods(bearerOnly!);
    expect(methods.length).toBeGreaterThanOrEqual(2);
    expect(new Set(methods)).toEqual(new Set(["OAUTHBEARER"]));
  }, 60_000);

  test("a server offering only XOAUTH2 (as Microsoft 365): a Microsoft org's member connects with no password and the sync logs in with XOAUTH2", async () => {
    expect(await greeting(xoauth2Only!)).toMatch(/^refused: AUTH=XOAUTH2 \(/);
    const { connection_id, synced } = await connectAndSync(xoauth2Only!, "microsoft", BOB);
    expect(synced).toMatchObject({ status: "ok", messages_new: 1, error: null });
    expect(connectionsLedger(t.deps).ledgerOf(connection_id).ledger[0]).toMatchObject({ folder: "INBOX", seen: 1, imported: 1 });
    const methods = loginMethods(xoauth2Only!);
    expect(methods.length).toBeGreaterThanOrEqual(2);
    expect(new Set(methods)).toEqual(new Set(["XOAUTH2"]));
  }, 60_000);

  test("no token, key or client secret in the server's log", () => {
    const all = logged.join("\n");
    expect(providers.issued()).toBeGreaterThanOrEqual(2);
    expect(all).not.toContain("ya29.test-");
    expect(all).not.toContain("PRIVATE KEY");
    expect(all).not.toContain(providers.microsoft.secret);
  });
});
