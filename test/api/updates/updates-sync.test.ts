// Founders' updates arriving in a connected mailbox (a real Dovecot): the mail-sync job reads the
// update from a holding's domain whole and hands it to the updates reader; other mail stays
// headers only. A partner's forward is read too and decides its company by the original sender
// inside, as an imported one does. A second sync, and the same message imported from a file
// before or after, apply nothing again: one update, one metric point per figure.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { findJob } from "../../../jobs/index.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { updatesService } from "../../../src/modules/updates/updates.service.ts";
import { seededApp } from "../../helpers/app.ts";
import { holdingId, importPortfolioBook } from "../../helpers/book.ts";
import { message } from "../../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../../helpers/mail-servers.ts";
import { eml } from "../../helpers/updates.ts";

const ALICE = { login: "alice@acme.vc", password: "pw-alice-updates-1" };
// Alice's second mailbox: the forwards' test reads a mailbox of its own.
const ALICE_FORWARDS = { login: "alice.forwards@acme.vc", password: "pw-alice-updates-2" };
let dovecot: Dovecot | null = null;

beforeAll(async () => {
  if (hasDovecot()) dovecot = await startDovecot({ users: [ALICE, ALICE_FORWARDS] });
});
afterAll(async () => {
  await dovecot?.close();
});

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("an update in a connected mailbox", () => {
  test("is read at the next sync, once; imported again from a file it is a duplicate", async () => {
    const { t, f } = seededApp();
    importPortfolioBook(t.deps, f.orgs.acme.id);
    const service = connectionsService(t.deps);
    service.setMailServer(f.orgs.acme.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    await service.connectMail(f.users.alice.id, { login: ALICE.login, password: ALICE.password });
    const update = eml({ from: "Jane <jane@acme.com>", subject: "October 2026 update", date: "Tue, 03 Nov 2026 09:00:00 +0000", id: "<oct-2026@acme.com>", body: "Our October 2026 update\nARR: $2.1M\nCash: $4.2M" });
    dovecot!.deliver(ALICE.login, "INBOX", [message({ from: "Bob <bob@elsewhere.io>", to: ALICE.login, date: "2026-11-02T09:00:00Z", id: "other@elsewhere.io" }), update]);
    const sync = findJob("mail-sync")!;
    expect(await sync.runOnce(t.deps)).toMatchObject({ connections: 1, failed: 0 });
    const updates = updatesService(t.deps);
    const listed = updates.list(f.orgs.acme.id, { limit: 10, offset: 0 });
    expect(listed.total).toBe(1);
    expect(listed.updates[0].figures.map((x) => [x.metric, x.value, x.period_end, x.status])).toEqual([
      ["arr", 2_100_000, "2026-10-31", "applied"],
      ["cash", 4_200_000, "2026-10-31", "applied"],
    ]);
    await sync.runOnce(t.deps);
    expect(updates.list(f.orgs.acme.id, { limit: 10, offset: 0 }).total).toBe(1);
    expect(await updates.ingest(f.orgs.acme.id, update, { userId: f.users.bob.id, origin: "import" })).toEqual({ outcome: "duplicate", messageId: "<oct-2026@acme.com>" });
    expect(updatePoints(t)).toBe(2);
  }, 60_000);

  test("a partner's forward is read at sync with the original sender's company; imported first, then synced, an update applies once", async () => {
    const { t, f } = seededApp();
    importPortfolioBook(t.deps, f.orgs.acme.id);
    const service = connectionsService(t.deps);
    service.setMailServer(f.orgs.acme.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    await service.connectMail(f.users.alice.id, { login: ALICE_FORWARDS.login, password: ALICE_FORWARDS.password });
    const updates = updatesService(t.deps);
    // A founder's October update, imported from a file before the sync (as `dealgraph import updates` does).
    const october = eml({ from: "Jane Doe <jane@acme.com>", subject: "Acme Robotics - October 2026 update", date: "Mon, 02 Nov 2026 09:00:00 +0000", id: "<oct-2026-orig@acme.com>", body: "October 2026 update\nARR: $2.1M\nCash: $4.2M" });
    expect((await updates.ingest(f.orgs.acme.id, october, { userId: f.users.alice.id, origin: "import" })).outcome).toBe("applied");
    expect(updatePoints(t)).toBe(2);
    dovecot!.deliver(ALICE_FORWARDS.login, "INBOX", [
      // Bob (a partner) forwards Jane's September update: Gmail's form.
      forward("Bob Baker <bob@acme.vc>", "Fwd: Acme Robotics - September 2026 update", "<fwd-sep@acme.vc>", "Mon, 05 Oct 2026 10:00:00 +0000", [
        "FYI, good month. I'd guess they are near $2.5M ARR by now.",
        "",
        "---------- Forwarded message ---------",
        "From: Jane Doe <jane@acme.com>",
        "Date: Sun, 4 Oct 2026 at 09:00",
        "Subject: Acme Robotics - September 2026 update",
        "To: Bob Baker <bob@acme.vc>",
        "",
        "September 2026 update",
        "ARR: $2.0M",
        "Cash: $4.5M",
      ]),
      // The same forward by someone outside the firm: not an update.
      forward("Mallory <mallory@evil.example>", "Fwd: Acme Robotics - September 2026 update", "<fwd-sep@evil.example>", "Mon, 05 Oct 2026 11:00:00 +0000", [
        "---------- Forwarded message ---------",
        "From: Jane Doe <jane@acme.com>",
        "Subject: Acme Robotics - September 2026 update",
        "",
        "September 2026 update",
        "ARR: $9.9M",
        "Cash: $9.9M",
      ]),
      // Outlook in German, the subject in RFC 2047 encoded words.
      forward("Bob Baker <bob@acme.vc>", "=?UTF-8?Q?WG:_Acme_Robotics_=E2=80=93_Update_August_2026?=", "<fwd-aug@acme.vc>", "Thu, 03 Sep 2026 08:00:00 +0000", [
        "-----Ursprüngliche Nachricht-----",
        "Von: Jane Doe <jane@acme.com>",
        "Gesendet: Mittwoch, 2. September 2026 09:00",
        "An: Bob Baker <bob@acme.vc>",
        "Betreff: Update August 2026",
        "",
        "Update August 2026",
        "ARR: $1.9M",
      ]),
      // The October update, imported above, arrives in the mailbox too, and Bob forwards it.
      october,
      forward("Bob Baker <bob@acme.vc>", "Fwd: Acme Robotics - October 2026 update", "<fwd-oct@acme.vc>", "Tue, 03 Nov 2026 08:00:00 +0000", [
        "---------- Forwarded message ---------",
        "From: Jane Doe <jane@acme.com>",
        "Subject: Acme Robotics - October 2026 update",
        "",
        "October 2026 update",
        "ARR: $2.1M",
        "Cash: $4.2M",
      ]),
    ]);
    const sync = findJob("mail-sync")!;
    expect(await sync.runOnce(t.deps)).toMatchObject({ connections: 1, failed: 0 });
    const listed = updates.list(f.orgs.acme.id, { limit: 10, offset: 0 });
    const byMessage = new Map(listed.updates.map((u) => [u.figures[0]?.source.message_id, u]));
    expect([...byMessage.keys()].sort()).toEqual(["<fwd-aug@acme.vc>", "<fwd-oct@acme.vc>", "<fwd-sep@acme.vc>", "<oct-2026-orig@acme.com>"]);
    const september = byMessage.get("<fwd-sep@acme.vc>")!;
    expect(september).toMatchObject({ company_id: holdingId(t.deps, f.orgs.acme.id), from: "jane@acme.com" });
    // The partner's own guess in the forwarding note is no figure.
    expect(september.figures.map((x) => [x.metric, x.value, x.period_end, x.status])).toEqual([
      ["arr", 2_000_000, "2026-09-30", "applied"],
      ["cash", 4_500_000, "2026-09-30", "applied"],
    ]);
    expect(byMessage.get("<fwd-aug@acme.vc>")!.figures.map((x) => [x.metric, x.value, x.period_end, x.status])).toEqual([["arr", 1_900_000, "2026-08-31", "applied"]]);
    // The forward of October's update confirms the points the import wrote: no second point.
    expect(byMessage.get("<fwd-oct@acme.vc>")!.figures.map((x) => [x.metric, x.status])).toEqual([["arr", "applied"], ["cash", "applied"]]);
    expect(updatePoints(t)).toBe(2 + 2 + 1);
    // A second sync reads nothing new.
    await sync.runOnce(t.deps);
    expect(updates.list(f.orgs.acme.id, { limit: 10, offset: 0 }).total).toBe(4);
    expect(updatePoints(t)).toBe(5);
  }, 60_000);
});

/** The metric points written from updates (each figure once, however often its message was read). */
function updatePoints(t: TestApp): number {
  return t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM portfolio_metric_points WHERE source = 'investor_update'").get()!.n;
}

/** A partner's forward: the forwarding note and the forwarded header block in the text. */
function forward(from: string, subject: string, id: string, date: string, lines: string[]): string {
  return eml({ from, subject, date, id, body: lines.join("\n") });
}
