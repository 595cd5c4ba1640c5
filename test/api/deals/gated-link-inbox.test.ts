// The key user's connected inbox completes a gated DocSend link's email verification: the user's
// mail, imported with the real `dealgraph import mail` on the data dir of a server whose run waits,
// holds the loopback DocSend's verification mail; the import hands it to the deals module's own
// completion and the run reads the document. Mail that fits no waiting run of the importing
// user's organization changes nothing and is no error.
import { afterEach, describe, expect, test } from "bun:test";
import { findJob } from "../../../jobs/index.ts";
import { cli } from "../../helpers/cli.ts";
import { LEDGERLY_DECK } from "../../helpers/decks.ts";
import { documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";
import { filesDir, message, writeTo } from "../../helpers/import-files.ts";

let h: DocumentHostApp;
afterEach(() => h?.close());

const GATED = { document_url: "https://docsend.com/view/dverify", company_name: "Ledgerly", document_email: "partner@acme.vc", document_password: "hunter22" };
const PERSONAL = message({ from: "Jane Doe <jane@target.com>", to: "alice@acme.vc", id: "jane-1@target.com" });

/** An mbox as a mail client keeps it: each raw message under a `From ` line, body `From ` lines escaped (mboxrd). */
const mboxOf = (...raws: string[]) => raws.map((raw) => `From someone@example.com Sun Nov 22 12:30:00 2026\n${raw.replace(/^(>*From )/gm, ">$1")}\n`).join("");

const runRow = (dealId: string) => h.t.deps.db.$client.query("SELECT status, waiting_for, error, input FROM action_runs WHERE subject_id = ?").get(dealId);
const verifyHits = () => h.world.hits.filter((x) => x.includes("/verify?token="));

/** The analysis status read with a key of the deal's org (Acme's unless told). */
const statusOf = async (dealId: string, key = h.f.keys.read.secret) => (await h.t.request("GET", `/api/v1/deals/${dealId}/analysis`, { key })).json;

/** Submits a gated link (Acme's write key unless told) and lets its gate run: DocSend has mailed the link; returns the deal id and that mail. */
async function waitingDeal(body: Record<string, string> = GATED, key = h.f.keys.write.secret) {
  const res = await h.analyze(body, key);
  expect(res.status).toBe(202);
  const mailsBefore = h.world.mails.length;
  await h.run();
  expect(await statusOf(res.json.deal_id, key)).toMatchObject({ status: "queued", waiting_for: "email_verification" });
  expect(h.world.mails).toHaveLength(mailsBefore + 1);
  return { dealId: res.json.deal_id as string, mail: h.world.mails.at(-1)!.raw, remaining: Number(res.headers.get("x-actions-remaining")) };
}

/** `dealgraph import mail --user USER PATH --json` on the server's data dir. */
async function importMail(userId: string, path: string) {
  const res = await cli(h.t.dataDir!, "import", "mail", "--user", userId, path, "--json");
  expect([res.code, res.stderr.split("\n").filter((l) => l.startsWith("error"))]).toEqual([0, []]);
  return res.json;
}

describe("a verification mail in the key user's imported mail", () => {
  test("completes the waiting run through the verification service; the run reads the document; the mail is still no relationship", async () => {
    h = await documentHostApp(["docsend"]);
    const { dealId, mail, remaining } = await waitingDeal();
    // The mail sits past the reader's first 1 MB chunk, after a body line longer than it buffers, with mail after it.
    const longLine = message({ from: "jane@target.com", to: "alice@acme.vc", id: "jane-long@target.com", body: "x".repeat(1_200_000) });
    const later = message({ from: "jane@target.com", to: "alice@acme.vc", id: "jane-later@target.com", body: "From the board: yes." });
    const path = writeTo(filesDir(), "alice.mbox", mboxOf(PERSONAL, longLine, mail, later));

    const stats = await importMail(h.f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 4, imported: 3, skipped: 1, skipped_by_reason: { automated: 1 }, verified_document_links: 1 });
    expect(await h.status(dealId)).toMatchObject({ status: "queued", waiting_for: null });
    expect(JSON.parse((runRow(dealId) as { input: string }).input).gate).toMatchObject({ verification_url_sealed: expect.stringMatching(/^v1:/), verified_at: expect.any(String) });

    await h.run();
    expect((await h.status(dealId)).status).toBe("succeeded");
    expect(await h.documents(dealId)).toMatchObject([{ filename: "Ledgerly deck.pdf", page_count: 5, status: "extracted" }]);
    const pages = h.t.deps.db.$client.query("SELECT pages FROM deal_documents WHERE deal_id = ?").get(dealId) as { pages: string };
    expect(JSON.parse(pages.pages).join(" ").replace(/\s+/g, " ")).toContain(LEDGERLY_DECK[2]);
    expect(verifyHits()).toEqual([expect.stringMatching(/^docsend\.com \/view\/dverify\/verify\?token=t\w+$/)]);
    // Nothing charged for the verification: the next submission's remaining count is one lower.
    const next = await h.analyze({ document_url: "https://docsend.com/view/dpass", company_name: "Next", document_password: "opensesame" });
    expect(Number(next.headers.get("x-actions-remaining"))).toBe(remaining - 1);

    // The same mailbox again: the link is used, the run is done; nothing happens, and the summary says nothing of it.
    const again = await cli(h.t.dataDir!, "import", "mail", "--user", h.f.users.alice.id, path);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/: 4 messages read, 0 imported, 3 duplicates, 1 skipped \(1 automated\); 0 persons and 0 relationships created in [\d.]+ s$/);
    expect(verifyHits()).toHaveLength(1);
    expect((await h.status(dealId)).status).toBe("succeeded");
  });

  test("a folder of .eml files works the same, and the human summary says how many it verified", async () => {
    h = await documentHostApp(["docsend"]);
    const { dealId, mail } = await waitingDeal({ document_url: "https://docsend.com/view/dverifyonly", company_name: "Ledgerly", document_email: "Partner@Acme.vc" });
    const dir = filesDir();
    writeTo(dir, "inbox/1.eml", message({ from: "Jane Doe <jane@target.com>", to: "bob@acme.vc", id: "jane-2@target.com" }));
    writeTo(dir, "inbox/2.eml", mail);
    const res = await cli(h.t.dataDir!, "import", "mail", "--user", h.f.users.bob.id, `${dir}/inbox`);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/: 2 messages read, 1 imported, 0 duplicates, 1 skipped \(1 automated\); 1 persons and 1 relationships created in [\d.]+ s; 1 gated document link verified \(analysis proceeds\)$/);
    await h.run();
    expect((await h.status(dealId)).status).toBe("succeeded");
  });
});

describe("mail that fits no waiting run changes nothing and is no error", () => {
  test("another recipient, a link on another host, a sender that is not DocSend, a mail older than the gate, no verification link", async () => {
    h = await documentHostApp(["docsend"]);
    const { dealId, mail } = await waitingDeal();
    const renamed = (raw: string, id: string) => raw.replace(/^Message-ID: .*$/m, `Message-ID: <${id}@docsend.com>`);
    const misfits = [
      renamed(mail.replace("To: partner@acme.vc", "To: someone-else@acme.vc"), "other-recipient"),
      renamed(mail.replace(/https:\/\/docsend\.com/g, "https://docsend.example.net"), "other-host"),
      renamed(mail.replace("From: DocSend <no-reply@docsend.com>", "From: Mallory <mallory@evil.example>"), "other-sender"),
      renamed(mail.replace(/^Date: .*$/m, "Date: Sat, 21 Nov 2026 11:00:00 +0000"), "older-than-the-gate"),
      renamed(mail.replace(/https:\/\/docsend\.com\/view\/dverify\/verify\?token(=3D|=)\w+/g, ""), "no-link"),
    ];
    const before = runRow(dealId);
    const stats = await importMail(h.f.users.alice.id, writeTo(filesDir(), "misfits.mbox", mboxOf(PERSONAL, ...misfits)));
    expect(stats).toMatchObject({ read: 6, imported: 1, verified_document_links: 0 });
    expect(runRow(dealId)).toEqual(before);
    expect(verifyHits()).toEqual([]);

    // The run could still be completed all along: the real mail does it.
    expect((await importMail(h.f.users.alice.id, writeTo(filesDir(), "real.mbox", mboxOf(mail)))).verified_document_links).toBe(1);
  });

  test("org scoping: mail imported for a user of one org never completes another org's run, even at the same document_email", async () => {
    h = await documentHostApp(["docsend"]);
    const acme = await waitingDeal();
    const globex = await waitingDeal({ document_url: "https://docsend.com/view/dverifyonly", company_name: "Globex pick", document_email: "partner@acme.vc" }, h.f.keys.otherOrgWrite.secret);
    const mailbox = (raw: string) => writeTo(filesDir(), "mail.mbox", mboxOf(raw));
    const waiting = { status: "queued", waiting_for: "email_verification" };

    // Carol (Globex) holds Acme's mail: Globex's own waiting run is for another document, Acme's is not hers to complete.
    expect((await importMail(h.f.users.carol.id, mailbox(acme.mail))).verified_document_links).toBe(0);
    // Alice (Acme) holds Globex's mail: likewise.
    expect((await importMail(h.f.users.alice.id, mailbox(globex.mail))).verified_document_links).toBe(0);
    expect(await h.status(acme.dealId)).toMatchObject(waiting);
    expect(await statusOf(globex.dealId, h.f.keys.otherOrgWrite.secret)).toMatchObject(waiting);

    // Each org's own user completes its own run, and only that one.
    expect((await importMail(h.f.users.carol.id, mailbox(globex.mail))).verified_document_links).toBe(1);
    expect(await statusOf(globex.dealId, h.f.keys.otherOrgWrite.secret)).toMatchObject({ status: "queued", waiting_for: null });
    expect(await h.status(acme.dealId)).toMatchObject(waiting);
    expect((await importMail(h.f.users.alice.id, mailbox(acme.mail))).verified_document_links).toBe(1);
    expect(await h.status(acme.dealId)).toMatchObject({ status: "queued", waiting_for: null });
  });

  test("a run that already failed after 24 hours stays failed", async () => {
    h = await documentHostApp(["docsend"]);
    const { dealId, mail } = await waitingDeal();
    h.t.clock.advanceHours(25);
    expect(await findJob("stale-run-sweep")!.runOnce(h.t.deps)).toMatchObject({ expired: 1 });
    const failed = runRow(dealId);
    expect(failed).toMatchObject({ status: "failed", error: "The document host's email verification did not complete within 24 hours" });

    const stats = await importMail(h.f.users.alice.id, writeTo(filesDir(), "late.mbox", mboxOf(PERSONAL, mail)));
    expect(stats).toMatchObject({ read: 2, imported: 1, verified_document_links: 0 });
    expect(runRow(dealId)).toEqual(failed);
    expect(verifyHits()).toEqual([]);
  });
});
