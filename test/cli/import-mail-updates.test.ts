// `dealgraph import mail` reads founders' updates in the mailbox as a sync does (CONTRACT.md,
// "Investor updates": messages imported or synced for any user of the org): from a holding's
// domain, from a listed sender, and a partner's forward with the original sender inside; other
// mail stays headers only. Run in process on a real data dir, read back through the API. The same
// mbox imported again, then synced from a real Dovecot, applies nothing twice (Message-IDs); one
// org's import writes nothing in another's book; one webhook event per update.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findJob } from "../../jobs/index.ts";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { seededApp, type TestApp } from "../helpers/app.ts";
import { holdingId, importPortfolioBook } from "../helpers/book.ts";
import { cli } from "../helpers/cli.ts";
import { filesDir, message, writeTo } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../helpers/mail-servers.ts";
import { eml } from "../helpers/updates.ts";

const LISTED = "sam.bolt@gmail.com";

const HOLDING_UPDATE = eml({
  from: "Jane Doe <jane@acme.com>",
  subject: "Acme Robotics - October 2026 update",
  date: "Tue, 03 Nov 2026 09:00:00 +0000",
  id: "<oct-2026@acme.com>",
  body: "Our October 2026 update\nARR: $2.1M\nCash: $4.2M",
});
/** From a founder's personal address, listed for Bolt Payments, with an attachment the document reader refuses. */
const LISTED_UPDATE = [
  `From: Sam Bolt <${LISTED}>`,
  "To: Alice Archer <alice@acme.vc>",
  "Subject: Bolt Payments - Q3 2026 update",
  "Date: Mon, 05 Oct 2026 09:00:00 +0000",
  "Message-ID: <q3-2026@bolt.example>",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="mixed"',
  "",
  "--mixed",
  'Content-Type: text/plain; charset="UTF-8"',
  "",
  "Our Q3 2026 update",
  "ARR: $600k",
  "Customers: 45",
  "--mixed",
  'Content-Type: application/pdf; name="board-deck.pdf"',
  'Content-Disposition: attachment; filename="board-deck.pdf"',
  "Content-Transfer-Encoding: base64",
  "",
  Buffer.from("%PDF-1.4\nthis is no PDF at all\n").toString("base64"),
  "--mixed--",
  "",
].join("\r\n");
/** Bob, a partner, forwards Échelle's update (Gmail's form): the founder inside decides the company. */
const FORWARD = eml({
  from: "Bob Baker <bob@acme.vc>",
  subject: "Fwd: Échelle - September 2026 update",
  date: "Mon, 05 Oct 2026 10:00:00 +0000",
  id: "<fwd-sep@acme.vc>",
  body: [
    "FYI, a good month for them.",
    "",
    "---------- Forwarded message ---------",
    "From: Louise Martin <louise@echelle.fr>",
    "Date: Sun, 4 Oct 2026 at 09:00",
    "Subject: Échelle - September 2026 update",
    "",
    "September 2026 update",
    "ARR: €900k",
    "Cash: €2.5M",
  ].join("\n"),
});
/** The same forward from someone outside the firm: never read. */
const STRANGERS_FORWARD = eml({
  from: "Mallory <mallory@evil.example>",
  subject: "Fwd: Échelle - September 2026 update",
  date: "Mon, 05 Oct 2026 11:00:00 +0000",
  id: "<fwd-sep@evil.example>",
  body: ["---------- Forwarded message ---------", "From: Louise Martin <louise@echelle.fr>", "Subject: Échelle - September 2026 update", "", "September 2026 update", "ARR: €9.9M", "Cash: €9.9M"].join("\n"),
});
/** A holding's founder writing about something else: read whole, and no update. */
const LUNCH = eml({ from: "Jane Doe <jane@acme.com>", subject: "Lunch next week?", date: "Wed, 04 Nov 2026 12:00:00 +0000", id: "<lunch@acme.com>", body: "Are you free on Tuesday? We could meet near the office." });
/** A reply in an update's thread that only quotes its figures: read whole, and no update (nothing new in it). */
const REPLY = eml({
  from: "Jane Doe <jane@acme.com>",
  subject: "Re: Acme Robotics - October 2026 update",
  date: "Wed, 04 Nov 2026 15:00:00 +0000",
  id: "<oct-2026-reply@acme.com>",
  body: "Thanks for the questions, happy to go through the update on Tuesday.\n\nOn Tue, 3 Nov 2026 at 09:00, Jane Doe <jane@acme.com> wrote:\n> Our October 2026 update\n> ARR: $2.1M\n> Cash: $4.2M",
});
const UNRELATED = message({ from: "Ray <ray@elsewhere.io>", to: "alice@acme.vc", date: "2026-11-02T09:00:00Z", id: "other@elsewhere.io", subject: "Intro", body: "Hi Alice, ARR: $5M, cash $9M, as promised." });

const MESSAGES = [UNRELATED, HOLDING_UPDATE, LISTED_UPDATE, FORWARD, STRANGERS_FORWARD, LUNCH, REPLY];

/** An mbox of the messages (each under its separator; none has a body line starting "From "), and the line of each separator. */
function mboxOf(messages: string[]): { text: string; lines: number[] } {
  const lines: number[] = [];
  let at = 1;
  const text = messages
    .map((m) => {
      lines.push(at);
      const chunk = `From someone@example.com Sat Nov  1 10:00:00 2026\n${m.replace(/\r\n/g, "\n").replace(/\n*$/, "\n")}\n`;
      at += chunk.split("\n").length - 1;
      return chunk;
    })
    .join("");
  return { text, lines };
}

function firm() {
  const { t, f } = seededApp({ file: true });
  importPortfolioBook(t.deps, f.orgs.acme.id);
  importPortfolioBook(t.deps, f.orgs.globex.id);
  return { t, f, d: t.dataDir! };
}

const count = (t: TestApp, sql: string, ...args: string[]) => t.deps.db.$client.query<{ n: number }, string[]>(sql).get(...args)!.n;
const updatesOf = (t: TestApp, orgId: string) => count(t, "SELECT count(*) AS n FROM investor_updates WHERE org_id = ?", orgId);
const pointsOf = (t: TestApp, orgId: string) => count(t, "SELECT count(*) AS n FROM portfolio_metric_points WHERE org_id = ? AND source = 'investor_update'", orgId);
const eventsOf = (t: TestApp, orgId: string) => count(t, "SELECT count(*) AS n FROM outbox_events WHERE org_id = ? AND event = 'portfolio.update.received'", orgId);
const eventsPerUpdate = (t: TestApp) =>
  count(t, "SELECT count(*) AS n FROM investor_updates u WHERE (SELECT count(*) FROM outbox_events e WHERE e.event = 'portfolio.update.received' AND e.org_id = u.org_id AND e.entity_id = u.id) <> 1");

let dovecot: Dovecot | null = null;
const ALICE = { login: "alice@acme.vc", password: "pw-alice-import-updates" };
beforeAll(async () => {
  if (hasDovecot()) dovecot = await startDovecot({ users: [ALICE] });
});
afterAll(async () => {
  await dovecot?.close();
});

describe("dealgraph import mail reads investor updates", () => {
  test("a holding's, a listed sender's and a partner's forward are applied with their quotes; other mail is not read", async () => {
    const { t, f, d } = firm();
    const acme = f.orgs.acme.id;
    const bolt = holdingId(t.deps, acme, "Bolt Payments");
    expect((await cli(d, "portfolio", "update-senders", "add", "--company", bolt, LISTED)).code).toBe(0);
    const { text, lines } = mboxOf(MESSAGES);
    const path = writeTo(filesDir(), "alice.mbox", text);

    const res = await cli(d, "import", "mail", "--user", f.users.alice.id, path, "--json");
    expect(res.code).toBe(0);
    // The relationship import as before: every message read, progress unchanged.
    expect(res.json).toMatchObject({ kind: "mail", read: MESSAGES.length });
    expect(res.stderr.split("\n")[0]).toMatch(/^imported \d+ messages \([\d,]+\/s\), 0 duplicates, \d+ skipped$/);
    // Read whole: the three updates, the founder's lunch note and her reply quoting the update (no
    // update: no figure is new in it); the stranger's forward and the intro never.
    expect(res.json.investor_updates).toEqual({ read: 5, updates: 3, applied: 6, needs_review: 0, duplicates: 0, not_updates: 2, failed: 0 });
    // The attachment the reader refused is named at the message's line in the file.
    expect(res.stderr).toContain(`warning: ${path}:${lines[2]}: board-deck.pdf: `);

    const listed = await t.request("GET", "/api/v1/portfolio/updates", { key: f.keys.read.secret });
    expect(listed.status).toBe(200);
    expect(listed.json.total).toBe(3);
    const byMessage = new Map<string, any>(listed.json.updates.map((u: any) => [u.figures[0].source.message_id, u]));
    expect(byMessage.get("<oct-2026@acme.com>")).toMatchObject({ company_id: holdingId(t.deps, acme), from: "jane@acme.com", period_end: "2026-10-31" });
    expect(byMessage.get("<oct-2026@acme.com>").figures.map((x: any) => [x.metric, x.value, x.currency, x.period_end, x.status, x.quote])).toEqual([
      ["arr", 2_100_000, "USD", "2026-10-31", "applied", "ARR: $2.1M"],
      ["cash", 4_200_000, "USD", "2026-10-31", "applied", "Cash: $4.2M"],
    ]);
    expect(byMessage.get("<q3-2026@bolt.example>")).toMatchObject({ company_id: bolt, from: LISTED, period_end: "2026-09-30" });
    expect(byMessage.get("<q3-2026@bolt.example>").figures.map((x: any) => [x.metric, x.value, x.status])).toEqual([
      ["arr", 600_000, "applied"],
      ["customers", 45, "applied"],
    ]);
    // The forward: Échelle's, from its founder (not from Bob), in euros; Bob's note is no figure.
    expect(byMessage.get("<fwd-sep@acme.vc>")).toMatchObject({ company_id: holdingId(t.deps, acme, "Échelle", "Fund II"), from: "louise@echelle.fr", period_end: "2026-09-30" });
    expect(byMessage.get("<fwd-sep@acme.vc>").figures.map((x: any) => [x.metric, x.value, x.currency, x.status])).toEqual([
      ["arr", 900_000, "EUR", "applied"],
      ["cash", 2_500_000, "EUR", "applied"],
    ]);
    // The book's point carries its evidence: the update and the quote.
    const arr = await t.request("GET", `/api/v1/portfolio/companies/${holdingId(t.deps, acme)}/metrics?metric=arr`, { key: f.keys.read.secret });
    expect(arr.status).toBe(200);
    expect(arr.json.points.at(-1)).toMatchObject({ value: 2_100_000, statement_date: "2026-10-31T00:00:00.000Z", source: "investor_update", evidence: { update_id: byMessage.get("<oct-2026@acme.com>").update_id, quote: "ARR: $2.1M" } });
    expect(pointsOf(t, acme)).toBe(6);
    // One webhook event per update.
    expect(eventsOf(t, acme)).toBe(3);
    expect(eventsPerUpdate(t)).toBe(0);

    // The summary line says what the reader did.
    const again = await cli(d, "import", "mail", "--user", f.users.alice.id, path);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("; investor updates: 0 new (0 figures applied, 0 to review), 3 already read, 2 of 5 holdings' messages no update");
    // Imported again: nothing added, no second event.
    expect([updatesOf(t, acme), pointsOf(t, acme), eventsOf(t, acme)]).toEqual([3, 6, 3]);
    // `import updates` of the same file: every update already there.
    const byHand = await cli(d, "import", "updates", "--user", f.users.bob.id, path, "--json");
    expect(byHand.code).toBe(0);
    expect(byHand.json).toMatchObject({ updates: 0, duplicates: 3 });
    expect([updatesOf(t, acme), pointsOf(t, acme), eventsOf(t, acme)]).toEqual([3, 6, 3]);
  }, 120_000);

  test("an org's import writes only its own updates", async () => {
    const { t, f, d } = firm();
    const [acme, globex] = [f.orgs.acme.id, f.orgs.globex.id];
    expect((await cli(d, "portfolio", "update-senders", "add", "--company", holdingId(t.deps, acme, "Bolt Payments"), LISTED)).code).toBe(0);
    const path = writeTo(filesDir(), "mail.mbox", mboxOf(MESSAGES).text);
    expect((await cli(d, "import", "mail", "--user", f.users.alice.id, path)).code).toBe(0);
    expect(updatesOf(t, acme)).toBe(3);
    expect([updatesOf(t, globex), pointsOf(t, globex), eventsOf(t, globex)]).toEqual([0, 0, 0]);

    // Carol (Globex, which holds Acme Robotics too) imports the same mailbox: Globex gets the update
    // from acme.com in its own book; Acme's listed sender and Bob's forward (Bob is no member of
    // Globex) are nothing to Globex; Acme's updates are untouched.
    const carol = await cli(d, "import", "mail", "--user", f.users.carol.id, path, "--json");
    expect(carol.code).toBe(0);
    expect(carol.json.investor_updates).toMatchObject({ updates: 1, duplicates: 0 });
    expect([updatesOf(t, globex), pointsOf(t, globex), eventsOf(t, globex)]).toEqual([1, 2, 1]);
    expect([updatesOf(t, acme), pointsOf(t, acme), eventsOf(t, acme)]).toEqual([3, 6, 3]);
    const theirs = await t.request("GET", "/api/v1/portfolio/updates", { key: f.keys.read.secret });
    expect(theirs.json.total).toBe(3);
    const globexUpdate = t.deps.db.$client.query<{ id: string; holding_id: string }, [string]>("SELECT id, holding_id FROM investor_updates WHERE org_id = ?").get(globex)!;
    expect(globexUpdate.holding_id).toBe(holdingId(t.deps, globex));
    expect(theirs.json.updates.map((u: any) => u.update_id)).not.toContain(globexUpdate.id);
    // Acme's key asks for Globex's holding: no such company for Acme.
    expect((await t.request("GET", `/api/v1/portfolio/updates?company_id=${holdingId(t.deps, globex)}`, { key: f.keys.read.secret })).status).toBe(404);
    expect(eventsPerUpdate(t)).toBe(0);
  }, 120_000);

  test("a folder of .eml files: the update in it is read, named by its file", async () => {
    const { t, f, d } = firm();
    const dir = filesDir();
    writeTo(dir, "a/update.eml", HOLDING_UPDATE);
    writeTo(dir, "b/other.eml", UNRELATED);
    const res = await cli(d, "import", "mail", "--user", f.users.alice.id, dir, "--json");
    expect(res.code).toBe(0);
    expect(res.json.investor_updates).toMatchObject({ read: 1, updates: 1, applied: 2 });
    expect(updatesOf(t, f.orgs.acme.id)).toBe(1);
  }, 60_000);

  test.skipIf(!hasDovecot() && process.env.CI !== "1")("imported, then synced from the mailbox: each update applies once", async () => {
    const { t, f, d } = firm();
    const acme = f.orgs.acme.id;
    expect((await cli(d, "portfolio", "update-senders", "add", "--company", holdingId(t.deps, acme, "Bolt Payments"), LISTED)).code).toBe(0);
    const path = writeTo(filesDir(), "alice.mbox", mboxOf(MESSAGES).text);
    expect((await cli(d, "import", "mail", "--user", f.users.alice.id, path)).code).toBe(0);
    expect([updatesOf(t, acme), pointsOf(t, acme), eventsOf(t, acme)]).toEqual([3, 6, 3]);
    const service = connectionsService(t.deps);
    service.setMailServer(acme, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    await service.connectMail(f.users.alice.id, { login: ALICE.login, password: ALICE.password });
    dovecot!.deliver(ALICE.login, "INBOX", MESSAGES);
    expect(await findJob("mail-sync")!.runOnce(t.deps)).toMatchObject({ connections: 1, failed: 0 });
    expect([updatesOf(t, acme), pointsOf(t, acme), eventsOf(t, acme)]).toEqual([3, 6, 3]);
    expect(eventsPerUpdate(t)).toBe(0);
  }, 120_000);
});
