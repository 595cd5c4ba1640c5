// Who-knows, webhooks and connections from the web, and what every workspace page owes: hostile
// names from documents, mail and websites escaped, every form refused without its CSRF token or from
// another site (changing nothing), and another organization's ids 404.
import { describe, expect, test } from "bun:test";
import { dealsService } from "../../src/modules/deals/deals.service.ts";
import { importFundsBook, importPortfolioBook } from "../helpers/book.ts";
import { knows, thread } from "../helpers/network.ts";
import { seedEndpoint } from "../helpers/webhooks.ts";
import { csrfOf, textOf } from "../helpers/web.ts";
import { state, workspace } from "../helpers/workspace.ts";
import { analysedDeal } from "../api/deals/data-room-helpers.ts";

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

describe("who knows", () => {
  test("ranked paths with owner, warmth and signals, and an intro request to the owner", async () => {
    const w = await workspace();
    knows(w.t.deps, w.f.users.alice.id, { email: "jane@target.example", name: "Jane Doe", title: "CEO" }, thread(10, 5, 3));
    knows(w.t.deps, w.f.users.bob.id, { email: "sam@target.example", name: "Sam Roe", title: "CTO" }, thread(4, 20, 30));
    // Bob does not share his network: Alice sees only her own path.
    const page = await w.alice.get("/app/who-knows?domain=target.example");
    expect(page.status).toBe(200);
    const api = (await w.t.request("GET", "/api/v1/network/who-knows?domain=target.example", { key: w.f.keys.read.secret })).json;
    expect(api.paths.length).toBe(1);
    const row = page.html.match(/<tr data-contact-id="[^"]+" data-owner="Alice Archer">[\s\S]*?<\/tr>/)![0];
    expect(textOf(row)).toContain("Jane Doe");
    expect(row).toContain(`data-value="${api.paths[0].strength_score}"`);
    expect(row).toContain(`data-value="${api.paths[0].warmth}"`);
    expect(textOf(row)).toContain(`${api.paths[0].signals.emails_sent} sent`);
    expect(page.html).not.toContain("Sam Roe");

    // Bob's page shows Alice's path (she shares), with a mailto to Alice asking for the intro.
    const bob = new (w.alice.constructor as any)(w.t);
    await bob.signInAs(w.f.users.bob.id);
    const bobs = await bob.get("/app/who-knows?person=jane%40target.example");
    const intro = bobs.html.match(/href="(mailto:[^"]+)" data-testid="intro-link"/)![1].replaceAll("&amp;", "&");
    expect(intro).toStartWith(`mailto:${encodeURIComponent("alice@acme.vc")}?subject=`);
    expect(decodeURIComponent(intro.split("body=")[1])).toContain("you know Jane Doe (CEO, target.example)");
  });

  test("an empty search only shows the form; a domain too long is 422; another org's network never shows", async () => {
    const w = await workspace();
    knows(w.t.deps, w.f.users.alice.id, { email: "jane@target.example", name: "Jane Doe" }, thread(3, 5, 3));
    expect((await w.alice.get("/app/who-knows")).html).toContain('data-testid="who-knows-form"');
    expect((await w.alice.get(`/app/who-knows?domain=${"a".repeat(254)}`)).status).toBe(422);
    const theirs = await w.carol.get("/app/who-knows?domain=target.example");
    expect(theirs.html).not.toContain("Jane Doe");
    expect(theirs.html).toContain('data-testid="no-paths"');
  });
});

describe("webhooks", () => {
  test("endpoints and their ledger; redeliver queues a delivery again; in flight it is 409, another org's 404, no CSRF 403", async () => {
    const w = await workspace();
    const { webhookId, deliveryId } = seedEndpoint(w.t, w.f.orgs.acme.id);
    const page = await w.alice.get("/app/webhooks");
    expect(page.html).toContain(`data-delivery-id="${deliveryId}" data-status="failed"`);
    const api = (await w.t.request("GET", `/api/v1/webhooks/${webhookId}/deliveries`, { key: w.f.keys.read.secret })).json.deliveries[0];
    expect(textOf(page.html)).toContain(`${api.attempts}`);
    const path = `/app/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`;
    const status = () => (w.t.deps.db.$client.query("SELECT status FROM webhook_deliveries WHERE id = ?").get(deliveryId) as { status: string }).status;

    expect((await w.alice.post(path, { back: "/app/webhooks" }, { csrf: null })).status).toBe(403);
    await w.carol.get("/app/webhooks");
    expect((await w.carol.post(path, {})).status).toBe(404);
    expect((await w.carol.get(`/app/webhooks/${webhookId}`)).status).toBe(404);
    expect(status()).toBe("failed");

    await w.alice.get("/app/webhooks");
    const done = await w.alice.post(path, { back: `/app/webhooks/${webhookId}` });
    expect(done.location).toBe(`/app/webhooks/${webhookId}`);
    expect(status()).toBe("pending");
    expect(textOf((await w.alice.follow(done)).html)).toContain("Queued deal.analysis.completed again");

    w.t.deps.db.$client.query("UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?").run(new Date(w.t.clock.now().getTime() + 60_000).toISOString(), deliveryId);
    const busy = await w.alice.post(path, {});
    expect(textOf((await w.alice.follow(busy)).html)).toContain("in flight");
    expect((await w.alice.get(`/app/webhooks/${webhookId}?status=maybe`)).status).toBe(422);
  });

  test("connections: without the organization's mail server, the page says who sets it", async () => {
    const w = await workspace();
    const page = await w.alice.get("/app/connections");
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="no-mail-server"');
  });
});

describe("hostile values from documents, mail and websites are escaped on every page", () => {
  test("a deal's name, its evidence quotes and URLs, a holding's name, a person's name", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: HOSTILE });
    const deals = dealsService(w.t.deps);
    const docId = (await w.t.request("GET", `/api/v1/deals/${id}/documents`, { key: w.f.keys.read.secret })).json.documents[0].document_id;
    deals.storeAnalysis(id, {
      engine: "builtin",
      kind: "company",
      score: 50,
      score_confidence: 0.5,
      summary: HOSTILE,
      facts: {
        company: { name: HOSTILE, domain: null, website: "javascript:alert(1)", description: HOSTILE, sector: HOSTILE, location: HOSTILE, founded_year: null },
        round: { stage: HOSTILE, amount: 1, currency: HOSTILE, pre_money_valuation: null },
        team: [{ name: HOSTILE, title: HOSTILE, linkedin_url: "javascript:alert(2)" }],
      },
      sections: [
        { key: "team", title: HOSTILE, score: 50, summary: HOSTILE, unavailable_reason: null, evidence: [{ quote: HOSTILE, document_id: docId, page: 1 }, { quote: HOSTILE, document_id: null, page: null, url: "javascript:alert(3)" }] },
      ],
    });
    const fund = "</script><script>alert(9)</script>";
    importPortfolioBook(w.t.deps, w.f.orgs.acme.id, {
      portfolio: `name,website,sector,stage,status,fund_name,holding_type,investment_date,ownership_percentage,invested,current_valuation,currency\n"${HOSTILE.replaceAll('"', '""')}",evil.example,x,seed,active,"${fund}",direct_company,2021-01-01,1,1,1,USD\n`,
      metrics: `company,metric,value,unit,currency,statement_date,kind\nevil.example,arr,1,,USD,2024-01-31,\nevil.example,arr,2,,USD,2024-02-29,\n`,
    });
    importFundsBook(w.t.deps, w.f.orgs.acme.id, {
      commitments: `fund_name,vintage_year,commitment,currency\n"${fund}",2021,100,USD\n`,
      cashflows: `fund_name,cashflow_date,type,amount,currency\n"${fund}",2021-01-01,call,50,USD\n`,
      marks: `fund_name,mark_date,nav\n"${fund}",2021-12-31,60\n"${fund}",2022-12-31,70\n`,
    });
    knows(w.t.deps, w.f.users.alice.id, { email: "x@evil.example", name: HOSTILE, title: HOSTILE }, thread(3, 5, 3));
    const holding = (await w.t.request("GET", "/api/v1/portfolio/companies", { key: w.f.keys.read.secret })).json.companies[0].company_id;

    const pages = [
      "/app/deals",
      "/app/deals?view=list",
      `/app/deals/${id}`,
      `/app/deals/${id}/documents/${docId}?quote=${encodeURIComponent(HOSTILE)}`,
      "/app/portfolio",
      `/app/portfolio/${holding}`,
      "/app/who-knows?domain=evil.example",
      "/app/contacts",
      "/app/funds",
      "/app",
    ];
    for (const path of pages) {
      const page = await w.alice.get(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).not.toContain("<script>alert");
      expect(page.html, path).not.toContain("<img src=x");
      expect(page.html, path).not.toContain('href="javascript:');
    }
    expect((await w.alice.get(`/app/deals/${id}`)).html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    // Inside a chart's JSON data block, `<` is escaped so no value can close the element.
    expect((await w.alice.get("/app/funds")).html).toContain('"label":"\\u003c/script>\\u003cscript>alert(9)\\u003c/script>"');
  }, 60_000);
});

describe("every form: no CSRF token or another site's Origin is 403 and changes nothing", () => {
  test("stage, research, redeliver, upload, data room", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    const { webhookId, deliveryId } = seedEndpoint(w.t, w.f.orgs.acme.id);
    const token = csrfOf((await w.alice.get("/app/research")).html);
    const before = state(w.t);
    const forms: [string, Record<string, string>][] = [
      [`/app/deals/${id}/stage`, { stage: "passed" }],
      ["/app/research", { query: "Anything?", idempotency_key: "k1" }],
      [`/app/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, {}],
    ];
    for (const [path, fields] of forms) {
      for (const o of [{ csrf: null }, { csrf: "not-the-token" }, { csrf: token, origin: "https://evil.example" }, { csrf: token, origin: "null" }]) {
        const res = await w.alice.post(path, fields, o);
        expect(res.status, `${path} ${JSON.stringify(o)}`).toBe(403);
      }
    }
    for (const [path, field] of [["/app/deals/upload", "file"], [`/app/deals/${id}/documents`, "files"]]) {
      for (const o of [{ csrf: null }, { csrf: "not-the-token" }, { csrf: token, origin: "https://evil.example" }]) {
        const res = await w.alice.upload(path, { company_name: "Other" }, [{ field, bytes: "a,b\n1,2\n", filename: "x.csv" }], o);
        expect(res.status, `${path} ${JSON.stringify(o)}`).toBe(403);
      }
    }
    expect(state(w.t)).toEqual(before);
    expect((w.t.deps.db.$client.query("SELECT status FROM webhook_deliveries WHERE id = ?").get(deliveryId) as { status: string }).status).toBe("failed");
  }, 60_000);
});
