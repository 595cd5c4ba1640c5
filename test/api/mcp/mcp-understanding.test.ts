// How the built-in engine understands natural phrasings, over the official SDK client against a
// running server: each question calls the expected function and its answer carries the key figure
// the REST API reads from the database. Then what must never happen: a question phrased as a read
// starting (and charging) an action.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { TestClock } from "../../helpers/clock.ts";
import { startMcpServer, type McpHarness } from "./mcp-harness.ts";
import { SEEDED_AT, seedFirm, seedRuns } from "./mcp-seed.ts";

let h: McpHarness;
let alice: Client;
let facts: Awaited<ReturnType<typeof readFacts>>;
let runs: Awaited<ReturnType<typeof seedRuns>>;

const two = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const x = (v: number) => `${two.format(v)}x`;
const pct = (v: number) => `${two.format(v * 100)}%`;

/** The figures the answers must carry, read through the REST API with a read key. */
async function readFacts() {
  const get = async (path: string) => (await h.t.request("GET", path, { key: h.f.keys.read.secret })).json;
  const pathTo = async (domain: string) => (await get(`/api/v1/network/who-knows?domain=${domain}`)).paths[0];
  const warmth = (await h.t.request("POST", "/api/v1/network/warmth/lookup", { key: h.f.keys.read.secret, body: { contacts: ["dana@acme.com", "Erin Ito", "Nora Quinn"] } })).json.results;
  const positions = (await get("/api/v1/funds/positions")).positions as { fund_name: string; tvpi: number; irr: number }[];
  const fund = (name: string) => positions.find((p) => p.fund_name === name)!;
  const reach = (await get("/api/v1/network/reach/candidates")).candidates;
  expect(reach.length).toBeGreaterThan(0);
  return {
    dana: await pathTo("acme.com"),
    nora: await pathTo("stripe.com"),
    erin: await pathTo("boltpay.io"),
    warmth: { dana: warmth[0].warmth, erin: warmth[1].warmth, nora: warmth[2].warmth },
    stale: (await get("/api/v1/network/signals/going-stale")).signals[0],
    reach: reach[0].full_name as string,
    alpha: fund("Alpha Fund I"),
    beta: fund("Beta Growth II"),
    gamma: fund("Gamma Seed III"),
    founder: await get(`/api/v1/founders/analyses/${runs.founderAnalysisId}`),
    research: await get(`/api/v1/research/${runs.researchId}?view=summary`),
  };
}

beforeAll(async () => {
  h = startMcpServer({ clock: new TestClock(SEEDED_AT) });
  seedFirm(h);
  runs = await seedRuns(h);
  alice = await h.connect(h.f.keys.write.secret);
  facts = await readFacts();
});
afterAll(async () => {
  await h.close();
});

type F = typeof facts;
type Row = { q: string | (() => string); fn: string; says: (f: F) => string[]; args?: Record<string, unknown> };
const strength = (p: { strength_score: number }) => `strength ${two.format(p.strength_score)}/100`;

const ROWS: Row[] = [
  // who knows someone at a company, or a person
  { q: "Who knows someone at acme.com?", fn: "who_knows", says: (f) => ["Dana Scully", strength(f.dana)] },
  { q: "Who do we know at Stripe?", fn: "who_knows", says: (f) => ["Nora Quinn", strength(f.nora), "stripe.com"] },
  { q: "Anyone here connected to Stripe?", fn: "who_knows", says: (f) => ["Nora Quinn", strength(f.nora)] },
  { q: "Who knows someone at https://stripe.com?", fn: "who_knows", args: { company: "stripe.com" }, says: (f) => ["Nora Quinn", strength(f.nora)] },
  { q: "Introduce me to Dana Scully", fn: "who_knows", args: { person: "Dana Scully" }, says: (f) => ["Alice Archer knows Dana Scully", strength(f.dana)] },
  { q: "Who can introduce me to Dana Scully?", fn: "who_knows", args: { person: "Dana Scully" }, says: (f) => [strength(f.dana)] },
  { q: "Do we have a warm intro to Bolt Payments?", fn: "who_knows", says: (f) => ["Erin Ito", "boltpay.io", strength(f.erin)] },
  { q: "does anybody know people at Acme Robotics", fn: "who_knows", says: () => ["Dana Scully", "the website of portfolio company Acme Robotics"] },
  // how warm a contact is
  { q: "How warm is dana@acme.com?", fn: "contact_warmth", says: (f) => ["Dana Scully", `warmth ${f.warmth.dana}`] },
  { q: "How close am I to Dana?", fn: "contact_warmth", args: { contact: "Dana Scully" }, says: (f) => ["Dana Scully", `warmth ${f.warmth.dana}`] },
  { q: "how well do we know Erin Ito", fn: "contact_warmth", says: (f) => ["Erin Ito", `warmth ${f.warmth.erin}`] },
  { q: "What's my relationship with Erin like?", fn: "contact_warmth", says: (f) => ["Erin Ito", `warmth ${f.warmth.erin}`] },
  { q: "How strong is our relationship with Nora Quinn?", fn: "contact_warmth", says: (f) => ["Nora Quinn", `warmth ${f.warmth.nora}`] },
  // going stale
  { q: "Which relationships are going stale?", fn: "going_stale", says: (f) => [f.stale.name, `${f.stale.days_since_last_touch} days since the last touch`] },
  { q: "Who haven't I talked to in a while?", fn: "going_stale", says: (f) => [f.stale.name, `cadence ${f.stale.effective_cadence_days} days`] },
  { q: "Who should I reconnect with?", fn: "going_stale", says: (f) => [f.stale.name] },
  { q: "anyone I'm losing touch with?", fn: "going_stale", says: (f) => [f.stale.name] },
  // reach candidates
  { q: "Which founders can I reach?", fn: "reach_candidates", says: (f) => [f.reach] },
  { q: "Show me my reach candidates", fn: "reach_candidates", says: (f) => [f.reach] },
  { q: "Any founders I could get an intro to through my network?", fn: "reach_candidates", says: (f) => [f.reach] },
  // deals
  { q: "What's the status and score of Ledgerly?", fn: "deal_status", says: () => ["Score: 72/100", 'pipeline stage "screening"'] },
  { q: "tell me about ledgerly", fn: "deal_status", says: () => ["Ledgerly (ledgerly.io)", "Score: 72/100"] },
  { q: "What's the status of the deal for https://ledgerly.io?", fn: "deal_status", says: () => ["Its analysis succeeded", "Score: 72/100"] },
  { q: "What score did Ledgerly get?", fn: "deal_status", says: () => ["Score: 72/100"] },
  { q: "Did we analyze ledgerly.io?", fn: "deal_status", says: () => ["Its analysis succeeded", "Score: 72/100"] },
  { q: "Show me the pipeline", fn: "list_deals", says: () => ["Ledgerly: screening, analysis succeeded, score 72"] },
  { q: "what deals do we have?", fn: "list_deals", says: () => ["1 deal in the pipeline", "score 72"] },
  // portfolio companies
  { q: "What is the runway of Acme Robotics?", fn: "portfolio_company", says: () => ["Runway: 18 months as of 2024-02-29."] },
  { q: "How's Acme Robotics doing?", fn: "portfolio_company", says: () => ["Runway: 18 months", "ARR: 1,200,000 USD"] },
  { q: "acme runway", fn: "portfolio_company", args: { company: "Acme Robotics" }, says: () => ["Runway: 18 months"] },
  { q: "what's bolt payments' arr", fn: "portfolio_company", args: { company: "Bolt Payments" }, says: () => ["ARR: 450,000 USD as of 2024-01-31."] },
  { q: "Bolt Payments ARR?", fn: "portfolio_company", says: () => ["ARR: 450,000 USD"] },
  { q: "what's the monthly burn at Acme?", fn: "portfolio_company", says: () => ["Monthly burn: 150,000 USD as of 2024-02-29."] },
  { q: "how is echelle doing", fn: "portfolio_company", args: { company: "Échelle" }, says: () => ["Échelle (Climate)", "invested 800,000 EUR"] },
  { q: "ARR of acme.com", fn: "portfolio_company", says: () => ["ARR: 1,200,000 USD"] },
  // LP fund positions
  { q: "What's the TVPI and DPI of Alpha Fund I?", fn: "fund_positions", says: (f) => [`Alpha Fund I (2021, USD): TVPI ${x(f.alpha.tvpi)}`] },
  {
    q: "what's our TVPI on Fund II",
    fn: "fund_positions",
    says: () => ["Fund II is not one of your LP funds: there is no LP position in a fund called that. Your funds: Alpha Fund I, Beta Growth II and Gamma Seed III."],
  },
  { q: "how's beta growth doing", fn: "fund_positions", args: { fund: "Beta Growth II" }, says: (f) => [`Beta Growth II (2020, USD): TVPI ${x(f.beta.tvpi)}`] },
  { q: "IRR of Gamma Seed 3", fn: "fund_positions", args: { fund: "Gamma Seed III" }, says: (f) => [`IRR ${pct(f.gamma.irr)}`] },
  { q: "What's the IRR on alpha fund 1?", fn: "fund_positions", args: { fund: "Alpha Fund I" }, says: (f) => [`IRR ${pct(f.alpha.irr)}`] },
  { q: "How are our funds doing on TVPI?", fn: "fund_positions", says: (f) => [`Gamma Seed III (2021, USD): TVPI ${x(f.gamma.tvpi)}`, "All positions together (USD)"] },
  { q: "show me the LP book", fn: "fund_positions", says: (f) => [`TVPI ${x(f.beta.tvpi)}`, "All positions together"] },
  // what actions left behind, read without starting anything
  { q: "What score did founder Sam Rivera get?", fn: "founder_analysis", says: (f) => [`an overall score of ${f.founder.overall_score}/100`, "Domain expertise 88", "Leadership not scored"] },
  { q: "How did Sam Rivera score as a founder?", fn: "founder_analysis", says: (f) => [`${f.founder.overall_score}/100`, "First-time CEO"] },
  { q: () => `What's the status of research ${runs.researchId}?`, fn: "research_status", says: (f) => [`is ${f.research.status}`, f.research.executive_summary] },
  // explicit requests to start an action (write key; each charged once)
  { q: "Can you research what's happening in robotics?", fn: "start_research", args: { query: "what's happening in robotics" }, says: () => ["is queued", "/api/v1/research/"] },
  { q: "Research payroll APIs in Europe", fn: "start_research", says: () => ['The research run on "payroll APIs in Europe"', "is queued"] },
  { q: "Analyze https://newco.example", fn: "start_deal_analysis", args: { website_url: "https://newco.example" }, says: () => ["is queued"] },
  { q: "Please assess founder Maya Chen of Quillpay", fn: "start_founder_analysis", args: { name: "Maya Chen", company: "Quillpay" }, says: () => ["The founder analysis of Maya Chen (Quillpay) is queued"] },
  { q: "Evaluate the deck at https://docsend.com/view/abc123", fn: "start_deal_analysis", args: { document_url: "https://docsend.com/view/abc123" }, says: () => ["is queued"] },
];

describe("natural phrasings: the expected function and the database's figure", () => {
  test("the table is broad", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ROWS.map((r) => r.fn)).size).toBe(13);
  });

  for (const row of ROWS) {
    const label = typeof row.q === "string" ? row.q : "a question naming a research id";
    test(`${label} -> ${row.fn}`, async () => {
      const res = await h.ask(alice, typeof row.q === "string" ? row.q : row.q());
      expect(res.isError).toBe(false);
      expect(res.data.answers.map((a: { function: string }) => a.function)).toEqual([row.fn]);
      if (row.args) expect(res.data.answers[0].arguments).toMatchObject(row.args);
      for (const figure of row.says(facts)) expect(res.text).toContain(figure);
    });
  }
});
