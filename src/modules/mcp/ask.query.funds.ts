// The LP book as records: positions (one per fund the firm committed to: committed, called,
// distributed, NAV with its mark date, unfunded, TVPI, DPI, RVPI, IRR, vintage) and cashflows
// (each call and distribution, dated, in its fund's currency). Read through the funds service; a
// total of multiples is the pooled figure per currency the service computes, never a sum of them.
import type { Answer, Query } from "../../engines/ask-engine.ts";
import { nameForPhrase } from "../../lib/name-match.ts";
import { count, fold, listing } from "../../lib/prose.ts";
import { fundsService } from "../funds/funds.service.ts";
import type { AskContext } from "./ask.context.ts";
import { allHoldings } from "./ask.names.ts";
import { asOfDates, datesWords, FIELDS, MULTI_VALUE, inRange, inYears, yearsWords, periodsOf, written, type KindReader, type Loaded, type Rec } from "./ask.query.fields.ts";

const positionsOf = (ctx: AskContext) => fundsService(ctx.deps).positions(ctx.principal.orgId);
type Position = ReturnType<typeof positionsOf>["positions"][number];

/** An LP fund named by a phrase, or the answer saying why not (one of the firm's own funds is said to be one). */
function lpFund(ctx: AskContext, phrase: string): { name: string } | { answer: string } {
  const names = fundsService(ctx.deps).fundNames(ctx.principal.orgId);
  const m = nameForPhrase(names, phrase);
  if (m.kind === "one") return { name: m.name };
  if (m.kind === "several") return { answer: `Several of your LP funds match ${phrase}: ${listing(m.names)}. Which one?` };
  const own = nameForPhrase([...new Set(allHoldings(ctx).map((h) => h.fund_name))], phrase);
  const instead =
    own.kind === "one"
      ? ` ${own.name} is one of your own funds: its portfolio companies, what was invested and their valuations are in your records ("portfolio companies in ${own.name}"); LP figures (calls, distributions, NAV, TVPI) are kept for the funds you are an LP in.`
      : "";
  // (A bare "Fund II" names no fund of its own: the ones held are listed to choose from; a named fund the records lack is only said to be none of them.)
  const offered = /^(?:our |the )?funds? (?:[ivx]{1,4}|\d{1,2})$/i.test(phrase.trim()) || !names.length ? ` Your LP funds: ${names.length ? listing(names) : "none imported"}.` : ` (You hold ${names.length} LP ${names.length === 1 ? "position" : "positions"}; ask for your LP funds to list them.)`;
  return { answer: `${phrase} is not one of your LP funds: there is no LP position in a fund called that.${offered}${instead}` };
}

function filtered<T>(ctx: AskContext, q: Query, list: T[], fundOf: (x: T) => string, currencyOf: (x: T) => string | null) {
  const scope: string[] = [];
  if (q.fund) {
    const f = lpFund(ctx, q.fund);
    if ("answer" in f) return f;
    list = list.filter((x) => fundOf(x) === f.name);
    scope.push(` in ${f.name}`);
  }
  if (q.currency) {
    const c = q.currency.toUpperCase();
    list = list.filter((x) => currencyOf(x) === c);
    scope.push(` in ${c}`);
  }
  return { list, scope };
}

function positionRecord(p: Position): Rec {
  const money = (v: number | null) => ({ value: v, currency: p.currency });
  return {
    name: p.fund_name,
    about: `${p.vintage_year ?? "vintage unknown"}, ${p.currency ?? "currency unknown"}`,
    values: {
      commitment: money(p.commitment),
      called: money(p.called),
      distributed: money(p.distributed),
      nav: { ...money(p.nav), date: p.nav_date },
      unfunded: money(p.unfunded),
      called_pct: { value: p.called !== null && p.commitment ? p.called / p.commitment : null },
      tvpi: { value: p.tvpi },
      dpi: { value: p.dpi },
      rvpi: { value: p.rvpi },
      irr: { value: p.irr },
      vintage: { value: p.vintage_year },
      last_mark: { value: null, date: p.last_mark_date },
    },
    facts: p.data_quality_flags.length ? [`data quality: ${p.data_quality_flags.join(", ")}`] : [],
    // (A position may carry several flags: it counts in each one's group.)
    groups: { currency: p.currency ?? "currency unknown", vintage: p.vintage_year === null ? "vintage unknown" : String(p.vintage_year), flag: p.data_quality_flags.length ? p.data_quality_flags.join(MULTI_VALUE) : "no flag" },
    entities: { fund: { name: p.fund_name } },
    data: p,
  };
}

export const POSITIONS: KindReader = {
  noun: ["LP position", "LP positions"],
  field: (name) => FIELDS.positions[name] ?? null,
  show: ["tvpi", "dpi", "irr", "nav"],
  order: null,
  load(ctx, q): Loaded | { answer: string } {
    const all = positionsOf(ctx).positions;
    if (all.length === 0) return { answer: "Your firm has no LP fund commitments imported." };
    // A position is a fund: one named is the fund filter.
    const f = filtered(ctx, { ...q, fund: q.fund ?? q.name }, all, (p) => p.fund_name, (p) => p.currency);
    if ("answer" in f) return f;
    let list = f.list;
    if (q.vintage) {
      const range = q.vintage;
      list = list.filter((p) => inYears(p.vintage_year, range));
      f.scope.push(` of vintage ${yearsWords(range)}`);
    }
    if (q.flag?.length) {
      // Data-quality flags as the LP book computes them; "any" is any flag at all.
      const wanted = q.flag.map((x) => fold(x).replace(/ /g, "_"));
      list = list.filter((p) => p.data_quality_flags.some((x) => wanted.includes("any") || wanted.includes(x)));
      f.scope.push(wanted.includes("any") ? " with a data-quality flag" : ` flagged ${listing(wanted.map((x) => x.replaceAll("_", " ")))}`);
    }
    // Within dates, what a position called and distributed is its cashflows dated within them
    // ("funds that haven't called capital this year"); its other figures have no dates.
    let rows = list.map(positionRecord);
    if (q.dates) {
      const range = q.dates;
      const flows = fundsService(ctx.deps).ledgerEntries(ctx.principal.orgId).filter((e) => inRange(e.cashflow_date, range));
      const sum = (fund: string, type: string) => flows.filter((e) => e.fund_name === fund && e.type === type).reduce((t, e) => t + e.amount, 0);
      rows = rows.map((r) => ({ ...r, values: { ...r.values, called: { ...r.values.called, value: sum(r.name, "call") }, distributed: { ...r.values.distributed, value: sum(r.name, "distribution") } } }));
      f.scope.push(`, counting cashflows dated ${datesWords(range)},`);
    }
    return { rows, scope: f.scope.join(""), source: "your LP book (/api/v1/funds/positions and /api/v1/funds/cashflows): figures from the imported commitments, cashflows and marks.", links: ["/api/v1/funds/positions", ...(q.dates ? ["/api/v1/funds/cashflows"] : [])] };
  },
  // A total of a multiple (TVPI, DPI, RVPI, IRR) is the pooled figure per currency, over every position.
  // NAV within dates is each fund's latest mark by then (the marks trace), not today's.
  aggregate(ctx, q, loaded): Answer | null {
    const field = q.field ?? q.order?.by;
    if (q.dates && field === "nav") return navAsOf(ctx, q, loaded);
    if (q.aggregate !== "sum" || !field || !["tvpi", "dpi", "rvpi", "irr"].includes(field)) return null;
    const all = positionsOf(ctx);
    if (loaded.rows.length !== all.positions.length) return null;
    const spec = FIELDS.positions[field];
    const groups = all.totals_by_currency.map((g) => ({ currency: g.currency, value: g[field as "tvpi"], positions: g.position_count }));
    const parts = groups.map((g) => `${written(spec, { value: g.value }) ?? "not available"} in ${g.currency ?? "an unknown currency"} (${count(g.positions, "position")})`);
    return {
      function: "query",
      arguments: {},
      text: `${spec.label} of all your LP positions together, pooled per currency: ${listing(parts)}${groups.length > 1 ? " (not pooled across currencies)" : ""}.\nSource: your LP book (/api/v1/funds/positions), totals_by_currency.`,
      data: { field, totals_by_currency: all.totals_by_currency },
      links: ["/api/v1/funds/positions"],
    };
  },
};

/** Each position's NAV at its latest mark on or before the range's end, summed per currency. */
function navAsOf(ctx: AskContext, q: Query, loaded: Loaded): Answer {
  const until = q.dates!.to ?? ctx.deps.clock.now().toISOString().slice(0, 10);
  const wanted = new Set(loaded.rows.map((r) => r.name));
  const traces = fundsService(ctx.deps).marks(ctx.principal.orgId).filter((m) => wanted.has(m.fund_name));
  const marked = traces.flatMap((t) => {
    const point = t.points.filter((p) => p.mark_date.slice(0, 10) <= until && (!q.dates!.from || p.mark_date.slice(0, 10) >= q.dates!.from)).at(-1);
    return point ? [{ fund: t.fund_name, currency: t.currency, nav: point.nav, date: point.mark_date.slice(0, 10) }] : [];
  });
  const unmarked = traces.filter((t) => !marked.some((m) => m.fund === t.fund_name)).map((t) => t.fund_name);
  const base = { function: "query", arguments: {}, links: ["/api/v1/funds/marks"] };
  const source = "\nSource: the NAV marks of your LP book (/api/v1/funds/marks).";
  if (marked.length === 0) {
    const first = traces.flatMap((t) => t.points.map((p) => p.mark_date.slice(0, 10))).sort()[0];
    return { ...base, text: `No LP position has a NAV mark dated ${datesWords(q.dates!)} in your records${first ? `; the earliest mark is of ${first}` : ""}.${source}`, data: { marks: [], unmarked } };
  }
  const totals = new Map<string, number>();
  for (const m of marked) totals.set(m.currency ?? "an unknown currency", (totals.get(m.currency ?? "an unknown currency") ?? 0) + m.nav);
  const parts = [...totals].map(([c, v]) => written(FIELDS.positions.nav, { value: Math.round(v), currency: c })!);
  const lines = marked.map((m, i) => `${i + 1}. ${m.fund}: NAV ${written(FIELDS.positions.nav, { value: m.nav, currency: m.currency })} (mark of ${m.date})`);
  const missing = unmarked.length ? `\n(${count(unmarked.length, "position")} had no mark by then: ${listing(unmarked)}.)` : "";
  return {
    ...base,
    text: `NAV of your LP positions ${asOfDates(q.dates!)}, each at its latest mark by then: ${listing(parts)}${totals.size > 1 ? " (not pooled across currencies)" : ""}.\n${lines.join("\n")}${missing}${source}`,
    data: { as_of: until, marks: marked, unmarked },
  };
}

// ---------------------------------------------------------------------------------------------

type Entry = ReturnType<ReturnType<typeof fundsService>["ledgerEntries"]>[number];

function cashflowRecord(e: Entry): Rec {
  return {
    name: e.fund_name,
    about: e.type === "call" ? "capital call" : "distribution",
    values: { amount: { value: e.amount, currency: e.currency }, date: { value: null, date: e.cashflow_date } },
    facts: [`on ${e.cashflow_date.slice(0, 10)}`],
    groups: { fund: e.fund_name, type: e.type, currency: e.currency ?? "currency unknown", ...periodsOf(e.cashflow_date) },
    entities: { fund: { name: e.fund_name } },
    data: e,
  };
}

export const CASHFLOWS: KindReader = {
  noun: ["cashflow", "cashflows"],
  field: (name) => FIELDS.cashflows[name] ?? null,
  show: ["amount"],
  always: ["amount"],
  totalOf: { field: "amount", by: "type" },
  order: { by: "date", dir: "desc" },
  load(ctx, q): Loaded | { answer: string } {
    const funds = fundsService(ctx.deps);
    const all = funds.ledgerEntries(ctx.principal.orgId);
    if (all.length === 0) return { answer: "Your LP book has no cashflows imported (no capital calls or distributions)." };
    const f = filtered(ctx, q, all, (e) => e.fund_name, (e) => e.currency);
    if ("answer" in f) return f;
    let list = f.list;
    let noun = "";
    if (q.type) {
      const type = /call|paid|contribut/.test(fold(q.type)) ? "call" : "distribution";
      list = list.filter((e) => e.type === type);
      noun = type === "call" ? " that are capital calls" : " that are distributions";
    }
    if (q.dates) {
      const range = q.dates;
      list = list.filter((e) => inRange(e.cashflow_date, range));
      f.scope.push(` dated ${datesWords(range)}`);
    }
    return {
      rows: list.map(cashflowRecord),
      scope: noun + f.scope.join(""),
      source: "your LP book's cashflows as imported (/api/v1/funds/cashflows); each in its fund's currency.",
      links: ["/api/v1/funds/cashflows"],
    };
  },
};

// ---------------------------------------------------------------------------------------------
// The LP book's history: each quarterly NAV mark of a position with the paid-in and distributions
// to that date, so TVPI, DPI and RVPI at each mark (the marks trace of GET /funds/marks).

export const MARKS: KindReader = {
  noun: ["NAV mark", "NAV marks"],
  field: (name) => FIELDS.marks[name] ?? null,
  show: ["tvpi", "nav"],
  order: { by: "date", dir: "asc" },
  load(ctx, q): Loaded | { answer: string } {
    const traces = fundsService(ctx.deps).marks(ctx.principal.orgId);
    if (traces.length === 0) return { answer: "Your firm has no LP fund commitments imported, so no NAV marks." };
    const f = filtered(ctx, { ...q, fund: q.fund ?? q.name }, traces, (t) => t.fund_name, (t) => t.currency);
    if ("answer" in f) return f;
    // (What was still to be called at a mark: the commitment less what was paid in by then.)
    const commitmentOf = new Map(positionsOf(ctx).positions.map((p) => [p.fund_name, p.commitment]));
    const rows: Rec[] = f.list.flatMap((t) =>
      t.points
        .filter((p) => !q.dates || inRange(p.mark_date, q.dates))
        .map((p) => {
          const money = (v: number | null) => ({ value: v, currency: t.currency });
          const paid = p.called_to_date;
          return {
            name: t.fund_name,
            about: `mark of ${p.mark_date.slice(0, 10)}`,
            values: {
              nav: { ...money(p.nav), date: p.mark_date },
              called: money(paid),
              distributed: money(p.distributed_to_date),
              unfunded: money(commitmentOf.get(t.fund_name) != null && paid != null ? Math.max(0, commitmentOf.get(t.fund_name)! - paid) : null),
              tvpi: { value: p.tvpi, date: p.mark_date },
              dpi: { value: paid ? Math.round((p.distributed_to_date / paid) * 10000) / 10000 : null, date: p.mark_date },
              rvpi: { value: paid ? Math.round((p.nav / paid) * 10000) / 10000 : null, date: p.mark_date },
              date: { value: null, date: p.mark_date },
            },
            groups: { fund: t.fund_name, currency: t.currency ?? "currency unknown", ...periodsOf(p.mark_date) },
            entities: { fund: { name: t.fund_name } },
            data: { fund_name: t.fund_name, currency: t.currency, ...p },
          };
        }),
    );
    if (q.dates) f.scope.push(` dated ${datesWords(q.dates)}`);
    return {
      rows,
      scope: f.scope.join(""),
      subject: f.list.length === 1 ? f.list[0].fund_name : undefined,
      // (One fund's marks keep that fund for the conversation: "and the DPI at that mark?")
      ...(f.list.length === 1 ? { entities: { fund: { name: f.list[0].fund_name } } } : {}),
      source: "the NAV marks of your LP book with paid-in and distributions to each mark (/api/v1/funds/marks).",
      links: ["/api/v1/funds/marks"],
    };
  },
};
