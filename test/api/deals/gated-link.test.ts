// Gated document links (DocSend's email verification) end to end, against a loopback DocSend
// (viewer with an email + passcode form, a POST gate that records a token and "sends" the
// verification mail, GET verify?token -> cookie, the viewer with the cookie -> the document),
// reached as docsend.com with private networks NOT allowed.
import { afterEach, describe, expect, test } from "bun:test";
import { findJob } from "../../../jobs/index.ts";
import { documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";

let h: DocumentHostApp;
afterEach(() => h?.close());

const GATED = { document_url: "https://docsend.com/view/dverify", company_name: "Ledgerly", document_email: "partner@acme.vc", document_password: "hunter22" };
const inputOf = (h: DocumentHostApp, dealId: string) =>
  (h.t.deps.db.$client.query("SELECT input FROM action_runs WHERE subject_id = ?").get(dealId) as { input: string }).input;

/** Submits the gated link and lets the run open the gate: the host has mailed its verification link. */
async function waitingDeal(body: Record<string, string> = GATED) {
  const res = await h.analyze(body);
  expect(res.status).toBe(202);
  expect(res.json.email_verification_required).toBe(true);
  await h.run();
  expect(await h.status(res.json.deal_id)).toMatchObject({ status: "queued", waiting_for: "email_verification", progress: null, error: null });
  return res;
}

describe("DocSend with email verification", () => {
  test("the gate is submitted as a browser would, the host mails its link, the raw email completes it, the run reads the document", async () => {
    h = await documentHostApp(["docsend"]);
    const accepted = await waitingDeal();
    const dealId = accepted.json.deal_id;
    // The email and the password went through DocSend's form (with its CSRF token and session cookie).
    expect(h.world.mails).toHaveLength(1);
    expect(h.world.mails[0].to).toBe("partner@acme.vc");
    // Secrets stay sealed in the database: the password and the host's cookies.
    const input = inputOf(h, dealId);
    expect(input).not.toContain("hunter22");
    expect(input).not.toContain("_ds_session");
    expect(JSON.parse(input).gate).toMatchObject({ outcome: "verification_sent", cookies_sealed: expect.stringMatching(/^v1:/) });

    const verified = await h.verify(dealId, { message: h.world.mails[0].raw });
    expect(verified.status).toBe(202);
    expect(verified.json).toMatchObject({ deal_id: dealId, status: "queued", waiting_for: null, status_url: `/api/v1/deals/${dealId}/analysis` });
    expect(verified.headers.get("x-actions-remaining")).toBeNull(); // nothing charged
    expect(await h.status(dealId)).toMatchObject({ status: "queued", waiting_for: null });
    expect(JSON.parse(inputOf(h, dealId)).gate.verification_url_sealed).toMatch(/^v1:/);

    await h.run();
    expect((await h.status(dealId)).status).toBe("succeeded");
    expect(await h.documents(dealId)).toMatchObject([{ filename: "Ledgerly deck.pdf", page_count: 5, status: "extracted" }]);
    expect((await h.deal(dealId)).round).toMatchObject({ amount: 4_000_000 });
    // The link from the email was followed (it was the verify link, not the document link also in the mail).
    expect(h.world.hits.filter((x) => x.startsWith("docsend.com /view/dverify/verify?token="))).toHaveLength(1);
    expect(h.world.mails).toHaveLength(1);
    // One action for the whole flow: the next submission's remaining count is one lower than the first's.
    const next = await h.analyze({ document_url: "https://docsend.com/view/dpass", company_name: "Next", document_password: "opensesame" });
    expect(Number(next.headers.get("x-actions-remaining"))).toBe(Number(accepted.headers.get("x-actions-remaining")) - 1);
    // Done: a second verification is a conflict, and changes nothing.
    const again = await h.verify(dealId, { message: h.world.mails[0].raw });
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(/not waiting for an email verification \(it is succeeded\)/);
  });

  test("the verification link given as a URL works the same (email-only gate with verification)", async () => {
    h = await documentHostApp(["docsend"]);
    const accepted = await waitingDeal({ document_url: "https://docsend.com/view/dverifyonly", company_name: "Ledgerly", document_email: "partner@acme.vc" });
    const link = /https:\/\/docsend\.com\/view\/dverifyonly\/verify\?token=\w+/.exec(h.world.mails[0].raw)![0];
    expect((await h.verify(accepted.json.deal_id, { verification_url: link })).status).toBe(202);
    await h.run();
    expect((await h.status(accepted.json.deal_id)).status).toBe("succeeded");
  });

  test("a verification link the host no longer accepts fails the run saying so", async () => {
    h = await documentHostApp(["docsend"]);
    const accepted = await waitingDeal();
    expect((await h.verify(accepted.json.deal_id, { verification_url: "https://docsend.com/view/dverify/verify?token=stale" })).status).toBe(202);
    await h.run();
    expect(await h.status(accepted.json.deal_id)).toMatchObject({
      status: "failed",
      error: "DocSend refused the verification link (HTTP 410): it may have expired or been used already; submit the document link again",
    });
  });

  test("refusals change nothing: a link on another host 422, a message without a DocSend link 422, both or neither 422, bad URL 422, another org 404, read key 403, unknown deal 404", async () => {
    h = await documentHostApp(["docsend"]);
    const dealId = (await waitingDeal()).json.deal_id;
    const before = inputOf(h, dealId);
    const mail = h.world.mails[0].raw;
    const cases: [unknown, string[], string, RegExp][] = [
      [{ verification_url: "https://evil.example/view/dverify/verify?token=x" }, ["body", "verification_url"], "value_error", /must be on the document's host, DocSend \(docsend\.com\); this one is on evil\.example/],
      [{ verification_url: "https://drive.google.com/uc?id=x" }, ["body", "verification_url"], "value_error", /must be on the document's host/],
      [{ verification_url: "not a url" }, ["body", "verification_url"], "url_parsing", /valid URL/],
      [{ message: mail.replace(/docsend\.com/g, "docsend.example.net") }, ["body", "message"], "value_error", /holds no verification link on the document's host, DocSend/],
      [{ message: "just some text" }, ["body", "message"], "value_error", /holds no verification link/],
      [{ message: mail, verification_url: "https://docsend.com/view/dverify/verify?token=x" }, ["body", "verification_url"], "value_error", /exactly one/],
      [{}, ["body", "verification_url"], "missing", /exactly one/],
      [{ verification_url: 42 }, ["body", "verification_url"], "string_type", /./],
    ];
    for (const [body, loc, type, msg] of cases) {
      const res = await h.verify(dealId, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json.detail[0]).toMatchObject({ loc, type, msg: expect.stringMatching(msg) });
    }
    const valid = { message: mail };
    expect((await h.verify(dealId, valid, h.f.keys.otherOrgWrite.secret)).status).toBe(404);
    expect((await h.verify(dealId, valid, h.f.keys.read.secret)).status).toBe(403);
    expect((await h.verify("0190b6f4-1111-7000-8000-0000000000ff", valid)).status).toBe(404);
    expect((await h.verify("not-a-uuid", valid)).status).toBe(404);
    expect(inputOf(h, dealId)).toBe(before);
    expect(await h.status(dealId)).toMatchObject({ status: "queued", waiting_for: "email_verification" });
  });

  test("a deal that is not waiting: 409", async () => {
    h = await documentHostApp(["docsend"]);
    const plain = await h.analyze({ document_url: "https://docsend.com/view/dpass", company_name: "Plain", document_password: "opensesame" });
    const res = await h.verify(plain.json.deal_id, { verification_url: "https://docsend.com/view/dpass/verify?token=x" });
    expect(res.status).toBe(409);
    expect(res.json.detail).toBe("The deal's analysis is not waiting for an email verification (it is queued); nothing was changed.");
  });

  test("24 hours without verification: the sweep fails the run saying so; verifying afterwards is a conflict", async () => {
    h = await documentHostApp(["docsend"]);
    const dealId = (await waitingDeal()).json.deal_id;
    h.t.clock.advanceHours(23);
    expect(await findJob("stale-run-sweep")!.runOnce(h.t.deps)).toMatchObject({ expired: 0 });
    h.t.clock.advanceHours(1.5);
    expect(await findJob("stale-run-sweep")!.runOnce(h.t.deps)).toMatchObject({ expired: 1 });
    expect(await h.status(dealId)).toMatchObject({ status: "failed", waiting_for: null, error: "The document host's email verification did not complete within 24 hours" });
    expect((await h.verify(dealId, { message: h.world.mails[0].raw })).status).toBe(409);
    const event = h.t.deps.db.$client.query("SELECT event FROM outbox_events WHERE entity_id = ?").get(dealId);
    expect(event).toEqual({ event: "deal.analysis.failed" });
  });

  test("a waiting run blocks nothing else: an unrelated link is analysed meanwhile", async () => {
    h = await documentHostApp(["docsend", "google"]);
    const waiting = (await waitingDeal()).json.deal_id;
    const other = await h.analyze({ document_url: "https://drive.google.com/file/d/FILE_SMALL/view", company_name: "Other Co" });
    expect(other.status).toBe(202);
    await h.run();
    expect((await h.status(other.json.deal_id)).status).toBe("succeeded");
    expect(await h.status(waiting)).toMatchObject({ status: "queued", waiting_for: "email_verification" });
    expect(h.world.mails).toHaveLength(1); // the gate is submitted once, not on every pass of the runner
  });
});

describe("the same company while a gated submission waits", () => {
  test("a public link for the same company is still a conflict (409), and the detail says how to complete the waiting one", async () => {
    h = await documentHostApp(["docsend", "google"]);
    const dealId = (await waitingDeal()).json.deal_id;
    const same = await h.analyze({ document_url: "https://drive.google.com/file/d/FILE_SMALL/view", company_name: "LEDGERLY" });
    expect(same.status).toBe(409);
    expect(same.json.detail).toContain(`A gated document submission for the same company is waiting for email verification (deal ${dealId})`);
    expect(same.json.detail).toContain(`POST /api/v1/deals/${dealId}/verification`);
    expect(same.json.detail).toContain(`dealgraph deals verify ${dealId} --link URL`);
    expect(same.json.detail).toContain("fails 24 hours after submission");
    expect(h.t.deps.db.$client.query("SELECT COUNT(*) AS n FROM deals").get()).toEqual({ n: 1 });
    // Once verified and analysed, the company can be submitted again.
    await h.verify(dealId, { message: h.world.mails[0].raw });
    await h.run();
    expect((await h.analyze({ document_url: "https://drive.google.com/file/d/FILE_SMALL/view", company_name: "Ledgerly" })).status).toBe(202);
  });
});

describe("DocSend gates that need no verification, and gates that refuse", () => {
  test("an email-only gate lets the session in at once: the run goes on with the host's cookie, no mail sent", async () => {
    h = await documentHostApp(["docsend"]);
    const res = await h.analyze({ document_url: "https://docsend.com/view/demail", company_name: "Ledgerly", document_email: "partner@acme.vc" });
    expect(res.json.email_verification_required).toBe(true);
    await h.run();
    expect((await h.status(res.json.deal_id)).status).toBe("succeeded");
    expect(h.world.mails).toEqual([]);
    expect(h.world.hits.filter((x) => x === "docsend.com /view/demail/gate")).toHaveLength(1);
  });

  test("a wrong password, a deck shown only as images, and an unreachable DocSend fail while waiting, naming the reason", async () => {
    h = await documentHostApp(["docsend"]);
    const wrong = await h.analyze({ ...GATED, document_password: "wrong-one" });
    const images = await h.analyze({ document_url: "https://docsend.com/view/dimages", company_name: "Images", document_email: "partner@acme.vc" });
    await h.run();
    expect(await h.status(wrong.json.deal_id)).toMatchObject({ status: "failed", waiting_for: null, error: "DocSend refused the password given in document_password" });
    expect((await h.status(images.json.deal_id)).error).toBe(
      "DocSend shows this document only as page images and its download is turned off: ask the sender to allow downloads, or upload the file",
    );
    h.close();
    h = await documentHostApp([]);
    const unreachable = await h.analyze(GATED);
    await h.run();
    expect((await h.status(unreachable.json.deal_id)).error).toBe("DocSend: https://docsend.com/view/dverify could not be fetched: its host does not resolve to a public internet address");
  });
});

describe("the OpenAPI document", () => {
  test("describes POST /api/v1/deals/{deal_id}/verification with its body, 202 and error bodies", async () => {
    h = await documentHostApp([]);
    const doc = (await h.t.request("GET", "/api/v1/openapi.json")).json;
    const op = doc.paths["/api/v1/deals/{deal_id}/verification"].post;
    expect(op.operationId).toBe("completeDealDocumentVerification");
    expect(Object.keys(op.requestBody.content["application/json"].schema.properties).sort()).toEqual(["message", "verification_url"]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["202", "401", "403", "404", "409", "422", "429"]));
    expect(op.responses["409"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
  });
});
