// Outbound mail through a real SMTP receiver (smtp-server on loopback): the verification request
// of a gated link whose key user has no connected mailbox, `admin user link --send`, and the weekly
// going-stale digest; each says plainly that outbound mail is not configured when it is not, and
// changes nothing else. The relay's password is never printed.
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findJob } from "../../../jobs/index.ts";
import { runCli } from "../../../src/cli/index.ts";
import { loadConfig } from "../../../src/config.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { networkSignals } from "../../../src/modules/network/network.signals.ts";
import { webAuth } from "../../../src/modules/web/web.auth.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { captureIo, cli, tempDataDir } from "../../helpers/cli.ts";
import { documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";
import { seedIdentity } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";
import { startSmtpReceiver, type SmtpReceiver } from "../../helpers/mail-smtp-receiver.ts";

let smtp: SmtpReceiver | null = null;
let t: TestApp | null = null;
let h: DocumentHostApp | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
  t?.close();
  t = null;
  h?.close();
  h = null;
});

const mailEnv = (s: SmtpReceiver) => ({ DEALGRAPH_SMTP_URL: s.url, DEALGRAPH_MAIL_FROM: "dealgraph@acme.vc", DEALGRAPH_PUBLIC_URL: "https://dealgraph.acme.vc" });

describe("settings", () => {
  test("DEALGRAPH_SMTP_URL needs DEALGRAPH_MAIL_FROM and an smtp(s) URL; the URL (it may hold a password) is never echoed", () => {
    expect(loadConfig({}).smtp).toBeNull();
    expect(loadConfig({ DEALGRAPH_SMTP_URL: "smtps://u:p@relay.acme.vc:465", DEALGRAPH_MAIL_FROM: "dealgraph@acme.vc" }).smtp).toEqual({ url: "smtps://u:p@relay.acme.vc:465", from: "dealgraph@acme.vc", caFile: null });
    expect(() => loadConfig({ DEALGRAPH_SMTP_URL: "smtp://relay.acme.vc:587" })).toThrow(/DEALGRAPH_MAIL_FROM \(the address mail is sent from\) is required/);
    expect(() => loadConfig({ DEALGRAPH_SMTP_URL: "smtp://relay.acme.vc", DEALGRAPH_MAIL_FROM: "not an address" })).toThrow(/DEALGRAPH_MAIL_FROM must be an email address/);
    for (const bad of ["http://u:hunter2@relay:25", "relay.acme.vc", "smtp://"]) {
      let message = "";
      try {
        loadConfig({ DEALGRAPH_SMTP_URL: bad, DEALGRAPH_MAIL_FROM: "d@acme.vc" });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/DEALGRAPH_SMTP_URL must be smtp:\/\/\[user:pass@\]host:port or smtps:/);
      expect(message).not.toContain("hunter2");
    }
  });
});

describe("admin user link --send", () => {
  test("emails the one-time sign-in link (printed nowhere); without outbound mail it says so and issues no link", async () => {
    const dir = tempDataDir();
    const org = (await cli(dir, "admin", "org", "create", "--name", "Acme", "--json")).json.org_id;
    const user = (await cli(dir, "admin", "user", "create", "--org", org, "--email", "alice@acme.vc", "--name", "Alice Archer", "--json")).json.user_id;

    const none = captureIo({});
    expect(await runCli(["admin", "user", "link", "--user", user, "--send", "--data-dir", dir], none.io)).toBe(1);
    expect(none.err.join("\n")).toBe("error: cannot send the sign-in link: outbound mail is not configured (set DEALGRAPH_SMTP_URL and DEALGRAPH_MAIL_FROM)");
    expect(none.out).toEqual([]);
    const links = () => {
      const db = new Database(join(dir, "dealgraph.db"), { readonly: true });
      const n = (db.query("SELECT count(*) AS n FROM web_sign_in_links").get() as { n: number }).n;
      db.close();
      return n;
    };
    expect(links()).toBe(0);

    smtp = await startSmtpReceiver({ login: { login: "relay-user", password: "relay-Pa55" } });
    const sent = captureIo(mailEnv(smtp));
    expect(await runCli(["admin", "user", "link", "--user", user, "--send", "--json", "--data-dir", dir], sent.io)).toBe(0);
    const printed = JSON.parse(sent.out.join(""));
    expect(printed).toEqual({ user_id: user, sent_to: "alice@acme.vc", expires_at: expect.any(String) });
    const [mail] = await smtp.waitFor(1);
    expect(mail).toMatchObject({ from: "dealgraph@acme.vc", to: ["alice@acme.vc"], subject: "Your Dealgraph sign-in link" });
    const link = /https:\/\/dealgraph\.acme\.vc\/app\/sign-in\/link\?token=(\S+)/.exec(mail.text);
    expect(link).not.toBeNull();
    expect(mail.text).toContain(`It works once, until ${printed.expires_at}`);
    // The link in the mail is the live one; it was printed nowhere.
    expect([...sent.out, ...sent.err].join("\n")).not.toContain(link![1]);
    expect([...sent.out, ...sent.err].join("\n")).not.toContain("relay-Pa55");
    const { openDeps } = await import("../../../src/cli/context.ts");
    expect(webAuth(openDeps(captureIo().io, { "data-dir": dir })).peekLink(decodeURIComponent(link![1])).status).toBe("valid");
    expect(links()).toBe(1);

    // A relay that refuses the login: exit 1, the reason without the password.
    const refused = captureIo({ ...mailEnv(smtp), DEALGRAPH_SMTP_URL: smtp.url.replace("relay-Pa55", "wrong-Pa55") });
    expect(await runCli(["admin", "user", "link", "--user", user, "--send", "--data-dir", dir], refused.io)).toBe(1);
    expect(refused.err.join("\n")).toMatch(/could not send mail through 127\.0\.0\.1:\d+: the relay answered 535 \(the relay refused the login in DEALGRAPH_SMTP_URL\)/);
    expect(refused.err.join("\n")).not.toContain("wrong-Pa55");
  });
});

describe("the weekly going-stale digest", () => {
  test("members who opted in get who is overdue, for how long, their cadence and a link; once a week; nothing without outbound mail", async () => {
    smtp = await startSmtpReceiver();
    t = createTestApp({ env: mailEnv(smtp) });
    const f = seedIdentity(t.deps);
    const signals = networkSignals(t.deps);
    knows(t.deps, f.users.alice.id, { email: "jane@target.com", name: "Jane Doe" }, thread(6, 14, 45));
    knows(t.deps, f.users.alice.id, { email: "omar@fund.vc", name: "Omar Haddad" }, thread(4, 7, 3));
    signals.declareCadence(f.users.alice.id, "jane@target.com", 30);
    knows(t.deps, f.users.bob.id, { email: "kim@portco.io", name: "Kim" }, thread(3, 10, 90));
    signals.declareCadence(f.users.bob.id, "kim@portco.io", 30);
    const service = connectionsService(t.deps);
    service.setDigest(f.users.alice.id, true);

    const job = findJob("stale-digest")!;
    expect(await job.runOnce(t.deps)).toEqual({ sent: 1, nothing_stale: 0, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail).toMatchObject({ to: ["alice@acme.vc"], subject: "1 relationship going stale this week" });
    expect(mail.text).toContain("- Jane Doe <jane@target.com>: last touch 45 days ago (2026-10-08); you keep in touch every 30 days.\n  https://dealgraph.acme.vc/app/who-knows?person=jane%40target.com");
    expect(mail.text).toContain("https://dealgraph.acme.vc/app/connections");
    expect(mail.text).not.toContain("omar@fund.vc");
    // Bob did not opt in; Alice is not mailed again within the week.
    expect(await job.runOnce(t.deps)).toEqual({ sent: 0, nothing_stale: 0, failed: 0 });
    t.clock.advance(7 * 86_400_000);
    expect(await job.runOnce(t.deps)).toEqual({ sent: 1, nothing_stale: 0, failed: 0 });
    await smtp.waitFor(2);
    expect(smtp.received.map((m) => m.to[0])).toEqual(["alice@acme.vc", "alice@acme.vc"]);
    service.setDigest(f.users.alice.id, false);
    t.clock.advance(7 * 86_400_000);
    expect(await job.runOnce(t.deps)).toEqual({ sent: 0, nothing_stale: 0, failed: 0 });

    // Without outbound mail: nothing sent, and the job says why.
    const plain = createTestApp();
    try {
      const g = seedIdentity(plain.deps);
      connectionsService(plain.deps).setDigest(g.users.alice.id, true);
      expect(await job.runOnce(plain.deps)).toEqual({ sent: 0, not_sent: "outbound mail is not configured (set DEALGRAPH_SMTP_URL and DEALGRAPH_MAIL_FROM)" });
    } finally {
      plain.close();
    }
  });
});

describe("the verification request of a gated document link", () => {
  const GATED = { document_url: "https://docsend.com/view/dverify", company_name: "Ledgerly", document_email: "partner@acme.vc", document_password: "hunter22" };

  test("with no connected mailbox, the key user is mailed what to forward and where; without outbound mail the run records why not", async () => {
    smtp = await startSmtpReceiver();
    h = await documentHostApp(["docsend"], {}, mailEnv(smtp));
    const res = await h.analyze(GATED);
    expect(res.status).toBe(202);
    await h.run();
    expect(await h.status(res.json.deal_id)).toMatchObject({ status: "queued", waiting_for: "email_verification" });
    const [mail] = await smtp.waitFor(1);
    const dealId = res.json.deal_id;
    expect(mail.to).toEqual(["alice@acme.vc"]);
    expect(mail.subject).toBe(`Verify the document link for deal ${dealId.slice(0, 8)}: forward docsend.com's link`);
    expect(mail.text).toContain("docsend.com has just mailed a verification link to partner@acme.vc");
    expect(mail.text).toContain(`POST https://dealgraph.acme.vc/api/v1/deals/${dealId}/verification with {"verification_url": "<the link>"}`);
    expect(mail.text).toContain(`dealgraph deals verify ${dealId} --link`);
    expect(mail.text).toContain("https://dealgraph.acme.vc/app/connections");
    const gate = () => JSON.parse((h!.t.deps.db.$client.query("SELECT input FROM action_runs WHERE subject_id = ?").get(dealId) as { input: string }).input).gate;
    expect(gate().request).toEqual({ sent_to: "alice@acme.vc", sent_at: expect.any(String) });
    h.close();
    h = null;

    h = await documentHostApp(["docsend"]);
    const plain = await h.analyze(GATED);
    await h.run();
    expect(await h.status(plain.json.deal_id)).toMatchObject({ status: "queued", waiting_for: "email_verification" });
    expect(JSON.parse((h.t.deps.db.$client.query("SELECT input FROM action_runs WHERE subject_id = ?").get(plain.json.deal_id) as { input: string }).input).gate.request).toEqual({
      not_sent: "outbound mail is not configured (set DEALGRAPH_SMTP_URL and DEALGRAPH_MAIL_FROM)",
    });
    expect(smtp.received).toHaveLength(1);
  });
});
