// The built-in engine end to end on material written the way real decks and sites are: a PDF deck
// uploaded without a company name (its text read back by the real PDF extractor, slide titles and
// wrapped lines included) and a website behind a cookie banner, fetched over loopback. The deal
// record must carry what the material states and null for what it does not.
import { describe, expect, test } from "bun:test";
import { deckPdf, type DeckSpec } from "../../../src/demo/decks.ts";
import { loopbackServer, runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp({ file: true, env: { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } }));
}

const read = async (id: string) => (await t.request("GET", `/api/v1/deals/${id}?view=full`, { key: f.keys.read.secret })).json;
const section = (deal: any, key: string) => deal.analysis.sections.find((s: any) => s.key === key);

const NORTHWIND_DECK: DeckSpec = {
  slug: "northwind",
  name: "Northwind Robotics",
  domain: "northwindrobotics.com",
  kind: "company",
  richness: "rich",
  format: "pdf",
  pipeline: "new",
  daysAgo: 1,
  slides: [
    { title: "CONFIDENTIAL", lines: ["Northwind Robotics", "Investor Presentation", "March 2025"] },
    { title: "Our Solution", lines: ["Northwind builds autonomous mobile robots that bring shelves to pickers. Our fleet software integrates with SAP and Manhattan WMS."] },
    { title: "Traction", lines: ["We have signed 3 pilots with Fortune 500 retailers. Our customers include Series A startups and enterprise logistics providers."] },
    { title: "Business Model", lines: ["Robots-as-a-Service: $1,500 per robot per month, 3-year contracts."] },
    {
      title: "Team",
      lines: ["Jane Smith, CEO — previously VP Operations at Amazon Robotics.", "Bob Lee, CTO, 10 years building robots at Boston Dynamics.", "Advisors: Partner Capital Group."],
    },
    { title: "The Ask", lines: ["We are raising $12,500,000 to scale deployments. Backed by Acme Ventures, who led our $2M pre-seed in 2023.", "northwindrobotics.com"] },
  ],
};

describe("the built-in engine on real-world material", () => {
  test("an uploaded deck with cover boilerplate and traps: the facts it states, null for the rest, quotes that carry the signal", async () => {
    setup();
    const form = uploadForm(await deckPdf(NORTHWIND_DECK), "northwind.pdf");
    const res = await t.app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: form, headers: { authorization: `Bearer ${f.keys.write.secret}` } }));
    expect(res.status).toBe(202);
    const { deal_id } = (await res.json()) as { deal_id: string };
    await runAll(t);
    const deal = await read(deal_id);
    expect(deal.analysis_status).toBe("succeeded");
    expect(deal.company_name).toBe("Northwind Robotics");
    expect(deal.company).toMatchObject({ name: "Northwind Robotics", domain: "northwindrobotics.com", sector: "robotics", location: null, founded_year: null });
    expect(deal.round).toEqual({ stage: null, amount: 12_500_000, currency: "USD", pre_money_valuation: null });
    expect(deal.team).toEqual([
      { name: "Jane Smith", title: "CEO", linkedin_url: null },
      { name: "Bob Lee", title: "CTO", linkedin_url: null },
    ]);
    const documentId = (await t.request("GET", `/api/v1/deals/${deal_id}/documents`, { key: f.keys.read.secret })).json.documents[0].document_id;
    expect(section(deal, "business_model").evidence).toEqual([{ quote: "Robots-as-a-Service: $1,500 per robot per month, 3-year contracts.", document_id: documentId, page: 4 }]);
    expect(section(deal, "round").evidence).toEqual([{ quote: "We are raising $12,500,000 to scale deployments.", document_id: documentId, page: 6 }]);
    // Slide titles are context, never glued onto the quote.
    expect(section(deal, "traction").evidence[0].quote).toBe("We have signed 3 pilots with Fortune 500 retailers.");
    expect(section(deal, "market")).toMatchObject({ score: null, evidence: [], unavailable_reason: expect.stringMatching(/^No statement in the material addresses the market/) });
    expect(deal.analysis.summary).toContain("Raising $12.5M.");
  });

  test("a website behind a cookie banner: its name from its own text, its customers' money not a round, its take rate a business model", async () => {
    setup();
    const page = (title: string, body: string) => new Response(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`, { headers: { "content-type": "text/html" } });
    const site = loopbackServer((req) => {
      const path = new URL(req.url).pathname;
      if (path === "/")
        return page(
          "Home",
          `<div class="cookies"><p>We use cookies to improve your experience.</p><button>Accept all</button></div><nav><a href="/pricing">Pricing</a></nav>
           <header><a href="/">Flowcash</a></header><h1>Revenue-based financing for online merchants</h1>
           <p>We help merchants raise $2,500,000 in working capital without giving up equity.</p>
           <p>Our customers include Series A startups and family-owned Shopify stores.</p>
           <p>Flowcash is a fintech company headquartered in Austin, Texas. Founded in 2021.</p>`,
        );
      if (path === "/pricing") return page("Pricing", "<h2>Pricing</h2><p>We charge a flat 6% fee on each advance, repaid as a share of daily sales.</p>");
      return new Response("not found", { status: 404 });
    });
    const base = `http://127.0.0.1:${site.port}`;
    const res = await t.request("POST", "/api/v1/deals/analyze", { key: f.keys.write.secret, body: { website_url: `${base}/` } });
    expect(res.status).toBe(202);
    await runAll(t);
    const deal = await read(res.json.deal_id);
    expect(deal.analysis_status).toBe("succeeded");
    expect(deal.company_name).toBe("Flowcash");
    expect(deal.company).toMatchObject({ name: "Flowcash", sector: "fintech", location: "Austin, Texas", founded_year: 2021 });
    expect(deal.round).toEqual({ stage: null, amount: null, currency: null, pre_money_valuation: null });
    expect(deal.team).toEqual([]);
    expect(section(deal, "round")).toMatchObject({ score: null, evidence: [] });
    expect(section(deal, "business_model").evidence).toEqual([{ quote: "We charge a flat 6% fee on each advance, repaid as a share of daily sales.", document_id: null, page: null, url: `${base}/pricing` }]);
    expect(JSON.stringify(deal.analysis)).not.toMatch(/cookies|Accept all/);
  });
});
