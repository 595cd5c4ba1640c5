// The research event stream over a real listening server, and the LLM engine against the local
// OpenAI-compatible stub (plan during the POST, report from the given passages only).
import { afterEach, describe, expect, test } from "bun:test";
import { seededApp, serveApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { startLlmStub, type LlmStub, type StubReply, type StubRequest } from "../../helpers/llm-stub.ts";
import { LEDGERLY_PAGES, runAll, seedDocument } from "./seed.ts";
import { readFrames } from "../../helpers/sse.ts";

let t: TestApp;
let f: Fixture;
let stub: LlmStub | null = null;
afterEach(() => {
  stub?.stop();
  stub = null;
});

function setup(env: Record<string, string> = {}) {
  ({ t, f } = seededApp({ env }));
  seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Ledgerly", filename: "ledgerly-deck.pdf", pages: LEDGERLY_PAGES });
}

describe("GET /api/v1/research/{id}/events", () => {
  test("progress with stage and percent, rising, then done with the result URL", async () => {
    setup();
    const base = serveApp(t);
    const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "What is Ledgerly's ARR? Who founded Ledgerly?", idempotency_key: "sse" } });
    const id = started.json.research_id;
    const res = await fetch(`${base}/api/v1/research/${id}/events`, { headers: { authorization: `Bearer ${f.keys.read.secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reading = readFrames(res);
    await Bun.sleep(0);
    await runAll(t);
    const frames = await reading;
    expect(frames[0]).toMatchObject({ event: "progress", data: { research_id: id, status: "queued", progress: null } });
    const running = frames.filter((fr) => fr.event === "progress" && fr.data.status === "running" && fr.data.progress?.percent !== undefined);
    const stages = [...new Set(running.map((fr) => fr.data.progress.stage))];
    expect(stages).toEqual(["plan", "search", "read", "write"]);
    const percents = running.map((fr) => fr.data.progress.percent as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.every((p) => p >= 0 && p <= 100)).toBe(true);
    expect(frames.at(-2)).toMatchObject({ event: "progress", data: { status: "succeeded", progress: null, report_markdown: null } });
    expect(frames.at(-1)).toEqual({ event: "done", data: { status: "succeeded", result_url: `/api/v1/research/${id}` } });
  });
});

function llmStub(write: (req: StubRequest) => StubReply, plan: StubReply = { content: { sub_questions: ["What is Ledgerly's ARR?", "Who founded Ledgerly?"] } }) {
  stub = startLlmStub((req) => (req.messages[0].content?.startsWith("You plan research") ? plan : write(req)));
  return stub;
}

describe("the LLM research engine", () => {
  test("the model plans during the POST and writes from the numbered passages; citations it invents are dropped and reported", async () => {
    const s = llmStub((req) => {
      const given = req.messages[1].content!;
      // The passage about ARR is whichever number the server gave it.
      const n = /\[(\d+)\] ledgerly-deck\.pdf, page 2:/.exec(given)![1];
      return {
        content: {
          executive_summary: `Ledgerly reached 2.4 million ARR in March 2026 [${n}]. Its valuation is 1 billion [77].`,
          sections: [
            { question: "What is Ledgerly's ARR?", markdown: `2.4 million ARR, growing 12% a month [${n}].` },
            { question: "Who founded Ledgerly?", markdown: "Founded by a famous person [99]." },
          ],
        },
      };
    });
    setup(s.env);
    const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "Tell me about Ledgerly", idempotency_key: "llm-1" } });
    expect(started.status).toBe(202);
    expect(started.json.plan).toEqual({ sub_questions: ["What is Ledgerly's ARR?", "Who founded Ledgerly?"] });
    expect(s.requests).toHaveLength(1);
    await runAll(t);
    const report = (await t.request("GET", `/api/v1/research/${started.json.research_id}`, { key: f.keys.read.secret })).json;
    expect(report).toMatchObject({ status: "succeeded", engine: "llm:stub-model" });
    // The model saw only this org's passages, numbered.
    const prompt = s.requests[1].messages[1].content!;
    expect(prompt).toContain("Traction: Ledgerly reached 2.4 million ARR");
    expect(report.citations).toHaveLength(1);
    expect(report.citations[0]).toMatchObject({ n: 1, source_type: "document", page: 2 });
    expect(report.executive_summary).toBe("Ledgerly reached 2.4 million ARR in March 2026 [1].");
    expect(report.report_markdown).toContain("2.4 million ARR, growing 12% a month [1].");
    expect(report.report_markdown).not.toMatch(/\[(77|99)\]/);
    expect(report.report_markdown).not.toContain("1 billion");
    expect(report.report_markdown).not.toContain("famous person");
    expect(report.report_markdown).toContain("The model cited passage numbers 77, 99, which match no passage it was given; the sentences citing them were removed.");
  });

  test("a sentence stating something without a citation is removed and reported; headings, lead-ins, the question and 'the records do not say' stay", async () => {
    const s = llmStub((req) => {
      const n = /\[(\d+)\] ledgerly-deck\.pdf, page 2:/.exec(req.messages[1].content!)![1];
      return {
        content: {
          executive_summary: `Ledgerly reached 2.4 million ARR in March 2026 [${n}]. Ledgerly is the clear market leader in Europe. The records do not say who its investors are.`,
          sections: [
            {
              question: "What is Ledgerly's ARR?",
              markdown: [
                "### What is Ledgerly's ARR?",
                "Revenue figures:",
                `- 2.4 million ARR in March 2026 [${n}].`,
                `- Net revenue retention is 135 percent. [${n}]`,
                "- The company will likely reach 10 million next year.",
                `Growth is 12% month over month, e.g. strong for its stage [${n}].`,
              ].join("\n"),
            },
            { question: "Who founded Ledgerly?", markdown: "Ledgerly was founded by two Stripe veterans. No passage names its board." },
          ],
        },
      };
    });
    setup(s.env);
    const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "Tell me about Ledgerly", idempotency_key: "llm-uncited" } });
    await runAll(t);
    const report = (await t.request("GET", `/api/v1/research/${started.json.research_id}`, { key: f.keys.read.secret })).json;
    expect(report.status).toBe("succeeded");
    expect(report.executive_summary).toBe("Ledgerly reached 2.4 million ARR in March 2026 [1]. The records do not say who its investors are.");
    const md: string = report.report_markdown;
    for (const kept of [
      "### What is Ledgerly's ARR?",
      "Revenue figures:",
      "- 2.4 million ARR in March 2026 [1].",
      "- Net revenue retention is 135 percent. [1]",
      "Growth is 12% month over month, e.g. strong for its stage [1].",
      "No passage names its board.",
    ]) {
      expect(md).toContain(kept);
    }
    for (const removed of ["market leader", "10 million next year", "Stripe veterans"]) expect(md).not.toContain(removed);
    expect(md).toContain("The model wrote 3 sentences stating something without citing a passage; they were removed (every claim must cite the firm's records).");
    expect(md).not.toContain("match no passage it was given");
    expect(report.citations).toHaveLength(1);
  });

  test("a model that cannot plan: 503 with Retry-After, nothing created or charged", async () => {
    const s = llmStub(() => ({ content: "{}" }), { status: 500, body: "overloaded" });
    setup(s.env);
    const res = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "Tell me about Ledgerly", idempotency_key: "llm-2" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(res.json.detail).toMatch(/plan could not be made.*HTTP 500/);
    const n = t.deps.db.$client.query<{ r: number; a: number; c: number }, []>(
      "SELECT (SELECT count(*) FROM research_runs) AS r, (SELECT count(*) FROM action_runs) AS a, (SELECT coalesce(sum(actions), 0) FROM key_usage) AS c",
    ).get()!;
    expect(n).toEqual({ r: 0, a: 0, c: 0 });
  });

  test("a model whose report is not the JSON asked for fails the run with the reason", async () => {
    const s = llmStub(() => ({ content: "Here is your report!" }));
    setup(s.env);
    const started = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, body: { query: "Tell me about Ledgerly", idempotency_key: "llm-3" } });
    await runAll(t);
    const report = (await t.request("GET", `/api/v1/research/${started.json.research_id}`, { key: f.keys.read.secret })).json;
    expect(report).toMatchObject({ status: "failed", report_markdown: null, citations: null });
    expect(report.error).toMatch(/language model could not write the report: the language model did not return JSON/);
  });
});
