// Rows of the tuned `ask` corpus for classes of failure found on the blind dev parts (never the
// held-out part), each written in new words, not the blind question's: the rule fixed is general
// and these rows hold it. Each asserts the operation and the figures the answer must carry.
import { days, fn, LAST_QUARTER, q, type Row } from "./ask-corpus-row.ts";

export const BLIND_CLASSES: Row[] = [
  // A number inside a threshold counts a figure, not the records to list; "N+" is at least N; two
  // bounds on one figure are a range; "at least" ranks nothing.
  { cat: "holdings", q: "portcos not in fund III with more than 45 people", expect: q("holdings", { except: { fund: ["Northwind Fund III"] }, where: [{ field: "headcount", op: "gt", value: 45 }], order: { by: "headcount", dir: "desc" } }), says: ["Relay Robotics", "headcount 55 people", "Quill Dynamics"] },
  { cat: "holdings", q: "which companies have 18+ months runway but less than 24", expect: q("holdings", { where: [{ field: "runway_months", op: "gte", value: 18 }, { field: "runway_months", op: "lt", value: 24 }] }), says: ["with runway at least 18 and below 24", "Acme Robotics", "Quill Dynamics"] },
  { cat: "deals", q: "deals scoring >72", expect: q("deals", { where: [{ field: "score", op: "gt", value: 72 }] }), says: ["with score above 72/100"] },
  { cat: "positions", q: "which lp funds are a 2019 vintage or later", expect: q("positions", { vintage: { from: 2019 } }), says: ["LP positions of vintage 2019 or later", "Northstar Growth Fund I", "Kinetic Seed Fund I"] },
  // "Add up", "sum of the rounds": a total of what deals raise (a score does not add up).
  { cat: "deals", q: "add up what the dollar deals at diligence are raising", expect: q("deals", { stage: ["diligence"], currency: "USD", aggregate: "sum", field: "round_amount" }), says: ["Total raising of"] },
  { cat: "deals", q: "total of the rounds in screening", expect: q("deals", { stage: ["screening"], aggregate: "sum", field: "round_amount" }), says: ["Total raising of"] },
  // A name the records do not hold, in lower case, next to a word records are named with.
  { cat: "not-in-data", q: "how much did we invest in quantaflow robotics", expect: fn("portfolio_company", { company: "Quantaflow Robotics" }), says: ["Quantaflow Robotics is not in your firm's portfolio"] },
  { cat: "not-in-data", q: "dpi of bluepeak capital II", expect: fn("portfolio_company", { company: "Bluepeak Capital II" }), says: ["Bluepeak Capital II is not in your firm's portfolio. Nor is it a deal in your pipeline or one of your LP funds."] },
  { cat: "not-in-data", q: "has orrery health come through the pipeline?", expect: fn("portfolio_company", { company: "Orrery Health" }), says: ["Orrery Health is not in your firm's portfolio"] },
  // Two points in time set against each other: the change from the first's closing statement to the second's.
  { cat: "metrics", q: "kestrel rails runway end of 2025 vs now", expect: q("metrics", { name: "Kestrel Rails", metric: "runway_months", aggregate: "change", ...days("2026-01-01", "2026-11-20") }), says: ["went from 26.1 months (2025-12-31) to 18 months (2026-10-31)"] },
  { cat: "metrics", q: "lumen exchange arr at the end of Q1 versus the end of Q3", expect: q("metrics", { name: "Lumen Exchange", metric: "arr", aggregate: "change", ...days("2026-04-01", "2026-09-30") }), says: ["went from 2,520,528 USD (2026-03-31) to 3,125,540 USD (2026-09-30)"] },
  { cat: "metrics", q: "acme care headcount may vs october", expect: q("metrics", { name: "Acme Care", metric: "headcount", aggregate: "change", ...days("2026-06-01", "2026-10-31") }), says: ["went from 22 people (2026-05-31) to 25 people (2026-10-31)"] },
  { cat: "metrics", q: "nimbus pay burn today vs 12 mos ago", expect: q("metrics", { name: "Nimbus Pay", metric: "monthly_burn", aggregate: "year_change" }), says: ["512,000 EUR (2025-10-31)", "469,000 EUR (2026-10-31)"] },
  // "Since the start of 2025": from that year's first day to today, not the year alone.
  { cat: "cashflows", q: "calls from us since the beginning of 2026", expect: q("cashflows", { type: "call", ...days("2026-01-01", "2026-11-20") }), says: ["5 cashflows that are capital calls", "calls 4,537,000 USD (5)"] },
  // A figure that adds up (money, people) totalled per group; groups by founding year and by data-quality flag.
  { cat: "holdings", q: "staff across the portfolio per fund, combined", expect: q("holdings", { group: "fund", aggregate: "sum", field: "headcount" }), says: ["Northwind Fund III: 6 portfolio companies, total headcount 226 people"] },
  { cat: "deals", q: "how many pipeline companies were founded each year", expect: q("deals", { group: "founded", aggregate: "count" }), says: ["36 deals by founding year (8 groups)", "2020: 8 deals", "founding year unknown: 9 deals"] },
  { cat: "positions", q: "count lp funds by flag", expect: q("positions", { group: "flag", aggregate: "count" }), says: ["cashflows_after_last_mark: 3 LP positions", "stale_nav: 1 LP position (Atlas Bridge Fund IV)"] },
  // Series said by their letter in a list of rounds, counted each; alternatives said once.
  { cat: "deals", q: "at diligence, how many A vs B rounds", expect: q("deals", { stage: ["diligence"], anyOf: { round: ["series a", "series b"] }, group: "round", aggregate: "count" }), says: ["5 deals at diligence raising a Series A or B round", "series a: 3 deals", "series b: 2 deals"] },
  // One's own contacts as a set: by relationship, outside the firm, by the gap since the last touch.
  { cat: "network", q: "my weak vs dormant contacts, how many of each", expect: q("persons", { own: true, anyOf: { status: ["weak", "dormant"] }, group: "status", aggregate: "count" }), says: ["499 people in your own network with a weak or dormant relationship by relationship", "dormant: 381 people", "weak: 118 people"] },
  { cat: "network", q: "how many moderate relationships do i have", expect: q("persons", { own: true, status: ["moderate"], aggregate: "count" }), says: ["95 people in your own network with a moderate relationship"] },
  { cat: "network", q: "who are my 3 strongest contacts who aren't colleagues", expect: q("persons", { own: true, type: "outside", order: { by: "strength", dir: "desc" }, limit: 3 }), says: ["1. Fatima Hansen"] },
  { cat: "network", q: "how many contacts have i not emailed in 9 months", expect: q("persons", { own: true, where: [{ field: "days_since_last_touch", op: "gt", value: 270 }], aggregate: "count" }), says: ["people in your own network with days since the last touch above 270"] },
  // Longest silent first, and the teammates' paths without one's own.
  { cat: "network", q: "which 3 have been quiet the longest", expect: fn("going_stale", { longest_silent: true, limit: 3 }), says: ["longest silent first (the first 3)", "1. Jakob Nguyen <jakob@orbitio.io>: 483 days since the last touch"] },
  { cat: "network", q: "who else on the team besides me knows people at brightsense.com", expect: fn("who_knows", { company: "brightsense.com", exclude_me: true }), says: ["known by your teammates (your own paths left out)"] },
  // Follow-ups: a ranked list shortened keeps its order; another figure of the same total; a bare figure of the record talked about.
  { cat: "follow-up", q: "portcos with runway under 10 months", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 10 }], order: { by: "runway_months", dir: "asc" } }), then: [
    { cat: "follow-up", q: "only the worst 2", expect: q("holdings", { where: [{ field: "runway_months", op: "lt", value: 10 }], order: { by: "runway_months", dir: "asc" }, limit: 2 }), says: ["1. Cobalt Market", "2. Tessera Capital"] },
  ] },
  { cat: "follow-up", q: "quill dynamics: total invested", expect: q("holdings", { name: "Quill Dynamics", aggregate: "sum", field: "invested" }), then: [
    { cat: "follow-up", q: "and what's it worth now?", expect: q("holdings", { name: "Quill Dynamics", aggregate: "sum", field: "valuation" }), says: ["26,007,000 USD", "Northwind Fund I invested 5,700,000 USD, valued 10,047,000 USD"] },
  ] },
  { cat: "follow-up", q: "what's emberroute raising", expect: fn("deal_status", { deal: "EmberRoute", figure: "round_amount" }), then: [
    { cat: "follow-up", q: "at what pre-money?", expect: fn("deal_status", { deal: "EmberRoute", figure: "pre_money" }), says: ["EmberRoute's pre-money valuation"] },
  ] },
  // A figure of each record the last list named; a total per fund of the calls or distributions listed.
  { cat: "follow-up", q: "distributions we got in 2026", expect: q("cashflows", { type: "distribution", ...days("2026-01-01", "2026-11-20") }), then: [
    { cat: "follow-up", q: "what's each of those funds' tvpi", expect: q("positions", { names: ["Redwood Peak Fund II", "Atlas Bridge Fund IV", "Halcyon Fund V"], show: ["tvpi"] }), says: ["Redwood Peak Fund II: TVPI 2.92x.", "Halcyon Fund V: TVPI 1.22x."] },
  ] },
  { cat: "follow-up", q: "capital calls in 2025", expect: q("cashflows", { type: "call", ...days("2025-01-01", "2025-12-31") }), then: [
    { cat: "follow-up", q: "how much did each one call in total", expect: q("cashflows", { type: "call", group: "fund", aggregate: "sum", field: "amount", ...days("2025-01-01", "2025-12-31") }), says: ["Halcyon Fund V: 2 cashflows, total amount 1,685,000 EUR"] },
  ] },
  // "N months ago" is that month; against now, the change since; "now vs June" says the present first.
  // ("N months ago" of one record is N months before its latest statement, as the issue says of a year ago.)
  { cat: "metrics", q: "fathom ai arr 18 months ago", expect: q("metrics", { name: "Fathom AI", metric: "arr", aggregate: "year_ago", months_back: 18 }), says: ["eighteen months before its latest statement (2026-10-31): 3,110,610 USD (statement of 2025-04-30)"] },
  { cat: "metrics", q: "how has fathom ai's arr grown since 6 months ago", expect: q("metrics", { name: "Fathom AI", metric: "arr", aggregate: "change", ...days("2026-06-01", "2026-11-20") }), says: ["went from 5,394,465 USD (2026-05-31) to 6,426,397 USD (2026-10-31)"] },
  { cat: "metrics", q: "kestrel rails runway today compared to the end of 2025", expect: q("metrics", { name: "Kestrel Rails", metric: "runway_months", aggregate: "change", ...days("2026-01-01", "2026-11-20") }), says: ["went from 26.1 months (2025-12-31) to 18 months (2026-10-31)"] },
  { cat: "holdings", q: "portcos in robotics or vertical saas", expect: q("holdings", { anyOf: { sector: ["Robotics", "Vertical SaaS"] } }), says: ["Acme Works"] },
  // Companies by which way a figure moved; "over the past year" of every company is year over year.
  { cat: "negation", q: "which portcos' monthly burn went down over the past year", expect: q("metrics", { metric: "monthly_burn", aggregate: "year_change", where: [{ field: "change", op: "lt", value: 0 }] }), says: ["the 9 of 16 portfolio companies that fell", "Nimbus Grid: 197,000 EUR (2025-09-30) to 137,000 EUR (2026-09-30)"] },
  { cat: "negation", q: "portcos whose headcount hasn't grown in the last 12 months", expect: q("metrics", { metric: "headcount", aggregate: "year_change", where: [{ field: "change", op: "lte", value: 0 }] }), says: ["the 2 of 16 portfolio companies that did not grow", "Drift Freight: 30 people (2025-10-31) to 30 people (2026-10-31)"] },
  { cat: "negation", q: "which companies did not grow arr this year", expect: q("metrics", { metric: "arr", aggregate: "change", where: [{ field: "change", op: "lte", value: 0 }], ...days("2026-01-01", "2026-11-20") }), says: ["All 18 portfolio companies with two actuals of ARR in this year (2026-01-01 to 2026-11-20) grew: none stayed flat or fell."] },
  // Some of a flow, or none of it; a company left out by its first word; "what did Fund III put into" is a total.
  { cat: "negation", q: "usd lp funds that have returned money to us, apart from atlas", expect: q("positions", { currency: "USD", except: { fund: ["Atlas Bridge Fund IV"] }, where: [{ field: "distributed", op: "gt", value: 0 }] }), says: ["Redwood Peak Fund II", "Northstar Growth Fund I"] },
  { cat: "negation", q: "which lp funds have sent nothing back in 2025", expect: q("positions", { where: [{ field: "distributed", op: "lte", value: 0, orNone: true }], ...days("2025-01-01", "2025-12-31") }), says: ["with no distributed"] },
  { cat: "negation", q: "what did fund III put into its companies, leaving out nimbus", expect: q("holdings", { fund: "Northwind Fund III", except: { name: ["Nimbus Grid", "Nimbus Pay"] }, aggregate: "sum", field: "invested" }), says: ["Total invested of 4 portfolio companies in Northwind Fund III not named Nimbus Grid, not named Nimbus Pay: 32,600,000 USD"] },
  // Both kinds of deal counted each; "pre-seed or seed" are two rounds; companies "we still hold" are the active
  // ones, and two funds' positions in one company both count in what the funds put in; funds by brand side by side.
  { cat: "deals", q: "company deals vs fund deals - count of each", expect: q("deals", { group: "kind", aggregate: "count" }), says: ["company: 32 deals", "fund: 4 deals"] },
  { cat: "deals", q: "pre-seed or seed deals in dollars", expect: q("deals", { anyOf: { round: ["pre-seed", "seed"] }, currency: "USD" }), says: ["raising a pre-seed or seed round"] },
  { cat: "holdings", q: "what have fund I and fund II invested in companies we still hold", expect: q("holdings", { status: ["active"], anyOf: { fund: ["Northwind Fund I", "Northwind Fund II"] }, aggregate: "sum", field: "invested" }), says: ["Total invested of 12 portfolio companies in Northwind Fund I or II active: 51,550,000 USD (10 portfolio companies) and 7,200,000 EUR (2 portfolio companies)"] },
  { cat: "positions", q: "which is doing better on dpi, redwood or halcyon?", expect: q("positions", { names: ["Halcyon Fund V", "Redwood Peak Fund II"], show: ["dpi"] }), says: ["Redwood Peak Fund II: DPI 1.98x.", "Halcyon Fund V: DPI 0.31x."] },

  // Follow-ups that point back (found on dev4): "that" after a ranking is its first record's figure;
  // "that month" is the last question's period; another figure of the record just asked about;
  // "together?" after two companies' figures; a figure asked in another currency is never converted.
  { cat: "follow-up", q: "who's got the most runway", expect: q("holdings", { order: { by: "runway_months", dir: "desc" }, limit: 1 }), then: [
    { cat: "follow-up", q: "was that up vs a year earlier?", expect: q("metrics", { name: "Nimbus Grid", metric: "runway_months", aggregate: "year_change" }), says: ["5.9 months (2025-09-30)", "Latest: 72.5 months (2026-09-30)"] },
  ] },
  { cat: "follow-up", q: "kestrel rails burn in june", expect: q("metrics", { name: "Kestrel Rails", metric: "monthly_burn", aggregate: "at", ...days("2026-06-01", "2026-06-30") }), says: ["409,000 USD (statement of 2026-06-30)"], then: [
    { cat: "follow-up", q: "and headcount that month?", expect: q("metrics", { name: "Kestrel Rails", metric: "headcount", aggregate: "at", ...days("2026-06-01", "2026-06-30") }), says: ["44 people (statement of 2026-06-30)"] },
  ] },
  { cat: "follow-up", q: "relay robotics arr", expect: fn("portfolio_company", { company: "Relay Robotics", metric: "arr" }), then: [
    { cat: "follow-up", q: "and acme care?", expect: fn("portfolio_company", { company: "Acme Care", metric: "arr" }), then: [
      { cat: "follow-up", q: "together?", expect: q("holdings", { names: ["Relay Robotics", "Acme Care"], field: "arr", aggregate: "sum" }), says: ["Total ARR of 2 portfolio companies", "6,828,121 USD"] },
    ] },
  ] },
  { cat: "follow-up", q: "halcyon tvpi", expect: fn("fund_positions", { fund: "Halcyon Fund V", figures: ["tvpi"] }), then: [
    { cat: "follow-up", q: "convert that to usd", expect: fn("fund_positions", { fund: "Halcyon Fund V", figures: ["tvpi"] }), says: ["I never convert between currencies", "Halcyon Fund V: TVPI 1.22x", "15,456,196 EUR"] },
  ] },
  { cat: "follow-up", q: "total raise of usd deals", expect: q("deals", { currency: "USD", aggregate: "sum", field: "round_amount" }), then: [
    { cat: "follow-up", q: "and in euros?", expect: q("deals", { currency: "EUR", aggregate: "sum", field: "round_amount" }), says: ["Total raising of 6 deals raising in EUR: 91,000,000 EUR"] },
  ] },
  { cat: "follow-up", q: "northstar committed?", expect: fn("fund_positions", { fund: "Northstar Growth Fund I", figures: ["commitment"] }), then: [
    { cat: "follow-up", q: "how much has been called so far", expect: fn("fund_positions", { fund: "Northstar Growth Fund I", figures: ["called"] }), says: ["Northstar Growth Fund I: called 9,500,000 USD."], then: [
      { cat: "follow-up", q: "and the dpi", expect: fn("fund_positions", { fund: "Northstar Growth Fund I", figures: ["dpi"] }), says: ["Northstar Growth Fund I: DPI 0.55x."] },
    ] },
  ] },
  // Negation as people write it: a bound not reached, "besides", "not based in" (records whose city
  // is unknown are not known to be elsewhere: left out and said), "remove the X ones", an own fund's companies.
  { cat: "negation", q: "which portcos haven't reached 30 people", expect: q("holdings", { where: [{ field: "headcount", op: "lt", value: 30 }] }), says: ["3 portfolio companies (active) with headcount below 30", "Cobalt Market"] },
  { cat: "negation", q: "anyone besides Relay Robotics burning more than 550k a month", expect: q("holdings", { except: { name: ["Relay Robotics"] }, where: [{ field: "monthly_burn", op: "gt", value: 550000 }] }), says: ["2 portfolio companies (active) not named Relay Robotics with monthly burn above 550,000", "Acme Robotics"] },
  { cat: "negation", q: "deals in screening not based in berlin", expect: q("deals", { stage: ["screening"], except: { location: ["Berlin"] } }), says: ["8 deals at screening not based in Berlin", "1 deal with city unknown in your records is left out, as not known to be other than Berlin: Northlight Fund II"] },
  { cat: "follow-up", q: "deals at ic", expect: q("deals", { stage: ["ic"] }), then: [
    { cat: "negation", q: "ok remove the seed ones", expect: q("deals", { stage: ["ic"], except: { round: ["seed"] } }), says: ["2 deals at IC not raising a seed round", "EmberRoute"] },
  ] },
  { cat: "negation", q: "fund iii companies not held in dollars", expect: q("holdings", { fund: "Northwind Fund III", except: { currency: ["USD"] } }), says: ["2 portfolio companies in Northwind Fund III not held in USD", "Nimbus Grid"] },
  // Totals as people say them: startup deals are company deals; "what's our X"; a ticket; what was put to work overall.
  { cat: "deals", q: "startup deals raising in euros, total", expect: q("deals", { type: "company", currency: "EUR", aggregate: "sum", field: "round_amount" }), says: ["Total raising of 6 deals of companies raising in EUR: 91,000,000 EUR"] },
  { cat: "positions", q: "what's our unfunded", expect: q("positions", { aggregate: "sum", field: "unfunded" }), says: ["Total unfunded of 6 LP positions: 14,622,000 USD (5 LP positions) and 900,000 EUR (1 LP position)"] },
  { cat: "positions", q: "how much do we still owe halcyon", expect: fn("fund_positions", { fund: "Halcyon Fund V", figures: ["unfunded"] }), says: ["Halcyon Fund V: unfunded 900,000 EUR."] },
  { cat: "holdings", q: "average ticket in fund i", expect: q("holdings", { fund: "Northwind Fund I", aggregate: "avg", field: "invested" }), says: ["Average invested of 9 portfolio companies in Northwind Fund I: 3,512,500 USD (8 portfolio companies) and 4,200,000 EUR (1 portfolio company)"] },
  { cat: "holdings", q: "what have we deployed overall", expect: q("holdings", { aggregate: "sum", field: "invested", all_time: true }), says: ["Total invested of 23 portfolio companies, the exited and written-off ones included: 100,650,000 USD (18 portfolio companies) and 22,800,000 EUR (5 portfolio companies)", "In the 18 companies held today alone: 84,150,000 USD"] },
  // Change over time: the largest fall first (or none fell); ttm is year over year; "by the end of 2025" runs from the start.
  { cat: "metrics", q: "which company's headcount fell the most this year", expect: q("metrics", { metric: "headcount", aggregate: "change", where: [{ field: "change", op: "lt", value: 0 }], order: { by: "change", dir: "asc" } }), says: ["None of the 18 portfolio companies with two actuals of headcount in this year"] },
  { cat: "metrics", q: "acme care arr growth over the past 12 months", expect: q("metrics", { name: "Acme Care", metric: "arr", aggregate: "year_change" }), says: ["3,090,922 USD (2025-10-31)", "Latest: 4,683,272 USD (2026-10-31); a change of +1,592,350 USD (+51.5%)"] },
  { cat: "cashflows", q: "total called from redwood by the end of 2025", expect: q("cashflows", { fund: "Redwood Peak Fund II", type: "call", aggregate: "sum", field: "amount", dates: { from: null, to: "2025-12-31" } }), says: ["18,050,000 USD (12 cashflows)"] },
  { cat: "metrics", q: "acme robotics runway at the end of last qtr", expect: q("metrics", { name: "Acme Robotics", metric: "runway_months", aggregate: "at", ...LAST_QUARTER }), says: ["19.8 months (statement of 2026-09-30)"] },
  { cat: "not-in-data", q: "nimbus pay ebitda last qtr", expect: q("metrics", { name: "Nimbus Pay", metric: "ebitda", aggregate: "at" }), says: ["I can't give Nimbus Pay's EBITDA: it is not in your records"] },
  // Figures from updates that wait for review are what the founders said, said apart with why they wait.
  { cat: "updates", q: "which update numbers still need a review", expect: fn("updates_for_review", {}), says: ["3 figures from 2 companies' investor updates are waiting for your review", "cash: 7,050,000 USD with no period said", "the book already has 4,683,272 USD for this period"] },
  { cat: "updates", q: "what cash did acme robotics tell us they had", expect: fn("investor_updates", { company: "Acme Robotics" }), says: ["Waiting for your review, so not in the book yet", "cash: 7,050,000 USD"] },
  // A short name shared by a company held today and one exited is the one held, and the answer says so.
  { cat: "holdings", q: "headcount at drift", expect: fn("portfolio_company", { company: "Drift Freight", metric: "headcount" }), says: ['("drift" read as Drift Freight, held today: Drift Robotics is exited or written off.)'] },
  // One day said as a point (ISO or "30 june 2025"): what stood on it. "N months ago" of one record is before its latest statement.
  { cat: "metrics", q: "relay robotics burn as of 2026-02-28", expect: q("metrics", { name: "Relay Robotics", metric: "monthly_burn", aggregate: "at", dates: { from: null, to: "2026-02-28" } }), says: ["Relay Robotics' monthly burn as of 2026-02-28: 573,000 USD (statement of 2026-02-28)"] },
  { cat: "positions", q: "redwood nav as of 30 june 2025", expect: q("positions", { fund: "Redwood Peak Fund II", field: "nav", dates: { from: null, to: "2025-06-30" } }), says: ["as of 2025-06-30", "20,762,723 USD"] },
  { cat: "positions", q: "atlas bridge unfunded at the 2025-09-30 mark", expect: q("marks", { name: "Atlas Bridge Fund IV", field: "unfunded", aggregate: "at" }), says: ["Atlas Bridge Fund IV's unfunded as of 2025-09-30: 4,263,000 USD"] },
  { cat: "positions", q: "northstar tvpi at its latest mark", expect: q("marks", { name: "Northstar Growth Fund I", field: "tvpi", aggregate: "at" }), says: ["1.72x (statement of 2026-09-30)"] },
  { cat: "metrics", q: "kestrel rails headcount three months ago", expect: q("metrics", { name: "Kestrel Rails", metric: "headcount", aggregate: "year_ago", months_back: 3 }), says: ["three months before its latest statement (2026-10-31): 44 people (statement of 2026-07-31)"] },
  { cat: "deals", q: "deals that came in on or after 2026-11-01", expect: q("deals", { dates: { from: "2026-11-01", to: "2026-11-20" } }), says: ["6 deals that came in on or after 2026-11-01"] },
  { cat: "metrics", q: "helio rails a r r in twenty twenty five", expect: q("metrics", { name: "Helio Rails", metric: "arr", aggregate: "at", dates: { from: "2025-01-01", to: "2025-12-31" } }), says: ["3,625,516 EUR (statement of 2025-12-31)"] },
  { cat: "cashflows", q: "silverline calls 2025 total", expect: q("cashflows", { fund: "Silverline Fund I", type: "call", aggregate: "sum", dates: { from: "2025-01-01", to: "2025-12-31" } }), says: ["3,719,000 USD (3 cashflows)"] },
  // What was not marked up is held at cost or below; funds by when they were last marked; a negated act keeps the place after it.
  { cat: "negation", q: "holdings not marked up", expect: q("holdings", { where: [{ field: "multiple", op: "lte", value: 1 }] }), says: ["4 portfolio companies with multiple at most 1x"] },
  { cat: "positions", q: "LP funds not marked since june", expect: q("positions", { where: [{ field: "last_mark", op: "lt", orNone: true }] }), says: ["1 LP position with last marked before 2026-06-01 or never", "Atlas Bridge Fund IV"] },
  { cat: "negation", q: "deals we did not pass on in fintech", expect: q("deals", { sector: "Fintech", except: { stage: ["passed"] } }), says: ["4 deals in Fintech not at passed"] },
  // Dictated amounts; "startups" in the pipeline are company deals (not "operating companies": funds); a month is never a record's name.
  { cat: "negation", q: "portcos not burning over two hundred and fifty k a month", expect: q("holdings", { where: [{ field: "monthly_burn", op: "lte", value: 250000 }] }), says: ["with monthly burn at most 250,000"] },
  { cat: "deals", q: "how many startups in the pipeline are at screening", expect: q("deals", { type: "company", stage: ["screening"], aggregate: "count" }) },
  { cat: "deals", q: "pipeline entries that aren't operating companies", expect: q("deals", { type: "fund" }), says: ["4 deals of funds raising"] },
  { cat: "holdings", q: "Which portcos still haven't sent numbers for September 2026?", expect: q("holdings", { where: [{ field: "last_reported", op: "lt", orNone: true }] }) },
  // A change over dates lists the statements it runs over; quarter-ends of a year, calendar years, two quarter-ends set against each other.
  { cat: "metrics", q: "how did nimbus pay's burn move over the last three months", expect: q("metrics", { name: "Nimbus Pay", metric: "monthly_burn", aggregate: "change" }), says: ["Each statement: 2026-07-31 498,000 EUR; 2026-08-31 501,000 EUR; 2026-09-30 478,000 EUR; 2026-10-31 469,000 EUR."] },
  { cat: "metrics", q: "kestrel rails headcount at the quarter-ends of 2025", expect: q("metrics", { name: "Kestrel Rails", metric: "headcount", dates: { from: "2025-01-01", to: "2025-12-31" } }) },
  { cat: "cashflows", q: "redwood distributions in calendar year 2024, total", expect: q("cashflows", { fund: "Redwood Peak Fund II", type: "distribution", aggregate: "sum", dates: { from: "2024-01-01", to: "2024-12-31" } }), says: ["7,018,000 USD (4 cashflows)"] },
  { cat: "metrics", q: "quill dynamics burn from the Q1 2026 quarter-end to the Q3 2026 quarter-end", expect: q("metrics", { name: "Quill Dynamics", metric: "monthly_burn", aggregate: "change", dates: { from: "2026-04-01", to: "2026-09-30" } }), says: ["went from 531,000 USD (2026-03-31) to 506,000 USD (2026-09-30)"] },
  // A holding's stage, status, website and entry date are its own (not a deal's); the noun counted is the kind, "each X" its groups.
  { cat: "holdings", q: "what stage is nimbus pay at", expect: fn("portfolio_company", { company: "Nimbus Pay" }) },
  { cat: "holdings", q: "nimbus grid's site?", expect: fn("portfolio_company", { company: "Nimbus Grid" }), says: ["Website: nimbusgrid.com."] },
  { cat: "holdings", q: "when did the firm first back helio rails", expect: q("holdings", { name: "Helio Rails", show: ["investment_date"] }) },
  { cat: "holdings", q: "how many companies did each of our funds write off", expect: q("holdings", { group: "fund", aggregate: "count" }) },
  { cat: "positions", q: "how many NAV marks do we hold per LP fund", expect: q("marks", { group: "fund", aggregate: "count" }), says: ["158 NAV marks by fund (6 groups)", "Redwood Peak Fund II: 47 NAV marks"] },
  { cat: "deals", q: "deals per calendar month from september 2026 onward", expect: q("deals", { group: "month", dates: { from: "2026-09-01" } }) },
  // One record's figures are shown, not totalled over it; "each" after a list is each one's own figure; the book's actuals when no update was read.
  { cat: "holdings", q: "nimbus pay: what's it valued at and what did we put in", expect: q("holdings", { name: "Nimbus Pay", show: ["valuation", "invested"] }), says: ["Nimbus Pay: valued at 11,070,000 EUR; invested 7,200,000 EUR."] },
  { cat: "follow-up", q: "deals at diligence", expect: q("deals", { stage: ["diligence"] }), then: [
    { cat: "follow-up", q: "how much is each raising", expect: q("deals", { stage: ["diligence"], show: ["round_amount"] }) },
  ] },
  { cat: "updates", q: "latest ARR kestrel rails reported", expect: fn("investor_updates", { company: "Kestrel Rails" }), says: ["Its latest actuals in your book (imported, not read from an update): ARR 4,668,177 USD (2026-10-31)"] },
  // A period's revenue and a round's lead investor are not in the records (said first); a name begins with its unknown capitalised words.
  { cat: "not-in-data", q: "acme care revenue in september", expect: q("metrics", { name: "Acme Care", metric: "arr" }), says: ["Revenue for a period (the records keep ARR, given instead where asked): not in your records"] },
  { cat: "not-in-data", q: "which deals have a lead investor lined up", expect: fn("list_deals"), says: ["The lead investor or co-investors of a round (who leads or joins it): not in your records"] },
  { cat: "not-in-data", q: "what did Blue Harbor Growth Fund call from us", expect: fn("portfolio_company", { company: "Blue Harbor Growth Fund" }), says: ["Blue Harbor Growth Fund is not in your firm's portfolio"] },
  { cat: "cashflows", q: "distributions received 2024 total", expect: q("cashflows", { type: "distribution", aggregate: "sum", dates: { from: "2024-01-01", to: "2024-12-31" } }) },
  { cat: "positions", q: "date of halcyon's latest valuation mark", expect: q("positions", { fund: "Halcyon Fund V" }), says: ["last marked 2026-09-30"] },
  // A company's figure against its budget, date by date, the variance the actual less the budget; its budgets alone.
  { cat: "metrics", q: "helio rails burn against budget in august 2026", expect: q("metrics", { name: "Helio Rails", metric: "monthly_burn", budget: "versus" }), says: ["2026-08-31: value 495,000 EUR (as of 2026-08-31); budget 795,000 EUR (as of 2026-08-31); against budget -300,000 EUR"] },
  { cat: "metrics", q: "what was relay robotics' planned burn in 2026", expect: q("metrics", { name: "Relay Robotics", metric: "monthly_burn", budget: "only" }), says: ["budget 825,000 USD (2026-10-31)"] },
  // A name that adds a word none of the companies sharing its first word has is another company; a named company's figure asked in another currency is not converted.
  { cat: "not-in-data", q: "burn at helio labs?", expect: fn("portfolio_company", { company: "Helio Labs" }), says: ["Helio Labs is not in your firm's portfolio"] },
  { cat: "not-in-data", q: "what's the runway of acme systems", expect: fn("portfolio_company", { company: "Acme Systems" }), says: ["Acme Systems is not in your firm's portfolio (held with a name like it: Acme Care, Acme Robotics and Acme Works)"] },
  { cat: "holdings", q: "fathom robotics burn in dollars please", expect: fn("portfolio_company", { company: "Fathom Robotics" }), says: ["Your records keep no exchange rates, so I never convert between currencies", "Monthly burn: 477,000 EUR"] },
  { cat: "not-in-data", q: "IRR of Northwind Fund III?", expect: fn("fund_positions", { fund: "Northwind Fund III" }), says: ["I can't give a TVPI, DPI or IRR of it"] },
  // Days written day first or month first, query notation, European amounts; a figure the records do not keep is not answered with another.
  { cat: "metrics", q: "kestrel rails ARR at 30.09.2025", expect: q("metrics", { name: "Kestrel Rails", metric: "arr", aggregate: "at", dates: { to: "2025-09-30" } }) },
  { cat: "metrics", q: "Nimbus Grid headcount at 31/12/2025?", expect: q("metrics", { name: "Nimbus Grid", metric: "headcount", aggregate: "at", dates: { to: "2025-12-31" } }) },
  { cat: "holdings", q: "SELECT name FROM holdings WHERE status = 'active' AND sector NOT IN ('Logistics', 'Robotics') AND currency = 'EUR'", expect: q("holdings", { status: ["active"], currency: "EUR" }), says: ["not in Logistics, not in Robotics"] },
  { cat: "deals", q: "count(*) from deals group by type", expect: q("deals", { group: "kind", aggregate: "count" }) },
  { cat: "holdings", q: "portcos where ownership_pct is null", expect: q("holdings", { where: [{ field: "ownership", op: "lte", orNone: true }] }), says: ["Fathom AI", "Relay Robotics"] },
  { cat: "deals", q: "startups raising at most 4,5 Mio EUR", expect: q("deals", { where: [{ field: "round_amount", op: "lte", value: 4500000, currency: "EUR" }] }) },
  { cat: "not-in-data", q: "what carried interest has Halcyon Fund V booked so far", expect: { clarify: "Fund fees and carry (\"carried interest\") of Halcyon Fund V: not in your records" } },
  // A median is the middle record's own figure, per currency; a plain mean of a ratio when asked for one (never pooled then).
  { cat: "holdings", q: "median burn across active portcos", expect: q("holdings", { status: ["active"], field: "monthly_burn", aggregate: "median" }), says: ["Median monthly burn of"] },
  { cat: "positions", q: "unweighted average DPI over the LP funds", expect: q("positions", { field: "dpi", aggregate: "avg", unweighted: true }), says: ["the plain mean of each one's own figure, not pooled"] },
  // A deal's post-money is its pre-money and its round together; a total by group ends with all the groups together; two negated sectors apart.
  { cat: "deal", q: "what's the post money on MosaicTreasury", expect: fn("deal_status", { figure: "post_money" }), says: ["MosaicTreasury's post-money valuation: 20,000,000 USD"] },
  { cat: "holdings", q: "what did each fund invest in Cobalt Rails, and overall?", expect: q("holdings", { name: "Cobalt Rails", group: "fund", aggregate: "sum", field: "invested" }), says: ["In total, all funds together: 6,600,000 USD."] },
  { cat: "holdings", q: "portcos not in robotics and also not in fintech", expect: q("holdings", { except: { sector: ["Robotics", "Fintech"] } }) },
  { cat: "deals", q: "startups seeking no more than 3 Mio EUR", expect: q("deals", { where: [{ field: "round_amount", op: "lte", value: 3000000, currency: "EUR" }] }) },
  // "My contacts at a domain" are the key user's own relationships there, not the shared network's paths.
  { cat: "network", q: "my contacts at quillstack.ai, strongest first", expect: q("persons", { own: true, name: "quillstack.ai" }), says: ["in your own network at quillstack.ai", "Rosa Alvarez"] },
];
