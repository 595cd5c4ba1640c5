// The model-driven `ask` (DEALGRAPH_LLM_BASE_URL set), against the local stub model: the model's
// tool calls run the same functions, the figures in the structured content are the functions'
// own, a read key cannot start actions through the model, and a model that fails falls back to
// the built-in engine.
import { afterEach, describe, expect, test } from "bun:test";
import { TestClock } from "../../helpers/clock.ts";
import { startLlmStub, type LlmStub, type StubReply, type StubRequest } from "../../helpers/llm-stub.ts";
import { startMcpServer, type McpHarness } from "./mcp-harness.ts";
import { SEEDED_AT, seedFirm } from "./mcp-seed.ts";

let h: McpHarness;
let stub: LlmStub;
afterEach(async () => {
  await h?.close();
  stub?.stop();
});

function setup(reply: (req: StubRequest, n: number) => StubReply) {
  stub = startLlmStub(reply);
  h = startMcpServer({ clock: new TestClock(SEEDED_AT), env: stub.env });
  seedFirm(h);
}

describe("ask with a language model", () => {
  test("the model calls a function; its result goes back to the model; the final text is the answer, the figures are the function's", async () => {
    setup((req, n) =>
      n === 0
        ? { tool_calls: [{ name: "portfolio_company", arguments: { company: "Acme Robotics" } }] }
        : { content: "Acme Robotics has 18 months of runway and 1.2M USD ARR." },
    );
    const client = await h.connect(h.f.keys.read.secret);
    const res = await h.ask(client, "How long can Acme Robotics keep going?");
    expect(res.isError).toBe(false);
    expect(res.text).toStartWith("Acme Robotics has 18 months of runway and 1.2M USD ARR.");
    expect(res.data).toMatchObject({ engine: "llm", understood: true });
    expect(res.data.answers[0]).toMatchObject({ function: "portfolio_company", arguments: { company: "Acme Robotics" } });
    expect(res.data.answers[0].data.runway.months).toBe(18);
    expect(res.data.answers[0].data.companies[0].metrics.arr.value).toBe(1_200_000);

    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[0].tools!.map((t) => t.function.name)).toContain("who_knows");
    expect(stub.requests[0].authorization).toBe("Bearer sk-test");
    const toolMessage = stub.requests[1].messages.find((m) => m.role === "tool")!;
    expect(toolMessage.content).toContain("Runway: 18 months as of 2024-02-29.");

    // The conversation carries on: the next question sees the earlier turn.
    await h.ask(client, "And its burn?", res.data.conversation_id);
    const third = stub.requests[2].messages;
    expect(third.some((m) => m.role === "assistant" && m.content?.includes("18 months of runway"))).toBe(true);
    expect(stub.requests[2].messages[0].content).toContain("Acme Robotics");
  });

  test("the model queries a set of records; a figure its answer invents is removed and counted, the operation's kept", async () => {
    setup((req, n) =>
      n === 0
        ? { tool_calls: [{ name: "query", arguments: { kind: "holdings", order: { by: "runway_months", dir: "desc" }, limit: 1 } }] }
        : { content: "Acme Robotics has the longest runway: 18 months, with 42 customers and 1.2M USD ARR." },
    );
    const client = await h.connect(h.f.keys.read.secret);
    const res = await h.ask(client, "Which portfolio company can last the longest?");
    expect(res.data.answers[0]).toMatchObject({ function: "query", arguments: { kind: "holdings", limit: 1 } });
    expect(res.data.answers[0].data.records[0].name).toBe("Acme Robotics");
    expect(res.text).toStartWith("Acme Robotics has the longest runway: 18 months, with [removed] customers and 1.2M USD ARR.");
    expect(res.text).toContain("(1 figure the model wrote was not returned by any operation and was removed.)");
    expect(res.data.figures_removed).toBe(1);
    // The model is offered the typed query with its record kinds.
    const query = stub.requests[0].tools!.find((t: any) => t.function.name === "query") as any;
    expect(query.function.parameters.properties.kind.enum).toEqual(["deals", "holdings", "metrics", "positions", "marks", "cashflows", "persons", "research", "documents"]);
  });

  test("a query the model gets wrong is answered in words: an unknown kind, or a figure the records do not hold", async () => {
    setup((req, n) =>
      n === 0
        ? { tool_calls: [{ name: "query", arguments: { kind: "unicorns" } }, { name: "query", arguments: { kind: "deals", order: { by: "nps", dir: "desc" } } }] }
        : { content: "I could not answer that from your records." },
    );
    const client = await h.connect(h.f.keys.read.secret);
    const res = await h.ask(client, "Rank deals by NPS");
    expect(res.isError).toBe(false);
    const tool = stub.requests[1].messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(tool[0]).toContain("kind must be one of deals, holdings, metrics");
    expect(tool[1]).toContain("nps is not in your records for deals: your records do not hold it, so I can't answer it. What they hold: score, came in, raising, pre-money valuation, stage and founded.");
  });

  test("a read key cannot start an action through the model either: refused, no run, no charge", async () => {
    setup((req, n) => (n === 0 ? { tool_calls: [{ name: "start_deal_analysis", arguments: { website_url: "https://ledgerly.example" } }] } : { content: "I cannot start that with this key." }));
    const deals = h.t.deps.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM deals").get()!.n;
    const client = await h.connect(h.f.keys.read.secret);
    const res = await h.ask(client, "Please analyse ledgerly.example");
    expect(res.data.answers[0]).toMatchObject({ function: "start_deal_analysis", data: { refused: "read_only_key" } });
    expect(stub.requests[1].messages.find((m) => m.role === "tool")!.content).toContain("read-only");
    expect(stub.requests[0].messages[0].content).toContain("This key is read-only");
    expect(h.t.deps.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM deals").get()!.n).toBe(deals);
    expect(h.usage(h.f.keys.read.id).actions).toBe(0);
  });

  test("a write key starts the action the model asks for, and it is charged", async () => {
    setup((req, n) => (n === 0 ? { tool_calls: [{ name: "start_deal_analysis", arguments: { website_url: "https://ledgerly.example" } }] } : { content: "Started." }));
    const client = await h.connect(h.f.keys.write.secret);
    const res = await h.ask(client, "Please analyse ledgerly.example");
    expect(res.data.answers[0].data.accepted).toMatchObject({ status: "queued" });
    expect(res.data.links[0]).toBe(res.data.answers[0].data.accepted.result_url);
    expect(h.usage(h.f.keys.write.id).actions).toBe(1);
  });

  test("bad tool calls (unknown function, arguments not JSON) go back to the model as errors; rounds are bounded", async () => {
    setup(() => ({ tool_calls: [{ name: "drop_tables", arguments: {} }] }));
    const client = await h.connect(h.f.keys.read.secret);
    const res = await h.ask(client, "Do something odd");
    expect(res.isError).toBe(false);
    expect(stub.requests).toHaveLength(4);
    expect(res.text).toContain("There is no function called drop_tables.");
  });

  test("a model that fails: answered by the built-in engine, saying so", async () => {
    setup(() => ({ status: 500, body: "model overloaded" }));
    const client = await h.connect(h.f.keys.read.secret);
    const res = await h.ask(client, "Which relationships are going stale?");
    expect(res.isError).toBe(false);
    expect(res.data.engine).toBe("builtin");
    expect(res.text).toContain("Erin Ito");
    expect(res.text).toContain("The language model could not be used: the language model answered HTTP 500");
  });

  test("the model may start at most 2 actions per question: the rest are refused uncharged, and the answer says so", async () => {
    const sites = ["one", "two", "three", "four", "five", "six"].map((n) => `https://${n}.example`);
    setup((req) =>
      req.messages.at(-1)!.role === "user" ? { tool_calls: sites.map((website_url) => ({ name: "start_deal_analysis", arguments: { website_url } })) } : { content: "I started the analyses." },
    );
    const count = () => h.t.deps.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM deals").get()!.n;
    const before = count();
    const client = await h.connect(h.f.keys.write.secret);
    const res = await h.ask(client, "Analyse all six of these companies");
    expect(res.isError).toBe(false);
    expect(count() - before).toBe(2);
    expect(h.usage(h.f.keys.write.id).actions).toBe(2);
    const started = res.data.answers.filter((a: any) => a.data?.accepted);
    expect(started.map((a: any) => a.arguments.website_url)).toEqual(sites.slice(0, 2));
    expect(res.data.answers.filter((a: any) => a.data?.refused === "actions_per_question")).toHaveLength(4);
    expect(res.text).toContain("I started the analyses.");
    expect(res.text).toContain("(The model asked to start 4 more actions than the 2 one question may start; they were not started and nothing was charged for them.");
    // The model is told too, in each refused call's result.
    const refusals = stub.requests[1].messages.filter((m) => m.role === "tool" && m.content?.includes("at most 2 actions"));
    expect(refusals).toHaveLength(4);
  });

  test("a retried question in the same conversation finds the research run it started: one run, one charge", async () => {
    setup((req) =>
      // Without tools it is the research planner asking (the model plans runs too).
      !req.tools
        ? { content: { sub_questions: ["Which payroll APIs operate in Europe?", "How do they price?", "Who uses them?"] } }
        : req.messages.at(-1)!.role === "user"
          ? { tool_calls: [{ name: "start_research", arguments: { query: "payroll APIs in Europe" } }] }
          : { content: "Research started." },
    );
    const client = await h.connect(h.f.keys.write.secret);
    const first = await h.ask(client, "Please look into payroll APIs in Europe");
    const id = first.data.answers[0].data.accepted.research_id;
    expect(first.data.answers[0].data.accepted.existing).toBe(false);
    const retry = await h.ask(client, "Please look into payroll APIs in Europe", first.data.conversation_id);
    expect(retry.data.answers[0].data.accepted).toMatchObject({ research_id: id, existing: true });
    expect(h.usage(h.f.keys.write.id).actions).toBe(1);
    expect(h.t.deps.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM research_runs").get()!.n).toBe(1);
  });
});
