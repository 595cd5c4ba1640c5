// The demo's deal flow, loaded through the real upload route and runner, read back through the API:
// dozens of deals, scores where the decks say enough, null with a reason where they do not, LP fund
// decks with fund sections, a spread pipeline, Office decks converted when LibreOffice is there.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadDemoDeals } from "../../src/demo/load-deals.ts";
import { findLibreOffice } from "../../src/modules/health/health.routes.ts";
import { generateDeals } from "../../src/demo/decks.ts";
import { seededApp, type TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";

let t: TestApp | null = null;
let f: Fixture;
afterEach(() => {
  t = null;
});

async function load(convertOffice?: boolean) {
  ({ t, f } = seededApp({ file: true }));
  const lines: string[] = [];
  const summary = await loadDemoDeals(t.deps, f.orgs.acme.id, join(t.deps.config.dataDir, "demo-source"), (l) => lines.push(l), { convertOffice });
  return { summary, lines };
}

const get = async (path: string) => (await t!.request("GET", path, { key: f.keys.read.secret })).json;

describe("the demo's deals", () => {
  test("the generator is deterministic and varied", () => {
    const a = generateDeals({ seed: 7 });
    expect(generateDeals({ seed: 7 })).toEqual(a);
    expect(generateDeals({ seed: 8 })[0].name).not.toBe(a[0].name);
    expect(a.length).toBeGreaterThanOrEqual(30);
    expect(new Set(a.map((d) => d.name)).size).toBe(a.length);
    expect(new Set(a.map((d) => d.richness))).toEqual(new Set(["rich", "partial", "thin"]));
    expect(a.filter((d) => d.format === "pptx").length).toBeGreaterThan(0);
    expect(a.filter((d) => d.format === "docx").length).toBeGreaterThan(0);
    expect(a.filter((d) => d.kind === "fund").length).toBeGreaterThanOrEqual(3);
  });

  test(
    "dozens of analysed deals: scores for rich decks, null with reasons for thin ones, fund sections, a spread pipeline",
    async () => {
      const decks = generateDeals({ seed: 7 });
      const { summary, lines } = await load();
      expect(summary).toMatchObject({ deals: decks.length, succeeded: decks.length, failed: 0 });
      expect(lines.join("\n")).toMatch(/generated \d+ pitch decks/);
      expect(lines.join("\n")).toMatch(/analysed \d+ deals in [\d.]+ s: \d+ succeeded; pipeline: /);

      const list = await get("/api/v1/deals?limit=200");
      expect(list.total).toBe(decks.length);
      const byName = new Map<string, any>(list.deals.map((d: any) => [d.company_name, d]));
      expect(list.deals.every((d: any) => d.analysis_status === "succeeded" && d.source === "upload")).toBe(true);

      // The pipeline is spread over every stage, as the generator placed it.
      const stages = new Set(list.deals.map((d: any) => d.stage));
      expect(stages).toEqual(new Set(["new", "screening", "diligence", "ic", "invested", "passed"]));
      for (const d of decks) expect(byName.get(d.name)?.stage, d.name).toBe(d.pipeline);
      expect((await get("/api/v1/deals?stage=invested")).total).toBe(decks.filter((d) => d.pipeline === "invested").length);

      // Rich decks: every section scored, with quoted evidence.
      const rich = decks.find((d) => d.richness === "rich" && d.kind === "company" && d.format === "pdf")!;
      const richDeal = await get(`/api/v1/deals/${byName.get(rich.name).deal_id}?view=full`);
      expect(richDeal.score).toBeGreaterThan(50);
      expect(richDeal.score_confidence).toBe(1);
      expect(richDeal.round.amount).toBeGreaterThan(0);
      expect(richDeal.team.length).toBeGreaterThanOrEqual(2);
      for (const s of richDeal.analysis.sections) expect(s.evidence.length, s.key).toBeGreaterThan(0);
      for (const d of decks.filter((x) => x.richness === "rich")) expect(byName.get(d.name).score, d.name).toBeGreaterThan(40);

      // Thin decks: most sections null, each with its reason; no figure made up.
      for (const d of decks.filter((x) => x.richness === "thin")) {
        const deal = await get(`/api/v1/deals/${byName.get(d.name).deal_id}?view=full`);
        const empty = deal.analysis.sections.filter((s: any) => s.score === null);
        expect(empty.length, d.name).toBeGreaterThanOrEqual(6);
        for (const s of empty) expect(s.unavailable_reason, `${d.name} ${s.key}`).toEqual(expect.any(String));
        expect(deal.round).toMatchObject({ amount: null, pre_money_valuation: null });
      }

      // LP fund decks: fund deals with the fund sections; a first-time fund has no track record to score.
      const funds = await get("/api/v1/deals?kind=fund");
      expect(funds.total).toBe(decks.filter((d) => d.kind === "fund").length);
      const fund = await get(`/api/v1/deals/${funds.deals.find((d: any) => / Fund I{1,3}V?$/.test(d.company_name)).deal_id}?view=full`);
      expect(fund.analysis.sections.map((s: any) => s.key)).toEqual(["team", "strategy", "fund_terms", "portfolio_construction", "track_record", "lp_base"]);
      const terms = fund.analysis.sections.find((s: any) => s.key === "fund_terms");
      expect(terms.score).toBeGreaterThan(0);
      expect(terms.evidence.map((e: any) => e.quote).join(" ")).toMatch(/carried interest/);
      expect(fund.analysis.sections.find((s: any) => s.key === "track_record").evidence.map((e: any) => e.quote).join(" ")).toMatch(/TVPI \d\.\dx/);
      const first = await get(`/api/v1/deals/${funds.deals.find((d: any) => /Seed Fund$/.test(d.company_name)).deal_id}?view=full`);
      expect(first.analysis.sections.find((s: any) => s.key === "track_record")).toMatchObject({ score: null, unavailable_reason: expect.any(String) });

      // Office decks went in as themselves and were converted, when LibreOffice is installed.
      const office = decks.filter((d) => d.format !== "pdf");
      for (const d of office) {
        const docs = await get(`/api/v1/deals/${byName.get(d.name).deal_id}/documents`);
        expect(docs.documents[0].filename, d.name).toBe(`${d.slug}.${findLibreOffice() ? d.format : "pdf"}`);
        expect(docs.documents[0]).toMatchObject({ status: "extracted", page_count: d.slides.length });
      }

      // The intake keys the team used are revoked once the flow is in; the org's read key still reads.
      const live = t!.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys WHERE name = 'demo deal intake' AND revoked_at IS NULL").get()!;
      expect(live.n).toBe(0);
    },
    180_000,
  );

  test("without LibreOffice the PPTX/DOCX decks go in as their PDF twins, and it says so once", async () => {
    const { summary, lines } = await load(false);
    expect(summary.failed).toBe(0);
    expect(summary.office).toBe(0);
    expect(lines.filter((l) => /LibreOffice is not installed/.test(l))).toHaveLength(1);
    const rows = t!.deps.db.$client.query<{ content_type: string }, []>("SELECT DISTINCT content_type FROM deal_documents").all();
    expect(rows.map((r) => r.content_type)).toEqual(["application/pdf"]);
  }, 120_000);
});
