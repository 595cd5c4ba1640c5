// Founders' updates arriving in a connected mailbox (a real Dovecot): the mail-sync job reads the
// update from a holding's domain whole and hands it to the updates reader; other mail stays
// headers only. A second sync, and the same message imported from a file, apply nothing again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findJob } from "../../../jobs/index.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { updatesService } from "../../../src/modules/updates/updates.service.ts";
import { seededApp } from "../../helpers/app.ts";
import { importPortfolioBook } from "../../helpers/book.ts";
import { message } from "../../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../../helpers/mail-servers.ts";
import { eml } from "../../helpers/updates.ts";

const ALICE = { login: "alice@acme.vc", password: "pw-alice-updates-1" };
let dovecot: Dovecot | null = null;

beforeAll(async () => {
  if (hasDovecot()) dovecot = await startDovecot({ users: [ALICE] });
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
  }, 60_000);
});
