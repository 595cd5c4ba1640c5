// A gated DocSend link's verification mail arriving in the key user's connected mailbox (a real
// Dovecot) completes the waiting analysis at the next sync: the loopback DocSend mails its link,
// the mail lands in the inbox, the mail-sync job reads it (that message whole, the rest as
// headers) and hands it to the deals module's completion; the run then reads the document. With a
// working connected mailbox no verification request is mailed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { findJob } from "../../../jobs/index.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";
import { message } from "../../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../../helpers/mail-servers.ts";
import { startSmtpReceiver, type SmtpReceiver } from "../../helpers/mail-smtp-receiver.ts";

const ALICE = { login: "alice@acme.vc", password: "pw-alice-verify-1" };
let dovecot: Dovecot | null = null;
let smtp: SmtpReceiver | null = null;
let h: DocumentHostApp | null = null;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [ALICE] });
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await dovecot?.close();
  await smtp?.close();
});
afterEach(() => h?.close());

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("a verification mail in a connected mailbox", () => {
  test("completes the waiting run at the next sync; no request is mailed to a user whose mailbox is connected", async () => {
    h = await documentHostApp(["docsend"], {}, { DEALGRAPH_SMTP_URL: smtp!.url, DEALGRAPH_MAIL_FROM: "dealgraph@acme.vc" });
    const service = connectionsService(h.t.deps);
    service.setMailServer(h.f.orgs.acme.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
    await service.connectMail(h.f.users.alice.id, { login: ALICE.login, password: ALICE.password });

    const res = await h.analyze({ document_url: "https://docsend.com/view/dverify", company_name: "Ledgerly", document_email: "partner@acme.vc", document_password: "hunter22" });
    expect(res.status).toBe(202);
    const dealId = res.json.deal_id as string;
    await h.run();
    expect(await h.status(dealId)).toMatchObject({ status: "queued", waiting_for: "email_verification" });
    const input = () => JSON.parse((h!.t.deps.db.$client.query("SELECT input FROM action_runs WHERE subject_id = ?").get(dealId) as { input: string }).input);
    expect(input().gate.request).toEqual({ not_sent: "the key user's connected mailbox is read at its next sync" });
    expect(smtp!.received).toEqual([]);

    // The host's mail arrives with other mail; the job's next run reads it.
    dovecot!.deliver(ALICE.login, "INBOX", [message({ from: "Jane Doe <jane@target.com>", to: ALICE.login, date: "2026-11-22T09:00:00Z", id: "before@target.com" }), h.world.mails.at(-1)!.raw]);
    expect(await findJob("mail-sync")!.runOnce(h.t.deps)).toMatchObject({ connections: 1, failed: 0, messages_new: 1 });
    expect(await h.status(dealId)).toMatchObject({ status: "queued", waiting_for: null });
    expect(input().gate).toMatchObject({ verification_url_sealed: expect.stringMatching(/^v1:/), verified_at: expect.any(String) });

    await h.run();
    expect((await h.status(dealId)).status).toBe("succeeded");
    expect(await h.documents(dealId)).toMatchObject([{ filename: "Ledgerly deck.pdf", status: "extracted" }]);
    // The next sync reads nothing new and changes nothing.
    expect(await findJob("mail-sync")!.runOnce(h.t.deps)).toMatchObject({ connections: 1, failed: 0, messages_new: 0 });
    expect((await h.status(dealId)).status).toBe("succeeded");
  }, 60_000);
});
