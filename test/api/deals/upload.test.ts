// Upload a deck, analyse it with the built-in engine through the real runner, read it back.
import { describe, expect, test } from "bun:test";
import { dealsService } from "../../../src/modules/deals/deals.service.ts";
import { runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { pdfDeck, uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp({ file: true }));
}

async function upload(form: FormData, key = f.keys.write.secret) {
  const res = await t.app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: form, headers: { authorization: `Bearer ${key}` } }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

describe("POST /api/v1/deals/analyze/upload", () => {
  test("accepts a PDF deck (202), analyses it, and the deal reads back with facts and quoted evidence", async () => {
    setup();
    const res = await upload(uploadForm(await pdfDeck(), "ledgerly-deck.pdf", { company_name: "Ledgerly" }));
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "queued", email_verification_required: false, existing: false });
    const id = res.json.deal_id;
    expect(res.json.status_url).toBe(`/api/v1/deals/${id}/analysis`);
    expect(res.json.result_url).toBe(`/api/v1/deals/${id}`);
    expect(res.headers.get("x-actions-limit")).toBe("25");
    expect(res.headers.get("x-actions-remaining")).toBe("24");

    const queued = await t.request("GET", `/api/v1/deals/${id}/analysis`, { key: f.keys.read.secret });
    expect(queued.json).toMatchObject({ deal_id: id, status: "queued", progress: null, error: null, finished_at: null });

    await runAll(t);

    const status = await t.request("GET", `/api/v1/deals/${id}/analysis`, { key: f.keys.read.secret });
    expect(status.json).toMatchObject({ status: "succeeded", progress: null, error: null });
    const deal = await t.request("GET", `/api/v1/deals/${id}?view=full`, { key: f.keys.read.secret });
    expect(deal.status).toBe(200);
    expect(deal.json).toMatchObject({
      deal_id: id,
      company_name: "Ledgerly",
      source: "upload",
      kind: "company",
      stage: "new",
      analysis_status: "succeeded",
      company: { name: "Ledgerly", website: "https://ledgerly.io", domain: "ledgerly.io", sector: "fintech", location: "Berlin", founded_year: 2022 },
      round: { stage: "seed", amount: 4_000_000, currency: "USD", pre_money_valuation: 16_000_000 },
      scope: "org_workspace",
    });
    expect(deal.json.team).toEqual([
      { name: "Sam Founder", title: "Co-founder & CEO", linkedin_url: null },
      { name: "Ana Tech", title: "CTO", linkedin_url: null },
    ]);
    // The body writes the stored analysis as it is: byte for byte the record the service builds, serialized.
    for (const view of ["full", "summary"] as const) {
      const body = (await t.request("GET", `/api/v1/deals/${id}?view=${view}`, { key: f.keys.read.secret })).text;
      expect(body).toBe(JSON.stringify(dealsService(t.deps).detail(f.orgs.acme.id, id, view)));
    }
    expect(deal.json.analysis.summary).toEqual(expect.any(String));
    const sections = Object.fromEntries(deal.json.analysis.sections.map((s: any) => [s.key, s]));
    expect(Object.keys(sections)).toEqual(["team", "market", "product", "traction", "business_model", "competition", "financials", "round"]);
    const documentId = (await t.request("GET", `/api/v1/deals/${id}/documents`, { key: f.keys.read.secret })).json.documents[0].document_id;
    expect(sections.traction.score).toBeGreaterThan(50);
    expect(sections.traction.evidence[0]).toEqual({ quote: "ARR $1.2M, growing 15% month over month.", document_id: documentId, page: 3 });
    // The deck says nothing about competition: null with a reason, never a guess.
    expect(sections.competition).toMatchObject({ score: null, summary: null, evidence: [], unavailable_reason: expect.any(String) });
    expect(deal.json.score).toBeGreaterThan(0);
    expect(deal.json.score_confidence).toBeGreaterThan(0);
    expect(deal.json.score_confidence).toBeLessThan(1);

    // Without view=full the schema is the same and `analysis` is null.
    const summary = await t.request("GET", `/api/v1/deals/${id}`, { key: f.keys.read.secret });
    expect(summary.json.analysis).toBeNull();
    expect(Object.keys(summary.json).sort()).toEqual(Object.keys(deal.json).sort());
  });

  test("the documents inventory and the list", async () => {
    setup();
    const bytes = await pdfDeck();
    const id = (await upload(uploadForm(bytes, "deck.pdf", { company_name: "Ledgerly" }))).json.deal_id;
    await runAll(t);
    const docs = await t.request("GET", `/api/v1/deals/${id}/documents`, { key: f.keys.read.secret });
    expect(docs.json).toMatchObject({
      deal_id: id,
      scope: "org_workspace",
      documents: [
        {
          filename: "deck.pdf",
          kind: "primary_upload",
          folder: null,
          content_type: "application/pdf",
          size_bytes: bytes.byteLength,
          sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"),
          page_count: 5,
          status: "extracted",
        },
      ],
    });
    await upload(uploadForm(await pdfDeck(["Fund II of Harbor Capital. Limited partners include endowments."]), "fund.pdf", { company_name: "Harbor Fund II", kind: "fund" }));
    const list = await t.request("GET", "/api/v1/deals?limit=1", { key: f.keys.read.secret });
    expect(list.json).toMatchObject({ total: 2, limit: 1, offset: 0, has_more: true, scope: "org_workspace" });
    expect(list.json.deals[0].company_name).toBe("Harbor Fund II");
    const filtered = async (qs: string) => (await t.request("GET", `/api/v1/deals?${qs}`, { key: f.keys.read.secret })).json.deals.map((d: any) => d.company_name);
    expect(await filtered("kind=fund")).toEqual(["Harbor Fund II"]);
    expect(await filtered("status=succeeded")).toEqual(["Ledgerly"]);
    expect(await filtered("status=queued")).toEqual(["Harbor Fund II"]);
    expect(await filtered("q=LEDGER")).toEqual(["Ledgerly"]);
    expect(await filtered("stage=new")).toHaveLength(2);
    expect(await filtered("offset=1&limit=1")).toEqual(["Ledgerly"]);
    for (const bad of ["kind=startup", "status=done", "stage=won", "limit=0", "limit=201", "offset=-1", "view=everything"]) {
      const path = bad.startsWith("view") ? `/api/v1/deals/${id}?${bad}` : `/api/v1/deals?${bad}`;
      const res = await t.request("GET", path, { key: f.keys.read.secret });
      expect(res.status, bad).toBe(422);
      expect(res.json.detail[0].loc, bad).toEqual(["query", bad.split("=")[0]]);
    }
  });

  test("another organization's deal is 404 on every read; a non-UUID id is 404", async () => {
    setup();
    const id = (await upload(uploadForm(await pdfDeck(), "deck.pdf"))).json.deal_id;
    for (const path of [`/api/v1/deals/${id}`, `/api/v1/deals/${id}/analysis`, `/api/v1/deals/${id}/documents`, `/api/v1/deals/${id}/analysis/events`]) {
      expect((await t.request("GET", path, { key: f.keys.otherOrgWrite.secret })).status, path).toBe(404);
    }
    expect((await t.request("GET", "/api/v1/deals/not-a-uuid", { key: f.keys.read.secret })).status).toBe(404);
    expect((await t.request("GET", "/api/v1/deals", { key: f.keys.otherOrgWrite.secret })).json.total).toBe(0);
  });
});
