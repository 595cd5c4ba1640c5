// dealsService.pipeline and documentInventory, the reads the `ask` tool's query layer filters and
// totals the pipeline over: every deal of the org (newest first) with what its analysis read of
// its company and round, and every document held on the org's deals; another org's never.
import { describe, expect, test } from "bun:test";
import type { DealAnalysis } from "../../../src/engines/deal-engine.ts";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { pdfDeck, uploadForm } from "../../helpers/decks.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";

let t: TestApp;
let f: Fixture;

function analysis(sector: string | null, round: DealAnalysis["facts"]["round"]): DealAnalysis {
  return {
    engine: "builtin",
    kind: "company",
    facts: { company: { name: null, domain: null, website: null, description: null, sector, location: "Lisbon", founded_year: null }, round, team: [] },
    sections: [],
    score: 70,
    score_confidence: 0.5,
    summary: "",
  };
}

describe("dealsService.pipeline", () => {
  test("every deal of the org, newest first, with its analysed sector, location and round; null before an analysis; another org's never", () => {
    const clock = new TestClock("2026-11-20T12:00:00.000Z");
    ({ t, f } = seededApp({ clock }));
    const deals = dealsService(t.deps);
    const submit = (name: string, secret = f.keys.write.secret) =>
      deals.submit(principalOf(t.deps, secret), { companyName: name, kind: "company", source: "upload", targetKey: nameTarget(name) }, () => {}, {}).dealId;
    const first = submit("Ledgerly");
    clock.advanceHours(1);
    const second = submit("Quillpay");
    submit("Initech", f.keys.otherOrgWrite.secret);
    deals.storeAnalysis(first, analysis("fintech", { stage: "seed", amount: 2_500_000, currency: "EUR", pre_money_valuation: null }));

    const rows = deals.pipeline(f.orgs.acme.id);
    expect(rows.map((r) => r.deal_id)).toEqual([second, first]);
    expect(rows[1]).toMatchObject({ company_name: "Ledgerly", kind: "company", stage: "new", score: 70, sector: "fintech", location: "Lisbon", round_stage: "seed", round_amount: 2_500_000, round_currency: "EUR" });
    expect(rows[0]).toMatchObject({ company_name: "Quillpay", score: null, sector: null, round_stage: null, round_amount: null, round_currency: null, analysis_status: "queued" });
  });
});

describe("dealsService.documentInventory", () => {
  test("the documents held on the org's deals, newest first, without their text; another org's never", async () => {
    const clock = new TestClock("2026-11-20T12:00:00.000Z");
    ({ t, f } = seededApp({ clock }));
    const upload = async (name: string, key: string) => {
      const res = await t.app.handle(
        new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: uploadForm(await pdfDeck(), `${name.toLowerCase()}.pdf`, { company_name: name }), headers: { authorization: `Bearer ${key}` } }),
      );
      expect(res.status).toBe(202);
      return ((await res.json()) as { deal_id: string }).deal_id;
    };
    const ledgerly = await upload("Ledgerly", f.keys.write.secret);
    clock.advanceHours(1);
    const quillpay = await upload("Quillpay", f.keys.write.secret);
    await upload("Initech", f.keys.otherOrgWrite.secret);

    const docs = dealsService(t.deps).documentInventory(f.orgs.acme.id);
    expect(docs.map((d) => [d.deal_id, d.company_name, d.filename, d.kind])).toEqual([
      [quillpay, "Quillpay", "quillpay.pdf", "primary_upload"],
      [ledgerly, "Ledgerly", "ledgerly.pdf", "primary_upload"],
    ]);
    expect(Object.keys(docs[0]).sort()).toEqual(["category", "company_name", "deal_id", "document_id", "filename", "kind", "page_count", "status", "uploaded_at"]);
  });
});
