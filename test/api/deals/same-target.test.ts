// The 409 "same target" rule of CONTRACT.md: while a deal's analysis is queued or running, another
// submission for the same website host (lower-cased, no leading www., no trailing dot; an IP
// literal as it is) or the same normalized company name is refused with 409, costs nothing and
// creates nothing. A failed or finished run blocks nothing.
import { describe, expect, test } from "bun:test";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { pdfDeck, uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  // No run is executed here: the rule is checked at submission, against the runs' states.
  ({ t, f } = seededApp({ file: true }));
}

const analyze = (body: Record<string, string>, key = f.keys.write.secret) => t.request("POST", "/api/v1/deals/analyze", { key, body });

async function upload(companyName: string) {
  const res = await t.app.handle(
    new Request("http://localhost/api/v1/deals/analyze/upload", {
      method: "POST",
      body: uploadForm(await pdfDeck([`${companyName} deck. A page of text.`]), "deck.pdf", { company_name: companyName }),
      headers: { authorization: `Bearer ${f.keys.write.secret}` },
    }),
  );
  return { status: res.status, json: (await res.json()) as any };
}

/** Everything a refused submission must leave as it was. */
function state() {
  const n = (sql: string) => (t.deps.db.$client.query(sql).get() as { n: number }).n;
  return { deals: n("SELECT COUNT(*) AS n FROM deals"), runs: n("SELECT COUNT(*) AS n FROM action_runs"), actions: n("SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage") };
}

async function expectConflict(body: Record<string, string>, liveDealId: string) {
  const before = state();
  const res = await analyze(body);
  expect(res.status, JSON.stringify(body)).toBe(409);
  expect(res.json.detail).toContain(liveDealId);
  expect(res.headers.get("x-actions-remaining")).toBeNull(); // no charge, so no charge headers
  expect(state()).toEqual(before);
}

/** Ends the deal's live run as the runner would. */
function finish(dealId: string, how: "succeeded" | "failed") {
  const actions = actionsService(t.deps);
  const run = actions.latestFor(f.orgs.acme.id, dealId)!;
  actions.start(run.id);
  if (how === "succeeded") actions.succeed(run.id);
  else actions.fail(run.id, "The website answered HTTP 500");
}

describe("the same website host while its analysis is live: 409", () => {
  test("any case, with or without www., with a trailing dot, another path or port: the same host", async () => {
    setup();
    const first = await analyze({ website_url: "https://acme.example/" });
    expect(first.status).toBe(202);
    for (const url of ["https://ACME.example/", "https://www.acme.example/about", "https://acme.example./", "https://WWW.Acme.Example./pricing", "http://acme.example:8443/team"]) {
      await expectConflict({ website_url: url }, first.json.deal_id);
    }
    // The first one's host is normalized the same way, whichever form came first.
    const dotted = await analyze({ website_url: "https://www.globex.example./" });
    expect(dotted.status).toBe(202);
    await expectConflict({ website_url: "https://globex.example/" }, dotted.json.deal_id);
    const deal = (await t.request("GET", `/api/v1/deals/${dotted.json.deal_id}`, { key: f.keys.read.secret })).json;
    expect(deal.domain).toBe("globex.example");
  });

  test("other hosts are other targets: a subdomain, a longer name, www2, another org's live run", async () => {
    setup();
    const first = await analyze({ website_url: "https://acme.example/" });
    expect(first.status).toBe(202);
    for (const url of ["https://app.acme.example/", "https://acme.example.com/", "https://www2.acme.example/", "https://notacme.example/"]) {
      expect((await analyze({ website_url: url })).status, url).toBe(202);
    }
    expect((await analyze({ website_url: "https://acme.example/" }, f.keys.otherOrgWrite.secret)).status).toBe(202);
  });

  test("an IP literal is its own target, as it is", async () => {
    setup();
    const v4 = await analyze({ website_url: "http://93.184.216.34/" });
    expect(v4.status).toBe(202);
    // The URL parser writes other IPv4 forms as the dotted quad: the same address.
    await expectConflict({ website_url: "http://1572395042/" }, v4.json.deal_id);
    await expectConflict({ website_url: "http://93.184.216.34.:8080/x" }, v4.json.deal_id);
    expect((await analyze({ website_url: "http://93.184.216.35/" })).status).toBe(202);
    const v6 = await analyze({ website_url: "http://[2606:2800:220:1:248:1893:25c8:1946]/" });
    expect(v6.status).toBe(202);
    await expectConflict({ website_url: "http://[2606:2800:0220:0001:0248:1893:25C8:1946]/about" }, v6.json.deal_id);
  });

  test("a failed or finished run does not block a new submission for the same host", async () => {
    setup();
    const first = await analyze({ website_url: "https://acme.example/" });
    await expectConflict({ website_url: "https://www.acme.example/" }, first.json.deal_id);
    finish(first.json.deal_id, "failed");
    const second = await analyze({ website_url: "https://www.acme.example/" });
    expect(second.status).toBe(202);
    finish(second.json.deal_id, "succeeded");
    const third = await analyze({ website_url: "https://acme.example./" });
    expect(third.status).toBe(202);
    expect(state()).toMatchObject({ deals: 3, runs: 3, actions: 3 });
  });
});

describe("the same company name while its analysis is live: 409", () => {
  test("uploads and document links share the normalized name; finished or failed runs block nothing", async () => {
    setup();
    const first = await upload("Acme Robotics, Inc.");
    expect(first.status).toBe(202);
    await expectConflict({ document_url: "https://docsend.com/view/abc123", company_name: "ACME robotics inc" }, first.json.deal_id);
    const before = state();
    const again = await upload("acme-robotics inc");
    expect(again.status).toBe(409);
    expect(state()).toEqual(before);
    finish(first.json.deal_id, "failed");
    const link = await analyze({ document_url: "https://docsend.com/view/abc123", company_name: "Acme Robotics Inc" });
    expect(link.status).toBe(202);
    finish(link.json.deal_id, "succeeded");
    expect((await upload("Acme Robotics Inc")).status).toBe(202);
  });
});
