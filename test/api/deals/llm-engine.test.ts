// The LLM deal engine end to end: a real upload, the real runner, and a local OpenAI-compatible
// stub standing in for the model. What the model says is checked, not trusted.
import { afterEach, describe, expect, test } from "bun:test";
import { boundedMaterial, normalizeForMatch, readAnswer } from "../../../src/engines/llm/deal-engine.ts";
import { runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { pdfDeck, uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { startLlmStub, type LlmStub, type StubReply, type StubRequest } from "../../helpers/llm-stub.ts";

let t: TestApp | null = null;
let f: Fixture;
let stub: LlmStub | null = null;
afterEach(() => {
  stub?.stop();
  t = null;
  stub = null;
});

function setup(reply: (req: StubRequest) => StubReply, env: Record<string, string> | null = {}) {
  stub = startLlmStub(reply);
  ({ t, f } = seededApp({ file: true, env: env === null ? {} : { ...stub.env, ...env } }));
  return t;
}

/** Uploads the Ledgerly deck, runs the analysis to its end, returns the deal (full view) and its status. */
async function analyse(fields: Record<string, string> = { company_name: "Ledgerly" }) {
  const res = await t!.app.handle(
    new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: uploadForm(await pdfDeck(), "deck.pdf", fields), headers: { authorization: `Bearer ${f.keys.write.secret}` } }),
  );
  expect(res.status).toBe(202);
  const { deal_id } = (await res.json()) as { deal_id: string };
  await runAll(t!);
  const status = await t!.request("GET", `/api/v1/deals/${deal_id}/analysis`, { key: f.keys.read.secret });
  const deal = await t!.request("GET", `/api/v1/deals/${deal_id}?view=full`, { key: f.keys.read.secret });
  return { id: deal_id, status: status.json, deal: deal.json };
}

const docIdIn = (req: StubRequest) => /document_id="([0-9a-f-]{36})" page=3/.exec(req.messages.map((m) => m.content).join("\n"))![1];

/** A plausible model answer; `traction` quotes page 3 truly, `competition` invents a quote. */
function modelAnswer(req: StubRequest) {
  const doc = docIdIn(req);
  return {
    kind: "company",
    company: { name: "Ledgerly GmbH", website: "ledgerly.io", sector: "fintech", location: "Berlin", founded_year: 2022, unknown_key: "ignored" },
    round: { stage: "seed", amount: 4_000_000, currency: "usd", pre_money_valuation: 16_000_000 },
    team: [{ name: "Sam Founder", title: "CEO", linkedin_url: null }],
    sections: [
      // Case and spacing differ from the page; it still counts. The second quote cites the wrong page.
      { key: "traction", score: 81.6, summary: "Strong growth.", evidence: [{ quote: "arr  $1.2M, growing 15% month over month.", document_id: doc, page: 3 }, { quote: "Net revenue retention 135%.", document_id: doc, page: 1 }] },
      { key: "team", score: 140, summary: "Experienced.", evidence: [{ quote: "previously led payouts at Stripe for 6 years", document_id: doc, page: 2 }] },
      { key: "competition", score: 70, summary: "Clear moat.", evidence: [{ quote: "Ledgerly has no serious competitors in Europe.", document_id: doc, page: 1 }] },
      { key: "financials", score: 55, summary: "Trust me.", evidence: [] },
      { key: "market", score: null, summary: null, unavailable_reason: "Only top-down figures.", evidence: [] },
      { key: "made_up_section", score: 99, evidence: [] },
    ],
    summary: "A payouts API with early traction.",
  };
}

describe("the LLM deal engine (DEALGRAPH_LLM_BASE_URL set)", () => {
  test("sends the deck to the model and stores only what the material supports", async () => {
    setup((req) => ({ content: modelAnswer(req) }));
    const { status, deal } = await analyse();
    expect(status).toMatchObject({ status: "succeeded", error: null });

    expect(stub!.requests).toHaveLength(1);
    const req = stub!.requests[0];
    expect(req.model).toBe("stub-model");
    expect(req.authorization).toBe("Bearer sk-test");
    expect(req.response_format).toEqual({ type: "json_object" });
    const prompt = req.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("ARR $1.2M, growing 15% month over month.");
    expect(prompt).toContain("Sam Founder, Co-founder & CEO");
    expect(prompt).toContain('"business_model" (Business model)'); // the company sections are named

    expect(deal.analysis.engine).toBe("llm:stub-model");
    const sections = Object.fromEntries(deal.analysis.sections.map((s: any) => [s.key, s]));
    expect(Object.keys(sections)).toEqual(["team", "market", "product", "traction", "business_model", "competition", "financials", "round"]);
    const documentId = (await t!.request("GET", `/api/v1/deals/${deal.deal_id}/documents`, { key: f.keys.read.secret })).json.documents[0].document_id;
    // Clamped to an integer; the quote on the wrong page is gone, the true one stays.
    expect(sections.traction).toMatchObject({ score: 82, summary: "Strong growth.", unavailable_reason: null });
    expect(sections.traction.evidence).toEqual([{ quote: "arr $1.2M, growing 15% month over month.", document_id: documentId, page: 3 }]);
    expect(sections.team.score).toBe(100);
    // A fabricated quote: dropped, and with it the score.
    expect(sections.competition).toMatchObject({ score: null, evidence: [], unavailable_reason: expect.stringContaining("none of its quotes occur") });
    expect(sections.financials).toMatchObject({ score: null, unavailable_reason: expect.stringContaining("without quoting") });
    expect(sections.market).toMatchObject({ score: null, unavailable_reason: "Only top-down figures." });
    expect(sections.product).toMatchObject({ score: null, unavailable_reason: "The model did not assess this section" });
    expect(deal.score).toBe(91); // mean of 82 and 100
    expect(deal.score_confidence).toBe(0.25); // 2 of 8 sections with evidence
    expect(deal.analysis.summary).toContain("A payouts API with early traction.");
    expect(deal.analysis.summary).toContain("competition");
    // Facts: the submitted name wins; the website is normalised and gives the domain.
    expect(deal.company).toMatchObject({ name: "Ledgerly", website: "https://ledgerly.io", domain: "ledgerly.io", sector: "fintech", founded_year: 2022 });
    expect(deal.round).toEqual({ stage: "seed", amount: 4_000_000, currency: "USD", pre_money_valuation: 16_000_000 });
    expect(deal.team).toEqual([{ name: "Sam Founder", title: "CEO", linkedin_url: null }]);
  });

  test("a fund upload asks for the fund sections and stores them", async () => {
    setup((req) => ({ content: { kind: "company", sections: [{ key: "fund_terms", score: 60, evidence: [{ quote: "We are raising $4M seed", document_id: /document_id="([0-9a-f-]{36})"/.exec(req.messages[1].content!)![1], page: 5 }] }] } }));
    const { deal } = await analyse({ company_name: "Harbor Fund II", kind: "fund" });
    expect(stub!.requests[0].messages[0].content).toContain('"fund_terms" (Fund terms)');
    expect(deal.kind).toBe("fund");
    expect(deal.analysis.sections.map((s: any) => s.key)).toEqual(["team", "strategy", "fund_terms", "portfolio_construction", "track_record", "lp_base"]);
    expect(deal.analysis.sections[2]).toMatchObject({ key: "fund_terms", score: 60 });
    expect(deal.score).toBe(60);
  });

  test("the model answering HTTP 500 fails the run with the status in the error; nothing is stored", async () => {
    setup(() => ({ status: 500, body: "model overloaded" }));
    const { status, deal } = await analyse();
    expect(status.status).toBe("failed");
    expect(status.error).toContain("HTTP 500");
    expect(status.error).toContain("model overloaded");
    expect(deal.analysis).toBeNull();
    expect(deal.score).toBeNull();
  });

  test("an answer that is not JSON fails the run", async () => {
    setup(() => ({ content: "Sure! Here is my analysis: the company looks great." }));
    const { status, deal } = await analyse();
    expect(status).toMatchObject({ status: "failed", error: expect.stringContaining("did not return JSON") });
    expect(deal.analysis).toBeNull();
  });

  test("JSON of the wrong shape fails the run and names the field", async () => {
    setup(() => ({ content: { sections: [{ key: "team", score: "eighty", evidence: [] }] } }));
    const { status } = await analyse();
    expect(status).toMatchObject({ status: "failed", error: expect.stringContaining("$.sections[0].score must be a number or null") });
  });

  test("an unreachable model fails the run with the reason", async () => {
    const t0 = setup(() => ({ content: {} }), { DEALGRAPH_LLM_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(t0.deps.config.llm?.baseUrl).toBe("http://127.0.0.1:9/v1");
    const { status } = await analyse();
    expect(status).toMatchObject({ status: "failed", error: expect.stringContaining("could not be reached") });
    expect(stub!.requests).toHaveLength(0);
  });

  test("without DEALGRAPH_LLM_BASE_URL the built-in engine analyses, and the stub is never called", async () => {
    setup(() => ({ content: {} }), null);
    const { status, deal } = await analyse();
    expect(status.status).toBe("succeeded");
    expect(deal.analysis.engine).toBe("builtin");
    expect(stub!.requests).toHaveLength(0);
  });
});

describe("the engine's checks", () => {
  test("wrong types are rejected, unknown keys ignored, missing keys null", () => {
    expect(() => readAnswer([])).toThrow("JSON object");
    expect(() => readAnswer({ kind: "startup" })).toThrow("$.kind");
    expect(() => readAnswer({ company: "Acme" })).toThrow("$.company must be an object");
    expect(() => readAnswer({ company: { founded_year: 2020.5 } })).toThrow("founded_year must be an integer");
    expect(() => readAnswer({ round: { amount: "4M" } })).toThrow("$.round.amount must be a number");
    expect(() => readAnswer({ team: [{ title: "CEO" }] })).toThrow("$.team[0].name is required");
    expect(() => readAnswer({ sections: {} })).toThrow("$.sections must be an array");
    expect(() => readAnswer({ sections: [{ key: "team", evidence: [{ quote: 1 }] }] })).toThrow("quote must be a string");
    const ok = readAnswer({ extra: true, sections: [{ key: "team", score: -12, evidence: [] }] });
    expect(ok.sections[0].score).toBe(0);
    expect(ok.facts.company.name).toBeNull();
    expect(ok.kind).toBeNull();
  });

  test("quotes match across case, spacing and typographic punctuation", () => {
    expect(normalizeForMatch("We’re  “LIVE” — now")).toBe(normalizeForMatch(`we're "live" - now`));
  });

  test("the material is bounded, keeps every page's label, and says what it cut", () => {
    const pages = Array.from({ length: 200 }, (_, i) => ({ documentId: "d1", url: null, page: i + 1, text: `Page ${i + 1}. ${"word ".repeat(400)}` }));
    const text = boundedMaterial(pages, 20_000);
    expect(text.length).toBeLessThan(30_000);
    expect(text).toContain('<<source document_id="d1" page=1>>');
    expect(text).toContain("[...page truncated]");
    expect(text).toMatch(/\[\d+ more pages omitted for length\]/);
    const site = boundedMaterial([{ documentId: null, url: "https://acme.io/about", page: null, text: "About Acme." }]);
    expect(site).toContain('<<source url="https://acme.io/about">>');
  });
});
