// The portfolio as records: holdings (one record per company, or per position when a fund is
// asked for) with what was invested, their valuation, multiple, ownership, and the latest actual of
// every imported metric; and metrics (a company's dated history of one metric, or each company's
// change over a period). Read through the portfolio service; budgets are never taken for actuals.
import type { Query } from "../../engines/ask-engine.ts";
import { nameForPhrase } from "../../lib/name-match.ts";
import { fold, listing, num, possessive } from "../../lib/prose.ts";
import { stageIn, stageName } from "../../lib/sectors.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { yearBefore } from "./ask.query.history.ts";
import type { AskContext } from "./ask.context.ts";
import { allHoldings } from "./ask.names.ts";
import { datesWords, FIELDS, inRange, metricField, metricLabel, metricValue, sectorMatcher, type Value, type KindReader, type Loaded, type Rec } from "./ask.query.fields.ts";

type Holding = ReturnType<typeof allHoldings>[number];

/** Whether a query ranks, filters, totals or shows an imported metric. */
function usesMetric(ctx: AskContext, q: Query): boolean {
  const named = [q.order?.by, q.field, ...(q.show ?? []), ...(q.where ?? []).map((w) => w.field)];
  return named.some((f) => f !== undefined && (f === "last_reported" || (!(f in FIELDS.holdings) && metricsHeld(ctx).includes(f))));
}

const metricsHeld = (ctx: AskContext) => [...new Set(allHoldings(ctx).flatMap((h) => Object.keys(h.metrics)))].sort();
const SOURCE = "your portfolio book (/api/v1/portfolio/companies): holdings as imported; metrics are the latest actuals imported (budgets are not actuals).";

/** One of the firm's own funds named by a phrase ("Fund II" -> "Northwind Fund II"), or the answer saying why not. */
function ownFund(ctx: AskContext, phrase: string): { name: string } | { answer: string } {
  const funds = [...new Set(allHoldings(ctx).map((h) => h.fund_name))].sort();
  const m = nameForPhrase(funds, phrase);
  if (m.kind === "one") return { name: m.name };
  if (m.kind === "several") return { answer: `Several of your own funds match ${phrase}: ${listing(m.names)}. Which one?` };
  return { answer: `None of your own funds is called ${phrase}. Your funds holding portfolio companies: ${funds.length ? listing(funds) : "none (no portfolio is imported)"}.` };
}

/** The sum of a money field over positions of one currency; null when any is missing or currencies differ. */
function summed(list: Holding[], pick: (h: Holding) => number | null): Value {
  const currencies = new Set(list.map((h) => h.currency));
  if (currencies.size !== 1 || list.some((h) => pick(h) === null)) return { value: null, currency: list[0].currency };
  return { value: list.reduce((s, h) => s + pick(h)!, 0), currency: list[0].currency };
}

/** One record for a company (its positions together) or for one position. */
function record(list: Holding[], byPosition: boolean): Rec {
  const h = list[0];
  const invested = summed(list, (x) => x.invested);
  const valuation = summed(list, (x) => x.current_valuation);
  // Each fund's stake is a share at its own round and date: they are not added up (each is shown by fund).
  const ownership = list.length === 1 ? list[0].ownership_percentage : null;
  const values: Record<string, Value> = {
    invested,
    valuation,
    multiple: { value: invested.value && valuation.value !== null ? Math.round((valuation.value / invested.value) * 100) / 100 : null },
    ownership: { value: ownership === null ? null : Math.round(ownership * 100) / 100, ...(list.length > 1 && list.some((x) => x.ownership_percentage !== null) ? { byPart: true } : {}), ...(list.length > 1 ? { why: `by fund (each fund's stake is its own, not added up): ${list.map((x) => `${x.fund_name} ${x.ownership_percentage === null ? "not recorded" : `${num(x.ownership_percentage)}%`}`).join(", ")}` } : {}) },
    investment_date: { value: null, date: list.map((x) => x.investment_date).sort()[0] },
  };
  for (const [metric, m] of Object.entries(h.metrics)) values[metric] = { value: m.value, currency: m.currency, unit: m.unit, date: m.statement_date };
  values.last_reported = { value: null, date: Object.values(h.metrics).map((m) => m.statement_date).sort().at(-1) ?? null };
  const funds = [...new Set(list.map((x) => x.fund_name))];
  const statuses = [...new Set(list.map((x) => x.status.replaceAll("_", " ")))];
  // A company held by several funds: what each fund put in and owns, beside the company's totals.
  const perFund = !byPosition && list.length > 1
    ? [`by fund: ${list.map((x) => `${x.fund_name} invested ${x.invested === null ? "not available" : `${num(x.invested)} ${x.currency ?? ""}`.trim()}${x.current_valuation === null ? "" : `, valued ${`${num(x.current_valuation)} ${x.currency ?? ""}`.trim()}`}${x.ownership_percentage === null ? "" : `, ${num(x.ownership_percentage)}% owned`}`).join("; ")}`]
    : [];
  return {
    name: h.name,
    about: `${h.sector}; ${byPosition ? stageName(stageIn(h.stage) ?? h.stage) : listing(funds)}`,
    values,
    facts: [statuses.join("/"), ...perFund],
    // (A company's year is the year the firm first invested in it.)
    groups: { fund: listing(funds), sector: h.sector, status: statuses.join("/"), stage: stageName(stageIn(h.stage) ?? h.stage), currency: h.currency ?? "currency unknown", ...(list.map((x) => x.investment_date).sort()[0] ? { year: list.map((x) => x.investment_date).sort()[0]!.slice(0, 4) } : {}) },
    entities: { holding: { id: h.company_id, name: h.name }, company: { name: h.name, domain: null } },
    data: { company_id: h.company_id, name: h.name, sector: h.sector, funds, positions: list.map(({ metrics: _m, ...p }) => p), metrics: h.metrics },
  };
}

export const HOLDINGS: KindReader & { metrics(ctx: AskContext): string[] } = {
  noun: ["portfolio company", "portfolio companies"],
  field: (name, ctx) => FIELDS.holdings[name] ?? (metricsHeld(ctx).includes(name) ? metricField(name) : null),
  fieldNames: (ctx) => [...Object.keys(FIELDS.holdings), ...metricsHeld(ctx)],
  metrics: metricsHeld,
  show: ["invested", "valuation"],
  order: null,
  load(ctx, q): Loaded | { answer: string } {
    let list = allHoldings(ctx);
    if (list.length === 0) return { answer: "Your firm has no portfolio imported: there are no portfolio companies in your records." };
    const scope: string[] = [];
    const links: string[] = [];
    if (q.fund) {
      const fund = ownFund(ctx, q.fund);
      if ("answer" in fund) return fund;
      list = list.filter((h) => h.fund_name === fund.name);
      scope.push(` in ${fund.name}`);
      links.push(`/api/v1/portfolio/companies?fund_name=${encodeURIComponent(fund.name)}`);
    }
    if (q.name) {
      const m = nameForPhrase([...new Set(list.map((h) => h.name))], q.name);
      if (m.kind === "several") return { answer: `Several portfolio companies match ${q.name}: ${listing(m.names)}. Which one?` };
      if (m.kind === "none") return { answer: `${q.name} is not in your firm's portfolio.` };
      list = list.filter((h) => h.name === m.name);
      scope.push(` named ${m.name}`);
    }
    const notes: string[] = [];
    if (q.status?.length) {
      const wanted = q.status.map((s) => fold(s).replace(/ /g, "_"));
      list = list.filter((h) => wanted.includes(h.status));
      scope.push(` ${listing(wanted.map((s) => s.replaceAll("_", " ")))}`);
    }
    // An exited or written-off company's last metrics are history, not its state: ranked apart only
    // when asked (left out after the other filters, so the note counts only those the set would hold).
    const activeOnly = !q.status?.length && usesMetric(ctx, q) && !q.name;
    if (activeOnly) scope.push(" (active)");
    if (q.stage?.length) {
      const wanted = q.stage.map((s) => stageIn(s.replaceAll("_", " ")) ?? fold(s));
      list = list.filter((h) => wanted.includes(stageIn(h.stage) ?? fold(h.stage)));
      scope.push(` at ${listing(wanted.map(stageName))}`);
    }
    if (q.sector) {
      const matches = sectorMatcher(list.map((h) => h.sector), q.sector);
      list = list.filter((h) => matches(h.sector));
      scope.push(` in ${q.sector}`);
    }
    if (q.currency) {
      const c = q.currency.toUpperCase();
      list = list.filter((h) => h.currency === c);
      scope.push(` held in ${c}`);
    }
    if (q.dates) {
      const range = q.dates;
      list = list.filter((h) => inRange(h.investment_date, range));
      scope.push(` invested in ${datesWords(range)}`);
    }
    if (activeOnly) {
      const gone = [...new Set(list.filter((h) => h.status !== "active").map((h) => h.name))];
      list = list.filter((h) => h.status === "active");
      if (gone.length) notes.push(`(${gone.length} exited or written-off ${gone.length === 1 ? "company is" : "companies are"} left out (${listing(gone)}); ask for them by status.)`);
    }
    // A company held by two funds is one company; a fund's positions are its own.
    const byPosition = !!q.fund || q.group === "fund" || !!q.per_position;
    const groups = new Map<string, Holding[]>();
    for (const h of list) {
      const key = byPosition ? h.company_id : h.name;
      groups.set(key, [...(groups.get(key) ?? []), h]);
    }
    const rows = [...groups.values()].map((g) => record(g, byPosition));
    return { rows, scope: scope.join(""), source: SOURCE, links: links.length ? links : ["/api/v1/portfolio/companies"], notes, ...(q.per_position ? { noun: ["holding", "holdings"] as [string, string] } : {}) };
  },
};

// ---------------------------------------------------------------------------------------------

type Point = { value: number; unit: string | null; currency: string | null; statement_date: string };

/** A company's actual points of a metric within the dates (all of them without dates), oldest first. */
function actuals(ctx: AskContext, companyId: string, metric: string, q: Query): Point[] {
  const points = portfolioService(ctx.deps).metricHistory(ctx.principal.orgId, companyId, { metric, from: q.dates?.from ?? undefined, to: q.dates?.to ?? undefined }).points;
  return points.filter((p) => p.kind === "actual");
}

/** Date words that name where a change starts, or a rolling window, rather than one calendar period. */
const CHANGE_FROM_NAMED = /\b(?:since|between|from|after|through|until|till|to|last \d+|past \d+|last (?:few|couple|several)|past (?:few|couple|several)|days?|weeks?)\b/;

/** How many days before a period a statement may be and still stand for its opening (a month-end one, or a quarter's last). */
const OPENING_DAYS = 100;

/**
 * The statement a change over a period starts from: the last actual before the period (its
 * opening figure: growth "in Q3" is the end of Q3 against the end of Q2), when one is recent
 * enough; else none, and the change runs from the first statement within the period.
 */
function opening(ctx: AskContext, companyId: string, metric: string, q: Query): Point | null {
  const from = q.dates?.from;
  // Only a calendar period said as a whole ("Q3", "last quarter", "this year", "H1", "2025"): "since
  // March" and "between Jan and June" start at the statement they name, "the last 6 months" is a window.
  if (!from || !q.dates!.to || CHANGE_FROM_NAMED.test(q.dates!.label)) return null;
  const before = new Date(Date.parse(from) - 86_400_000).toISOString().slice(0, 10);
  const earliest = new Date(Date.parse(from) - OPENING_DAYS * 86_400_000).toISOString().slice(0, 10);
  const points = portfolioService(ctx.deps).metricHistory(ctx.principal.orgId, companyId, { metric, from: earliest, to: before }).points;
  return points.filter((p) => p.kind === "actual").at(-1) ?? null;
}

/** The statements a change over the query's dates is read from: its opening figure, then those within. */
function overPeriod(ctx: AskContext, companyId: string, metric: string, q: Query): Point[] {
  const within = actuals(ctx, companyId, metric, q);
  const start = opening(ctx, companyId, metric, q);
  return start && within.length ? [start, ...within] : within;
}

/** No company moved the way asked: said plainly, without a double negative. */
function noneMoved(op: string, n: number, which: string): string {
  if (op === "gt") return `None of the ${n} portfolio companies ${which} grew.`;
  if (op === "lt") return `None of the ${n} portfolio companies ${which} fell.`;
  if (op === "lte") return `All ${n} portfolio companies ${which} grew: none stayed flat or fell.`;
  return `All ${n} portfolio companies ${which} fell: none stayed flat or grew.`;
}

/** A company's latest statement and the one twelve months before it (a month-end's, or up to 45 days earlier): "over the past year". */
function yearOverYear(points: Point[]): Point[] {
  const last = points.at(-1);
  if (!last) return [];
  const target = yearBefore(last.statement_date.slice(0, 10));
  const earliest = new Date(Date.parse(target) - 45 * 86_400_000).toISOString().slice(0, 10);
  const prior = points.filter((p) => p.statement_date.slice(0, 10) <= target && p.statement_date.slice(0, 10) >= earliest).at(-1);
  return prior ? [prior, last] : [last];
}

const pointValue = (p: Point): Value => ({ value: p.value, currency: p.currency, unit: p.unit, date: p.statement_date });

function change(points: Point[]): { first: Point; last: Point; delta: number; pct: number | null } | null {
  if (points.length < 2) return null;
  const first = points[0];
  const last = points[points.length - 1];
  const delta = Math.round((last.value - first.value) * 100) / 100;
  return { first, last, delta, pct: first.value !== 0 ? Math.round(((last.value - first.value) / Math.abs(first.value)) * 10000) / 10000 : null };
}

const pctWords = (pct: number | null) => (pct === null ? "" : ` (${pct >= 0 ? "+" : ""}${num(Math.round(pct * 1000) / 10)}%)`);

/**
 * One company's budgeted figures ("only"), or each date's actual against its budget ("versus"): the
 * variance is the actual less the budget, said only where both are stated for the same date.
 */
function budgetRows(ctx: AskContext, h: { company_id: string; name: string }, metric: string, q: Query, when: string): Loaded {
  const points = portfolioService(ctx.deps).metricHistory(ctx.principal.orgId, h.company_id, { metric, from: q.dates?.from ?? undefined, to: q.dates?.to ?? undefined }).points;
  const budgets = new Map(points.filter((p) => p.kind === "budget").map((p) => [p.statement_date.slice(0, 10), p]));
  const actualOf = new Map(points.filter((p) => p.kind === "actual").map((p) => [p.statement_date.slice(0, 10), p]));
  const dates = [...new Set(q.budget === "only" ? budgets.keys() : [...budgets.keys()].filter((d) => actualOf.has(d)))].sort();
  const entities = { holding: { id: h.company_id, name: h.name }, company: { name: h.name, domain: null } };
  const rows: Rec[] = dates.map((day) => {
    const b = budgets.get(day)!;
    const a = actualOf.get(day);
    const values: Rec["values"] = { budget: pointValue(b), date: { value: null, date: b.statement_date } };
    if (a) {
      values.value = pointValue(a);
      values.variance = { value: Math.round((a.value - b.value) * 100) / 100, currency: a.currency, unit: a.unit, date: a.statement_date };
    }
    return { name: day, about: null, values, entities, data: { actual: a ?? null, budget: b } };
  });
  const link = `/api/v1/portfolio/companies/${h.company_id}/metrics?metric=${metric}`;
  const what = q.budget === "only" ? "budgeted" : "actual against budgeted";
  return {
    rows,
    scope: ` of ${possessive(h.name)} ${metricLabel(metric)}, ${what}${when}`,
    subject: h.name,
    entities,
    source: `the actuals and budgets imported for ${h.name} (${link}); a budget is the plan, not a reported figure.`,
    links: [link],
    notes: rows.length ? [] : [`No ${q.budget === "only" ? "budgeted" : "actual and budgeted (for the same date)"} ${metricLabel(metric)} of ${h.name} is in your records${when}.`],
  };
}

/** The statements a change runs over, each with its figure, when they are few enough to read ("how has the burn trended"). */
function statementsBetween(points: Point[]): string {
  if (points.length < 3 || points.length > 25) return "";
  return `\nEach statement: ${points.map((p) => `${p.statement_date.slice(0, 10)} ${metricValue(pointValue(p))}`).join("; ")}.`;
}

export const METRICS: KindReader = {
  noun: ["metric point", "metric points"],
  field: (name) => FIELDS.metrics[name] ?? null,
  show: ["value"],
  always: ["value"],
  order: { by: "date", dir: "asc" },
  load(ctx, q): Loaded | { answer: string } {
    const held = metricsHeld(ctx);
    if (held.length === 0) return { answer: "No portfolio metrics are imported: there is no metric history in your records." };
    const metric = q.metric?.toLowerCase().replace(/\s+/g, "_");
    if (!metric) return { answer: `Which metric? Imported for your portfolio: ${listing(held)}.` };
    if (!held.includes(metric)) return { answer: `I can't give ${q.name ? `${possessive(q.name)} ${metricLabel(metric)}` : metricLabel(metric)}: it is not in your records (no actual ${metric} is imported for any portfolio company). Imported metrics: ${listing(held)}.` };
    const companies = [...new Map(allHoldings(ctx).map((h) => [h.name, h])).values()];
    const when = q.dates ? ` in ${datesWords(q.dates)}` : "";
    if (q.name) {
      const m = nameForPhrase(companies.map((h) => h.name), q.name);
      if (m.kind === "several") return { answer: `Several portfolio companies match ${q.name}: ${listing(m.names)}. Which one?` };
      if (m.kind === "none") return { answer: `${q.name} is not in your firm's portfolio, so no ${metricLabel(metric)} of it is in your records.` };
      const h = companies.find((c) => c.name === m.name)!;
      if (q.budget) return budgetRows(ctx, h, metric, q, when);
      // (A change over dates runs from the period's opening figure, the last statement before it.)
      const points = q.aggregate === "change" ? overPeriod(ctx, h.company_id, metric, q) : actuals(ctx, h.company_id, metric, q);
      const entities = { holding: { id: h.company_id, name: h.name }, company: { name: h.name, domain: null } };
      const rows: Rec[] = points.map((p) => ({ name: p.statement_date.slice(0, 10), about: null, values: { value: pointValue(p), date: { value: null, date: p.statement_date } }, entities, data: p }));
      return {
        rows,
        scope: ` of ${possessive(h.name)} ${metricLabel(metric)}${when}`,
        subject: h.name,
        entities,
        source: `the actuals imported for ${h.name} (/api/v1/portfolio/companies/${h.company_id}/metrics?metric=${metric}).`,
        links: [`/api/v1/portfolio/companies/${h.company_id}/metrics?metric=${metric}`],
        notes: rows.length ? [] : [`No actual ${metric} of ${h.name} is in your records${when}.`],
      };
    }
    // Every company: the latest actual within the dates and the change over them.
    const rows: Rec[] = companies.flatMap((h) => {
      const points = actuals(ctx, h.company_id, metric, q);
      if (points.length === 0) return [];
      // (Year over year is of the past year: a company whose latest statement is older has none.)
      const stale = q.aggregate === "year_change" && points[points.length - 1].statement_date.slice(0, 10) < yearBefore(ctx.deps.clock.now().toISOString().slice(0, 10));
      const c = stale ? null : change(q.aggregate === "change" ? overPeriod(ctx, h.company_id, metric, q) : q.aggregate === "year_change" ? yearOverYear(points) : points);
      const last = points[points.length - 1];
      return [
        {
          name: h.name,
          about: h.sector,
          values: {
            value: pointValue(last),
            date: { value: null, date: last.statement_date },
            change: c ? { value: c.delta, currency: last.currency, unit: last.unit } : { value: null },
            change_pct: { value: c?.pct ?? null },
          },
          entities: { holding: { id: h.company_id, name: h.name }, company: { name: h.name, domain: null } },
          data: { company_id: h.company_id, name: h.name, latest: last, change: c },
        },
      ];
    });
    return { rows, scope: ` (${metricLabel(metric)})${when}`, source: `the actuals imported per company (/api/v1/portfolio/companies/{id}/metrics?metric=${metric}).`, links: ["/api/v1/portfolio/companies"] };
  },
  aggregate(ctx, q, loaded) {
    if (q.aggregate !== "change" && !(q.aggregate === "year_change" && !q.name)) return null;
    const metric = q.metric!.toLowerCase().replace(/\s+/g, "_");
    const label = metricLabel(metric);
    const when = q.aggregate === "year_change" ? "the twelve months to each company's latest statement" : q.dates ? datesWords(q.dates) : "all the history in your records";
    const base = { function: "query", arguments: {}, links: loaded.links };
    if (q.name) {
      const points = loaded.rows.map((r) => r.data as Point);
      const c = change(points);
      const company = possessive(loaded.subject ?? "The company");
      if (!c) {
        const only = points.length === 1 ? ` Only one actual is in your records for that period: ${metricValue(pointValue(points[0]))} on ${points[0].statement_date.slice(0, 10)}.` : "";
        return { ...base, text: `There are not two actuals of ${company} ${label} in ${when} to compare, so its change is not in your records.${only}\nSource: ${loaded.source}`, data: { points } };
      }
      const text = `${company} ${label} went from ${metricValue(pointValue(c.first))} (${c.first.statement_date.slice(0, 10)}) to ${metricValue(pointValue(c.last))} (${c.last.statement_date.slice(0, 10)}): a change of ${c.delta >= 0 ? "+" : ""}${metricValue({ value: c.delta, currency: c.last.currency, unit: c.last.unit })}${pctWords(c.pct)} ${/^(?:since|between|from|after) /.test(when) ? "" : "over "}${when}.${statementsBetween(points)}\nSource: ${loaded.source}`;
      return { ...base, text, data: { metric, first: c.first, last: c.last, change: c.delta, change_pct: c.pct, points: points.length }, entities: loaded.entities };
    }
    // "That haven't grown", "whose burn went down": by the sign of the change (companies without two actuals are said apart).
    const bySign = (q.where ?? []).filter((w) => w.field === "change");
    // ("Biggest drop": the largest fall first.)
    const fallFirst = q.order?.by === "change" && q.order.dir === "asc";
    const moved = (r: Rec) => bySign.every((w) => ({ gt: (a: number) => a > w.value, gte: (a: number) => a >= w.value, lt: (a: number) => a < w.value, lte: (a: number) => a <= w.value })[w.op](r.values.change.value!));
    const ranked = loaded.rows.filter((r) => r.values.change_pct.value !== null && r.values.change.value !== null && moved(r)).sort((a, b) => (fallFirst ? -1 : 1) * (b.values.change_pct.value! - a.values.change_pct.value!));
    const signWords = bySign.map((w) => (w.op === "gt" ? "that grew" : w.op === "lt" ? "that fell" : w.op === "lte" ? "that did not grow" : "that did not fall")).join(" and ");
    const lacking = loaded.rows.filter((r) => r.values.change_pct.value === null).map((r) => r.name);
    const shown = ranked.slice(0, q.limit ?? 25);
    const lines = shown.map((r, i) => {
      const d = r.data as { change: NonNullable<ReturnType<typeof change>> };
      return `${i + 1}. ${r.name}: ${metricValue(pointValue(d.change.first))} (${d.change.first.statement_date.slice(0, 10)}) to ${metricValue(pointValue(d.change.last))} (${d.change.last.statement_date.slice(0, 10)})${pctWords(d.change.pct)}`;
    });
    const text = ranked.length
      ? `Change of ${label} over ${when}, ${signWords ? `the ${ranked.length} of ${loaded.rows.length - lacking.length} portfolio companies ${signWords}` : "by portfolio company"} (${fallFirst ? "largest fall" : "largest growth"} first):\n${lines.join("\n")}${lacking.length ? `\n(${lacking.length} without two actuals in that period: ${listing(lacking)}.)` : ""}\nSource: ${loaded.source}`
      : signWords && loaded.rows.length > lacking.length
        ? `${noneMoved(bySign[0].op, loaded.rows.length - lacking.length, `with two actuals of ${label} in ${when}`)}\nSource: ${loaded.source}`
        : `No portfolio company has two actuals of ${label} in ${when} to compare.\nSource: ${loaded.source}`;
    return { ...base, text, data: { metric, companies: shown.map((r) => r.data), lacking }, entities: shown[0]?.entities };
  },
};
