// The LLM founder engine against the local stub model: the same evidence in the prompt, the
// answer checked strictly, sources only among the gathered rows, model errors failing the run.
import { afterEach, describe, expect, test } from "bun:test";
import { startLlmStub, type LlmStub, type StubReply } from "../../helpers/llm-stub.ts";
import { knows, thread } from "../../helpers/network.ts";
import { analyze, readAnalysis, runAll, seedDeal, setup, type Ctx } from "./helpers.ts";

let c: Ctx;
let stub: LlmStub | null = null;
afterEach(() => {
  stub?.stop();
  stub = null;
});

const KEYS = ["domain_expertise", "execution_track_record", "technical_depth", "leadership", "network_strength"];

const goodAnswer = (overrides: Record<string, unknown> = {}) => ({
  metrics: KEYS.map((key, i) => ({
    key,
    score: key === "technical_depth" ? null : 60 + i * 5,
    confidence: key === "technical_depth" ? 0 : 0.5,
    reasoning: `Evidence [1] and [2] bear on ${key}.`,
    missing_info: key === "technical_depth" ? ["A GitHub profile"] : [],
  })),
  strengths: ["Knows the firm well [1]."],
  risks: ["No technical evidence."],
  sources: [2],
  ...overrides,
});

async function run(reply: (n: number) => StubReply) {
  stub = startLlmStub((_req, n) => reply(n));
  c = setup(stub.env);
  knows(c.t.deps, c.f.users.alice.id, { email: "jane@ledgerly.io", name: "Jane Doe", company: "Ledgerly" }, thread(6, 7, 2));
  const dealId = seedDeal(c, "Ledgerly", [{ name: "Jane Doe", title: "CEO", linkedin_url: null }], { team: 75 });
  const id = (await analyze(c, { name: "Jane Doe", company: "Ledgerly" })).json.analysis_id;
  await runAll(c.t);
  return { id, dealId, rec: (await readAnalysis(c, id, "full")).json };
}

describe("the LLM founder engine", () => {
  test("assesses from the gathered evidence; overall computed here; sources are the cited rows", async () => {
    const { rec, dealId } = await run(() => ({ content: goodAnswer() }));
    expect(rec.status).toBe("succeeded");
    expect(rec.engine).toBe("llm:stub-model");
    const prompt = stub!.requests[0].messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("[1] person: Jane Doe");
    expect(prompt).toContain("Alice Archer knows them");
    expect(prompt).toContain(`[2] deal: Ledgerly`);
    expect(stub!.requests[0].response_format).toEqual({ type: "json_object" });
    expect(rec.metrics.map((m: any) => [m.key, m.score])).toEqual([
      ["domain_expertise", 60],
      ["execution_track_record", 65],
      ["technical_depth", null],
      ["leadership", 75],
      ["network_strength", 80],
    ]);
    expect(rec.overall_score).toBe(70);
    expect(rec.sources).toEqual([{ type: "deal", id: dealId, title: "Ledgerly" }]);
    expect(rec.strengths).toEqual(["Knows the firm well [1]."]);
  });

  test("namesakes reach the prompt as not the founder, and the model is told whose facts to credit", async () => {
    stub = startLlmStub(() => ({ content: goodAnswer({ sources: [] }) }));
    c = setup(stub.env);
    knows(c.t.deps, c.f.users.alice.id, { email: "jane.doe@bigcorp.com", name: "Jane Doe", title: "VP Engineering", company: "BigCorp" }, thread(30, 3, 2));
    await analyze(c, { name: "Jane Doe", company: "Stealth Startup" });
    await runAll(c.t);
    const [system, user] = stub.requests[0].messages.map((m) => m.content!);
    expect(user).toContain("Not the founder (namesake, not evidence): Jane Doe (VP Engineering, BigCorp, bigcorp.com): at another company than the one given");
    expect(user).not.toContain("knows them");
    expect(system).toContain("is not theirs");
  });

  const bad: [string, unknown, RegExp][] = [
    ["a metric left out", goodAnswer({ metrics: goodAnswer().metrics.slice(1) }), /metrics domain_expertise are missing/],
    ["a score over 100", goodAnswer({ metrics: goodAnswer().metrics.map((m) => ({ ...m, score: 140 })) }), /domain_expertise\.score is not null or 0-100/],
    ["a source that is not in the evidence", goodAnswer({ sources: [7] }), /sources\[0\] is not an evidence number 1-2/],
    ["an unknown metric", goodAnswer({ metrics: [...goodAnswer().metrics, { key: "charisma", score: 99, confidence: 1, reasoning: "x" }] }), /metrics\[5\]\.key is not one of/],
    ["not JSON at all", "I think she is great", /did not return JSON/],
  ];
  for (const [name, content, error] of bad) {
    test(`${name}: the run fails with a precise error`, async () => {
      const { rec } = await run(() => ({ content: content as string | object }));
      expect(rec.status).toBe("failed");
      expect(rec.error).toMatch(/^The founder could not be assessed: /);
      expect(rec.error).toMatch(error);
      expect(rec.metrics).toEqual([]);
    });
  }

  test("a model endpoint that errors: failed with the HTTP status, and a founder.analysis.failed event", async () => {
    const { rec, id } = await run(() => ({ status: 500, body: "upstream exploded" }));
    expect(rec.status).toBe("failed");
    expect(rec.error).toContain("the language model answered HTTP 500");
    const events = c.t.deps.db.$client.query<{ event: string; entity_id: string }, []>("SELECT event, entity_id FROM outbox_events").all();
    expect(events).toContainEqual({ event: "founder.analysis.failed", entity_id: id });
  });
});
