// Research runs through the real runner: citations that resolve to real rows of the org, thin
// evidence said plainly, org isolation of the corpus, the two views, the outbox event, the cap.
import { Value } from "@sinclair/typebox/value";
import { describe, expect, test } from "bun:test";
import { ResearchAccepted, ResearchRecord } from "../../../src/modules/research/research.model.ts";
import { runTopic, type Run } from "../../../src/modules/actions/actions.service.ts";
import type { Handler } from "../../../src/modules/actions/runner.ts";
import { researchHandler } from "../../../src/modules/research/research.handlers.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import { importFundsBook, importPortfolioBook } from "../../helpers/book.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";
import { LEDGERLY_PAGES, runAll, seedDocument } from "./seed.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
}

function seedFirm() {
  const doc = seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Ledgerly", filename: "ledgerly-deck.pdf", pages: LEDGERLY_PAGES });
  importPortfolioBook(t.deps, f.orgs.acme.id);
  importFundsBook(t.deps, f.orgs.acme.id);
  knows(t.deps, f.users.alice.id, { email: "jane@acme.com", name: "Jane Doe", title: "CFO" }, thread(6, 10, 3));
  return doc;
}

async function research(query: string, key = f.keys.write.secret, handlers?: Map<string, Handler>) {
  const started = await t.request("POST", "/api/v1/research", { key, body: { query, idempotency_key: crypto.randomUUID() } });
  expect(started.status).toBe(202);
  expect([...Value.Errors(ResearchAccepted, started.json)]).toEqual([]);
  await runAll(t, handlers);
  const id = started.json.research_id;
  const full = await t.request("GET", `/api/v1/research/${id}`, { key });
  expect(full.status).toBe(200);
  return { id, accepted: started.json, report: full.json };
}

type Citation = { n: number; title: string; source_type: string; source_id: string; page: number | null; quote: string };

/** Looks the cited row up in the database, in the given org; returns what the quote must come from. */
function cited(c: Citation, orgId: string): string | null {
  const q = t.deps.db.$client;
  switch (c.source_type) {
    case "document": {
      const row = q.query<{ pages: string }, [string, string]>("SELECT pages FROM deal_documents WHERE id = ? AND org_id = ?").get(c.source_id, orgId);
      return row ? (JSON.parse(row.pages) as string[])[c.page! - 1] ?? null : null;
    }
    case "deal":
      return q.query<{ company_name: string }, [string, string]>("SELECT company_name FROM deals WHERE id = ? AND org_id = ?").get(c.source_id, orgId)?.company_name ?? null;
    case "metric_point": {
      const row = q.query<{ metric: string; value: number }, [number, string]>("SELECT metric, value FROM portfolio_metric_points WHERE id = ? AND org_id = ?").get(Number(c.source_id), orgId);
      return row ? `${row.metric} = ${row.value.toLocaleString("en-US")}` : null;
    }
    case "fund_commitment":
      return q.query<{ fund_name: string }, [string, string]>("SELECT fund_name FROM fund_commitments WHERE id = ? AND org_id = ?").get(c.source_id, orgId)?.fund_name ?? null;
    case "person":
      return q.query<{ display_name: string }, [string, string]>("SELECT display_name FROM persons WHERE id = ? AND org_id = ?").get(c.source_id, orgId)?.display_name ?? null;
  }
  return null;
}

describe("research reports", () => {
  test("every citation resolves to a real row of the org, and every [n] of the report is citations[n-1]", async () => {
    setup();
    const doc = seedFirm();
    const { report, accepted } = await research("What is Ledgerly's ARR and who founded it? How is Acme Robotics doing on burn? What about the TVPI of Alpha Fund I?");
    expect(report).toMatchObject({ status: "succeeded", error: null, progress: null, engine: "builtin", plan: accepted.plan, scope: "org_workspace" });
    expect(report.started_at).toBeString();
    expect(report.finished_at).toBeString();
    const citations: Citation[] = report.citations;
    expect(new Set(citations.map((c) => c.source_type))).toEqual(new Set(["document", "deal", "metric_point", "fund_commitment", "person"]));
    for (const [i, c] of citations.entries()) {
      expect(c.n).toBe(i + 1);
      const source = cited(c, f.orgs.acme.id);
      expect(source, JSON.stringify(c)).not.toBeNull();
      if (c.source_type === "document") {
        expect(c.source_id).toBe(doc.documentId);
        // The quote is the page's own text (a snippet of it).
        for (const piece of c.quote.split("…").map((s) => s.trim()).filter(Boolean)) expect(source).toContain(piece);
      }
      if (c.source_type === "metric_point") expect(c.quote).toStartWith(source!);
      if (c.source_type === "fund_commitment" || c.source_type === "person") expect(c.title).toBe(source!);
    }
    const md: string = report.report_markdown;
    expect(md).toStartWith("# Research: ");
    expect(md).toContain("## Executive summary");
    expect(md).toContain("## Sources");
    for (const q of accepted.plan.sub_questions) expect(md).toContain(q);
    const used = new Set([...md.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
    expect([...used].sort((a, b) => a - b)).toEqual(citations.map((c) => c.n));
    // The stated figures are the stored ones.
    expect(md).toContain("Acme Robotics' latest actual monthly_burn is 150,000 USD (statement of 2024-02-29)");
    expect(md).toContain("2.4 million ARR");
    expect(md).toMatch(/Alice Archer knows Jane Doe \(CFO\)/);
  });

  test("thin evidence: an empty firm gets a report that says so, with no citations", async () => {
    setup();
    const { report } = await research("What is Ledgerly's ARR, and who knows its founders?");
    expect(report.status).toBe("succeeded");
    expect(report.citations).toEqual([]);
    expect(report.report_markdown).not.toMatch(/\[\d+\]/);
    expect(report.report_markdown).toContain("The firm's records hold nothing on this question.");
    expect(report.executive_summary).toMatch(/records hold nothing on this query/);
  });

  test("another org's documents are never searched or cited", async () => {
    setup();
    seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Ledgerly", filename: "ledgerly-deck.pdf", pages: LEDGERLY_PAGES });
    const theirs = seedDocument(t.deps, {
      orgId: f.orgs.globex.id,
      userId: f.users.carol.id,
      company: "Ledgerly",
      filename: "globex-ledgerly-memo.pdf",
      pages: ["Ledgerly ARR confidential: Globex term sheet at 40 million pre-money, Ledgerly zebra-quartz clause."],
    });
    const { report } = await research("Ledgerly ARR term sheet zebra-quartz clause");
    expect(report.citations.length).toBeGreaterThan(0);
    for (const c of report.citations as Citation[]) {
      expect(c.source_id).not.toBe(theirs.documentId);
      expect(c.source_id).not.toBe(theirs.dealId);
      expect(cited(c, f.orgs.acme.id)).not.toBeNull();
    }
    expect(report.report_markdown).not.toContain("40 million pre-money");
    expect(report.report_markdown).not.toContain("globex-ledgerly-memo");
    // The other org's own research finds its own memo.
    const { report: globex } = await research("zebra-quartz clause", f.keys.otherOrgWrite.secret);
    expect((globex.citations as Citation[]).map((c) => c.source_id)).toContain(theirs.documentId);
  });

  test("view=summary and view=full have the same keys; summary nulls the report and citations", async () => {
    setup();
    seedFirm();
    const { id, report: full } = await research("What is Ledgerly's ARR?");
    const summary = (await t.request("GET", `/api/v1/research/${id}?view=summary`, { key: f.keys.read.secret })).json;
    const explicit = (await t.request("GET", `/api/v1/research/${id}?view=full`, { key: f.keys.read.secret })).json;
    expect(Object.keys(summary).sort()).toEqual(Object.keys(full).sort());
    expect(Object.keys(full).sort()).toEqual(
      ["research_id", "status", "progress", "error", "query", "plan", "engine", "executive_summary", "report_markdown", "citations", "started_at", "finished_at", "scope", "as_of"].sort(),
    );
    expect(summary).toMatchObject({ report_markdown: null, citations: null, executive_summary: full.executive_summary, status: "succeeded" });
    // Both views, and the 202, match the models the OpenAPI document promises.
    for (const body of [full, summary]) expect([...Value.Errors(ResearchRecord, body)]).toEqual([]);
    expect(full.report_markdown).toBeString();
    expect(explicit.report_markdown).toBe(full.report_markdown);
  });

  test("a finished run writes its research.completed event to the outbox", async () => {
    setup();
    const { id } = await research("What is Ledgerly's ARR?");
    const events = t.deps.db.$client.query<{ event: string; entity_id: string; result_url: string; org_id: string }, []>("SELECT event, entity_id, result_url, org_id FROM outbox_events").all();
    expect(events).toEqual([{ event: "research.completed", entity_id: id, result_url: `/api/v1/research/${id}`, org_id: f.orgs.acme.id }]);
  });
});

describe("the time cap", () => {
  /** Moves the test clock forward by `ms` the first time the run reports `stage`. */
  function advanceAt(stage: string, ms: number) {
    const seen = new Set<string>();
    return (runId: string) =>
      t.deps.bus.subscribe<Run>(runTopic(runId), (run) => {
        if (run.progress?.stage === stage && !seen.has(stage)) {
          seen.add(stage);
          t.clock.advance(ms);
        }
      });
  }

  test("a run past 30 minutes fails with an error that says so, and writes research.failed", async () => {
    setup();
    seedFirm();
    const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "What is Ledgerly's ARR?", idempotency_key: "slow" } });
    const runId = t.deps.db.$client.query<{ id: string }, []>("SELECT id FROM action_runs").get()!.id;
    const stop = advanceAt("search", 31 * 60_000)(runId);
    await runAll(t);
    stop();
    const read = (await t.request("GET", `/api/v1/research/${started.json.research_id}`, { key: f.keys.read.secret })).json;
    expect(read.status).toBe("failed");
    expect(read.error).toMatch(/exceeded its 30-minute cap/);
    expect(read.report_markdown).toBeNull();
    const events = t.deps.db.$client.query<{ event: string }, []>("SELECT event FROM outbox_events").all();
    expect(events).toEqual([{ event: "research.failed" }]);
  });

  test("under the cap the same run succeeds; the cap is injectable", async () => {
    setup();
    seedFirm();
    const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "What is Ledgerly's ARR?", idempotency_key: "ok" } });
    const runId = t.deps.db.$client.query<{ id: string }, []>("SELECT id FROM action_runs").get()!.id;
    const stop = advanceAt("search", 29 * 60_000)(runId);
    await runAll(t);
    stop();
    expect((await t.request("GET", `/api/v1/research/${started.json.research_id}`, { key: f.keys.read.secret })).json.status).toBe("succeeded");

    const tight = new Map([["research", researchHandler(t.deps, { capMs: 5_000 })]]);
    const again = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "Who founded Ledgerly?", idempotency_key: "tight" } });
    const second = t.deps.db.$client.query<{ id: string }, [string]>("SELECT id FROM action_runs WHERE subject_id = ?").get(again.json.research_id)!.id;
    const stop2 = advanceAt("read", 6_000)(second);
    await runAll(t, tight);
    stop2();
    const read = (await t.request("GET", `/api/v1/research/${again.json.research_id}`, { key: f.keys.read.secret })).json;
    expect(read).toMatchObject({ status: "failed", error: expect.stringMatching(/exceeded its 5-second cap/) });
  });
});
