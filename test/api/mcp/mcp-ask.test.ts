// The `ask` tool through the official SDK client against a running server: one question per
// capability answered with the database's figures, follow-ups in a conversation, actions governed
// by the key and the actions budget, bad input answered cleanly, and org isolation.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { TestClock } from "../../helpers/clock.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { startMcpServer, type McpHarness } from "./mcp-harness.ts";
import { SEEDED_AT, seedFirm } from "./mcp-seed.ts";

let h: McpHarness;
let seeded: ReturnType<typeof seedFirm>;
let alice: Client;
beforeEach(async () => {
  h = startMcpServer({ clock: new TestClock(SEEDED_AT) });
  seeded = seedFirm(h);
  alice = await h.connect(h.f.keys.write.secret);
});
afterEach(async () => {
  await h.close();
});

const count = (table: string) => h.t.deps.db.$client.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n;

describe("questions, answered with the database's figures", () => {
  test("who knows someone at a company (by domain or by a portfolio company's name), then how warm she is", async () => {
    const first = await h.ask(alice, "Who knows someone at acme.com?");
    expect(first.isError).toBe(false);
    expect(first.text).toContain("Alice Archer knows Dana Scully (CTO)");
    const path = first.data.answers[0].data.paths[0];
    expect(first.text).toContain(`strength ${path.strength_score}/100`);
    expect(first.data).toMatchObject({ understood: true, engine: "builtin", links: ["/api/v1/network/who-knows?domain=acme.com"] });
    // The same figures as the REST endpoint.
    const rest = await h.t.request("GET", "/api/v1/network/who-knows?domain=acme.com", { key: h.f.keys.read.secret });
    expect(first.data.answers[0].data.paths).toEqual(rest.json.paths);

    const followUp = await h.ask(alice, "How warm is she?", first.data.conversation_id);
    expect(followUp.data.conversation_id).toBe(first.data.conversation_id);
    expect(followUp.data.answers[0].function).toBe("contact_warmth");
    expect(followUp.text).toContain(`Your warmest path to Dana Scully (CTO) is through Alice Archer: a strong relationship, strength ${path.strength_score}/100 and warmth ${path.warmth}`);

    const byName = await h.ask(alice, "who knows someone at Acme Robotics?");
    expect(byName.text).toContain("acme.com: the website of portfolio company Acme Robotics");
    expect(byName.text).toContain("Dana Scully");
    const person = await h.ask(alice, "Who can introduce me to Dana Scully?");
    expect(person.data.answers[0].arguments).toEqual({ person: "Dana Scully" });
  });

  test("warmth of a contact by email; an unknown contact is said to be unknown", async () => {
    const res = await h.ask(alice, "How warm is my relationship with dana@acme.com?");
    const row = res.data.answers[0].data.results[0];
    expect(row).toMatchObject({ name: "Dana Scully", relationship: "strong", path_owner: "Alice Archer" });
    expect(res.text).toContain(`warmth ${row.warmth}`);
    expect(res.text).toContain("4 emails sent, 4 received, 0 meetings; last touch 2 days ago");
    const unknown = await h.ask(alice, "How warm is Zed Nobody?");
    expect(unknown.text).toContain("I found nobody called Zed Nobody in your shared network (contact_not_found)");
  });

  test("going stale: the relationship past its declared cadence", async () => {
    const res = await h.ask(alice, "Which relationships are going stale?");
    expect(res.text).toContain("1 of your relationships is going stale");
    expect(res.text).toContain("Erin Ito <erin@boltpay.io>: 40 days since the last touch, cadence 14 days (declared)");
    expect(res.data.answers[0].data).toMatchObject({ scope: "key_user", total: 1 });
  });

  test("a deal's status and score, and the pipeline", async () => {
    const res = await h.ask(alice, "What's the status and score of Ledgerly?");
    expect(res.text).toContain('Ledgerly (ledgerly.io) is at pipeline stage "screening". Its analysis succeeded');
    expect(res.text).toContain("Score: 72/100 (confidence 0.8");
    expect(res.data.links).toEqual([`/api/v1/deals/${seeded.ledgerly}`, `/api/v1/deals/${seeded.ledgerly}/analysis`]);
    expect(res.data.answers[0].data.deal).toMatchObject({ deal_id: seeded.ledgerly, score: 72, scope: "org_workspace" });
    const list = await h.ask(alice, "Show me the pipeline");
    expect(list.text).toContain("1 deal in the pipeline");
    expect(list.text).toContain("Ledgerly: screening, analysis succeeded, score 72");
  });

  test("a deal found by its domain even when its name is not the domain's first label (getquillpay.com is Quillpay)", async () => {
    const principal = principalOf(h.t.deps, h.f.keys.write.secret);
    const { dealId } = dealsService(h.t.deps).submit(principal, { companyName: "Quillpay", kind: "company", source: "upload", targetKey: nameTarget("Quillpay") }, () => {}, {});
    h.t.deps.db.$client.query("UPDATE deals SET domain = 'getquillpay.com', website = 'https://getquillpay.com' WHERE id = ?").run(dealId);
    for (const question of ["What's the score of getquillpay.com?", "How is https://www.getquillpay.com/ doing?"]) {
      const res = await h.ask(alice, question);
      expect(res.data.answers[0], question).toMatchObject({ function: "deal_status", data: { deal: { deal_id: dealId } } });
      expect(res.text, question).toContain('Quillpay (getquillpay.com) is at pipeline stage "new"');
    }
  });

  test("a portfolio company's runway and ARR (latest actuals, budgets ignored), follow-ups, and a missing figure with its reason", async () => {
    const res = await h.ask(alice, "What is the runway of Acme Robotics?");
    expect(res.text).toContain("Runway: 18 months as of 2024-02-29.");
    expect(res.text).toContain("ARR: 1,200,000 USD as of 2024-02-29."); // not the 1,300,000 budget
    expect(res.text).toContain("Monthly burn: 150,000 USD as of 2024-02-29.");
    expect(res.data.answers[0].data.runway).toEqual({ months: 18, statement_date: "2024-02-29T00:00:00.000Z", unavailable_reason: null });
    expect(res.data.answers[0].data.companies[0].metrics.arr.value).toBe(1_200_000);

    const its = await h.ask(alice, "and its ARR?", res.data.conversation_id);
    // The figure asked of the company the conversation is about, said first.
    expect(its.data.answers[0].arguments).toMatchObject({ company: "Acme Robotics", figures: ["arr"] });
    expect(its.text).toStartWith("Acme Robotics: ARR 1,200,000 USD (as of 2024-02-29).");
    const bolt = await h.ask(alice, "And Bolt Payments?", res.data.conversation_id);
    expect(bolt.text).toContain("Runway: not available (no actual runway_months has been imported for Bolt Payments).");
    expect(bolt.text).toContain("ARR: 450,000 USD as of 2024-01-31.");
    expect(bolt.data.answers[0].data.runway).toMatchObject({ months: null, unavailable_reason: "no actual runway_months has been imported for Bolt Payments" });
  });

  test("a fund's TVPI and DPI, and every position with totals", async () => {
    const res = await h.ask(alice, "What's the TVPI and DPI of Alpha Fund I?");
    const position = res.data.answers[0].data.positions[0];
    expect(position).toMatchObject({ fund_name: "Alpha Fund I", tvpi: 1.146, dpi: 0.22 });
    expect(res.text).toContain("Alpha Fund I (2021, USD): TVPI 1.15x, DPI 0.22x");
    expect(res.data.links).toEqual(["/api/v1/funds/positions?fund_name=Alpha%20Fund%20I"]);
    const all = await h.ask(alice, "How are our funds doing on TVPI?");
    expect(all.text).toContain("Gamma Seed III (2021, USD): TVPI 1.44x");
    expect(all.text).toContain("All positions together (USD)");
  });

  test("a question it does not understand lists what it can answer", async () => {
    const res = await h.ask(alice, "What is the meaning of life?");
    expect(res.isError).toBe(false);
    expect(res.text).toContain("I did not understand that question. I can answer:");
    expect(res.text).toContain("a fund's TVPI, DPI and IRR");
    expect(res.data).toMatchObject({ understood: false, answers: [] });
  });
});

describe("actions", () => {
  test("start a deal analysis: queued, with the result_url of the 202, one action charged", async () => {
    const res = await h.ask(alice, "Analyze https://ledgerly.example");
    const accepted = res.data.answers[0].data.accepted;
    expect(accepted).toMatchObject({ status: "queued", existing: false, result_url: `/api/v1/deals/${accepted.deal_id}` });
    expect(res.text).toContain(`the result will be at /api/v1/deals/${accepted.deal_id}`);
    expect(res.text).toContain("Your key has 24 actions left today.");
    expect(h.usage(h.f.keys.write.id).actions).toBe(1);
    const deal = await h.t.request("GET", accepted.result_url, { key: h.f.keys.read.secret });
    expect(deal.json).toMatchObject({ website: "https://ledgerly.example", analysis_status: "queued" });
  });

  test("start a research run and a founder analysis", async () => {
    const research = await h.ask(alice, "Research payroll APIs in Europe");
    const r = research.data.answers[0].data.accepted;
    expect(r).toMatchObject({ status: "queued", existing: false, result_url: `/api/v1/research/${r.research_id}` });
    expect(research.text).toContain('The research run on "payroll APIs in Europe"');
    const founder = await h.ask(alice, "Analyze founder Jane Doe of Ledgerly");
    expect(founder.data.answers[0].arguments).toMatchObject({ name: "Jane Doe", company: "Ledgerly" });
    const a = founder.data.answers[0].data.accepted;
    expect(a).toMatchObject({ status: "queued", existing: false, result_url: `/api/v1/founders/analyses/${a.analysis_id}` });
    expect(h.usage(h.f.keys.write.id).actions).toBe(2);
  });

  test("a link on any document host the deal analysis reads, or to a PDF/Office file, goes in as document_url; a site as website_url", async () => {
    const cases: [string, "document_url" | "website_url"][] = [
      ["https://1drv.ms/b/s!AbcPublic", "document_url"],
      ["https://www.box.net/s/abc123", "document_url"],
      ["https://dl.dropboxusercontent.com/s/abc/deck.key", "document_url"],
      ["https://docsend.com/view/abc", "document_url"],
      ["https://files.example.net/decks/ledgerly.pptx", "document_url"],
      ["https://ledgerly.example", "website_url"],
    ];
    for (const [i, [url, field]] of cases.entries()) {
      const res = await h.ask(alice, `Analyze ${url} as Company${i}`);
      expect(res.data.answers[0]?.arguments, url).toMatchObject({ [field]: url });
      const deal = await h.t.request("GET", res.data.answers[0].data.accepted.result_url, { key: h.f.keys.read.secret });
      expect(deal.json.source, url).toBe(field === "document_url" ? "document" : "website");
    }
  });

  test("a read-only key is told it cannot start actions: no run, no charge", async () => {
    const reader = await h.connect(h.f.keys.read.secret);
    const before = { deals: count("deals"), runs: count("action_runs") };
    for (const q of ["Analyze https://ledgerly.example", "Research payroll APIs in Europe", "Analyze founder Jane Doe of Ledgerly"]) {
      const res = await h.ask(reader, q);
      expect(res.isError).toBe(false);
      expect(res.text).toContain("This API key is read-only, so I cannot start actions with it");
    }
    expect({ deals: count("deals"), runs: count("action_runs") }).toEqual(before);
    expect(h.usage(h.f.keys.read.id).actions).toBe(0);
  });

  test("a spent actions budget is reported in words; nothing is started", async () => {
    h.t.deps.db.$client.query("UPDATE api_keys SET daily_actions = 1 WHERE id = ?").run(h.f.keys.write.id);
    expect((await h.ask(alice, "Analyze https://one.example")).data.answers[0].data.accepted.status).toBe("queued");
    const deals = count("deals");
    const spent = await h.ask(alice, "Analyze https://two.example");
    expect(spent.isError).toBe(false);
    expect(spent.text).toMatch(/^I could not start it: Daily actions limit of 1 reached for this API key's user \(a user's API keys, connected apps and web sessions share one count of actions a day\); it resets at 00:00 UTC \(in \d+ seconds\)\. Nothing was started\./);
    expect(count("deals")).toBe(deals);
    expect(h.usage(h.f.keys.write.id).actions).toBe(1);
  });

  test("a URL the deal submission refuses is explained, not charged", async () => {
    const res = await h.ask(alice, "Analyze http://127.0.0.1/admin");
    expect(res.text).toContain("I could not start it: website_url: The URL must point to a public internet address. Nothing was charged.");
    expect(h.usage(h.f.keys.write.id).actions).toBe(0);
  });
});

describe("bad input", () => {
  test("an empty, blank or huge question: a clean tool error", async () => {
    for (const question of ["", "   ", "x".repeat(4001)]) {
      const res = await h.ask(alice, question);
      expect(res.isError, JSON.stringify(question.slice(0, 5))).toBe(true);
      expect(res.text.length).toBeGreaterThan(10);
      expect(res.text).not.toMatch(/\n\s+at |Error:/);
    }
    expect(count("mcp_conversations")).toBe(0);
  });

  test("an unknown, malformed or another user's conversation id: a clean tool error", async () => {
    const mine = await h.ask(alice, "Which relationships are going stale?");
    const id = mine.data.conversation_id;
    const bob = await h.connect(h.f.keys.bobRead.secret);
    const carol = await h.connect(h.f.keys.otherOrgWrite.secret);
    for (const [client, conversation] of [
      [alice, "0190a0a0-0000-7000-8000-000000000000"],
      [alice, "not-a-uuid"],
      [bob, id],
      [carol, id],
    ] as const) {
      const res = await h.ask(client, "How warm is she?", conversation);
      expect(res.isError).toBe(true);
      expect(res.text).toContain("There is no conversation");
    }
    // The owner can still continue it.
    expect((await h.ask(alice, "How warm is she?", id)).text).toContain("Erin Ito");
  });

  test("a conversation keeps a bounded state: the last turns only", async () => {
    const first = await h.ask(alice, "Which relationships are going stale?");
    const id = first.data.conversation_id;
    for (let i = 0; i < 12; i++) await h.ask(alice, `What is the runway of Acme Robotics? (${i})`, id);
    const row = h.t.deps.db.$client.query<{ state: string; user_id: string; org_id: string }, [string]>("SELECT * FROM mcp_conversations WHERE id = ?").get(id)!;
    const state = JSON.parse(row.state);
    expect(state.turns).toHaveLength(8);
    expect(state.turns.at(-1).question).toBe("What is the runway of Acme Robotics? (11)");
    expect(state.entities).toMatchObject({ person: { name: "Erin Ito" }, holding: { name: "Acme Robotics" } });
    expect(row).toMatchObject({ user_id: h.f.users.alice.id, org_id: h.f.orgs.acme.id });
  });
});

describe("org isolation", () => {
  test("another org's deal, portfolio company and contacts are not found; its own are", async () => {
    const initech = await h.ask(alice, "What is the score of Initech?");
    expect(initech.text).toBe(`There is no deal called Initech in your firm's pipeline.\n\n(conversation_id: ${initech.data.conversation_id})`);
    const byId = await h.ask(alice, `What is the status of deal ${seeded.initech}?`);
    // (Not "55" alone: the id itself may contain those digits.)
    expect(byId.text).toContain(`There is no deal ${seeded.initech} in your firm's pipeline.`);
    expect(byId.text).not.toContain("Score");
    const gina = await h.ask(alice, "How warm is gina@initech.com?");
    expect(gina.text).toContain("contact_not_found");

    const carol = await h.connect(h.f.keys.otherOrgWrite.secret);
    expect((await h.ask(carol, "What is the score of Ledgerly?")).text).toContain("There is no deal called Ledgerly");
    expect((await h.ask(carol, "What is the runway of Acme Robotics?")).text).toContain("Acme Robotics is not in your firm's portfolio.");
    expect((await h.ask(carol, "What's the TVPI of Alpha Fund I?")).text).toContain("no LP fund commitments");
    expect((await h.ask(carol, "Who knows someone at acme.com?")).text).toContain("contact_not_found");
    expect((await h.ask(carol, "What's the score of Initech?")).text).toContain("Score: 55/100");
  });
});
