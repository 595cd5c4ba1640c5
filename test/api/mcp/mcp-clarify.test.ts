// What the built-in engine must not do, and what it asks back: a question phrased as a read never
// starts (or charges) an action even with a write key; an action whose subject cannot be read
// cleanly is asked about, not started; ambiguous names are listed; a retried research request in
// the same conversation finds the run it started.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { COMMITMENTS_CSV, CASHFLOWS_CSV, MARKS_CSV, importFundsBook, importPortfolioBook, PORTFOLIO_CSV } from "../../helpers/book.ts";
import { TestClock } from "../../helpers/clock.ts";
import { knows, thread } from "../../helpers/network.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { startMcpServer, type McpHarness } from "./mcp-harness.ts";
import { SEEDED_AT, seedFirm, seedRuns } from "./mcp-seed.ts";

let h: McpHarness;
let alice: Client;
beforeEach(async () => {
  h = startMcpServer({ clock: new TestClock(SEEDED_AT) });
  seedFirm(h);
  await seedRuns(h);
  alice = await h.connect(h.f.keys.write.secret);
});
afterEach(async () => {
  await h.close();
});

const count = (sql: string) => h.t.deps.db.$client.query<{ n: number }, []>(sql).get()!.n;
const state = () => ({
  runs: count("SELECT COUNT(*) AS n FROM action_runs"),
  deals: count("SELECT COUNT(*) AS n FROM deals"),
  founders: count("SELECT COUNT(*) AS n FROM founder_analyses"),
  research: count("SELECT COUNT(*) AS n FROM research_runs"),
});

describe("read-phrased questions start nothing, even with a write key", () => {
  test("no run, no deal, no analysis, no research, no action charged", async () => {
    const before = state();
    const questions: [string, string][] = [
      ["What score did founder Jane Doe get?", "There is no finished founder analysis of Jane Doe in your workspace"],
      ["What score did founder Sam Rivera get?", "an overall score of 81/100"],
      ["Review the founders of Ledgerly", "Which founder of Ledgerly?"],
      ["What's the status of the deal for https://ledgerly.io?", "Score: 72/100"],
      ["How is the analysis of Ledgerly going?", "Its analysis succeeded"],
      ["Did we analyze https://ledgerly.io?", "Score: 72/100"],
      ["Show me the analysis of https://newco.example", "There is no deal"],
      ["Should we evaluate https://newco.example?", "There is no deal"],
      ["Review https://ledgerly.io", "Score: 72/100"],
      ["What's the founder score for Sam Rivera?", "81/100"],
      ["Is there an analysis of founder Maya Chen?", "There is no finished founder analysis of Maya Chen"],
      // Research runs are found by their topic: the run this firm made is the answer, with its summary.
      ["What did the research on payroll APIs find?", "Three payroll API vendors lead in Europe."],
      ["Has anyone researched robotics?", 'None: no research run about robotics in your records.\nYour research runs: "payroll APIs in Europe" (succeeded).'],
      ["Research status?", "Which research run?"],
      ["Who founded Ledgerly?", "Ledgerly"],
      // Asked to start, but the subject cannot be read cleanly: a question back, nothing started.
      ["Analyze the founders of Ledgerly", 'Which founder of Ledgerly? I start a founder analysis only for a named person'],
      ["Analyze Ledgerly", "Nothing was started: to start a new deal analysis, give the company's website"],
      ["Analyze the market", "To start a deal analysis I need the company's website"],
      ["Research", "What should I research?"],
    ];
    for (const [question, says] of questions) {
      const res = await h.ask(alice, question);
      expect(res.isError, question).toBe(false);
      expect(res.text, question).toContain(says);
      const called = res.data.answers.map((a: { function: string }) => a.function);
      expect(called.filter((f: string) => f.startsWith("start_")), question).toEqual([]);
    }
    expect(state()).toEqual(before);
    expect(h.usage(h.f.keys.write.id).actions).toBe(0);
  });
});

describe("ambiguous or partial names: what matched is said, several are listed", () => {
  test("a first name several people share: listed, with a question back", async () => {
    knows(h.t.deps, h.f.users.alice.id, { email: "dana@whitaker.io", name: "Dana Whitaker" }, thread(3, 5, 4));
    const res = await h.ask(alice, "How close am I to Dana?");
    expect(res.text).toStartWith("Several people in your shared network match Dana: Dana Scully and Dana Whitaker. Which one?");
    expect(res.data.answers).toEqual([]);
    const exact = await h.ask(alice, "How close am I to Dana Whitaker?");
    expect(exact.data.answers[0]).toMatchObject({ function: "contact_warmth", arguments: { contact: "Dana Whitaker" } });
  });

  test("a fund phrase inside exactly one fund's name is read as that fund, and said so; inside two, both are listed", async () => {
    const orgId = h.f.orgs.acme.id;
    const withFund = (name: string) => `${COMMITMENTS_CSV}${name},2022,500000,USD\n`;
    importFundsBook(h.t.deps, orgId, { commitments: withFund("Delta Fund II"), cashflows: CASHFLOWS_CSV, marks: MARKS_CSV });
    const one = await h.ask(alice, "what's our TVPI on Fund II");
    expect(one.text).toStartWith("(Fund II read as Delta Fund II.)\nDelta Fund II: TVPI not in your records");
    expect(one.text).toContain("\nDelta Fund II (2022, USD)");
    expect(one.data.answers[0].data.positions.map((p: { fund_name: string }) => p.fund_name)).toEqual(["Delta Fund II"]);
    importFundsBook(h.t.deps, orgId, { commitments: `${withFund("Delta Fund II")}Epsilon Fund II,2023,100000,USD\n`, cashflows: CASHFLOWS_CSV, marks: MARKS_CSV });
    const two = await h.ask(alice, "what's our TVPI on Fund II");
    expect(two.text).toStartWith("Several of your LP funds match Fund II: Delta Fund II and Epsilon Fund II. Which one?");
  });

  test("a brand word two portfolio companies share: both listed", async () => {
    importPortfolioBook(h.t.deps, h.f.orgs.acme.id, {
      portfolio: `${PORTFOLIO_CSV}Acme Health,acmehealth.com,Health,seed,active,Fund II,direct_company,2023-01-01,5,100000,100000,USD\n`,
      metrics: "",
    });
    const res = await h.ask(alice, "acme runway");
    expect(res.text).toStartWith("Several portfolio companies match that: Acme Health and Acme Robotics. Which one?");
    expect((await h.ask(alice, "Acme Robotics runway")).text).toContain("Runway: 18 months");
  });
});

describe("a research request retried in the same conversation finds its run", () => {
  test("same conversation and question: the same run, existing, charged once; another conversation: a new run", async () => {
    const first = await h.ask(alice, "Research payroll APIs in Europe");
    const id = first.data.answers[0].data.accepted.research_id;
    expect(first.data.answers[0].data.accepted.existing).toBe(false);
    const retry = await h.ask(alice, "Research payroll APIs in Europe", first.data.conversation_id);
    expect(retry.data.answers[0].data.accepted).toMatchObject({ research_id: id, existing: true });
    expect(retry.text).toContain(`already started research run ${id}`);
    expect(h.usage(h.f.keys.write.id).actions).toBe(1);

    const status = await h.ask(alice, "What's the status?", first.data.conversation_id);
    expect(status.data.answers[0]).toMatchObject({ function: "research_status", arguments: { research_id: id } });
    expect(status.text).toContain('The research run on "payroll APIs in Europe" is queued');

    const elsewhere = await h.ask(alice, "Research payroll APIs in Europe");
    expect(elsewhere.data.answers[0].data.accepted.research_id).not.toBe(id);
    expect(h.usage(h.f.keys.write.id).actions).toBe(2);
  });

  test("a run that failed is not the answer to asking again: a new run starts (charged); that one is then found again", async () => {
    const first = await h.ask(alice, "Research payroll APIs in Europe");
    const conversation = first.data.conversation_id;
    const failedId = first.data.answers[0].data.accepted.research_id;
    const actions = actionsService(h.t.deps);
    const run = actions.latestFor(h.f.orgs.acme.id, failedId)!;
    actions.start(run.id);
    actions.fail(run.id, "The model could not be reached");

    const again = await h.ask(alice, "Research payroll APIs in Europe", conversation);
    const second = again.data.answers[0].data.accepted;
    expect(second).toMatchObject({ existing: false, status: "queued" });
    expect(second.research_id).not.toBe(failedId);
    expect(h.usage(h.f.keys.write.id).actions).toBe(2);

    const third = await h.ask(alice, "Research payroll APIs in Europe", conversation);
    expect(third.data.answers[0].data.accepted).toMatchObject({ research_id: second.research_id, existing: true });
    expect(h.usage(h.f.keys.write.id).actions).toBe(2);
  });
});
