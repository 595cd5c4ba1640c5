// A venture firm's book as CSV files (CONTRACT.md, "Import formats"), deterministic for a seed and
// an as-of date: its holdings across its own funds with monthly metric histories (some with
// budgets), and its LP commitments to other managers' funds with about ten years of calls,
// distributions and quarterly marks. `dealgraph demo` writes these files and loads them through
// the real importers.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { rng } from "./rng.ts";

export type BookOptions = { seed?: number; asOf?: Date; firmName?: string };
export type BookCsv = { portfolio: string; metrics: string; commitments: string; cashflows: string; marks: string };
export type BookCounts = { holdings: number; metricPoints: number; commitments: number; cashflows: number; marks: number };

type Rng = ReturnType<typeof rng>;

const PREFIX = ["Acme", "Bright", "Cobalt", "Drift", "Ember", "Fathom", "Granite", "Helio", "Iris", "Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Orbit", "Pylon", "Quill", "Relay", "Sable", "Tessera", "Umbra", "Vela", "Wren", "Zephyr"];
// Each sector with the words its companies' names end in.
const SECTORS: [sector: string, suffixes: string[]][] = [
  ["Fintech", ["Pay", "Ledger", "Capital"]],
  ["Payments infrastructure", ["Pay", "Rails"]],
  ["Digital health", ["Health", "Care", "Bio"]],
  ["Climate software", ["Grid", "Carbon", "Energy"]],
  ["AI infrastructure", ["AI", "Labs"]],
  ["Developer tools", ["Cloud", "Dev", "Works"]],
  ["Security", ["Security", "Shield"]],
  ["Vertical SaaS", ["Systems", "Works"]],
  ["Logistics", ["Logistics", "Freight"]],
  ["Marketplaces", ["Market", "Exchange"]],
  ["Robotics", ["Robotics", "Dynamics"]],
];
const STAGES = ["seed", "series_a", "series_b", "series_c", "growth"];
const LP_MANAGERS = ["Redwood Peak", "Atlas Bridge", "Northstar Growth", "Halcyon", "Silverline", "Kinetic Seed"];
const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII"];

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");
const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const monthEnd = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0));
const quarterEnd = (d: Date) => monthEnd(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3 + 2);

/** One CSV line (RFC 4180): quotes only where a field needs them. */
export function csvLine(values: (string | number | null)[]): string {
  return values
    .map((v) => {
      const s = v === null ? "" : String(v);
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(",");
}
const csv = (header: string[], rows: (string | number | null)[][]) => [header, ...rows].map(csvLine).join("\n") + "\n";

type Holding = {
  name: string;
  website: string;
  sector: string;
  stage: string;
  status: "active" | "exited" | "written_off";
  fund: string;
  invested: Date;
  ownership: number | null;
  amount: number;
  valuation: number | null;
  currency: string;
  endedAt: Date | null;
};

/** The firm's own funds and their holdings; a few companies get a follow-on from a later fund. */
function holdings(r: Rng, firm: string, asOf: Date): Holding[] {
  const funds = [
    { name: `${firm} Fund I`, from: new Date(Date.UTC(asOf.getUTCFullYear() - 9, 0, 1)), years: 4 },
    { name: `${firm} Fund II`, from: new Date(Date.UTC(asOf.getUTCFullYear() - 5, 0, 1)), years: 3 },
    { name: `${firm} Fund III`, from: new Date(Date.UTC(asOf.getUTCFullYear() - 2, 0, 1)), years: 2 },
  ];
  const names = new Set<string>();
  const out: Holding[] = [];
  for (const [i, fund] of funds.entries()) {
    const count = [9, 8, 6][i];
    for (let k = 0; k < count; k++) {
      const [sector, suffixes] = r.pick(SECTORS);
      let name: string;
      do name = `${r.pick(PREFIX)} ${r.pick(suffixes)}`;
      while (names.has(name));
      names.add(name);
      const invested = addDays(fund.from, r.int(0, fund.years * 365));
      const age = (asOf.getTime() - invested.getTime()) / (365 * 86_400_000);
      const roll = r.next();
      const status = i === 0 && roll < 0.3 ? "exited" : i < 2 && roll > 0.9 ? "written_off" : "active";
      const amount = Math.round((r.int(5, 60) * 100_000 * (1 + i * 0.5)) / 1000) * 1000;
      // Mostly 0.4x-3x, with the odd breakout; more spread the older the investment.
      const spread = ((r.next() + r.next() + r.next()) / 3 - 0.4) * Math.min(age, 6) * 0.45;
      const multiple = status === "written_off" ? 0 : Math.exp(spread) * (r.chance(0.08) ? 3 : 1);
      const valuation = Math.round((amount * multiple) / 1000) * 1000;
      const endedAt = status === "active" ? null : addDays(invested, r.int(700, Math.max(701, Math.floor(age * 365) - 30)));
      out.push({
        name,
        website: `${r.chance(0.2) ? "https://www." : ""}${slug(name)}.${r.pick(["com", "io", "ai", "co"])}`,
        sector,
        stage: STAGES[Math.min(STAGES.length - 1, Math.floor(age / 2) + r.int(0, 1))],
        status,
        fund: fund.name,
        invested,
        ownership: r.chance(0.9) ? Math.round(r.int(20, 200) / 10 * 10) / 10 : null,
        amount,
        valuation,
        currency: r.chance(0.12) ? "EUR" : "USD",
        endedAt,
      });
    }
  }
  // The latest investment has not been revalued since its round: its valuation is not in the ledger.
  const latest = out.reduce((a, b) => (b.invested > a.invested ? b : a));
  latest.valuation = null;
  // Follow-ons: a later fund backs some of the earlier funds' winners again.
  for (const h of out.filter((x) => x.status === "active" && x.fund === funds[0].name).slice(0, 2)) {
    const invested = addDays(funds[1].from, r.int(30, 700));
    out.push({ ...h, fund: funds[1].name, stage: "series_b", invested, amount: h.amount * 2, valuation: h.valuation && Math.round(h.amount * 2.8), ownership: 2.5 });
  }
  return out;
}

/** Monthly actuals (arr, monthly_burn, runway_months, headcount, gross_margin) and some budgets. */
function metricRows(r: Rng, list: Holding[], asOf: Date): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [];
  const lastMonth = monthEnd(asOf.getUTCFullYear(), asOf.getUTCMonth() - 1);
  for (const h of list.filter((x, i) => list.findIndex((y) => y.website === x.website) === i)) {
    if (r.chance(0.08)) continue; // a holding that has not reported yet: metrics {}
    const cur = h.currency;
    const end = h.endedAt && h.endedAt < lastMonth ? h.endedAt : lastMonth;
    let start = new Date(Date.UTC(h.invested.getUTCFullYear(), h.invested.getUTCMonth() + 1, 1));
    const earliest = new Date(Date.UTC(end.getUTCFullYear() - 3, end.getUTCMonth(), 1));
    if (start < earliest) start = earliest;
    let arr = r.int(2, 40) * 50_000;
    let cash = r.int(10, 60) * 100_000;
    let headcount = r.int(6, 40);
    const growth = h.status === "written_off" ? -0.01 : 0.01 + r.next() * 0.05;
    for (let m = new Date(start); m <= end; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) {
      const at = day(monthEnd(m.getUTCFullYear(), m.getUTCMonth()));
      arr = Math.round(arr * (1 + growth + (r.next() - 0.5) * 0.03));
      headcount = Math.max(3, headcount + r.int(-1, 2));
      const burn = Math.round((headcount * 14_000 - arr / 12 * 0.6) / 1000) * 1000;
      const netBurn = Math.max(burn, 10_000);
      cash -= netBurn;
      // a round (or a bridge) when runway gets short
      if (cash < netBurn * 6 && r.chance(0.35)) cash += r.int(20, 120) * 100_000;
      if (r.chance(0.04)) continue; // a month that was not reported
      rows.push([h.website, "arr", arr, null, cur, at, null]);
      rows.push([h.website, "monthly_burn", netBurn, null, cur, at, null]);
      rows.push([h.website, "runway_months", Math.max(0, Math.round((cash / netBurn) * 10) / 10), "months", null, at, null]);
      rows.push([h.website, "headcount", headcount, "people", null, at, null]);
      rows.push([h.website, "gross_margin", Math.round((55 + r.next() * 30) * 10) / 10, "percent", null, at, null]);
    }
    // This year's plan, for about half of the active companies.
    if (h.status === "active" && r.chance(0.5)) {
      let planArr = arr;
      for (let month = 0; month < 12; month++) {
        const at = day(monthEnd(asOf.getUTCFullYear(), month));
        planArr = Math.round(planArr * 1.04);
        rows.push([h.website, "arr", planArr, null, cur, at, "budget"]);
        rows.push([h.website, "monthly_burn", Math.round(headcount * 15_000 / 1000) * 1000, null, cur, at, "budget"]);
      }
    }
  }
  return rows;
}

type Ledger = { commitments: (string | number | null)[][]; cashflows: (string | number | null)[][]; marks: (string | number | null)[][] };

/** LP commitments with their calls and distributions, and a NAV marked every quarter end. */
function lpBook(r: Rng, asOf: Date): Ledger {
  const out: Ledger = { commitments: [], cashflows: [], marks: [] };
  const reported = quarterEnd(addDays(quarterEnd(asOf), -100)); // the last quarter already reported
  const vintages = [-11, -9, -7, -5, -3, -1].map((y) => asOf.getUTCFullYear() + y);
  for (const [i, vintage] of vintages.entries()) {
    const fund = `${LP_MANAGERS[i]} Fund ${ROMAN[r.int(0, 4)]}`;
    const currency = i === 3 ? "EUR" : "USD";
    const commitment = r.int(5, 30) * 1_000_000;
    out.commitments.push([fund, vintage, commitment, currency]);
    let called = 0;
    let nav = 0;
    const quarterlyReturn = 0.01 + r.next() * 0.035;
    // One manager reports late: its latest mark is two quarters older than the others' (stale).
    const lastMark = i === 1 ? quarterEnd(addDays(reported, -185)) : reported;
    // Through the quarter under way: its calls and distributions come after the last mark.
    for (let q = new Date(Date.UTC(vintage, 2, 31)); addDays(q, -91) <= asOf; q = quarterEnd(addDays(q, 1))) {
      const year = (q.getTime() - Date.UTC(vintage, 0, 1)) / (365 * 86_400_000);
      const qStart = addDays(q, -88);
      // calls over the first five years, front-loaded, up to about 95% of the commitment
      if (year < 5 && called < commitment * 0.95 && r.chance(0.8)) {
        const call = Math.min(commitment * 0.95 - called, Math.round((commitment * (0.04 + r.next() * 0.08)) / 1000) * 1000);
        const at = addDays(qStart, r.int(5, 80));
        if (at <= asOf && call > 0) {
          out.cashflows.push([fund, day(at), "call", call, r.chance(0.5) ? currency : null]);
          called += call;
          nav += call;
        }
      }
      nav *= 1 + quarterlyReturn + (r.next() - 0.5) * 0.06;
      // distributions from year four, a share of NAV
      if (year > 4 && nav > 0 && r.chance(0.55)) {
        const dist = Math.round((nav * (0.03 + r.next() * 0.1)) / 1000) * 1000;
        const at = addDays(qStart, r.int(5, 80));
        if (at <= asOf && dist > 0) {
          out.cashflows.push([fund, day(at), "distribution", dist, null]);
          nav -= dist;
        }
      }
      if (q <= lastMark && called > 0) out.marks.push([fund, day(q), Math.round(nav)]);
    }
  }
  return out;
}

export function generateBook(opts: BookOptions = {}): { csv: BookCsv; counts: BookCounts } {
  const r = rng((opts.seed ?? 7) * 7919 + 17);
  const asOf = opts.asOf ?? new Date("2026-09-30T00:00:00Z");
  const firm = (opts.firmName ?? "Northwind Ventures").split(" ")[0];
  const list = holdings(r, firm, asOf);
  const metrics = metricRows(r, list, asOf);
  const lp = lpBook(r, asOf);
  const portfolio = list.map((h) => [h.name, h.website, h.sector, h.stage, h.status, h.fund, "direct_company", day(h.invested), h.ownership, h.amount, h.valuation, h.currency]);
  return {
    csv: {
      portfolio: csv(["name", "website", "sector", "stage", "status", "fund_name", "holding_type", "investment_date", "ownership_percentage", "invested", "current_valuation", "currency"], portfolio),
      metrics: csv(["company", "metric", "value", "unit", "currency", "statement_date", "kind"], metrics),
      commitments: csv(["fund_name", "vintage_year", "commitment", "currency"], lp.commitments),
      cashflows: csv(["fund_name", "cashflow_date", "type", "amount", "currency"], lp.cashflows),
      marks: csv(["fund_name", "mark_date", "nav"], lp.marks),
    },
    counts: { holdings: list.length, metricPoints: metrics.length, commitments: lp.commitments.length, cashflows: lp.cashflows.length, marks: lp.marks.length },
  };
}

/** Writes the book's five CSV files into `outDir`; returns their paths by kind. */
export async function writeBook(outDir: string, book: BookCsv): Promise<Record<keyof BookCsv, string>> {
  mkdirSync(outDir, { recursive: true });
  const paths = {} as Record<keyof BookCsv, string>;
  for (const [kind, text] of Object.entries(book) as [keyof BookCsv, string][]) {
    paths[kind] = join(outDir, `${kind}.csv`);
    await Bun.write(paths[kind], text);
  }
  return paths;
}
