// The Connections page (/app/connections) with a real Dovecot and a loopback subscription: no
// server set yet says who sets it; connecting logs in first (a wrong password is shown at the
// form, stores nothing and is never echoed); the first sync starts at once and the table shows
// status, last sync, counts and errors; calendars by subscription link; the digest opt-in; every
// POST needs the CSRF token and this origin; another member's connection is 404.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";
import { calendar, message } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../helpers/mail-servers.ts";
import { Browser, textOf, withPassword } from "../helpers/web.ts";

const ALICE = { login: "alice@acme.vc", password: "mailbox-Pa55word" };
let dovecot: Dovecot | null = null;
let t: TestApp;
let f: Fixture;
let b: Browser;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [ALICE] });
});
afterAll(async () => {
  await dovecot?.close();
});
beforeEach(async () => {
  t = createTestApp();
  f = seedIdentity(t.deps);
  await withPassword(t, f.users.alice.id);
  b = new Browser(t);
  await b.signIn("alice@acme.vc");
});
afterEach(() => t.close());

const service = () => connectionsService(t.deps);

/** Waits for the background sync the page started. */
async function settled() {
  const until = Date.now() + 15_000;
  while (service().list(f.users.alice.id).some((c) => c.status === "syncing" || c.status === "never_synced") && Date.now() < until) await Bun.sleep(25);
}

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("connecting a mailbox (Dovecot)", () => {
  test("logs in first: a wrong password is shown at the form and stores nothing; then connected, synced and listed", async () => {
    let page = await b.get("/app/connections");
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="no-mail-server"');
    expect(textOf(page.html)).toContain("dealgraph admin mail-server set --org ORG_ID --imap HOST");
    expect(page.html).toContain('href="/app/connections" class="active"');

    service().setMailServer(f.orgs.acme.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    dovecot!.deliver(ALICE.login, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE.login, date: "2026-11-20T10:00:00Z", id: "web-1@target.com" })]);
    page = await b.get("/app/connections");
    expect(page.html).toContain('data-testid="connect-mail-form"');
    expect(page.html).toContain('name="login" type="text" value="alice@acme.vc"');

    const wrong = await b.post("/app/connections/mail", { login: ALICE.login, password: "not-my-password-99" });
    expect(wrong.status).toBe(422);
    expect(textOf(wrong.html)).toMatch(/Not connected: 127\.0\.0\.1:\d+ refused the login and password/);
    expect(wrong.html).not.toContain("not-my-password-99");
    expect(service().list(f.users.alice.id)).toEqual([]);

    // Without the CSRF token, or from another site: refused, nothing stored.
    expect((await b.post("/app/connections/mail", { login: ALICE.login, password: ALICE.password }, { csrf: null })).status).toBe(403);
    expect((await b.post("/app/connections/mail", { login: ALICE.login, password: ALICE.password }, { origin: "https://evil.example" })).status).toBe(403);
    expect(service().list(f.users.alice.id)).toEqual([]);

    await b.get("/app/connections");
    const ok = await b.post("/app/connections/mail", { login: ALICE.login, password: ALICE.password, folders: "", since: "" });
    expect(ok.status).toBe(303);
    await settled();
    page = await b.follow(ok);
    expect(textOf(page.html)).toContain(`Connected the mailbox ${ALICE.login}. Its first sync has started.`);
    const [conn] = service().list(f.users.alice.id);
    expect(conn).toMatchObject({ status: "ok", items_synced: 1 });
    page = await b.get("/app/connections");
    const row = page.html.slice(page.html.indexOf(`data-connection-id="${conn.connection_id}"`));
    expect(textOf(row.slice(0, row.indexOf("</tr>")))).toMatch(/alice@acme\.vc Mail \(IMAP\) Synced .* UTC 1 messages 1 new messages/);
    expect(page.html).not.toContain(ALICE.password);

    // The server refuses it now: "Sync now" records the error, shown in the table.
    await dovecot!.setPassword(ALICE.login, "changed-Pa55word");
    await b.post(`/app/connections/${conn.connection_id}/sync`, {});
    await Bun.sleep(50);
    const until = Date.now() + 15_000;
    while (service().list(f.users.alice.id)[0].status !== "error" && Date.now() < until) await Bun.sleep(25);
    page = await b.get("/app/connections");
    expect(textOf(page.html)).toMatch(/Error tried again .* refused the login and password/);
    await dovecot!.setPassword(ALICE.login, ALICE.password);
  }, 60_000);
});

describe("connections of others, calendars, the digest", () => {
  test("another member's connection is 404 to sync or remove; the owner removes it", async () => {
    const ics = calendar({ uid: "w1@t", start: "20261110T100000Z", lines: ["ORGANIZER:mailto:alice@acme.vc", "ATTENDEE:mailto:jane@target.com"] });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(ics, { headers: { "content-type": "text/calendar" } }) });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      service().setMailServer(f.orgs.acme.id, { imap: "127.0.0.1:1", security: "plain", caldav: `${origin}/` });
      await b.get("/app/connections");
      const bad = await b.post("/app/connections/calendar", { source: "ics", url: "ftp://nope" });
      expect(bad.status).toBe(422);
      expect(textOf(bad.html)).toContain("Not connected: --ics-url must be an http(s) or webcal URL without a login in it.");
      const ok = await b.post("/app/connections/calendar", { source: "ics", url: `${origin}/cal/secret-xyz.ics` });
      expect(ok.status).toBe(303);
      await settled();
      const page = await b.follow(ok);
      expect(textOf(page.html)).toMatch(new RegExp(`${origin.replace(/[.:/]/g, "\\$&")} \\(subscription\\) Calendar \\(subscription\\) Synced .* 1 meetings 1 new meetings`));
      expect(page.html).not.toContain("secret-xyz");
      const [conn] = service().list(f.users.alice.id);

      // Bob (same organization) and Carol (another) get 404 and change nothing.
      for (const [user, email] of [[f.users.bob, "bob@acme.vc"], [f.users.carol, "carol@globex.vc"]] as const) {
        await withPassword(t, user.id);
        const other = new Browser(t);
        await other.signIn(email);
        const theirs = await other.get("/app/connections");
        expect(theirs.html).not.toContain(conn.connection_id);
        expect((await other.post(`/app/connections/${conn.connection_id}/remove`, {})).status).toBe(404);
        expect((await other.post(`/app/connections/${conn.connection_id}/sync`, {})).status).toBe(404);
        expect((await other.post("/app/connections/not-a-uuid/remove", {})).status).toBe(404);
      }
      expect(service().list(f.users.alice.id)).toHaveLength(1);

      await b.get("/app/connections");
      const removed = await b.post(`/app/connections/${conn.connection_id}/remove`, {});
      expect(removed.status).toBe(303);
      expect(textOf((await b.follow(removed)).html)).toContain("it is no longer synced and what it signed in with (a password or a provider token) is forgotten");
      expect(service().list(f.users.alice.id)).toEqual([]);
    } finally {
      server.stop(true);
    }
  });

  test("the weekly digest is turned on and off; the page says when outbound mail is not configured", async () => {
    let page = await b.get("/app/connections");
    expect(page.html).toContain('data-testid="outbound-not-configured"');
    expect(textOf(page.html)).toContain("Send me the digest");
    page = await b.follow(await b.post("/app/connections/digest", { enabled: "on" }));
    expect(textOf(page.html)).toContain("You will get the going-stale digest every Monday.");
    expect(service().digestEnabled(f.users.alice.id)).toBe(true);
    expect(textOf(page.html)).toContain("Turn the digest off");
    await b.follow(await b.post("/app/connections/digest", { enabled: "off" }));
    expect(service().digestEnabled(f.users.alice.id)).toBe(false);
    expect(service().digestEnabled(f.users.bob.id)).toBe(false);
  });
});
