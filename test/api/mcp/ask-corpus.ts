// The `ask` corpus: questions partners ask, phrased the many ways different people write them
// (terse, chatty, misspelt, with relative dates), each with the operation that answers it and,
// for many, figures the answer must carry (worked out from the REST API in ask-corpus-facts.ts).
// Asked of the demo firm (ask-demo.ts) at its fixed "now", 2026-11-20, with its read key: a
// request to start an action is answered by that action's operation, refused for the read key.
// Follow-ups (`then`) are asked in the same conversation. The test (ask-corpus.test.ts) and the
// benchmark (scripts/bench/ask.ts) both run it through ask-corpus-run.ts.
import type { Facts } from "./ask-corpus-facts.ts";

export type Category =
  | "issue"
  | "holdings"
  | "negation"
  | "metrics"
  | "deals"
  | "deal"
  | "positions"
  | "cashflows"
  | "network"
  | "runs"
  | "documents"
  | "not-in-data"
  | "follow-up"
  | "actions";

/** The operation that answers, its arguments (a subset), or a question back, or the help answer. */
export type Expect = { fn: string; args?: Record<string, unknown> } | { clarify: string } | { help: true };

export type Row = {
  q: string;
  cat: Category;
  expect: Expect;
  /** What the answer's text must say. */
  says?: string[] | ((f: Facts) => string[]);
  /** Follow-ups asked next, in the same conversation. */
  then?: Row[];
};

const q = (kind: string, args: Record<string, unknown> = {}): Expect => ({ fn: "query", args: { kind, ...args } });
const fn = (name: string, args?: Record<string, unknown>): Expect => ({ fn: name, ...(args ? { args } : {}) });
const days = (from: string, to: string) => ({ dates: { from, to } });

const THIS_MONTH = days("2026-11-01", "2026-11-20");
const LAST_MONTH = days("2026-10-01", "2026-10-31");
const THIS_WEEK = days("2026-11-16", "2026-11-20");
const LAST_WEEK = days("2026-11-09", "2026-11-15");
const THIS_YEAR = days("2026-01-01", "2026-11-20");
const LAST_YEAR = days("2025-01-01", "2025-12-31");
const LAST_QUARTER = days("2026-07-01", "2026-09-30");
const THIS_QUARTER = days("2026-10-01", "2026-11-20");
const SHORTEST_RUNWAY = { order: { by: "runway_months", dir: "asc" } };
const NOT_HELD = "not in your records";

export const CORPUS: Row[] = [
  // ---------------------------------------------------------------------------------------------
  // The eight questions issue 21 found answered wrongly, and the same asked other ways.
  { cat: "issue", q: "Which portfolio companies have the shortest runway?", expect: q("holdings", { ...SHORTEST_RUNWAY, limit: 5 }), says: (f) => f.shortestRunway.slice(0, 5) },
  { cat: "issue", q: "which portcos are running out of cash soonest", expect: q("holdings", { order: { by: "runway_months" } }), says: (f) => [f.shortestRunway[0]] },
  { cat: "issue", q: "shortest runways in the portfolio?", expect: q("holdings", SHORTEST_RUNWAY), says: (f) => [f.shortestRunway[0]] },
  { cat: "issue", q: "Which company has the shortest runway?", expect: q("holdings", { ...SHORTEST_RUNWAY, limit: 1 }), says: (f) => [f.shortestRunway[0]] },
  { cat: "issue", q: "What's the burn of our portfolio companies?", expect: q("holdings", { order: { by: "monthly_burn", dir: "desc" } }), says: (f) => [f.highestBurn[0], "monthly burn"] },
  { cat: "issue", q: "portfolio burn rates", expect: q("holdings", { order: { by: "monthly_burn" } }), says: (f) => [f.highestBurn[0]] },
  { cat: "issue", q: "how much are our portfolio companies burning each month?", expect: q("holdings", { aggregate: "sum", field: "monthly_burn" }), says: (f) => ["Total monthly burn", f.highestBurn[0]] },
  { cat: "issue", q: "Show me our best-scoring deals in diligence", expect: q("deals", { stage: ["diligence"], order: { by: "score", dir: "desc" } }), says: (f) => [f.bestInDiligence] },
  { cat: "issue", q: "top scoring deals in due diligence", expect: q("deals", { stage: ["diligence"], order: { by: "score", dir: "desc" } }), says: (f) => [f.bestInDiligence] },
  { cat: "issue", q: "highest rated deals currently in DD?", expect: q("deals", { stage: ["diligence"], order: { by: "score", dir: "desc" } }) },
  { cat: "issue", q: "What fintech deals came in this month?", expect: q("deals", { sector: "fintech", ...THIS_MONTH }), says: (f) => f.fintechThisMonth },
  { cat: "issue", q: "any new fintech deals this month?", expect: q("deals", { sector: "fintech", ...THIS_MONTH }), says: (f) => f.fintechThisMonth },
  { cat: "issue", q: "fintech pipeline additions in November", expect: q("deals", { sector: "fintech", ...THIS_MONTH }) },
  { cat: "issue", q: "Which deals are at IC stage?", expect: q("deals", { stage: ["ic"] }), says: (f) => f.icDeals },
  { cat: "issue", q: "whats going to IC", expect: q("deals", { stage: ["ic"] }), says: (f) => f.icDeals },
  { cat: "issue", q: "deals in front of the investment committee", expect: q("deals", { stage: ["ic"] }), says: (f) => f.icDeals },
  { cat: "issue", q: "list the IC deals", expect: q("deals", { stage: ["ic"] }) },
  { cat: "issue", q: "List portfolio companies in Fund II", expect: q("holdings", { fund: "Northwind Fund II" }), says: (f) => f.fundII },
  { cat: "issue", q: "what companies are in fund 2?", expect: q("holdings", { fund: "Northwind Fund II" }), says: (f) => f.fundII },
  { cat: "issue", q: "Fund II portfolio", expect: q("holdings", { fund: "Northwind Fund II" }) },
  { cat: "issue", q: "which startups did Northwind Fund III back?", expect: q("holdings", { fund: "Northwind Fund III" }), says: (f) => f.fundIII },
  { cat: "issue", q: "What is MosaicTreasury's ARR?", expect: fn("deal_status", { figure: "arr" }), says: (f) => ["not a portfolio company", f.mosaicArrQuote] },
  { cat: "issue", q: "mosaic treasury arr", expect: fn("deal_status", { figure: "arr" }), says: (f) => [f.mosaicArrQuote] },
  { cat: "issue", q: "how much revenue does MosaicTreasury have?", expect: fn("deal_status", { figure: "arr" }) },
  { cat: "issue", q: "What is our total NAV?", expect: q("positions", { aggregate: "sum", field: "nav" }), says: (f) => f.totalNav },
  { cat: "issue", q: "total nav across all LP positions", expect: q("positions", { aggregate: "sum", field: "nav" }), says: (f) => f.totalNav },
  { cat: "issue", q: "what's the combined NAV of our fund investments", expect: q("positions", { aggregate: "sum", field: "nav" }), says: (f) => f.totalNav },
  { cat: "issue", q: "sum of NAV", expect: q("positions", { aggregate: "sum", field: "nav" }) },

  // ---------------------------------------------------------------------------------------------
  // Portfolio companies as a set: filters, rankings, totals.
  { cat: "holdings", q: "how many portfolio companies do we have?", expect: q("holdings", { aggregate: "count" }), says: (f) => [`${f.companyCount} portfolio companies`] },
  { cat: "holdings", q: "number of portcos", expect: q("holdings", { aggregate: "count" }), says: (f) => [`${f.companyCount} portfolio companies`] },
  { cat: "holdings", q: "list our portfolio", expect: q("holdings") },
  { cat: "holdings", q: "show me all our portfolio companies", expect: q("holdings") },
  { cat: "holdings", q: "Total invested across the portfolio", expect: q("holdings", { aggregate: "sum", field: "invested" }), says: (f) => f.totalInvested },
  { cat: "holdings", q: "how much have we invested in total?", expect: q("holdings", { aggregate: "sum", field: "invested" }), says: (f) => f.totalInvested },
  { cat: "holdings", q: "total capital deployed into our portfolio companies", expect: q("holdings", { aggregate: "sum", field: "invested" }) },
  { cat: "holdings", q: "what's the portfolio worth today", expect: q("holdings", { aggregate: "sum", field: "valuation" }) },
  { cat: "holdings", q: "total valuation of the portfolio", expect: q("holdings", { aggregate: "sum", field: "valuation" }) },
  { cat: "holdings", q: "average multiple across our portfolio companies", expect: q("holdings", { aggregate: "avg", field: "multiple" }) },
  { cat: "holdings", q: "which portfolio companies have the longest runway", expect: q("holdings", { order: { by: "runway_months", dir: "desc" } }), says: (f) => [f.longestRunway[0]] },
  { cat: "holdings", q: "Top 5 portfolio companies by ARR", expect: q("holdings", { order: { by: "arr", dir: "desc" }, limit: 5 }), says: (f) => f.highestArr.slice(0, 5) },
  { cat: "holdings", q: "rank portcos by arr", expect: q("holdings", { order: { by: "arr", dir: "desc" } }), says: (f) => [f.highestArr[0]] },
  { cat: "holdings", q: "which company has the highest ARR?", expect: q("holdings", { order: { by: "arr", dir: "desc" }, limit: 1 }), says: (f) => [f.highestArr[0]] },
  { cat: "holdings", q: "biggest burners in the portfolio", expect: q("holdings", { order: { by: "monthly_burn", dir: "desc" } }), says: (f) => [f.highestBurn[0]] },
  { cat: "holdings", q: "who is burning the most cash?", expect: q("holdings", { order: { by: "monthly_burn", dir: "desc" } }), says: (f) => [f.highestBurn[0]] },
  { cat: "holdings", q: "best performing portfolio companies", expect: q("holdings", { order: { by: "multiple", dir: "desc" } }) },
  { cat: "holdings", q: "our worst performers", expect: q("holdings", { order: { by: "multiple", dir: "asc" } }) },
  { cat: "holdings", q: "largest holdings by valuation", expect: q("holdings", { order: { by: "valuation", dir: "desc" } }) },
  { cat: "holdings", q: "where do we have the biggest ownership stakes?", expect: q("holdings", { order: { by: "ownership", dir: "desc" } }) },
  { cat: "holdings", q: "portfolio companies with runway under 12 months", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 12 }] }) },
  { cat: "holdings", q: "which companies have less than a year of runway?", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 12 }] }) },
  { cat: "holdings", q: "companies with less than 9 months runway", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 9 }] }) },
  { cat: "holdings", q: "portfolio companies with ARR above 5M", expect: q("holdings", { where: [{ field: "arr", op: "gt", value: 5_000_000 }] }) },
  { cat: "holdings", q: "which portcos have more than $3 million ARR", expect: q("holdings", { where: [{ field: "arr", op: "gt", value: 3_000_000 }] }) },
  { cat: "holdings", q: "companies with more than 50 employees", expect: q("holdings", { where: [{ field: "headcount", op: "gt", value: 50 }] }) },
  { cat: "holdings", q: "companies burning more than 500k a month", expect: q("holdings", { where: [{ field: "monthly_burn", op: "gt", value: 500_000 }] }) },
  { cat: "holdings", q: "gross margin above 80%", expect: q("holdings", { where: [{ field: "gross_margin", op: "gt", value: 80 }] }) },
  { cat: "holdings", q: "exited companies", expect: q("holdings", { status: ["exited"] }), says: (f) => f.exited },
  { cat: "holdings", q: "which of our investments have exited?", expect: q("holdings", { status: ["exited"] }), says: (f) => f.exited },
  { cat: "holdings", q: "which companies did we write off?", expect: q("holdings", { status: ["written_off"] }) },
  { cat: "holdings", q: "how many write-offs do we have", expect: q("holdings", { status: ["written_off"], aggregate: "count" }) },
  { cat: "holdings", q: "active portfolio companies", expect: q("holdings", { status: ["active"] }) },
  { cat: "holdings", q: "how many active companies are in the portfolio?", expect: q("holdings", { status: ["active"], aggregate: "count" }) },
  { cat: "holdings", q: "fintech portfolio companies", expect: q("holdings", { sector: "Fintech" }) },
  { cat: "holdings", q: "our robotics companies", expect: q("holdings", { sector: "Robotics" }) },
  { cat: "holdings", q: "climate investments in the portfolio", expect: q("holdings", { sector: "climate" }) },
  { cat: "holdings", q: "which portfolio companies are in payments infrastructure?", expect: q("holdings", { sector: "Payments infrastructure" }) },
  { cat: "holdings", q: "seed stage portfolio companies", expect: q("holdings", { stage: ["seed"] }) },
  { cat: "holdings", q: "our series A companies", expect: q("holdings", { stage: ["series_a"] }) },
  { cat: "holdings", q: "portfolio companies held in EUR", expect: q("holdings", { currency: "EUR" }) },
  { cat: "holdings", q: "which companies did we invest in last year", expect: q("holdings", LAST_YEAR) },
  { cat: "holdings", q: "new investments this year", expect: q("holdings", THIS_YEAR) },
  { cat: "holdings", q: "How many companies are in Fund I?", expect: q("holdings", { fund: "Northwind Fund I", aggregate: "count" }) },
  { cat: "holdings", q: "total invested from Fund III", expect: q("holdings", { fund: "Northwind Fund III", aggregate: "sum", field: "invested" }) },
  { cat: "holdings", q: "runway of fund 2 companies", expect: q("holdings", { fund: "Northwind Fund II", order: { by: "runway_months" } }) },
  { cat: "holdings", q: "average runway across the portfolio", expect: q("holdings", { aggregate: "avg", field: "runway_months" }) },
  { cat: "holdings", q: "total ARR of the portfolio", expect: q("holdings", { aggregate: "sum", field: "arr" }) },
  { cat: "holdings", q: "whats the combined headcount of our portfolio", expect: q("holdings", { aggregate: "sum", field: "headcount" }) },
  { cat: "holdings", q: "fintech companies with the longest runway", expect: q("holdings", { sector: "Fintech", order: { by: "runway_months", dir: "desc" } }) },
  { cat: "holdings", q: "3 smallest holdings", expect: q("holdings", { order: { by: "valuation", dir: "asc" }, limit: 3 }) },
  { cat: "holdings", q: "which portfolio companies have the lowest gross margin", expect: q("holdings", { order: { by: "gross_margin", dir: "asc" } }) },

  // ---------------------------------------------------------------------------------------------
  // One portfolio company's figures, and how a metric moved over time.
  { cat: "metrics", q: "What is the runway of Acme Robotics?", expect: fn("portfolio_company", { company: "Acme Robotics" }), says: ["Runway: "] },
  { cat: "metrics", q: "acme robotics runway", expect: fn("portfolio_company", { company: "Acme Robotics" }) },
  { cat: "metrics", q: "How's Nimbus Pay doing?", expect: fn("portfolio_company", { company: "Nimbus Pay" }), says: ["ARR: ", "Runway: "] },
  { cat: "metrics", q: "tell me about Kestrel Rails", expect: fn("portfolio_company", { company: "Kestrel Rails" }) },
  { cat: "metrics", q: "what's quill pay's burn", expect: fn("portfolio_company", { company: "Quill Pay" }), says: ["Monthly burn: "] },
  { cat: "metrics", q: "ARR of Fathom Grid?", expect: fn("portfolio_company", { company: "Fathom Grid" }), says: ["ARR: "] },
  { cat: "metrics", q: "Juniper Ledger arr", expect: fn("portfolio_company", { company: "Juniper Ledger" }) },
  { cat: "metrics", q: "What's the headcount at Quill Pay?", expect: fn("portfolio_company", { company: "Quill Pay", metric: "headcount" }), says: ["headcount: "] },
  { cat: "metrics", q: "how many employees does Lumen Exchange have", expect: fn("portfolio_company", { company: "Lumen Exchange", metric: "headcount" }) },
  { cat: "metrics", q: "gross margin of Helio Rails", expect: fn("portfolio_company", { company: "Helio Rails", metric: "gross_margin" }), says: ["gross margin: "] },
  { cat: "metrics", q: "how is cobalt market doing", expect: fn("portfolio_company", { company: "Cobalt Market" }) },
  { cat: "metrics", q: "how much did we invest in Quill Dynamics?", expect: q("holdings", { name: "Quill Dynamics", aggregate: "sum", field: "invested" }), says: ["17,100,000 USD"] },
  { cat: "metrics", q: "how much have we put into Quill Dynamics in total", expect: q("holdings", { name: "Quill Dynamics", aggregate: "sum", field: "invested" }), says: ["17,100,000 USD"] },
  { cat: "metrics", q: "what's our stake in Relay Robotics?", expect: q("holdings", { name: "Relay Robotics", show: ["ownership"] }), says: ["Relay Robotics: ownership", "Northwind Fund II"] },
  { cat: "metrics", q: "How has Acme Robotics' ARR changed over the last 6 months?", expect: q("metrics", { name: "Acme Robotics", metric: "arr", aggregate: "change", ...days("2026-05-20", "2026-11-20") }), says: ["Acme Robotics' ARR went from"] },
  { cat: "metrics", q: "Nimbus Pay ARR growth this year", expect: q("metrics", { name: "Nimbus Pay", metric: "arr", aggregate: "change", ...THIS_YEAR }) },
  { cat: "metrics", q: "how did Fathom AI's burn change since January?", expect: q("metrics", { name: "Fathom AI", metric: "monthly_burn", aggregate: "change", ...days("2026-01-01", "2026-11-20") }) },
  // "Over the past year": the latest statement against the one twelve months before it, both dated.
  { cat: "metrics", q: "has Drift Freight's headcount grown over the past year", expect: q("metrics", { name: "Drift Freight", metric: "headcount", aggregate: "year_change" }), says: ["a year before its latest statement"] },
  { cat: "metrics", q: "Juniper Ledger revenue trend in 2025", expect: q("metrics", { name: "Juniper Ledger", metric: "arr", aggregate: "change", ...days("2025-01-01", "2025-12-31") }) },
  { cat: "metrics", q: "how has Kestrel Rails' runway evolved over the last quarter", expect: q("metrics", { name: "Kestrel Rails", metric: "runway_months", aggregate: "change", ...LAST_QUARTER }) },
  { cat: "metrics", q: "fastest growing portfolio companies this year", expect: q("metrics", { metric: "arr", aggregate: "change", ...THIS_YEAR }) },
  { cat: "metrics", q: "which companies grew ARR the most in the last 12 months", expect: q("metrics", { metric: "arr", aggregate: "change", ...days("2025-11-20", "2026-11-20") }) },
  { cat: "metrics", q: "ARR growth across the portfolio last quarter", expect: q("metrics", { metric: "arr", aggregate: "change", ...LAST_QUARTER }) },
  { cat: "metrics", q: "what's the runwya of acme robotcs", expect: fn("portfolio_company", { company: "Acme Robotics" }) },
  { cat: "metrics", q: "nimbus pay ar?", expect: fn("portfolio_company", { company: "Nimbus Pay" }) },
  { cat: "metrics", q: "Hey, quick one: how long can Quill Pay keep going on its current cash?", expect: fn("portfolio_company", { company: "Quill Pay" }), says: ["Runway: "] },
  { cat: "metrics", q: "umbra freight metrics", expect: fn("portfolio_company", { company: "Umbra Freight" }) },
  { cat: "metrics", q: "Tessera Capital", expect: fn("portfolio_company", { company: "Tessera Capital" }) },

  // ---------------------------------------------------------------------------------------------
  // The pipeline as a set.
  { cat: "deals", q: "how many deals do we have", expect: q("deals", { aggregate: "count" }), says: (f) => [`${f.dealCount} deals`] },
  { cat: "deals", q: "how many deals are in the pipeline?", expect: q("deals", { aggregate: "count" }), says: (f) => [`${f.dealCount} deals`] },
  { cat: "deals", q: "Show me the pipeline", expect: fn("list_deals") },
  { cat: "deals", q: "what deals do we have?", expect: fn("list_deals") },
  { cat: "deals", q: "latest deals", expect: q("deals", { order: { by: "created", dir: "desc" } }) },
  { cat: "deals", q: "5 newest deals", expect: q("deals", { order: { by: "created", dir: "desc" }, limit: 5 }) },
  { cat: "deals", q: "top 3 deals by score", expect: q("deals", { order: { by: "score", dir: "desc" }, limit: 3 }), says: (f) => [f.topScore] },
  { cat: "deals", q: "best deals in the pipeline", expect: q("deals", { order: { by: "score", dir: "desc" } }), says: (f) => [f.topScore] },
  { cat: "deals", q: "lowest scoring deals", expect: q("deals", { order: { by: "score", dir: "asc" } }) },
  { cat: "deals", q: "deals that came in last week", expect: q("deals", LAST_WEEK), says: (f) => f.dealsLastWeek },
  { cat: "deals", q: "what came in this week?", expect: q("deals", THIS_WEEK) },
  { cat: "deals", q: "new deals in the last 30 days", expect: q("deals", days("2026-10-21", "2026-11-20")) },
  { cat: "deals", q: "deals added last month", expect: q("deals", LAST_MONTH) },
  { cat: "deals", q: "how many deals came in this quarter?", expect: q("deals", { aggregate: "count", ...THIS_QUARTER }) },
  { cat: "deals", q: "deals received since September", expect: q("deals", days("2026-09-01", "2026-11-20")) },
  { cat: "deals", q: "deals in screening", expect: q("deals", { stage: ["screening"] }) },
  { cat: "deals", q: "which deals are we screening right now", expect: q("deals", { stage: ["screening"] }) },
  { cat: "deals", q: "deals in dilligence", expect: q("deals", { stage: ["diligence"] }) },
  { cat: "deals", q: "what have we passed on?", expect: q("deals", { stage: ["passed"] }) },
  { cat: "deals", q: "rejected deals this quarter", expect: q("deals", { stage: ["passed"], ...THIS_QUARTER }) },
  { cat: "deals", q: "deals we invested in", expect: q("deals", { stage: ["invested"] }) },
  { cat: "deals", q: "how many deals at each of screening and diligence", expect: q("deals", { stage: ["diligence", "screening"], aggregate: "count" }) },
  { cat: "deals", q: "average score of deals in screening", expect: q("deals", { stage: ["screening"], aggregate: "avg", field: "score" }) },
  { cat: "deals", q: "average deal score", expect: q("deals", { aggregate: "avg", field: "score" }) },
  { cat: "deals", q: "deals scoring above 70", expect: q("deals", { where: [{ field: "score", op: "gt", value: 70 }] }) },
  { cat: "deals", q: "deals with a score of 72 or more", expect: q("deals", { where: [{ field: "score", op: "gte", value: 72 }] }) },
  { cat: "deals", q: "fintech deals", expect: q("deals", { sector: "fintech" }) },
  { cat: "deals", q: "health deals in the pipeline", expect: q("deals", { sector: "health" }) },
  { cat: "deals", q: "any climate opportunities?", expect: q("deals", { sector: "climate" }) },
  { cat: "deals", q: "robotics deals we are looking at", expect: q("deals", { sector: "robotics" }) },
  { cat: "deals", q: "developer tools deals in screening", expect: q("deals", { sector: "developer tools", stage: ["screening"] }) },
  { cat: "deals", q: "seed deals", expect: q("deals", { round: "seed" }) },
  { cat: "deals", q: "which deals are raising a series A?", expect: q("deals", { round: "series a" }) },
  { cat: "deals", q: "series b deals in diligence", expect: q("deals", { round: "series b", stage: ["diligence"] }) },
  { cat: "deals", q: "biggest rounds in the pipeline", expect: q("deals", { order: { by: "round_amount", dir: "desc" } }) },
  { cat: "deals", q: "LP fund decks in the pipeline", expect: q("deals", { type: "fund" }) },
  { cat: "deals", q: "which fund managers are pitching us?", expect: q("deals", { type: "fund" }) },
  { cat: "deals", q: "deals raising in EUR", expect: q("deals", { currency: "EUR" }) },
  { cat: "deals", q: "deals whose analysis failed", expect: q("deals", { status: ["failed"] }) },
  { cat: "deals", q: "Pls list fintech deals from last month, best first", expect: q("deals", { sector: "fintech", ...LAST_MONTH, order: { by: "score", dir: "desc" } }) },
  { cat: "deals", q: "proptech deals at IC", expect: q("deals", { sector: "proptech", stage: ["ic"] }) },

  // ---------------------------------------------------------------------------------------------
  // One deal.
  { cat: "deal", q: "What's the status of MosaicTreasury?", expect: fn("deal_status"), says: ['MosaicTreasury (mosaictreasury.ai) is at pipeline stage "new"'] },
  { cat: "deal", q: "tell me about KeystoneLedger", expect: fn("deal_status"), says: ['pipeline stage "ic"'] },
  { cat: "deal", q: "what score did UmberBuild get", expect: fn("deal_status"), says: (f) => [f.scoreOf("UmberBuild")] },
  { cat: "deal", q: "emberroute.com status", expect: fn("deal_status"), says: ["EmberRoute"] },
  { cat: "deal", q: "What round is EmberRoute raising?", expect: fn("deal_status"), says: ["Round: series b, raising 33,500,000 EUR"] },
  { cat: "deal", q: "Who founded MosaicTreasury?", expect: fn("deal_status", { figure: "team" }), says: ["Felix Chen"] },
  { cat: "deal", q: "who's on the team at KeystoneDev", expect: fn("deal_status", { figure: "team" }) },
  { cat: "deal", q: "What's WillowTreasury's valuation?", expect: fn("deal_status", { figure: "valuation" }), says: ["pre-money"] },
  { cat: "deal", q: "what is the burn of GarnetFleet", expect: fn("deal_status", { figure: "monthly_burn" }), says: ["not a portfolio company"] },
  { cat: "deal", q: "runway of QuarryAI?", expect: fn("deal_status", { figure: "runway_months" }) },
  { cat: "deal", q: "how many customers does ZenithSecure have", expect: fn("deal_status", { figure: "customers" }) },
  { cat: "deal", q: "How is the analysis of SummitEnergy going?", expect: fn("deal_status"), says: ["Its analysis succeeded"] },
  { cat: "deal", q: "whats the status of the Ironbridge Fund IV deal", expect: fn("deal_status"), says: ["Ironbridge Fund IV"] },
  { cat: "deal", q: "is Bluewater Fund II in the pipeline?", expect: fn("deal_status"), says: ['stage "invested"'] },
  { cat: "deal", q: "garnetledger score", expect: fn("deal_status"), says: (f) => [f.scoreOf("GarnetLedger")] },
  { cat: "deal", q: "Mosiac Treasury status", expect: fn("deal_status"), says: ["MosaicTreasury"] },

  // ---------------------------------------------------------------------------------------------
  // LP fund positions.
  { cat: "positions", q: "What's the TVPI of Halcyon Fund V?", expect: fn("fund_positions", { fund: "Halcyon Fund V" }), says: ["Halcyon Fund V (2021, EUR): TVPI"] },
  { cat: "positions", q: "redwood peak fund ii irr", expect: fn("fund_positions", { fund: "Redwood Peak Fund II" }), says: ["IRR"] },
  { cat: "positions", q: "how's Silverline doing", expect: fn("fund_positions", { fund: "Silverline Fund I" }) },
  { cat: "positions", q: "DPI on Atlas Bridge Fund 4", expect: fn("fund_positions", { fund: "Atlas Bridge Fund IV" }) },
  { cat: "positions", q: "show me the LP book", expect: fn("fund_positions") },
  { cat: "positions", q: "How are our funds doing on TVPI?", expect: fn("fund_positions") },
  { cat: "positions", q: "our LP positions", expect: fn("fund_positions") },
  { cat: "positions", q: "Which LP fund has the highest IRR?", expect: q("positions", { order: { by: "irr", dir: "desc" }, limit: 1 }), says: (f) => [f.highestIrr] },
  { cat: "positions", q: "rank our fund positions by TVPI", expect: q("positions", { order: { by: "tvpi", dir: "desc" } }), says: (f) => [f.highestTvpi] },
  { cat: "positions", q: "best performing funds we're LPs in", expect: q("positions", { order: { by: "tvpi", dir: "desc" } }), says: (f) => [f.highestTvpi] },
  { cat: "positions", q: "lowest DPI positions", expect: q("positions", { order: { by: "dpi", dir: "asc" } }) },
  { cat: "positions", q: "biggest LP commitments", expect: q("positions", { order: { by: "commitment", dir: "desc" } }) },
  { cat: "positions", q: "how much have we committed as an LP in total?", expect: q("positions", { aggregate: "sum", field: "commitment" }), says: (f) => f.totalCommitted },
  { cat: "positions", q: "total unfunded commitments", expect: q("positions", { aggregate: "sum", field: "unfunded" }) },
  { cat: "positions", q: "how much dry powder is left to be called", expect: q("positions", { aggregate: "sum", field: "unfunded" }) },
  { cat: "positions", q: "total called capital across our LP funds", expect: q("positions", { aggregate: "sum", field: "called" }) },
  { cat: "positions", q: "how much have our funds distributed to us overall", expect: q("positions", { aggregate: "sum", field: "distributed" }) },
  { cat: "positions", q: "what's our overall TVPI", expect: q("positions", { aggregate: "sum", field: "tvpi" }), says: ["pooled per currency"] },
  { cat: "positions", q: "average IRR of our LP positions", expect: q("positions", { aggregate: "avg", field: "irr" }) },
  { cat: "positions", q: "LP funds of vintage 2019 or later", expect: q("positions", { vintage: { from: 2019 } }) },
  { cat: "positions", q: "our 2021 vintage funds", expect: q("positions", { vintage: { from: 2021, to: 2021 } }) },
  { cat: "positions", q: "funds with vintages before 2018", expect: q("positions", { vintage: { to: 2017 } }) },
  { cat: "positions", q: "EUR denominated LP positions", expect: q("positions", { currency: "EUR" }) },
  { cat: "positions", q: "LP positions with TVPI above 1.5x", expect: q("positions", { where: [{ field: "tvpi", op: "gt", value: 1.5 }] }) },
  { cat: "positions", q: "funds with an IRR over 10%", expect: q("positions", { where: [{ field: "irr", op: "gt", value: 0.1 }] }) },
  { cat: "positions", q: "how many LP funds are we in?", expect: q("positions", { aggregate: "count" }), says: ["6 LP positions"] },
  { cat: "positions", q: "Kinetic Seed fund nav", expect: fn("fund_positions", { fund: "Kinetic Seed Fund I" }) },

  // ---------------------------------------------------------------------------------------------
  // Capital calls and distributions.
  { cat: "cashflows", q: "capital calls this year", expect: q("cashflows", { type: "call", ...THIS_YEAR }) },
  { cat: "cashflows", q: "how much was called this year?", expect: q("cashflows", { type: "call", ...THIS_YEAR, aggregate: "sum", field: "amount" }), says: (f) => f.callsThisYear },
  { cat: "cashflows", q: "total capital calls in 2026 so far", expect: q("cashflows", { type: "call", aggregate: "sum", ...THIS_YEAR }), says: (f) => f.callsThisYear },
  { cat: "cashflows", q: "How much did we distribute last quarter?", expect: q("cashflows", { type: "distribution", ...LAST_QUARTER, aggregate: "sum", field: "amount" }), says: (f) => f.distributionsLastQuarter },
  { cat: "cashflows", q: "distributions received last quarter", expect: q("cashflows", { type: "distribution", ...LAST_QUARTER }) },
  { cat: "cashflows", q: "What's the largest distribution we received?", expect: q("cashflows", { type: "distribution", order: { by: "amount", dir: "desc" } }), says: (f) => [f.largestDistribution.fund_name] },
  { cat: "cashflows", q: "biggest capital call ever", expect: q("cashflows", { type: "call", order: { by: "amount", dir: "desc" } }) },
  { cat: "cashflows", q: "latest capital calls", expect: q("cashflows", { type: "call", order: { by: "date", dir: "desc" } }) },
  { cat: "cashflows", q: "most recent distribution", expect: q("cashflows", { type: "distribution", order: { by: "date", dir: "desc" } }) },
  { cat: "cashflows", q: "calls from Kinetic Seed Fund I", expect: q("cashflows", { type: "call", fund: "Kinetic Seed Fund I" }) },
  { cat: "cashflows", q: "distributions from Redwood Peak Fund II since 2024", expect: q("cashflows", { type: "distribution", fund: "Redwood Peak Fund II", ...days("2024-01-01", "2026-11-20") }) },
  { cat: "cashflows", q: "how many capital calls did we get last year", expect: q("cashflows", { type: "call", aggregate: "count", ...LAST_YEAR }) },
  { cat: "cashflows", q: "cash flows in october", expect: q("cashflows", LAST_MONTH) },
  { cat: "cashflows", q: "Halcyon distributions in 2025", expect: q("cashflows", { type: "distribution", fund: "Halcyon Fund V", ...LAST_YEAR }) },
  { cat: "cashflows", q: "capital calls in Q3", expect: q("cashflows", { type: "call", ...LAST_QUARTER }) },
  { cat: "cashflows", q: "total distributions this year", expect: q("cashflows", { type: "distribution", aggregate: "sum", ...THIS_YEAR }) },
  { cat: "cashflows", q: "drawdowns in the past 90 days", expect: q("cashflows", { type: "call", ...days("2026-08-22", "2026-11-20") }) },
  { cat: "cashflows", q: "calls over 1 million", expect: q("cashflows", { type: "call", where: [{ field: "amount", op: "gt", value: 1_000_000 }] }) },

  // ---------------------------------------------------------------------------------------------
  // People: who knows whom, warmth, going stale, reach, the strongest relationships.
  { cat: "network", q: "Who do we know at mosaicworks.io?", expect: fn("who_knows", { company: "mosaicworks.io" }) },
  { cat: "network", q: "anyone connected to atlaspath.io", expect: fn("who_knows", { company: "atlaspath.io" }) },
  { cat: "network", q: "who can introduce me to Rosa Nowak?", expect: fn("who_knows", { person: "Rosa Nowak" }) },
  { cat: "network", q: "warm intro to relayscale.com?", expect: fn("who_knows", { company: "relayscale.com" }) },
  { cat: "network", q: "who knows someone at Acme Robotics?", expect: fn("who_knows", { company: "Acme Robotics" }), says: ["acmerobotics.io"] },
  { cat: "network", q: "How warm is Sean Kumar?", expect: fn("contact_warmth", { contact: "Sean Kumar" }), says: ["Sean Kumar", "warmth"] },
  { cat: "network", q: "how close are we to Mateo Rossi", expect: fn("contact_warmth", { contact: "Mateo Rossi" }) },
  { cat: "network", q: "whats my relationship with Anika Albrecht like", expect: fn("contact_warmth", { contact: "Anika Albrecht" }) },
  { cat: "network", q: "Which relationships are going stale?", expect: fn("going_stale"), says: ["going stale"] },
  { cat: "network", q: "who haven't I talked to in a while", expect: fn("going_stale") },
  { cat: "network", q: "who should I reconnect with?", expect: fn("going_stale") },
  { cat: "network", q: "anyone I'm losing touch with?", expect: fn("going_stale") },
  { cat: "network", q: "Which founders can I reach?", expect: fn("reach_candidates"), says: ["Founders you can reach"] },
  { cat: "network", q: "reach candidates pls", expect: fn("reach_candidates") },
  { cat: "network", q: "Who are our strongest relationships?", expect: q("persons", { order: { by: "strength", dir: "desc" } }) },
  { cat: "network", q: "top 10 warmest contacts", expect: q("persons", { order: { by: "warmth", dir: "desc" }, limit: 10 }) },
  { cat: "network", q: "our closest connections at mosaicworks.io", expect: q("persons", { name: "mosaicworks.io", order: { by: "strength", dir: "desc" } }) },
  { cat: "network", q: "how many people do we know at atlaspath.io?", expect: q("persons", { name: "atlaspath.io", aggregate: "count" }) },
  { cat: "network", q: "how many contacts do we have at Stripe?", expect: q("persons", { name: "Stripe", aggregate: "count" }), says: ["Nobody at Stripe is in your shared network"] },

  // ---------------------------------------------------------------------------------------------
  // What actions left behind: research runs, founder analyses.
  { cat: "runs", q: "What did the research on treasury APIs find?", expect: q("research", { text: "treasury apis" }), says: ["Two deals in the pipeline sell treasury APIs"] },
  { cat: "runs", q: "list research runs", expect: q("research") },
  { cat: "runs", q: "what research have we done?", expect: q("research") },
  { cat: "runs", q: "have we researched robotics?", expect: q("research", { text: "robotics" }), says: ["No research runs about robotics", "treasury APIs for mid-market finance teams"] },
  { cat: "runs", q: "research runs started this month", expect: q("research", THIS_MONTH) },
  { cat: "runs", q: "What score did founder Felix Chen get?", expect: fn("founder_analysis", { founder: "Felix Chen" }), says: ["an overall score of 78/100"] },
  { cat: "runs", q: "how did Felix Chen score as a founder", expect: fn("founder_analysis"), says: ["78/100", "First-time CEO"] },
  { cat: "runs", q: "Is there a founder analysis of Maya Okafor?", expect: fn("founder_analysis", { founder: "Maya Okafor" }), says: ["There is no finished founder analysis of Maya Okafor"] },
  { cat: "runs", q: "Research status?", expect: fn("research_status"), says: ["Which research run?"] },

  // ---------------------------------------------------------------------------------------------
  // Documents the firm holds.
  { cat: "documents", q: "documents mentioning carried interest", expect: q("documents", { text: "carried interest" }), says: ["carried interest"] },
  { cat: "documents", q: "which decks mention a management fee?", expect: q("documents", { text: "management fee" }), says: ["management fee"] },
  { cat: "documents", q: "find documents about grid flexibility", expect: q("documents", { text: "grid flexibility" }) },
  { cat: "documents", q: "what documents do we have on MosaicTreasury?", expect: q("documents", { name: "MosaicTreasury" }), says: ["mosaictreasury.pdf"] },
  { cat: "documents", q: "files for EmberRoute", expect: q("documents", { name: "EmberRoute" }) },
  { cat: "documents", q: "how many documents do we have?", expect: q("documents", { aggregate: "count" }) },
  { cat: "documents", q: "documents received this week", expect: q("documents", THIS_WEEK) },
  { cat: "documents", q: "pages that mention net revenue retention", expect: q("documents", { text: "net revenue retention" }) },

  // ---------------------------------------------------------------------------------------------
  // What the records do not hold: said so, with what they hold instead; never a figure.
  { cat: "not-in-data", q: "What's the NPS of Acme Robotics?", expect: fn("portfolio_company", { company: "Acme Robotics", metric: "nps" }), says: [NOT_HELD, "its imported metrics"] },
  { cat: "not-in-data", q: "customer churn at Nimbus Pay", expect: fn("portfolio_company", { company: "Nimbus Pay", metric: "churn" }), says: [NOT_HELD] },
  { cat: "not-in-data", q: "What is the CAC of Quill Pay?", expect: fn("portfolio_company", { company: "Quill Pay", metric: "cac" }), says: [NOT_HELD] },
  { cat: "not-in-data", q: "is Kestrel Rails profitable?", expect: fn("portfolio_company", { company: "Kestrel Rails", metric: "ebitda" }), says: [NOT_HELD] },
  { cat: "not-in-data", q: "Which portfolio companies have the highest churn?", expect: q("holdings", { order: { by: "churn" } }), says: ["churn is not in your records for portfolio companies", "What they hold"] },
  { cat: "not-in-data", q: "rank portcos by NPS", expect: q("holdings", { order: { by: "nps" } }), says: [NOT_HELD] },
  { cat: "not-in-data", q: "What's the TVPI of Northwind Fund II?", expect: fn("fund_positions", { fund: "Northwind Fund II" }), says: ["Northwind Fund II is not one of your LP funds", "one of your own funds"] },
  { cat: "not-in-data", q: "What is Stripe's ARR?", expect: fn("portfolio_company", { company: "Stripe" }), says: ["Stripe is not in your firm's portfolio"] },
  { cat: "not-in-data", q: "how is OpenAI doing", expect: fn("portfolio_company", { company: "OpenAI" }), says: ["OpenAI is not in your firm's portfolio. Nor is it a deal in your pipeline or one of your LP funds."] },
  { cat: "not-in-data", q: "What's the weather in Berlin?", expect: { help: true } },
  { cat: "not-in-data", q: "who won the world cup", expect: { help: true } },
  { cat: "not-in-data", q: "What is the score of Initech?", expect: fn("deal_status", { deal: "Initech" }), says: ["There is no deal called Initech in your firm's pipeline"] },
  { cat: "not-in-data", q: "runway of Globex Robotics", expect: fn("portfolio_company", { company: "Globex Robotics" }), says: ["Globex Robotics is not in your firm's portfolio"] },
  { cat: "not-in-data", q: "What was our NAV in 2010?", expect: q("positions", { aggregate: "sum", field: "nav", ...days("2010-01-01", "2010-12-31") }), says: ["No LP position has a NAV mark dated 2010", "the earliest mark is of"] },
  { cat: "not-in-data", q: "deals that came in in 2019", expect: q("deals", days("2019-01-01", "2019-12-31")), says: ["No deals that came in 2019"] },
  { cat: "not-in-data", q: "capital calls in 2030", expect: q("cashflows", { type: "call" }), says: ["No cashflows"] },
  { cat: "not-in-data", q: "biotech portfolio companies", expect: q("holdings", { sector: "health" }), says: ["Acme Care"] },
  { cat: "not-in-data", q: "crypto deals", expect: q("deals", { sector: "fintech" }) },
  { cat: "not-in-data", q: "what's MosaicTreasury's EBITDA", expect: fn("deal_status", { figure: "ebitda" }), says: ["not a portfolio company"] },
  { cat: "not-in-data", q: "headcount of CinderCloud", expect: fn("deal_status", { figure: "headcount" }), says: ["not a portfolio company"] },
  { cat: "not-in-data", q: "What's the IRR of Sequoia Capital Fund XV?", expect: fn("fund_positions"), says: ["is not one of your LP funds", "Sequoia Capital"] },
  { cat: "not-in-data", q: "documents about quantum computing", expect: q("documents", { text: "quantum computing" }), says: ["No documents"] },
  { cat: "not-in-data", q: "what's the meaning of life", expect: { help: true } },

  // ---------------------------------------------------------------------------------------------
  // Follow-ups in one conversation: a pronoun, a narrowed set, a new order, another record.
  {
    cat: "follow-up",
    q: "What is the runway of Acme Robotics?",
    expect: fn("portfolio_company", { company: "Acme Robotics" }),
    then: [
      { cat: "follow-up", q: "and its ARR?", expect: fn("portfolio_company", { company: "Acme Robotics" }), says: ["ARR: "] },
      { cat: "follow-up", q: "what about Nimbus Pay?", expect: fn("portfolio_company", { company: "Nimbus Pay" }) },
      { cat: "follow-up", q: "and its headcount?", expect: fn("portfolio_company", { company: "Nimbus Pay", metric: "headcount" }) },
      { cat: "follow-up", q: "how has its ARR changed this year?", expect: q("metrics", { name: "Nimbus Pay", metric: "arr", aggregate: "change", ...THIS_YEAR }), says: ["Nimbus Pay's ARR went from"] },
    ],
  },
  {
    cat: "follow-up",
    q: "Which deals are at IC?",
    expect: q("deals", { stage: ["ic"] }),
    then: [
      { cat: "follow-up", q: "only the fintech ones", expect: q("deals", { stage: ["ic"], sector: "fintech" }), says: ["KeystoneLedger"] },
      // Narrowing stacks: still the fintech ones.
      { cat: "follow-up", q: "and in diligence?", expect: q("deals", { stage: ["diligence"], sector: "fintech" }) },
      { cat: "follow-up", q: "what about all deals in diligence?", expect: q("deals", { stage: ["diligence"] }), says: ["7 deals at diligence"] },
      { cat: "follow-up", q: "sort them by score", expect: q("deals", { stage: ["diligence"], order: { by: "score", dir: "desc" } }) },
      { cat: "follow-up", q: "just the top 2", expect: q("deals", { stage: ["diligence"], order: { by: "score" }, limit: 2 }) },
      { cat: "follow-up", q: "how many?", expect: q("deals", { stage: ["diligence"], aggregate: "count" }), says: ["7 deals"] },
    ],
  },
  {
    cat: "follow-up",
    q: "List portfolio companies in Fund II",
    expect: q("holdings", { fund: "Northwind Fund II" }),
    then: [
      { cat: "follow-up", q: "what about Fund III?", expect: q("holdings", { fund: "Northwind Fund III" }), says: (f) => f.fundIII },
      { cat: "follow-up", q: "by ARR", expect: q("holdings", { fund: "Northwind Fund III", order: { by: "arr", dir: "desc" } }) },
      { cat: "follow-up", q: "only the fintech ones", expect: q("holdings", { fund: "Northwind Fund III", sector: "fintech" }) },
    ],
  },
  {
    cat: "follow-up",
    q: "Which portfolio companies have the shortest runway?",
    expect: q("holdings", SHORTEST_RUNWAY),
    then: [
      { cat: "follow-up", q: "and their burn?", expect: q("holdings", { ...SHORTEST_RUNWAY, show: ["monthly_burn"] }), says: ["monthly burn"] },
      { cat: "follow-up", q: "top 3 only", expect: q("holdings", { ...SHORTEST_RUNWAY, limit: 3 }) },
    ],
  },
  {
    cat: "follow-up",
    q: "How warm is Sean Kumar?",
    expect: fn("contact_warmth", { contact: "Sean Kumar" }),
    then: [{ cat: "follow-up", q: "who else knows him?", expect: fn("who_knows") }],
  },
  {
    cat: "follow-up",
    q: "capital calls this year",
    expect: q("cashflows", { type: "call", ...THIS_YEAR }),
    then: [
      { cat: "follow-up", q: "what's the total?", expect: q("cashflows", { type: "call", ...THIS_YEAR, aggregate: "sum" }), says: (f) => f.callsThisYear },
      { cat: "follow-up", q: "and last year?", expect: q("cashflows", { type: "call", ...LAST_YEAR }) },
    ],
  },
  {
    cat: "follow-up",
    q: "tell me about MosaicTreasury",
    expect: fn("deal_status"),
    then: [
      { cat: "follow-up", q: "what's its ARR?", expect: fn("deal_status", { figure: "arr" }), says: (f) => [f.mosaicArrQuote] },
      { cat: "follow-up", q: "And UmberBuild?", expect: fn("deal_status"), says: ["UmberBuild"] },
    ],
  },
  {
    cat: "follow-up",
    q: "show me the LP book",
    expect: fn("fund_positions"),
    then: [{ cat: "follow-up", q: "only the EUR ones", expect: q("positions", { currency: "EUR" }), says: ["Halcyon Fund V"] }],
  },

  // ---------------------------------------------------------------------------------------------
  // Explicit requests to start an action (the read key refuses them), and reads that start nothing.
  { cat: "actions", q: "Analyze https://newco.example", expect: fn("start_deal_analysis", { website_url: "https://newco.example" }), says: ["read-only"] },
  { cat: "actions", q: "please evaluate the deck at https://docsend.com/view/abc123", expect: fn("start_deal_analysis", { document_url: "https://docsend.com/view/abc123" }), says: ["read-only"] },
  { cat: "actions", q: "Research payroll APIs in Europe", expect: fn("start_research", { query: "payroll APIs in Europe" }), says: ["read-only"] },
  { cat: "actions", q: "can you research the market for treasury software?", expect: fn("start_research"), says: ["read-only"] },
  { cat: "actions", q: "Analyze founder Felix Chen of MosaicTreasury", expect: fn("start_founder_analysis", { name: "Felix Chen", company: "MosaicTreasury" }), says: ["read-only"] },
  { cat: "actions", q: "kick off a deep dive on grid flexibility", expect: fn("start_research"), says: ["read-only"] },
  { cat: "actions", q: "Analyze MosaicTreasury", expect: fn("deal_status"), says: ["Nothing was started"] },
  { cat: "actions", q: "Analyze the market", expect: { clarify: "To start a deal analysis I need the company's website" } },
  { cat: "actions", q: "What score did MosaicTreasury get?", expect: fn("deal_status"), says: (f) => [f.scoreOf("MosaicTreasury")] },
  { cat: "actions", q: "Did we analyze mosaictreasury.ai?", expect: fn("deal_status"), says: ["Its analysis succeeded"] },
  { cat: "actions", q: "Should we evaluate https://newco.example?", expect: fn("deal_status"), says: ["There is no deal"] },
  { cat: "actions", q: "Review the founders of KeystoneLedger", expect: { clarify: "Which founder of KeystoneLedger?" } },

  // ---------------------------------------------------------------------------------------------
  // A second set, written after the reader was first tuned and asked before any change for it:
  // 49 of its 66 phrasings were answered right then; what it taught (ordinal funds, "gone up",
  // "NAV by fund", another investor's money) is in the reader now.

  { cat: "holdings", q: "give me the 5 portcos with the least runway left", expect: q("holdings", { order: { by: "runway_months", dir: "asc" }, limit: 5 }) },
  { cat: "holdings", q: "Who in the portfolio needs to raise soon? (shortest runway)", expect: q("holdings", { order: { by: "runway_months", dir: "asc" } }) },
  { cat: "holdings", q: "can you list every company in our third fund", expect: q("holdings", { fund: "Northwind Fund III" }) },
  { cat: "holdings", q: "what do we own in Fund I", expect: q("holdings", { fund: "Northwind Fund I" }) },
  { cat: "holdings", q: "highest valued portfolio company", expect: q("holdings", { order: { by: "valuation", dir: "desc" }, limit: 1 }) },
  { cat: "holdings", q: "How many of our companies are in robotics?", expect: q("holdings", { sector: "robotics", aggregate: "count" }) },
  { cat: "holdings", q: "portfolio companies sorted by headcount", expect: q("holdings", { order: { by: "headcount", dir: "desc" } }) },
  { cat: "holdings", q: "what's our average ownership", expect: q("holdings", { aggregate: "avg", field: "ownership" }) },
  { cat: "holdings", q: "combined ARR of fund II companies", expect: q("holdings", { fund: "Northwind Fund II", aggregate: "sum", field: "arr" }) },
  { cat: "holdings", q: "list the EUR companies in the portfolio", expect: q("holdings", { currency: "EUR" }) },
  { cat: "holdings", q: "any portcos with under six months of runway?", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 6 }] }) },
  { cat: "metrics", q: "Cobalt Rails burn?", expect: fn("portfolio_company", { company: "Cobalt Rails" }) },
  { cat: "metrics", q: "hows relay robotics looking", expect: fn("portfolio_company", { company: "Relay Robotics" }) },
  { cat: "metrics", q: "Fathom Robotics ARR over the past 6 months - up or down?", expect: q("metrics", { name: "Fathom Robotics", metric: "arr", aggregate: "change" }) },
  { cat: "metrics", q: "has nimbus grid's burn gone up this year", expect: q("metrics", { name: "Nimbus Grid", metric: "monthly_burn", aggregate: "change" }) },
  { cat: "metrics", q: "what's the gross margin at Fathom AI", expect: fn("portfolio_company", { company: "Fathom AI", metric: "gross_margin" }) },
  { cat: "metrics", q: "whose headcount grew the most this year?", expect: q("metrics", { metric: "headcount", aggregate: "change" }) },
  { cat: "deals", q: "Which companies pitched us last month?", expect: q("deals", days("2026-10-01", "2026-10-31")) },
  { cat: "deals", q: "how many deals are sitting in screening", expect: q("deals", { stage: ["screening"], aggregate: "count" }) },
  { cat: "deals", q: "Top fintech deals by score", expect: q("deals", { sector: "fintech", order: { by: "score", dir: "desc" } }) },
  { cat: "deals", q: "anything in edtech in the pipeline?", expect: q("deals", { sector: "edtech" }) },
  { cat: "deals", q: "which deals did we pass on this month", expect: q("deals", { stage: ["passed"], ...days("2026-11-01", "2026-11-20") }) },
  { cat: "deals", q: "what's the average round size in the pipeline", expect: q("deals", { aggregate: "avg", field: "round_amount" }) },
  { cat: "deals", q: "deals scored below 60", expect: q("deals", { where: [{ field: "score", op: "lt", value: 60 }] }) },
  { cat: "deals", q: "show me diligence deals raising more than 10M", expect: q("deals", { stage: ["diligence"], where: [{ field: "round_amount", op: "gt", value: 10_000_000 }] }) },
  { cat: "deals", q: "newest deal", expect: q("deals", { order: { by: "created", dir: "desc" }, limit: 1 }) },
  { cat: "deals", q: "pre-seed deals", expect: q("deals", { round: "pre-seed" }) },
  { cat: "deal", q: "how did KeystoneHealth score", expect: fn("deal_status") },
  { cat: "deal", q: "where is CinderCloud in our process?", expect: fn("deal_status") },
  { cat: "deal", q: "what's the ARR of QuarryAI", expect: fn("deal_status", { figure: "arr" }) },
  { cat: "deal", q: "who is the CEO of EmberRoute", expect: fn("deal_status", { figure: "team" }) },
  { cat: "positions", q: "which of our LP funds is doing worst", expect: q("positions", { order: { by: "tvpi", dir: "asc" } }) },
  { cat: "positions", q: "NAV by fund", expect: q("positions", { order: { by: "nav" } }) },
  { cat: "positions", q: "our total commitment to Halcyon", expect: q("positions", { fund: "Halcyon Fund V", aggregate: "sum", field: "commitment" }), says: ["18,000,000 EUR"] },
  { cat: "positions", q: "how much is still uncalled across our LP commitments?", expect: q("positions", { aggregate: "sum", field: "unfunded" }) },
  { cat: "positions", q: "positions with a DPI under 0.5", expect: q("positions", { where: [{ field: "dpi", op: "lt", value: 0.5 }] }) },
  { cat: "positions", q: "what was our NAV at the end of 2024", expect: q("positions", { aggregate: "sum", field: "nav" }) },
  { cat: "cashflows", q: "distributions in the last 6 months", expect: q("cashflows", { type: "distribution", ...days("2026-05-20", "2026-11-20") }) },
  { cat: "cashflows", q: "how much capital was called last year?", expect: q("cashflows", { type: "call", aggregate: "sum", ...days("2025-01-01", "2025-12-31") }) },
  { cat: "cashflows", q: "last 3 capital calls", expect: q("cashflows", { type: "call", order: { by: "date", dir: "desc" }, limit: 3 }) },
  { cat: "cashflows", q: "what did Atlas Bridge send us this year", expect: q("cashflows", { fund: "Atlas Bridge Fund IV", ...days("2026-01-01", "2026-11-20") }) },
  { cat: "network", q: "who do we know over at relayscale.com", expect: fn("who_knows", { company: "relayscale.com" }) },
  { cat: "network", q: "how strong is our relationship with Rosa Nowak", expect: fn("contact_warmth", { contact: "Rosa Nowak" }) },
  { cat: "network", q: "people I should ping again", expect: fn("going_stale") },
  { cat: "network", q: "10 strongest relationships in the firm", expect: q("persons", { order: { by: "strength", dir: "desc" }, limit: 10 }) },
  { cat: "runs", q: "any research on treasury?", expect: q("research", { text: "treasury" }) },
  { cat: "runs", q: "founder score for Felix Chen", expect: fn("founder_analysis") },
  { cat: "documents", q: "which documents talk about a hard cap", expect: q("documents", { text: "hard cap" }) },
  { cat: "documents", q: "decks received last month", expect: q("deals", days("2026-10-01", "2026-10-31")) },
  { cat: "not-in-data", q: "What's the LTV to CAC of Nimbus Pay?", expect: fn("portfolio_company", { company: "Nimbus Pay" }) },
  { cat: "not-in-data", q: "which portfolio companies are profitable", expect: q("holdings", { order: { by: "ebitda" } }) },
  { cat: "not-in-data", q: "how much did Tiger Global invest in Acme Robotics", expect: fn("portfolio_company", { company: "Acme Robotics" }), says: ["What Tiger Global invested in Acme Robotics is not in your records"] },
  { cat: "not-in-data", q: "What's the TVPI of Fund III?", expect: fn("fund_positions") },
  { cat: "not-in-data", q: "what's the capital of France", expect: { help: true } },
  { cat: "follow-up", q: "shortest runway in fund II?", expect: q("holdings", { fund: "Northwind Fund II", order: { by: "runway_months", dir: "asc" } }), then: [
    { cat: "follow-up", q: "and fund III?", expect: q("holdings", { fund: "Northwind Fund III", order: { by: "runway_months", dir: "asc" } }) },
    { cat: "follow-up", q: "what's their ARR", expect: q("holdings", { fund: "Northwind Fund III", show: ["arr"] }) },
  ] },
  { cat: "follow-up", q: "deals that came in this month", expect: q("deals", days("2026-11-01", "2026-11-20")), then: [
    { cat: "follow-up", q: "which of those are fintech?", expect: q("deals", { sector: "fintech", ...days("2026-11-01", "2026-11-20") }) },
    { cat: "follow-up", q: "and last month?", expect: q("deals", { ...days("2026-10-01", "2026-10-31") }) },
  ] },
  { cat: "follow-up", q: "tell me about Quill Pay", expect: fn("portfolio_company", { company: "Quill Pay" }), then: [
    { cat: "follow-up", q: "how has its burn changed since last year?", expect: q("metrics", { name: "Quill Pay", metric: "monthly_burn", aggregate: "change" }) },
    { cat: "follow-up", q: "who do we know there?", expect: fn("who_knows") },
  ] },
  { cat: "actions", q: "please run a deal analysis on https://acme-new.example", expect: fn("start_deal_analysis") },
  { cat: "actions", q: "I'd like you to research AI agents for finance teams", expect: fn("start_research") },
  { cat: "actions", q: "what did we think of https://mosaictreasury.ai?", expect: fn("deal_status") },

  // A third set, written and asked the same way after the second's changes: 38 of its 44 phrasings
  // were answered right before any change for it ("< 10 months", "did we research", an LP fund's
  // "performance", "its distributions").

  { cat: "holdings", q: "portcos by runway", expect: q("holdings", { order: { by: "runway_months" } }) },
  { cat: "holdings", q: "Could you pull up which of our companies have the most ARR right now?", expect: q("holdings", { order: { by: "arr", dir: "desc" } }) },
  { cat: "holdings", q: "what's the total ARR in fund 3", expect: q("holdings", { fund: "Northwind Fund III", aggregate: "sum", field: "arr" }) },
  { cat: "holdings", q: "how many companies have we exited", expect: q("holdings", { status: ["exited"], aggregate: "count" }) },
  { cat: "holdings", q: "lowest multiple in the portfolio", expect: q("holdings", { order: { by: "multiple", dir: "asc" } }) },
  { cat: "holdings", q: "which logistics companies do we have", expect: q("holdings", { sector: "Logistics" }) },
  { cat: "holdings", q: "runway < 10 months", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 10 }] }) },
  { cat: "holdings", q: "avg burn across portfolio companies", expect: q("holdings", { aggregate: "avg", field: "monthly_burn" }) },
  { cat: "metrics", q: "Lumen Exchange runway pls", expect: fn("portfolio_company", { company: "Lumen Exchange" }) },
  { cat: "metrics", q: "did Drift Freight's ARR go up last quarter?", expect: q("metrics", { name: "Drift Freight", metric: "arr", aggregate: "change", ...days("2026-07-01", "2026-09-30") }) },
  { cat: "metrics", q: "How much runway does Helio Rails have?", expect: fn("portfolio_company", { company: "Helio Rails" }) },
  { cat: "metrics", q: "juniper ledger headcount", expect: fn("portfolio_company", { company: "Juniper Ledger", metric: "headcount" }) },
  { cat: "deals", q: "IC pipeline", expect: q("deals", { stage: ["ic"] }) },
  { cat: "deals", q: "what's new in the pipeline this week", expect: q("deals", days("2026-11-16", "2026-11-20")) },
  { cat: "deals", q: "how many logistics deals", expect: q("deals", { sector: "logistics", aggregate: "count" }) },
  { cat: "deals", q: "which series A deals score over 70?", expect: q("deals", { round: "series a", where: [{ field: "score", op: "gt", value: 70 }] }) },
  { cat: "deals", q: "oldest deals still in screening", expect: q("deals", { stage: ["screening"], order: { by: "created", dir: "asc" } }) },
  { cat: "deals", q: "deals in q3", expect: q("deals", days("2026-07-01", "2026-09-30")) },
  { cat: "deal", q: "status of zenithsecure", expect: fn("deal_status") },
  { cat: "deal", q: "garnetfleet round?", expect: fn("deal_status") },
  { cat: "deal", q: "What does RippleMotion's deck say about burn?", expect: fn("deal_status", { figure: "monthly_burn" }) },
  { cat: "positions", q: "which fund has the best DPI", expect: q("positions", { order: { by: "dpi", dir: "desc" }, limit: 1 }) },
  { cat: "positions", q: "Northstar Growth TVPI?", expect: fn("fund_positions", { fund: "Northstar Growth Fund I" }) },
  { cat: "positions", q: "total NAV in USD", expect: q("positions", { aggregate: "sum", field: "nav", currency: "USD" }) },
  { cat: "positions", q: "how much have we got back from our LP investments in total", expect: q("positions", { aggregate: "sum", field: "distributed" }) },
  { cat: "cashflows", q: "calls in the last 90 days", expect: q("cashflows", { type: "call", ...days("2026-08-22", "2026-11-20") }) },
  { cat: "cashflows", q: "how many distributions have we received this year?", expect: q("cashflows", { type: "distribution", aggregate: "count", ...days("2026-01-01", "2026-11-20") }) },
  { cat: "cashflows", q: "Silverline capital calls", expect: q("cashflows", { type: "call", fund: "Silverline Fund I" }) },
  { cat: "network", q: "who knows folks at atlaspath.io", expect: fn("who_knows", { company: "atlaspath.io" }) },
  { cat: "network", q: "is my relationship with Sean Kumar warm?", expect: fn("contact_warmth", { contact: "Sean Kumar" }) },
  { cat: "network", q: "contacts going cold", expect: fn("going_stale") },
  { cat: "network", q: "founders I could reach through my network", expect: fn("reach_candidates") },
  { cat: "runs", q: "did we research treasury APIs already?", expect: q("research", { text: "treasury apis" }) },
  { cat: "documents", q: "find mentions of net revenue retention in our documents", expect: q("documents") },
  { cat: "not-in-data", q: "what's the valuation of Stripe", expect: fn("portfolio_company", { company: "Stripe" }) },
  { cat: "not-in-data", q: "which deals have the highest NPS", expect: q("deals", { order: { by: "nps" } }) },
  { cat: "not-in-data", q: "Acme Care churn?", expect: fn("portfolio_company", { company: "Acme Care", metric: "churn" }) },
  { cat: "follow-up", q: "which deals are in diligence", expect: q("deals", { stage: ["diligence"] }), then: [
    { cat: "follow-up", q: "rank them by score", expect: q("deals", { stage: ["diligence"], order: { by: "score", dir: "desc" } }) },
    { cat: "follow-up", q: "only the ones raising in USD", expect: q("deals", { stage: ["diligence"], currency: "USD" }) },
  ] },
  { cat: "follow-up", q: "Halcyon Fund V performance", expect: fn("fund_positions", { fund: "Halcyon Fund V" }), then: [
    { cat: "follow-up", q: "and its distributions this year?", expect: q("cashflows", { type: "distribution", fund: "Halcyon Fund V" }) },
  ] },
  // Classes the blind corpus showed (written here in other words than its questions): a city, a
  // threshold's unit naming its figure, a count per value said, totals beside calls and
  // distributions, a figure asked as people say it, a self-correction, follow-ups with a bare
  // figure, how far along the pipeline, a name the records do not hold, contacts counted in full.
  { cat: "deals", q: "pipeline deals in Zurich or Lisbon", expect: q("deals", { anyOf: { location: ["Lisbon", "Zurich"] } }), says: ["8 deals based in Lisbon or based in Zurich", "UmberBuild"] },
  { cat: "deals", q: "deals per city", expect: q("deals", { group: "city", aggregate: "count" }), says: ["Lisbon: 5 deals", "London: 4 deals (QuarryDynamics, WillowTreasury, QuarryAI and KeystoneDev)"] },
  { cat: "holdings", q: "portcos where we own more than 15%", expect: q("holdings", { where: [{ field: "ownership", op: "gt", value: 15 }] }), says: ["5 portfolio companies with ownership above 15%", "Quill Dynamics and Relay Robotics"] },
  { cat: "holdings", q: "holdings with a multiple under 1x", expect: q("holdings", { where: [{ field: "multiple", op: "lt", value: 1 }] }), says: ["4 portfolio companies with multiple below 1x"] },
  { cat: "positions", q: "funds over 1.3x", expect: q("positions", { where: [{ field: "tvpi", op: "gt", value: 1.3 }] }), says: ["4 LP positions with TVPI above 1.3x"] },
  { cat: "cashflows", q: "how many calls and distributions do we have", expect: q("cashflows", { aggregate: "count", group: "type" }), says: ["call: 69 cashflows", "distribution: 44 cashflows"] },
  { cat: "cashflows", q: "distributions in 2024", expect: q("cashflows", { type: "distribution", ...days("2024-01-01", "2024-12-31") }), says: ["Total amount: distributions 10,023,000 USD (7)."] },
  { cat: "holdings", q: "headcount of all active portfolio companies put together", expect: q("holdings", { status: ["active"], field: "headcount", aggregate: "sum" }), says: ["677 people"] },
  { cat: "metrics", q: "how many months of runway does Relay Robotics have left", expect: fn("portfolio_company", { company: "Relay Robotics", metric: "runway_months" }), says: ["Relay Robotics: runway 9 months"] },
  { cat: "metrics", q: "arr... sorry, I mean the burn of Acme Care", expect: fn("portfolio_company", { company: "Acme Care", metric: "monthly_burn" }), says: ["Acme Care: monthly burn 116,000 USD"] },
  { cat: "not-in-data", q: "what was our entry price for OpenAI", expect: fn("portfolio_company", { company: "OpenAI" }), says: ["OpenAI is not in your firm's portfolio"] },
  { cat: "network", q: "number of contacts in my network", expect: q("persons", { aggregate: "count" }), says: ["You have 1,020 contacts"] },
  { cat: "network", q: "stale relationships not touched for more than 6 months", expect: fn("going_stale", { min_days: 180 }), says: ["48 of your 91 relationships going stale have had no touch for 180 days or more"] },
  { cat: "follow-up", q: "who's the CEO of QuarryAI", expect: fn("deal_status"), says: ["Nadia Fischer (CEO)"], then: [
    { cat: "follow-up", q: "pre-money?", expect: fn("deal_status", { deal: "QuarryAI", figure: "pre_money" }), says: ["QuarryAI's pre-money valuation: 70,000,000 USD."] },
  ] },
  { cat: "follow-up", q: "diligence deals", expect: q("deals", { stage: ["diligence"] }), then: [
    { cat: "follow-up", q: "pre-money for each?", expect: q("deals", { stage: ["diligence"], show: ["pre_money"] }), says: ["pre-money valuation 42,000,000 USD", "pre-money valuation 142,500,000 EUR"] },
  ] },
  { cat: "follow-up", q: "climate deals in the pipe", expect: q("deals", { sector: "climate" }), then: [
    { cat: "follow-up", q: "which is furthest along?", expect: q("deals", { sector: "climate", order: { by: "progress", dir: "desc" }, limit: 1 }), says: ["furthest along first"] },
  ] },
  { cat: "positions", q: "LP positions that have never distributed", expect: q("positions", { where: [{ field: "distributed", op: "lte", value: 0, orNone: true }] }), says: ["2 LP positions with no distributed", "Kinetic Seed Fund I", "Silverline Fund I"] },
  { cat: "holdings", q: "portcos without ARR", expect: q("holdings", { where: [{ field: "arr", op: "lte", value: 0, orNone: true }] }), says: ["Cobalt Rails"] },
  { cat: "positions", q: "halcyon nav over the last 3 quarters", expect: q("marks", { name: "Halcyon Fund V", field: "nav" }), says: ["(mark of 2026-03-31): NAV 16,626,135 EUR", "(mark of 2026-09-30): NAV 15,456,196 EUR"] },
  { cat: "positions", q: "kinetic seed tvpi, last 4 qtrs", expect: q("marks", { name: "Kinetic Seed Fund I", field: "tvpi", limit: 4 }), says: ["the first 4 of 6", "TVPI 1.08x (2025-12-31)"] },
  { cat: "deals", q: "new deals in fintech", expect: q("deals", { stage: ["new"], sector: "fintech" }) },
  { cat: "holdings", q: "climate + robotics holdings", expect: q("holdings", { anyOf: { sector: ["climate", "Robotics"] } }), says: ["8 portfolio companies"] },
  { cat: "deals", q: "what's the total raise of the diligence deals", expect: q("deals", { stage: ["diligence"], field: "round_amount", aggregate: "sum" }), says: ["304,000,000 USD (6 deals) and 28,500,000 EUR (1 deal)"] },
  { cat: "holdings", q: "the payments infra portcos' ARR", expect: q("holdings", { sector: "Payments infrastructure" }), says: ["Helio Rails", "4,554,809 EUR"] },
  { cat: "metrics", q: "what did Acme Robotics report last month?", expect: fn("investor_updates", { company: "Acme Robotics", since: "2026-10-01", until: "2026-10-31" }), says: ["ARR: 2,939,333 USD for the period ending 2026-10-31", "\"Net burn: $609k for the month\""] },
  { cat: "not-in-data", q: "what did Stripe report in their last update", expect: fn("portfolio_company", { company: "Stripe" }), says: ["Stripe is not in your firm's portfolio"] },
  { cat: "actions", q: "start a research run on vertical SaaS for construction", expect: fn("start_research") },
  { cat: "actions", q: "can you analyse founder Aiko Okafor of KeystoneLedger?", expect: fn("start_founder_analysis", { name: "Aiko Okafor", company: "KeystoneLedger" }) },
  { cat: "positions", q: "called so far by atlas bridge and halcyon combined", expect: q("positions", { names: ["Atlas Bridge Fund IV", "Halcyon Fund V"], aggregate: "sum", field: "called" }), says: ["17,100,000 EUR (1 LP position) and 24,737,000 USD (1 LP position) (one per currency"] },
  { cat: "positions", q: "Atlas Bridge and Redwood: distributions to date, each and together", expect: q("positions", { names: ["Atlas Bridge Fund IV", "Redwood Peak Fund II"], aggregate: "sum", field: "distributed" }), says: ["56,224,000 USD", "distributed 20,413,000 USD", "distributed 35,811,000 USD"] },
  { cat: "holdings", q: "acme robotics and quill pay: invested, added up", expect: q("holdings", { names: ["Acme Robotics", "Quill Pay"], aggregate: "sum", field: "invested" }), says: ["Total invested of 2 portfolio companies Acme Robotics and Quill Pay: 18,600,000 USD"] },
  { cat: "positions", q: "tvpi of kinetic and silverline together", expect: q("positions", { names: ["Kinetic Seed Fund I", "Silverline Fund I"], aggregate: "sum", field: "tvpi" }), says: ["pooled as (distributed + NAV) / called: 1.31x in USD"] },
  { cat: "not-in-data", q: "what did Vantablack Capital Fund II call from us", expect: fn("fund_positions", { fund: "Vantablack Capital Fund II" }), says: ["Vantablack Capital Fund II is not one of your LP funds"] },
  { cat: "deals", q: "deals that came in during the second half of august", expect: q("deals", days("2026-08-16", "2026-08-31")), says: ["4 deals that came in second half of august (2026-08-16 to 2026-08-31)"] },
  { cat: "deals", q: "early october deals", expect: q("deals", days("2026-10-01", "2026-10-10")), says: ["(2026-10-01 to 2026-10-10)"] },
  { cat: "metrics", q: "acme care arr when they first reported", expect: q("metrics", { name: "Acme Care", metric: "arr", aggregate: "first" }), says: ["Acme Care's ARR when first stated: 1,301,218 USD (statement of 2023-10-31)"] },
  { cat: "network", q: "who could introduce me to Łukasz Petrov?", expect: fn("who_knows", { person: "Łukasz Petrov" }), says: ["you can reach Łukasz Petrov (CEO at MosaicTreasury) through someone you know well: Reachable through Nikhil Abara"] },
  { cat: "network", q: "anyone know Yara Khan at Abara Quinn?", expect: fn("who_knows", { person: "Yara Khan" }), says: ["1. Ravi Kowalski knows Yara Khan"] },
  { cat: "negation", q: "LP funds except Halcyon", expect: q("positions", { except: { fund: ["Halcyon Fund V"] } }), says: ["5 LP positions not in Halcyon Fund V"] },
  { cat: "negation", q: "everything but fintech in the pipeline", expect: q("deals", { except: { sector: ["Fintech"] } }), says: ["32 deals not in Fintech"] },
  { cat: "negation", q: "deals we haven't passed on, by score", expect: q("deals", { except: { stage: ["passed"] }, order: { by: "score", dir: "desc" } }), says: ["31 deals not at passed, by score (highest first)"] },
  { cat: "negation", q: "all the portcos except acme robotics", expect: q("holdings", { except: { name: ["Acme Robotics"] } }), says: ["22 portfolio companies not named Acme Robotics"] },
  { cat: "negation", q: "deals other than MosaicTreasury or KeystoneLedger", expect: q("deals", { except: { name: ["MosaicTreasury", "KeystoneLedger"] } }), says: ["34 deals not MosaicTreasury, not KeystoneLedger"] },
  { cat: "negation", q: "holdings not in Fund I or Fund II", expect: q("holdings", { except: { fund: ["Northwind Fund I", "Northwind Fund II"] } }), says: ["6 portfolio companies not in Northwind Fund I, not in Northwind Fund II"] },
  { cat: "negation", q: "LP funds except Halcyon and Redwood", expect: q("positions", { except: { fund: ["Halcyon Fund V", "Redwood Peak Fund II"] } }), says: ["4 LP positions"] },
  { cat: "negation", q: "deals not in diligence, IC or invested", expect: q("deals", { except: { stage: ["ic", "diligence", "invested"] } }), says: ["23 deals not at IC, not at diligence, not at invested"] },
  { cat: "negation", q: "companies outside payments", expect: q("holdings", { except: { sector: ["Payments infrastructure"] } }), says: ["19 portfolio companies not in Payments infrastructure"] },
  { cat: "negation", q: "portcos not reporting ARR", expect: q("holdings", { where: [{ field: "arr", op: "lte", value: 0, orNone: true }] }), says: ["Cobalt Rails"] },
  { cat: "negation", q: "funds that haven't called capital this year", expect: q("positions", { where: [{ field: "called", op: "lte", value: 0, orNone: true }], ...days("2026-01-01", "2026-11-20") }), says: ["4 LP positions, counting cashflows dated this year", "Atlas Bridge Fund IV", "Halcyon Fund V", "Northstar Growth Fund I", "Redwood Peak Fund II"] },
  { cat: "deals", q: "how many deals came in each month", expect: q("deals", { aggregate: "count", group: "month" }), says: ["36 deals by month (5 groups)", "1. 2026-07 (July): 2 deals (YarrowFreight and BeaconCampus)"] },
  { cat: "cashflows", q: "capital calls per month this year", expect: q("cashflows", { type: "call", group: "month", aggregate: "count" }), says: ["1. 2026-01 (January): 2 cashflows, total amount 2,564,000 USD"] },
  { cat: "holdings", q: "what's the sector mix of the portfolio", expect: q("holdings", { group: "sector", aggregate: "count" }), says: ["23 portfolio companies by sector (9 groups)", "Robotics: 5 portfolio companies"] },
  { cat: "follow-up", q: "who runs keystoneledger", expect: fn("deal_status", { figure: "team" }), then: [
    { cat: "follow-up", q: "how much are they raising?", expect: fn("deal_status", { deal: "KeystoneLedger", figure: "round_amount" }), says: ["KeystoneLedger is raising 26,000,000 USD"] },
  ] },
  { cat: "holdings", q: "what % do we own of quill dynamics", expect: q("holdings", { name: "Quill Dynamics", show: ["ownership"] }), says: ["ownership by fund (each fund's stake is its own, not added up): Northwind Fund I 18.4%, Northwind Fund II 2.5%"] },
  { cat: "metrics", q: "how many ppl at relay robotics", expect: fn("portfolio_company", { company: "Relay Robotics", metric: "headcount" }), says: ["Relay Robotics: headcount 55 people"] },
  { cat: "holdings", q: "holdings split by status - active / exited / written off", expect: q("holdings", { group: "status", aggregate: "count", per_position: true }), says: ["25 holdings by status", "active: 20 holdings"] },
  { cat: "deals", q: "distribution of round types across the pipeline", expect: q("deals", { group: "round", aggregate: "count" }), says: ["36 deals by round"] },
  { cat: "cashflows", q: "2025 distributions by fund", expect: q("cashflows", { type: "distribution", group: "fund", ...days("2025-01-01", "2025-12-31") }), says: ["9 cashflows that are distributions dated 2025"] },
  { cat: "negation", q: "health deals we havent passed on", expect: q("deals", { sector: "health", except: { stage: ["passed"] } }), says: ["3 deals in health not at passed"] },
  { cat: "negation", q: "seed-stage deals outside proptech/edtech", expect: q("deals", { round: "seed", except: { sector: ["proptech", "edtech"] } }), says: ["5 deals raising a seed round not in proptech, not in edtech"] },
  { cat: "negation", q: "portcos whose GM isn't above 60%", expect: q("holdings", { where: [{ field: "gross_margin", op: "lte", value: 60 }] }), says: ["3 portfolio companies (active) with gross margin at most 60"] },
  { cat: "holdings", q: "non-robotics portcos with a team bigger than 45", expect: q("holdings", { except: { sector: ["Robotics"] }, where: [{ field: "headcount", op: "gt", value: 45 }] }), says: ["3 portfolio companies (active) not in Robotics with headcount above 45"] },
  { cat: "negation", q: "have we had any exits or write-offs outside of fund one?", expect: q("holdings", { status: ["exited", "written_off"], except: { fund: ["Northwind Fund I"] } }), says: ["No portfolio companies exited and written off not in Northwind Fund I"] },
  { cat: "negation", q: "runway < 12 mo, leaving out the payments infra names - who's on the list", expect: q("holdings", { except: { sector: ["Payments infrastructure"] }, where: [{ field: "runway_months", op: "lt", value: 12 }] }), says: ["4 portfolio companies (active) not in Payments infrastructure with runway below 12"] },
  { cat: "not-in-data", q: "do we have a board seat at kestrel rails?", expect: fn("portfolio_company", { company: "Kestrel Rails" }), says: ["Board seats: not in your records (Dealgraph does not keep it)"] },
  { cat: "not-in-data", q: "who on the team sourced GarnetLedger", expect: fn("deal_status", { figure: "team" }), says: ["Who sourced or leads a deal: not in your records"] },
  { cat: "not-in-data", q: "cobalt rails arr latest?", expect: q("holdings", { name: "Cobalt Rails" }), says: ["Cobalt Rails: ARR not in your records (none is recorded)."] },
  { cat: "not-in-data", q: "nimbus grid october burn", expect: q("metrics", { name: "Nimbus Grid", metric: "monthly_burn", aggregate: "at", ...days("2026-10-01", "2026-10-31") }), says: ["is not in your records: no statement is dated within it (the last before is dated 2026-09-30)"] },
  { cat: "not-in-data", q: "drift freight customer count", expect: q("holdings", { name: "Drift Freight" }), says: ["Drift Freight's customers is not in your records"] },
  { cat: "metrics", q: "halcyon NAV since Q1", expect: q("marks", { name: "Halcyon Fund V", field: "nav", ...days("2026-01-01", "2026-11-20") }), says: ["NAV 16,626,135 EUR (as of 2026-03-31)", "NAV 15,456,196 EUR (as of 2026-09-30)"] },
  { cat: "metrics", q: "acme robotics burn over the last 6 mo", expect: q("metrics", { name: "Acme Robotics", metric: "monthly_burn" }), says: ["6 metric points of Acme Robotics' monthly burn", "547,000 USD"] },
  { cat: "metrics", q: "drift freight's GM went from what to what between jan and june?", expect: q("metrics", { name: "Drift Freight", metric: "gross_margin", aggregate: "change" }), says: ["went from 57.4% (2026-01-31) to 79.3% (2026-06-30)"] },
  { cat: "metrics", q: "has tessera grown or shrunk its team in the last 12 months", expect: q("metrics", { name: "Tessera Capital", metric: "headcount", aggregate: "year_change" }), says: ["33 people (2025-10-31)", "37 people (2026-10-31)"] },
  { cat: "positions", q: "silverline tvpi, each of the last 4 marks", expect: q("marks", { name: "Silverline Fund I", field: "tvpi", limit: 4 }), says: ["TVPI 1.39x (2026-09-30)"] },
  { cat: "holdings", q: "our % stake in helio, kestrel and juniper", expect: q("holdings", { names: ["Helio Rails", "Kestrel Rails", "Juniper Ledger"], show: ["ownership"] }), says: ["Helio Rails: ownership 18.8%.", "Juniper Ledger: ownership 5.9%."] },
  { cat: "holdings", q: "cobalt market & tessera: how many months of cash left?", expect: q("holdings", { names: ["Cobalt Market", "Tessera Capital"], show: ["runway_months"] }), says: ["Tessera Capital: runway 6.4 months"] },
  { cat: "cashflows", q: "distributions from halcyon and atlas bridge ytd", expect: q("cashflows", { anyOf: { fund: ["Atlas Bridge Fund IV", "Halcyon Fund V"] }, type: "distribution" }), says: ["4 cashflows that are distributions"] },
  { cat: "holdings", q: "robotics/logistics companies we've ever backed, incl. the exited ones - how many", expect: q("holdings", { anyOf: { sector: ["Robotics", "Logistics"] }, aggregate: "count" }), says: ["8 portfolio companies in Robotics or in Logistics"] },
  { cat: "follow-up", q: "acme care gross margin", expect: fn("portfolio_company", { company: "Acme Care", metric: "gross_margin" }), then: [
    { cat: "follow-up", q: "what was it a year ago", expect: q("metrics", { name: "Acme Care", metric: "gross_margin", aggregate: "year_ago" }), says: ["55.6% (statement of 2025-10-31)"] },
  ] },
  { cat: "follow-up", q: "silverline tvpi", expect: fn("fund_positions", { fund: "Silverline Fund I" }), then: [
    { cat: "follow-up", q: "and a year ago?", expect: q("marks", { name: "Silverline Fund I", field: "tvpi", aggregate: "year_ago" }), says: ["1.27x (statement of 2025-09-30)"] },
  ] },
  { cat: "follow-up", q: "tessera runway?", expect: fn("portfolio_company", { company: "Tessera Capital" }), then: [
    { cat: "follow-up", q: "how's arr looking", expect: fn("portfolio_company", { company: "Tessera Capital", metric: "arr" }), says: ["Tessera Capital: ARR 2,230,388 USD"] },
  ] },
  { cat: "follow-up", q: "robotics names in the portfolio?", expect: q("holdings", { sector: "Robotics" }), then: [
    { cat: "follow-up", q: "which one has the least runway left", expect: q("holdings", { sector: "Robotics", order: { by: "runway_months", dir: "asc" }, limit: 1 }), says: ["Relay Robotics", "runway 9 months"] },
  ] },
  { cat: "positions", q: "LP commitments split by currency - count and total", expect: q("positions", { group: "currency", aggregate: "sum", field: "commitment" }), says: ["USD: 5 LP positions, total committed 93,000,000 USD"] },
  { cat: "negation", q: "non-euro holdings in f2", expect: q("holdings", { fund: "Northwind Fund II", except: { currency: ["EUR"] } }), says: ["8 portfolio companies in Northwind Fund II not held in EUR"] },
  { cat: "follow-up", q: "when did we first invest in nimbus grid", expect: q("holdings", { name: "Nimbus Grid", show: ["investment_date"] }), then: [
    { cat: "follow-up", q: "and nimbus pay?", expect: q("holdings", { name: "Nimbus Pay", show: ["investment_date"] }), says: ["Nimbus Pay: invested on 2024-11-14."] },
  ] },
  { cat: "metrics", q: "drift freight arr at end of 2025", expect: q("metrics", { name: "Drift Freight", metric: "arr", aggregate: "at", ...days("2025-12-01", "2025-12-31") }), says: ["is not in your records: no statement is dated within it (the last before is dated 2025-11-30"] },
  { cat: "holdings", q: "how many portcos report in usd vs eur", expect: q("holdings", { aggregate: "count", group: "currency" }), says: ["USD: 18 portfolio companies", "EUR: 5 portfolio companies"] },
  { cat: "holdings", q: "active holdings per year we first invested", expect: q("holdings", { status: ["active"], group: "year", aggregate: "count" }), says: ["20 holdings active by year", "2017: 1 holding (Cobalt Rails)"] },
  { cat: "follow-up", q: "deals priced in eur?", expect: q("deals", { currency: "EUR" }), then: [
    { cat: "follow-up", q: "which of those got past screening", expect: q("deals", { currency: "EUR", stage: ["diligence", "ic", "invested"] }), says: ["4 deals at diligence, IC and invested raising in EUR"] },
  ] },
  { cat: "holdings", q: "which active companies still owe us their october numbers", expect: q("holdings", { status: ["active"], where: [{ field: "last_reported", op: "lt", value: Date.parse("2026-10-01"), orNone: true }] }), says: ["2 portfolio companies active with last reported before 2026-10-01 or never", "Nimbus Grid (Climate software; Northwind Fund III): last reported 2026-09-30", "Cobalt Rails"] },
  { cat: "holdings", q: "portcos that sent figures in the last 2 weeks", expect: q("holdings", { where: [{ field: "last_reported", op: "gte", value: Date.parse("2026-11-06") }], order: { by: "last_reported", dir: "desc" } }), says: ["No portfolio companies (active) with last reported on or after 2026-11-06"] },
  { cat: "holdings", q: "exited companies we made money on", expect: q("holdings", { status: ["exited"], where: [{ field: "multiple", op: "gte", value: 1 }], order: { by: "multiple", dir: "desc" } }), says: ["2 portfolio companies exited with multiple at least 1x", "Umbra Freight", "multiple 1.48x", "Drift Robotics"] },
  { cat: "holdings", q: "anything in the portfolio that's underwater?", expect: q("holdings", { where: [{ field: "multiple", op: "lt", value: 1 }], order: { by: "multiple", dir: "asc" } }), says: ["4 portfolio companies with multiple below 1x", "Drift Freight", "multiple 0.51x"] },
  { cat: "negation", q: "count of portfolio companies outside robotics", expect: q("holdings", { except: { sector: ["Robotics"] }, aggregate: "count" }), says: ["18 portfolio companies not in Robotics (14 active, 3 exited, 1 written off)"] },
  { cat: "positions", q: "which of our fund commitments have flagged data", expect: q("positions", { flag: ["any"] }), says: ["3 LP positions with a data-quality flag", "Atlas Bridge Fund IV", "Kinetic Seed Fund I", "Redwood Peak Fund II"] },
  { cat: "negation", q: "lp funds without data quality problems", expect: q("positions", { except: { flag: ["any"] } }), says: ["3 LP positions not with a data-quality flag", "Halcyon Fund V", "Northstar Growth Fund I", "Silverline Fund I"] },
  { cat: "follow-up", q: "funds whose marks are out of date", expect: q("positions", { flag: ["stale_nav"] }), says: ["1 LP position flagged stale nav", "Atlas Bridge Fund IV"], then: [
    { cat: "follow-up", q: "and when did it last get marked?", expect: q("positions", { flag: ["stale_nav"], fund: "Atlas Bridge Fund IV", show: ["last_mark"] }), says: ["Atlas Bridge Fund IV (2017, USD): last marked 2026-03-31"] },
  ] },
  { cat: "positions", q: "lp positions sorted by most recent mark", expect: q("positions", { order: { by: "last_mark", dir: "desc" } }), says: ["6. Atlas Bridge Fund IV (2017, USD): last marked 2026-03-31"] },
  { cat: "deals", q: "pipeline companies started in 2019 or before", expect: q("deals", { founded: { to: 2019 }, show: ["founded"] }), says: ["deals of companies founded in 2019 or earlier", "WillowTreasury (fintech; series b raising 29,500,000 USD): founded 2018"] },
  { cat: "deals", q: "deals founded after 2021, how many", expect: q("deals", { founded: { from: 2022 }, show: ["founded"], aggregate: "count" }), says: ["11 deals of companies founded in 2022 or later", "9 deals have no founding year in their analysis and are left out"] },
  { cat: "deals", q: "what year was willowtreasury founded", expect: fn("deal_status", { deal: "WillowTreasury", figure: "founded" }), says: ["WillowTreasury was founded in 2018 (as its material states)."] },
  { cat: "positions", q: "lp funds from the 2015 or 2023 vintage", expect: q("positions", { vintage: { in: [2015, 2023] }, show: ["vintage"] }), says: ["2 LP positions of vintage 2015 or 2023", "Redwood Peak Fund II", "Silverline Fund I"] },
  { cat: "holdings", q: "exited and written-off companies per fund", expect: q("holdings", { status: ["exited", "written_off"], group: "fund", aggregate: "count" }), says: ["Northwind Fund I: 5 portfolio companies (4 exited, 1 written off)"] },
  { cat: "follow-up", q: "what's still uncalled at silverline", expect: fn("fund_positions", { fund: "Silverline Fund I", figures: ["unfunded"] }), says: ["Silverline Fund I: unfunded 1,050,000 USD."], then: [
    { cat: "follow-up", q: "same for northstar", expect: fn("fund_positions", { fund: "Northstar Growth Fund I", figures: ["unfunded"] }), says: ["Northstar Growth Fund I: unfunded 500,000 USD."] },
    { cat: "follow-up", q: "how does that compare to halcyon?", expect: q("positions", { names: ["Northstar Growth Fund I", "Halcyon Fund V"], show: ["unfunded"] }), says: ["Northstar Growth Fund I: unfunded 500,000 USD.", "Halcyon Fund V: unfunded 900,000 EUR."] },
  ] },
  { cat: "follow-up", q: "fathom grid headcount", expect: fn("portfolio_company", { company: "Fathom Grid", metric: "headcount" }), then: [
    { cat: "follow-up", q: "how does it stack up vs kestrel", expect: q("holdings", { names: ["Fathom Grid", "Kestrel Rails"], show: ["headcount"] }), says: ["Fathom Grid: headcount", "Kestrel Rails: headcount"] },
  ] },
  { cat: "follow-up", q: "how big was our commitment to redwood", expect: fn("fund_positions", { fund: "Redwood Peak Fund II", figures: ["commitment"] }), then: [
    { cat: "follow-up", q: "and how much of that has been drawn", expect: fn("fund_positions", { fund: "Redwood Peak Fund II" }), says: ["called 18,050,000 USD"] },
  ] },
  { cat: "metrics", q: "kestrel arr growth in q3", expect: q("metrics", { name: "Kestrel Rails", metric: "arr", aggregate: "change", ...days("2026-07-01", "2026-09-30") }), says: ["(2026-06-30) to", "(2026-09-30)"] },
  { cat: "holdings", q: "what have we put into our dollar portcos in total", expect: q("holdings", { currency: "USD", aggregate: "sum", field: "invested" }), says: ["Total invested of 14 portfolio companies (active) held in USD: 84,150,000 USD", "(With the 4 exited or written-off companies too (Acme Works, Drift Robotics, Granite Freight and Orbit Energy): 100,650,000 USD"] },
  { cat: "holdings", q: "median-ish burn? just give me the average for the euro-reporting names", expect: q("holdings", { currency: "EUR", aggregate: "avg", field: "monthly_burn" }), says: ["Average monthly burn of 4 portfolio companies (active) held in EUR: 399,250 EUR"] },
  { cat: "holdings", q: "what sectors does fund III hold, count per sector", expect: q("holdings", { fund: "Northwind Fund III", group: "sector", aggregate: "count" }), says: ["6 portfolio companies in Northwind Fund III by sector", "Marketplaces: 2 portfolio companies (Cobalt Market and Lumen Exchange)"] },
  { cat: "cashflows", q: "what did each lp fund draw down in 2025, totals please", expect: q("cashflows", { type: "call", group: "fund", aggregate: "sum", field: "amount", ...days("2025-01-01", "2025-12-31") }), says: ["Silverline Fund I: 3 cashflows, total amount 3,719,000 USD", "Halcyon Fund V: 2 cashflows, total amount 1,685,000 EUR"] },
  { cat: "cashflows", q: "count of distributions per lp fund since inception", expect: q("cashflows", { type: "distribution", group: "fund", aggregate: "count" }), says: ["44 cashflows that are distributions by fund (4 groups)", "Redwood Peak Fund II: 18 cashflows"] },
  { cat: "deals", q: "how many deals in diligence or ic, per hq city", expect: q("deals", { stage: ["ic", "diligence"], group: "city", aggregate: "count" }), says: ["10 deals at IC and diligence by city", "Lisbon: 3 deals"] },
  { cat: "network", q: "how many folks do we know at brightsense.com", expect: fn("who_knows", { company: "brightsense.com" }), says: ["3 people at brightsense.com are known in your shared network (8 paths through 5 colleagues)"] },
  { cat: "network", q: "who's got a line into abaraquinnllp.com", expect: fn("who_knows", { company: "abaraquinnllp.com" }), says: ["Ravi Kowalski knows Yara Khan (Partner)"] },
  { cat: "follow-up", q: "northstar: how much have they called so far", expect: fn("fund_positions", { fund: "Northstar Growth Fund I", figures: ["called"] }), then: [
    { cat: "follow-up", q: "what's that as a percent", expect: fn("fund_positions", { fund: "Northstar Growth Fund I", figures: ["called_pct"] }), says: ["Northstar Growth Fund I: called as a share of commitment 95%."] },
  ] },
  { cat: "positions", q: "what percentage of our commitment to kinetic has been drawn", expect: fn("fund_positions", { fund: "Kinetic Seed Fund I" }), says: ["called as a share of commitment 43.9%"] },
  { cat: "positions", q: "northstar dpi, last four quarters", expect: q("marks", { name: "Northstar Growth Fund I", field: "dpi", limit: 4 }), says: ["first 4 of"] },
  { cat: "positions", q: "how did silverline's moic evolve in 2025", expect: q("marks", { name: "Silverline Fund I", field: "tvpi", ...days("2025-01-01", "2025-12-31") }), says: ["Silverline Fund I: TVPI"] },
  { cat: "positions", q: "redwood called to date at each of its last 3 marks", expect: q("marks", { name: "Redwood Peak Fund II", field: "called", limit: 3 }), says: ["called to date"] },
  { cat: "negation", q: "funds where the mark isn't out of date", expect: q("positions", { except: { flag: ["stale_nav"] } }), says: ["5 LP positions not flagged stale nav"] },
  { cat: "holdings", q: "portcos with over 50 employees", expect: q("holdings", { where: [{ field: "headcount", op: "gt", value: 50 }] }), says: ["Acme Robotics", "headcount 54 people"] },
  { cat: "follow-up", q: "distributions from atlas bridge in 2026", expect: q("cashflows", { fund: "Atlas Bridge Fund IV", type: "distribution", ...days("2026-01-01", "2026-11-20") }), then: [
    { cat: "follow-up", q: "what about 2025?", expect: q("cashflows", { fund: "Atlas Bridge Fund IV", type: "distribution", ...days("2025-01-01", "2025-12-31") }), says: ["distributions in Atlas Bridge Fund IV dated 2025"] },
  ] },
  { cat: "follow-up", q: "robotics portcos", expect: q("holdings", { sector: "Robotics" }), then: [
    { cat: "follow-up", q: "which of them will last the longest", expect: q("holdings", { sector: "Robotics", order: { by: "runway_months", dir: "desc" } }), says: ["(1 exited or written-off company is left out (Drift Robotics); ask for them by status.)"] },
  ] },
  { cat: "negation", q: "non-fund deals in diligence", expect: q("deals", { stage: ["diligence"], type: "company" }), says: ["deals of companies at diligence"] },
  { cat: "negation", q: "lp funds whose vintage isn't in the 2010s", expect: q("positions", { vintage: { from: 2010, to: 2019, not: true } }), says: ["LP positions of vintage other than the 2010s", "Halcyon Fund V", "Kinetic Seed Fund I", "Silverline Fund I"] },
  { cat: "negation", q: "which deals have no round size on record", expect: q("deals", { where: [{ field: "round_amount", op: "lte", value: 0, orNone: true }] }), says: ["5 deals with no raising", "YarrowShield"] },
  { cat: "cashflows", q: "distributions in 2025: how many, and how much in total", expect: q("cashflows", { type: "distribution", aggregate: "count", field: "amount", ...days("2025-01-01", "2025-12-31") }), says: ["9 cashflows that are distributions dated 2025", "Total amount: 7,901,000 USD and 2,405,000 EUR"] },
];

/** Every phrasing in the corpus, follow-ups included. */
export function allRows(rows: Row[] = CORPUS): Row[] {
  return rows.flatMap((r) => [r, ...allRows(r.then ?? [])]);
}
