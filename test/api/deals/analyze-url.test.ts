// URL submissions against real servers on loopback: a company website with about/team/pricing
// pages, and document hosts that behave like their public links (a direct PDF, an export URL, a
// viewer page, a gate, a refusal).
import { describe, expect, test } from "bun:test";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { dealAnalysisHandler } from "../../../src/modules/deals/deals.handlers.ts";
import { loopbackServer, runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { LEDGERLY_DECK, pdfDeck } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;
let site: ReturnType<typeof loopbackServer>;

const html = (title: string, body: string) => new Response(`<!doctype html><html><head><title>${title}</title><script>var x = "not text";</script></head><body>${body}</body></html>`, { headers: { "content-type": "text/html; charset=utf-8" } });

async function setup(routes: Record<string, () => Response | Promise<Response>>, env: Record<string, string> = { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" }) {
  ({ t, f } = seededApp({ file: true, env }));
  site = loopbackServer((req) => (routes[new URL(req.url).pathname] ?? (() => new Response("not found", { status: 404 })))());
  return `http://127.0.0.1:${site.port}`;
}

const analyze = (body: unknown, key = f.keys.write.secret) => t.request("POST", "/api/v1/deals/analyze", { key, body });
const status = async (id: string) => (await t.request("GET", `/api/v1/deals/${id}/analysis`, { key: f.keys.read.secret })).json;

describe("POST /api/v1/deals/analyze with website_url", () => {
  test("reads the home page and same-site about/team/pricing pages, and quotes them by URL", async () => {
    const base = await setup({
      "/": () => html("Ledgerly: payouts for marketplaces", `<nav><a href="/about">About</a><a href="/team">Team</a><a href="/pricing">Pricing</a><a href="https://elsewhere.example/about">x</a></nav><h1>Ledgerly</h1><p>${LEDGERLY_DECK[0]}</p><p>${LEDGERLY_DECK[2]}</p>`),
      "/about": () => html("About", `<p>${LEDGERLY_DECK[3]}</p>`),
      "/team": () => html("Team", `<p>${LEDGERLY_DECK[1]}</p>`),
      "/pricing": () => html("Pricing", "<p>Usage-based pricing: 0.4% per payout plus a platform subscription. Gross margin 78%.</p>"),
    });
    const res = await analyze({ website_url: `${base}/` });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "queued", email_verification_required: null, existing: false });
    await runAll(t);
    expect((await status(res.json.deal_id)).status).toBe("succeeded");
    const deal = (await t.request("GET", `/api/v1/deals/${res.json.deal_id}?view=full`, { key: f.keys.read.secret })).json;
    expect(deal).toMatchObject({ source: "website", kind: "company", website: `http://127.0.0.1:${site.port}`, domain: "127.0.0.1" });
    const sections = Object.fromEntries(deal.analysis.sections.map((s: any) => [s.key, s]));
    expect(sections.team.evidence[0]).toMatchObject({ document_id: null, page: null, url: `${base}/team` });
    expect(sections.business_model.evidence[0].url).toBe(`${base}/pricing`);
    expect(JSON.stringify(deal.analysis)).not.toContain("not text");
  });

  // Case, www. and a trailing dot are covered by same-target.test.ts.
  test("a second submission for another page of the same host while live: 409", async () => {
    const base = await setup({ "/": () => html("x", "<p>Hello there, this is a website.</p>") });
    expect((await analyze({ website_url: `${base}/` })).status).toBe(202);
    const again = await analyze({ website_url: `${base}/about` });
    expect(again.status).toBe(409);
  });

  test("a site that answers 500, or nothing at all, fails the run with a precise error", async () => {
    const base = await setup({ "/": () => new Response("oops", { status: 500 }) });
    const a = await analyze({ website_url: `${base}/` });
    const b = await analyze({ website_url: "http://localhost:1/", company_name: "Nobody" }); // another host: no 409
    await runAll(t);
    expect((await status(a.json.deal_id)).error).toBe(`${base}/ answered HTTP 500`);
    expect((await status(b.json.deal_id)).error).toMatch(/^http:\/\/localhost:1\/ could not be fetched: the connection was refused/);
  });

  test("with private networks not allowed, a private address is refused at submission or at fetch", async () => {
    await setup({}, {});
    for (const url of ["http://127.0.0.1/", "http://10.0.0.8/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://2130706433/", "http://0177.0.0.1/", "http://169.254.169.254/latest", "http://localhost/"]) {
      const res = await analyze({ website_url: url });
      expect(res.status, url).toBe(422);
      expect(res.json.detail[0].loc).toEqual(["body", "website_url"]);
    }
    // A name is only resolved (and its every address checked) when the run fetches it.
    const res = await analyze({ website_url: "http://unresolvable.invalid/" });
    await runAll(t);
    expect((await status(res.json.deal_id)).error).toMatch(/could not be fetched: its host does not resolve to a public internet address$/);
  });

  test("bad bodies: 422 naming the field, nothing created", async () => {
    await setup({});
    const cases: [unknown, string[], string][] = [
      [{}, ["body", "website_url"], "missing"],
      [{ website_url: "https://a.com", document_url: "https://b.com/x.pdf" }, ["body", "website_url"], "value_error"],
      [{ website_url: "not a url" }, ["body", "website_url"], "url_parsing"],
      [{ website_url: "ftp://files.example.com/deck" }, ["body", "website_url"], "url_scheme"],
      [{ document_url: "https://docsend.com/view/abc", document_email: "not-an-email" }, ["body", "document_email"], "string_pattern_mismatch"],
      [{ website_url: 42 }, ["body", "website_url"], "string_type"],
    ];
    for (const [body, loc, type] of cases) {
      const res = await analyze(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.detail[0], JSON.stringify(body)).toMatchObject({ loc, type });
    }
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM deals").get()).toEqual({ n: 0 });
    expect((await analyze({ website_url: "https://a.example" }, f.keys.read.secret)).status).toBe(403);
  });
});

describe("POST /api/v1/deals/analyze with document_url", () => {
  test("a direct PDF link: the file becomes the deal's document and is analysed page by page", async () => {
    const deck = await pdfDeck();
    const base = await setup({ "/files/ledgerly.pdf": () => new Response(deck, { headers: { "content-type": "application/octet-stream" } }) });
    const res = await analyze({ document_url: `${base}/files/ledgerly.pdf`, company_name: "Ledgerly" });
    expect(res.json.email_verification_required).toBe(false);
    await runAll(t);
    expect((await status(res.json.deal_id)).status).toBe("succeeded");
    const docs = (await t.request("GET", `/api/v1/deals/${res.json.deal_id}/documents`, { key: f.keys.read.secret })).json.documents;
    expect(docs).toMatchObject([{ filename: "ledgerly.pdf", content_type: "application/pdf", page_count: 5, status: "extracted", size_bytes: deck.byteLength }]);
    const deal = (await t.request("GET", `/api/v1/deals/${res.json.deal_id}?view=full`, { key: f.keys.read.secret })).json;
    expect(deal).toMatchObject({ source: "document", round: { amount: 4_000_000 } });
  });

  test("a run recovered after a crash re-reads the link into the same document row, never a second one", async () => {
    const deck = await pdfDeck();
    const base = await setup({ "/files/ledgerly.pdf": () => new Response(deck, { headers: { "content-type": "application/pdf" } }) });
    const res = await analyze({ document_url: `${base}/files/ledgerly.pdf`, company_name: "Ledgerly" });
    const dealId = res.json.deal_id;
    // The first attempt got as far as storing the document, then the process died with the run `running`.
    const started = actionsService(t.deps).start(actionsService(t.deps).latestFor(f.orgs.acme.id, dealId)!.id)!;
    const again = () => dealAnalysisHandler(t.deps)({ run: started, deps: t.deps, progress: () => {}, signal: new AbortController().signal });
    await again();
    const first = (await t.request("GET", `/api/v1/deals/${dealId}/documents`, { key: f.keys.read.secret })).json.documents;
    expect(first).toHaveLength(1);
    // The crash hit before extraction finished: the row is back at `received` with no pages.
    t.deps.db.$client.query("UPDATE deal_documents SET status = 'received', pages = NULL, page_count = NULL").run();
    await runAll(t); // start-up recovery re-queues the run; the handler reads the link again
    expect((await status(dealId)).status).toBe("succeeded");
    const docs = (await t.request("GET", `/api/v1/deals/${dealId}/documents`, { key: f.keys.read.secret })).json.documents;
    expect(docs).toMatchObject([{ document_id: first[0].document_id, status: "extracted", page_count: 5 }]);
    // And the handler once more for the same run: still the one row.
    await again();
    expect(t.deps.db.$client.query("SELECT COUNT(*) AS n FROM deal_documents WHERE deal_id = ?").get(dealId)).toEqual({ n: 1 });
  });

  test("a viewer page with the deck's text is read as text; a gated page and a refusal fail precisely", async () => {
    const base = await setup({
      "/viewer": () => html("Ledgerly deck", `<main>${LEDGERLY_DECK.map((p) => `<section><p>${p}</p></section>`).join("")}</main>`),
      "/gated": () => html("Verify", `<form><label>Enter your email to view</label><input type="email" name="email"><button>Continue</button></form>`),
      "/private": () => new Response("no", { status: 403 }),
      "/gone": () => new Response("no", { status: 404 }),
    });
    const ok = await analyze({ document_url: `${base}/viewer` });
    const gated = await analyze({ document_url: `${base}/gated`, company_name: "Gated" });
    const refused = await analyze({ document_url: `${base}/private`, company_name: "Refused" });
    const gone = await analyze({ document_url: `${base}/gone`, company_name: "Gone" });
    await runAll(t);
    expect((await status(ok.json.deal_id)).status).toBe("succeeded");
    expect((await status(gated.json.deal_id)).error).toMatch(/asks for an email address before showing the document: resubmit with document_email/);
    expect((await status(refused.json.deal_id)).error).toMatch(/refused the link \(HTTP 403\): it is not shared publicly/);
    expect((await status(gone.json.deal_id)).error).toMatch(/says the link does not exist \(HTTP 404\)/);
  });

  test("a DocSend link with an email is accepted waiting for verification (queued, waiting_for), its password sealed", async () => {
    await setup({});
    const res = await analyze({ document_url: "https://docsend.com/view/abc123", document_email: "partner@acme.vc", document_password: "hunter22" });
    expect(res.status).toBe(202);
    expect(res.json.email_verification_required).toBe(true);
    expect(await status(res.json.deal_id)).toMatchObject({ status: "queued", waiting_for: "email_verification", progress: null });
    // The password is recorded, sealed: the database alone does not show it. (The flow itself: gated-link.test.ts.)
    const input = (t.deps.db.$client.query("SELECT input FROM action_runs").get() as { input: string }).input;
    expect(input).not.toContain("hunter22");
    expect(JSON.parse(input)).toMatchObject({ document_email: "partner@acme.vc", host: "docsend", document_password_sealed: expect.stringMatching(/^v1:/) });
  });
});
