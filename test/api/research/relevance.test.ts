// Thin evidence with a corpus that is there but beside the point: a passage answers a sub-question
// only when it carries the question's distinctive terms, not because it shares an everyday word
// ("teams") with it. Sections say what the records do not address; the summary counts honestly.
import { describe, expect, test } from "bun:test";
import { documentsQuestion, planQuestions } from "../../../src/engines/builtin/research-planner.ts";
import { researchCorpus } from "../../../src/modules/research/research.corpus.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { LEDGERLY_PAGES, runAll, seedDocument } from "./seed.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
}

const QUANTUM = "What is the outlook for quantum computing teams in Europe?";
const QUBITLY_PAGES = [
  "Qubitly builds quantum computing hardware: a team of 12 physicists in Munich sells error-corrected qubits to European research labs.",
  "Market: national labs and pharma groups buy quantum computing time today; Qubitly expects 40 systems sold by 2028.",
];

function seedAccounting() {
  return seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Ledgerly", filename: "ledgerly-deck.pdf", pages: LEDGERLY_PAGES });
}
function seedQuantum() {
  return seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Qubitly", filename: "qubitly-memo.pdf", pages: QUBITLY_PAGES });
}

async function research(query: string) {
  const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query, idempotency_key: crypto.randomUUID() } });
  expect(started.status, started.text).toBe(202);
  await runAll(t);
  const read = await t.request("GET", `/api/v1/research/${started.json.research_id}`, { key: f.keys.read.secret });
  expect(read.json.status).toBe("succeeded");
  return read.json;
}

/** The Markdown of section n (1-based) of a report. */
const section = (md: string, n: number) => md.split(/\n(?=## )/).find((s) => s.startsWith(`## ${n}. `)) ?? "";

describe("an irrelevant corpus", () => {
  test("an accounting deck does not answer a question on quantum computing: not addressed, zero sources", async () => {
    setup();
    seedAccounting();
    const report = await research(QUANTUM);
    expect(report.plan.sub_questions).toEqual([QUANTUM, "What do the firm's documents and deal analyses say about the outlook for quantum computing teams in Europe?"]);
    expect(report.citations).toEqual([]);
    expect(report.report_markdown).not.toMatch(/\[\d+\]/);
    expect(report.report_markdown).not.toContain("accounting automation");
    for (const n of [1, 2]) {
      expect(section(report.report_markdown, n)).toContain(
        // The deck's page 1 ("finance teams") and page 3 ("Team: founded by ...").
        'The firm\'s records do not address this question: 2 passages share only "teams" with it and were not counted. Nothing in them mentions "quantum", "computing" or "europe".',
      );
    }
    expect(report.executive_summary).toStartWith(
      "The firm's records do not address this query: none of its 2 sub-questions is answered by a document, deal, metric, fund position or relationship (4 passages shared only everyday words with them and were not counted).",
    );
    expect(report.executive_summary).not.toMatch(/answer \d+ of/);
  });

  test("the corpus search alone: the shared everyday word is a near miss, not a passage", () => {
    setup();
    seedAccounting();
    const corpus = researchCorpus(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id });
    const found = corpus.find(QUANTUM);
    expect(found.passages).toEqual([]);
    expect(found.near_misses).toEqual({ count: 2, shared: ["teams"] });
    expect(found.missing_terms).toEqual(["quantum", "computing", "europe"]);
    // A question about nothing but teams (framing words aside) is answered by the passages on teams.
    expect(corpus.searchText("What do the documents say about the latest teams?")).toHaveLength(2);
  });
});

describe("a relevant corpus", () => {
  test("the quantum memo answers with citations, although it never says 'Europe' (its distinctive terms carry it)", async () => {
    setup();
    seedAccounting();
    const memo = seedQuantum();
    const report = await research(QUANTUM);
    expect(report.citations.length).toBeGreaterThan(0);
    expect(new Set(report.citations.map((c: { source_id: string }) => c.source_id))).toEqual(new Set([memo.documentId]));
    expect(section(report.report_markdown, 1)).toMatch(/qubitly-memo\.pdf, page 1 reads: ".*quantum computing hardware.*" \[\d\]/);
    expect(report.executive_summary).toStartWith(`The firm's own records answer 2 of 2 sub-questions from ${report.citations.length} source`);
  });
});

describe("a mixed corpus and query", () => {
  test("each sub-question is answered by its own document, and the one nothing answers says so; the summary counts 2 of 3", async () => {
    setup();
    const deck = seedAccounting();
    const memo = seedQuantum();
    const report = await research(`${QUANTUM} How do mid-market finance teams close their books? What do we know about fusion reactors?`);
    expect(report.plan.sub_questions).toEqual([QUANTUM, "How do mid-market finance teams close their books?", "What do we know about fusion reactors?"]);
    const md: string = report.report_markdown;
    const cited = (n: number) => [...section(md, n).matchAll(/\[(\d+)\]/g)].map((m) => report.citations[Number(m[1]) - 1].source_id);
    expect(new Set(cited(1))).toEqual(new Set([memo.documentId]));
    expect(new Set(cited(2))).toEqual(new Set([deck.documentId]));
    expect(cited(3)).toEqual([]);
    expect(section(md, 3)).toContain('The firm\'s records hold nothing on this question. Nothing in them mentions "fusion" or "reactors".');
    expect(report.executive_summary).toStartWith(`The firm's own records answer 2 of 3 sub-questions from ${report.citations.length} sources; the other one is not addressed;`);
  });
});

describe("names the question asks about", () => {
  test("another company's ARR does not answer a question on Ledgerly's ARR; Ledgerly's does", () => {
    setup();
    const deck = seedAccounting();
    const other = seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Zentro", filename: "zentro-update.pdf", pages: ["Zentro reached 3.1 million ARR in May 2026."] });
    const corpus = researchCorpus(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id });
    const found = corpus.find("What is Ledgerly's ARR?");
    const documents = found.passages.filter((p) => p.source_type === "document");
    expect(documents.map((p) => [p.source_id, p.page])).toEqual([[deck.documentId, 2]]);
    expect(found.passages.some((p) => p.source_id === other.documentId)).toBe(false);
    expect(found.near_misses!.count).toBeGreaterThan(0);
  });
});

describe("the planner's fallback sub-question reads as English", () => {
  const none = { companies: [], funds: [], persons: [], metrics: [], fundBook: false };
  const cases: [string, string][] = [
    [QUANTUM, "What do the firm's documents and deal analyses say about the outlook for quantum computing teams in Europe?"],
    ["How is Ledgerly doing?", 'What do the firm\'s documents and deal analyses say on the question "how is Ledgerly doing"?'],
    ["Tell me about payroll APIs in Europe", "What do the firm's documents and deal analyses say about payroll APIs in Europe?"],
    ["The state of vertical SaaS", "What do the firm's documents and deal analyses say about the state of vertical SaaS?"],
    ["Ledgerly ARR", "What do the firm's documents and deal analyses say about Ledgerly ARR?"],
  ];
  for (const [query, expected] of cases) {
    test(query, () => {
      expect(documentsQuestion(query)).toBe(expected);
      expect(planQuestions(query, none)).toContain(expected);
    });
  }
});
