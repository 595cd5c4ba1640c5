// The data room end to end: real files of every kind through POST documents, the real runner,
// the inventory and the re-analysis that quotes them.
import { describe, expect, test } from "bun:test";
import { docxFile, dataRoomForm, pdfDeck, pptxFile, xlsxFile } from "../../helpers/decks.ts";
import { analysedDeal, count, get, post, runAll, setup, storedFiles, type Ctx } from "./data-room-helpers.ts";

let c: Ctx;

const SHA = [
  "Shareholders Agreement. This Agreement is made between Ledgerly GmbH and the investors listed in Schedule 1 (the parties). Whereas the Company wishes to raise capital, the parties hereby agree as follows. Governing law: Germany. Each party shall keep its terms confidential.",
];
const NOTES_MD = `# Competition

Unlike Stripe Connect, Ledgerly reconciles every payout per seller; incumbents such as Adyen lack a marketplace ledger.

- Our moat is the network effects of payout data across 40 countries.
- See [the comparison](https://ledgerly.io/compare).
`;
const CUSTOMERS_CSV = "customer,acv,renewal\nAcme Marketplace,120000,2025-03\nGlobex Market,80000,2025-06\nInitech Bazaar,64000,2025-09\n";

describe("POST /api/v1/deals/{deal_id}/documents", () => {
  test("six files of six kinds: 202, classified into folders, extracted, and the deal re-analysed with their evidence", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const before = await get(c, `/api/v1/deals/${id}?view=full`);
    expect(before.analysis.sections.find((s: any) => s.key === "competition").score).toBeNull();

    const form = dataRoomForm([
      [await pdfDeck(SHA), "Legal/SHA.pdf"],
      [docxFile(["Team", "Sam Founder, Co-founder & CEO: previously led payouts at Stripe for 6 years.", "Ana Tech, CTO, formerly at Google, PhD in distributed systems."]), "Team Bios.docx"],
      [pptxFile([["Product roadmap"], ["Q1: payout API v2 launched, integrations with Shopify and Adobe Commerce."], ["Q2: proprietary reconciliation engine in production."]]), "Product/roadmap.pptx"],
      [xlsxFile({ "P&L": [["Line", "FY2023", "FY2024"], ["Revenue", 1200000, 2900000], ["Burn per month", 150000, 110000]], Runway: [["Runway months", 22]] }), "Financials\\model.xlsx"],
      [CUSTOMERS_CSV, "customers.csv"],
      [NOTES_MD, "notes.md"],
    ]);
    const res = await post(c, `/api/v1/deals/${id}/documents`, form);
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      deal_id: id,
      files_received: 6,
      status: "queued",
      documents_url: `/api/v1/deals/${id}/documents`,
      status_url: `/api/v1/deals/${id}/analysis`,
      result_url: `/api/v1/deals/${id}`,
      existing: false,
      as_of: expect.any(String),
    });
    expect(res.headers.get("x-actions-remaining")).toBe("23"); // the deck, then this pass
    // Received, with a first category from the name, before the run.
    const received = (await get(c, `/api/v1/deals/${id}/documents`)).documents.filter((d: any) => d.kind === "data_room");
    expect(received.map((d: any) => [d.filename, d.status, d.page_count])).toEqual([
      ["SHA.pdf", "received", null],
      ["Team Bios.docx", "received", null],
      ["roadmap.pptx", "received", null],
      ["model.xlsx", "received", null],
      ["customers.csv", "received", null],
      ["notes.md", "received", null],
    ]);
    expect((await get(c, `/api/v1/deals/${id}/analysis`)).status).toBe("queued");

    await runAll(c.t);
    expect(await get(c, `/api/v1/deals/${id}/analysis`)).toMatchObject({ status: "succeeded", error: null });
    const inventory = await get(c, `/api/v1/deals/${id}/documents`);
    expect(inventory).toMatchObject({ deal_id: id, scope: "org_workspace", as_of: expect.any(String) });
    const rows = inventory.documents.map((d: any) => [d.filename, d.kind, d.folder, d.category, d.content_type, d.page_count, d.status]);
    expect(rows).toEqual([
      ["deck.pdf", "primary_upload", null, null, "application/pdf", 5, "extracted"],
      ["SHA.pdf", "data_room", "Legal", "legal", "application/pdf", 1, "extracted"],
      ["Team Bios.docx", "data_room", null, "team", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", 1, "extracted"],
      ["roadmap.pptx", "data_room", "Product", "product", "application/vnd.openxmlformats-officedocument.presentationml.presentation", 3, "extracted"],
      ["model.xlsx", "data_room", "Financials", "financials", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", 2, "extracted"],
      ["customers.csv", "data_room", null, "customers", "text/csv", 1, "extracted"],
      // A competition memo fits no category well enough: `other`, not a forced guess.
      ["notes.md", "data_room", null, "other", "text/markdown", 1, "extracted"],
    ]);
    for (const d of inventory.documents) {
      expect(Object.keys(d).sort()).toEqual(["category", "content_type", "document_id", "filename", "folder", "kind", "page_count", "sha256", "size_bytes", "status", "uploaded_at"]);
    }
    const byName = Object.fromEntries(inventory.documents.map((d: any) => [d.filename, d]));
    expect(byName["customers.csv"].size_bytes).toBe(CUSTOMERS_CSV.length);
    expect(byName["customers.csv"].sha256).toBe(new Bun.CryptoHasher("sha256").update(CUSTOMERS_CSV).digest("hex"));

    // The analysis now covers the data room: competition is quoted from notes.md, financials from the model.
    const after = await get(c, `/api/v1/deals/${id}?view=full`);
    const sections = Object.fromEntries(after.analysis.sections.map((s: any) => [s.key, s]));
    expect(sections.competition.score).toBeGreaterThan(0);
    expect(sections.competition.evidence[0]).toMatchObject({ document_id: byName["notes.md"].document_id, page: 1, quote: expect.stringContaining("Unlike Stripe Connect") });
    const financialDocs = sections.financials.evidence.map((e: any) => e.document_id);
    expect(financialDocs).toContain(byName["model.xlsx"].document_id);
    expect(sections.financials.evidence.find((e: any) => e.document_id === byName["model.xlsx"].document_id)).toMatchObject({ page: 1, quote: "Revenue | 1200000 | 2900000." });
    // One page per slide: the roadmap quote cites slide 2.
    expect(sections.product.evidence).toContainEqual({ quote: "Q1: payout API v2 launched, integrations with Shopify and Adobe Commerce.", document_id: byName["roadmap.pptx"].document_id, page: 2 });
    expect(after.analysis.completed_at >= before.analysis.completed_at).toBe(true);
    expect(after.kind).toBe("company");
    expect(storedFiles(c).tmp).toEqual([]);
  });

  test("a folder field applies to the request's files, cleaned; paths inside names nest under it", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const long = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[CUSTOMERS_CSV, "c.csv"]], { folder: "x".repeat(256) }));
    expect(long.status).toBe(422);
    expect(long.json.detail[0].loc).toEqual(["body", "folder"]);
    const res = await post(
      c,
      `/api/v1/deals/${id}/documents`,
      dataRoomForm([[CUSTOMERS_CSV, "customers.csv"], [NOTES_MD, "../../etc/Market/./notes.md"], ["Plain words about the company and its plans.", "/abs\\readme.txt"]], { folder: "/Diligence/../Q3 " }),
    );
    expect(res.status).toBe(202);
    const docs = (await get(c, `/api/v1/deals/${id}/documents`)).documents.filter((d: any) => d.kind === "data_room");
    expect(docs.map((d: any) => [d.filename, d.folder, d.content_type])).toEqual([
      ["customers.csv", "Diligence/Q3", "text/csv"],
      ["notes.md", "Diligence/Q3/etc/Market", "text/markdown"],
      ["readme.txt", "Diligence/Q3/abs", "text/plain"],
    ]);
  });

  test("a second request while the data room's pass is still queued joins that pass (202, no second charge); after it, a new pass", async () => {
    c = setup();
    const id = await analysedDeal(c);
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[CUSTOMERS_CSV, "customers.csv"]]))).status).toBe(202);
    const again = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[NOTES_MD, "notes.md"]]));
    expect([again.status, again.json.status, again.headers.get("x-actions-remaining")]).toEqual([202, "queued", "23"]);
    expect(count(c, "SELECT COUNT(*) AS n FROM deal_documents WHERE kind = 'data_room'")).toBe(2);
    expect(count(c, "SELECT COUNT(*) AS n FROM action_runs")).toBe(2);
    await runAll(c.t);
    expect(count(c, "SELECT COUNT(*) AS n FROM deal_documents WHERE kind = 'data_room' AND status = 'extracted'")).toBe(2);
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([["More plain words.", "more.txt"]]))).headers.get("x-actions-remaining")).toBe("22");
    await runAll(c.t);
    expect(count(c, "SELECT COUNT(*) AS n FROM action_runs WHERE status = 'succeeded'")).toBe(3);
  });
});

describe("a fund's data room", () => {
  const FUND_DECK = ["Harbor Ventures Fund II. Harbor Ventures invests in seed-stage B2B software in Europe; our thesis is vertical software for industrial companies."];
  const LPA_MD = `# Fund II terms

Target fund size $120M with a hard cap of $150M.
- Management fee of 2% per year during the investment period, carried interest of 20% over an 8% hurdle.
- GP commitment of 2% of commitments, paid in cash.
`;
  const TRACK = xlsxFile({
    "Prior funds": [["Fund", "Vintage", "TVPI", "DPI", "Net IRR"], ["Fund I", 2016, "3.1x", "1.4x", "28%"], ["Exits realized: 4 of 22 companies", "", "", "", ""]],
  });
  const LPS = docxFile([
    "LP base",
    "Fund I limited partners included two university endowments and a family office; the anchor LP of Fund II, a pension fund, has committed $30M.",
    "Portfolio construction: 25 to 30 companies with initial checks of $1.5M and 50% of the fund held in reserves for follow-on investments.",
  ]);

  test("a fund deal is analysed as a fund, its sections scored from fees, carry, GP commitment, prior funds and LPs", async () => {
    c = setup();
    const id = await analysedDeal(c, { pages: FUND_DECK, name: "Harbor Ventures Fund II", kind: "fund" });
    const res = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[LPA_MD, "Legal/Fund II terms.md"], [TRACK, "Track record.xlsx"], [LPS, "LPs.docx"]]));
    expect(res.status).toBe(202);
    await runAll(c.t);
    expect((await get(c, `/api/v1/deals/${id}/analysis`)).status).toBe("succeeded");
    const deal = await get(c, `/api/v1/deals/${id}?view=full`);
    expect(deal.kind).toBe("fund");
    // A fund's round is the fund: its target size, and no round stage ("seed-stage" is its strategy).
    expect(deal.round).toEqual({ stage: null, amount: 120_000_000, currency: "USD", pre_money_valuation: null });
    expect(deal.analysis.summary).toMatch(/Target fund size \$120M\./);
    const docs = Object.fromEntries((await get(c, `/api/v1/deals/${id}/documents`)).documents.map((d: any) => [d.filename, d.document_id]));
    const sections = Object.fromEntries(deal.analysis.sections.map((s: any) => [s.key, s]));
    expect(Object.keys(sections)).toEqual(["team", "strategy", "fund_terms", "portfolio_construction", "track_record", "lp_base"]);
    const fromDoc = (key: string, doc: string) => sections[key].evidence.filter((e: any) => e.document_id === docs[doc]).map((e: any) => e.quote).join(" ");
    expect(sections.fund_terms.score).toBeGreaterThanOrEqual(60);
    expect(fromDoc("fund_terms", "Fund II terms.md")).toMatch(/Management fee of 2%/);
    expect(fromDoc("fund_terms", "Fund II terms.md")).toMatch(/GP commitment/);
    expect(sections.fund_terms.summary).toMatch(/5 concrete signals/); // size, percentages, hurdle/GP commitment, carry, fee
    expect(sections.track_record.score).toBeGreaterThanOrEqual(60);
    expect(fromDoc("track_record", "Track record.xlsx")).toMatch(/Fund I \| 2016 \| 3\.1x \| 1\.4x \| 28%/);
    expect(sections.lp_base.score).toBeGreaterThan(40);
    expect(fromDoc("lp_base", "LPs.docx")).toMatch(/endowments/);
    expect(sections.portfolio_construction.score).toBeGreaterThan(40);
    expect(sections.strategy.score).toBeGreaterThan(0);
  });

  test("a company deal whose data room shows a fund is routed to the fund analysis", async () => {
    c = setup();
    const id = await analysedDeal(c, { pages: FUND_DECK, name: "Harbor Ventures" });
    expect((await get(c, `/api/v1/deals/${id}`)).kind).toBe("company");
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[LPA_MD, "terms.md"], [LPS, "LPs.docx"]]))).status).toBe(202);
    await runAll(c.t);
    const deal = await get(c, `/api/v1/deals/${id}?view=full`);
    expect(deal.kind).toBe("fund");
    expect(deal.analysis.sections.map((s: any) => s.key)).toContain("fund_terms");
  });
});
