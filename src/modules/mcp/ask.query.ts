// The `query` operation: one record kind of the firm (deals, holdings, metrics, LP positions,
// cashflows, people, research runs, documents), filtered, ordered, cut to the top N, or counted,
// summed per currency, averaged, or its extreme, latest or change. Each kind's reader
// (ask.query.*.ts) loads its records through the owning module's service with the caller's org
// and filters them by what only it knows (stage, fund, sector, dates); thresholds, order, top-N and
// the aggregates are applied here alike for every kind. The answer states each figure with its
// unit, its date where it has one, what was left out for lack of a figure, and where it came from.
import { AGGREGATES, GROUPS, RECORD_KINDS, type Aggregate, type Answer, type FilterValues, type Query, type RecordKind, type Threshold } from "../../engines/ask-engine.ts";
import { count, listing, num, possessive } from "../../lib/prose.ts";
import type { AskContext, AskFunction } from "./ask.context.ts";
import { byCurrency, currencyOf, listTotals, mixedCurrencies, noTotal, pooled, pooledHow, totals } from "./ask.query.combine.ts";
import { FIELDS, MULTI_VALUE, written, type FieldSpec, type KindReader, type Rec, type Value } from "./ask.query.fields.ts";
import { loadSet } from "./ask.query.sets.ts";
import { DEALS } from "./ask.query.deals.ts";
import { CASHFLOWS, MARKS, POSITIONS } from "./ask.query.funds.ts";
import { historyAnswer } from "./ask.query.history.ts";
import { HOLDINGS, METRICS } from "./ask.query.holdings.ts";
import { DOCUMENTS, PERSONS, RESEARCH } from "./ask.query.records.ts";

const READERS: Record<RecordKind, KindReader> = {
  deals: DEALS,
  holdings: HOLDINGS,
  metrics: METRICS,
  positions: POSITIONS,
  marks: MARKS,
  cashflows: CASHFLOWS,
  persons: PERSONS,
  research: RESEARCH,
  documents: DOCUMENTS,
};

/** Lines shown at most; the total is always said. */
const SHOWN = 25;
/** A threshold on a date, in words. */
const DATE_WORDS: Record<Threshold["op"], string> = { gt: "after", gte: "on or after", lt: "before", lte: "on or before" };

const OPS: Record<Threshold["op"], [string, (a: number, b: number) => boolean]> = {
  gt: ["above", (a, b) => a > b],
  gte: ["at least", (a, b) => a >= b],
  lt: ["below", (a, b) => a < b],
  lte: ["at most", (a, b) => a <= b],
};

const strings = (v: unknown): string[] | undefined =>
  typeof v === "string" && v.trim() ? [v.trim()] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && !!x.trim()).map((x) => x.trim()) : undefined;
const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const int = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : undefined);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The query as sent (a model's JSON or the reader's), checked: a sentence saying what is wrong, or the typed query. */
export function readQuery(args: Record<string, unknown>, ctx: AskContext): Query | string {
  const kind = args.kind;
  if (typeof kind !== "string" || !(RECORD_KINDS as readonly string[]).includes(kind)) return `kind must be one of ${listing([...RECORD_KINDS])}.`;
  const reader = READERS[kind as RecordKind];
  const q: Query = { kind: kind as RecordKind };
  for (const k of ["name", "round", "type", "sector", "fund", "currency", "location", "metric", "text"] as const) if (text(args[k])) q[k] = text(args[k]);
  for (const k of ["stage", "status", "flag", "show", "names"] as const) if (strings(args[k])) q[k] = strings(args[k]);
  // A list where one value is expected ("fund": ["Fund II", "Fund III"]) is a set of alternatives.
  for (const k of ["fund", "sector", "round", "type", "location"] as const) {
    const list = strings(args[k]);
    if (Array.isArray(args[k]) && list && list.length > 1) q.anyOf = { ...q.anyOf, [k]: list };
    else if (Array.isArray(args[k]) && list?.length === 1) q[k] = list[0];
  }
  for (const k of ["anyOf", "except"] as const) {
    const v = args[k] as Record<string, unknown> | undefined;
    if (!v || typeof v !== "object") continue;
    const values: FilterValues = { ...q[k] };
    for (const f of ["name", "fund", "sector", "round", "stage", "status", "type", "currency", "location", "flag"] as const) if (strings(v[f])) values[f] = strings(v[f]);
    if (Object.keys(values).length) q[k] = values;
  }
  if (args.per_position === true) q.per_position = true;
  if (args.unweighted === true) q.unweighted = true;
  if (args.all_time === true) q.all_time = true;
  if (args.budget !== undefined) {
    if (args.budget !== "only" && args.budget !== "versus") return "budget must be only or versus.";
    q.budget = args.budget;
  }
  if (args.months_back !== undefined) {
    if (!Number.isInteger(args.months_back) || (args.months_back as number) < 1 || (args.months_back as number) > 240) return "months_back must be a whole number of months from 1 to 240.";
    q.months_back = args.months_back as number;
  }
  if (args.own === true) q.own = true;
  if (args.group !== undefined) {
    if (!(GROUPS as readonly string[]).includes(String(args.group))) return `group must be one of ${listing([...GROUPS])}.`;
    q.group = args.group as Query["group"];
  }
  for (const k of ["vintage", "founded"] as const) {
    const y = args[k] as { from?: unknown; to?: unknown; in?: unknown; not?: unknown } | undefined;
    if (!y || typeof y !== "object") continue;
    const list = Array.isArray(y.in) ? y.in.map(int).filter((x): x is number => x !== undefined) : [];
    q[k] = { from: int(y.from), to: int(y.to), ...(list.length ? { in: list } : {}), ...(y.not === true ? { not: true as const } : {}) };
  }
  const dates = args.dates as { from?: unknown; to?: unknown; label?: unknown } | undefined;
  if (dates && typeof dates === "object") {
    const from = text(dates.from) ?? null;
    const to = text(dates.to) ?? null;
    if ((from && !DAY.test(from)) || (to && !DAY.test(to))) return "dates.from and dates.to must be calendar days (YYYY-MM-DD).";
    q.dates = { from, to, label: text(dates.label) ?? `${from ?? "the start"} to ${to ?? "today"}` };
  }
  if (Array.isArray(args.where)) {
    q.where = [];
    for (const w of args.where as Record<string, unknown>[]) {
      if (!w || typeof w.field !== "string" || !(String(w.op) in OPS) || typeof w.value !== "number") return "each where entry needs field, op (gt, gte, lt, lte) and a numeric value.";
      q.where.push({ field: w.field, op: w.op as Threshold["op"], value: w.value, ...(text(w.currency) ? { currency: text(w.currency)!.toUpperCase() } : {}), ...(w.orNone === true ? { orNone: true } : {}) });
    }
  }
  const order = args.order as { by?: unknown; dir?: unknown } | undefined;
  if (order && typeof order === "object" && typeof order.by === "string") q.order = { by: order.by, dir: order.dir === "asc" ? "asc" : "desc" };
  const limit = int(args.limit);
  if (limit !== undefined) q.limit = Math.max(1, Math.min(100, limit));
  if (args.aggregate !== undefined) {
    if (!(AGGREGATES as readonly string[]).includes(String(args.aggregate))) return `aggregate must be one of ${listing([...AGGREGATES])}.`;
    q.aggregate = args.aggregate as Aggregate;
  }
  if (text(args.field)) q.field = text(args.field);
  // Every field named must be one this kind of record has.
  const named = [q.order?.by, q.field, ...(q.show ?? []), ...(q.where ?? []).map((w) => w.field)].filter((f): f is string => !!f);
  const unknown = named.filter((f) => !reader.field(f, ctx));
  if (unknown.length) return notHeld(kind as RecordKind, unknown, ctx, q.name ?? q.names?.join(" and "));
  return q;
}

/** "not in your records", of the record named when one is, with what the records do hold for that kind. */
function notHeld(kind: RecordKind, fields: string[], ctx: AskContext, of?: string): string {
  const reader = READERS[kind];
  const held = reader.fieldNames?.(ctx) ?? Object.keys(FIELDS[kind]);
  const label = (f: string) => reader.field(f, ctx)?.label ?? f.replaceAll("_", " ");
  const what = listing(fields.map((f) => f.replaceAll("_", " ")));
  return `${of ? `${possessive(of)} ${what}` : what} ${fields.length === 1 ? "is" : "are"} not in your records for ${reader.noun[1]}: your records do not hold it, so I can't answer it. What they hold: ${listing(held.map(label))}.`;
}

const valueOf = (r: Rec, field: string): Value | undefined => r.values[field];
const numberOf = (r: Rec, field: string, spec: FieldSpec): number | null => {
  const v = valueOf(r, field);
  if (!v) return null;
  if (spec.unit === "date") return v.date ? Date.parse(v.date) : null;
  return v.value;
};

function describeOrder(field: string, spec: FieldSpec, dir: "asc" | "desc"): string {
  if (spec.unit === "date") return dir === "desc" ? "newest first" : "oldest first";
  if (spec.unit === "ordinal") return dir === "desc" ? "furthest along first" : "least along first";
  if (field === "runway_months") return dir === "desc" ? "longest first" : "shortest first";
  return dir === "desc" ? "highest first" : "lowest first";
}

/** One line per record: its name, what it is, the figures asked for (and shown by default), its facts. */
function line(r: Rec, i: number, fields: string[], reader: KindReader, ctx: AskContext): string {
  const figures = fields.flatMap((f) => {
    const spec = reader.field(f, ctx)!;
    const w = written(spec, valueOf(r, f));
    const date = spec.unit !== "date" && valueOf(r, f)?.date ? ` (${valueOf(r, f)!.date!.slice(0, 10)})` : "";
    return [`${spec.label} ${w ?? "not available"}${w ? date : ""}`];
  });
  const tail = [...figures, ...(r.facts ?? [])].join(", ");
  return `${i + 1}. ${r.name}${r.about ? ` (${r.about})` : ""}${tail ? `: ${tail}` : ""}`;
}

/** A count over records of several statuses (active, exited, written off) says how many of each:
 *  "our portcos" usually means the active ones, and the total alone hides that. */
function statusSplit(rows: Rec[], always = false): string {
  const byStatus = new Map<string, Set<string>>();
  for (const r of rows) {
    const status = r.groups?.status;
    if (!status) return "";
    // (A company held by two funds is one company; two people of one name are two people.)
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(r.entities?.person?.id ?? r.name));
  }
  if (byStatus.size < (always ? 1 : 2)) return "";
  const order = [...byStatus.entries()].sort((a, b) => (a[0] === "active" ? -1 : b[0] === "active" ? 1 : b[1].size - a[1].size));
  return ` (${order.map(([s, names]) => `${names.size} ${s}`).join(", ")})`;
}

/** Figures of what was put in, a past flow: a total of them over all time counts the companies since exited or written off too. */
const DEPLOYED = new Set(["invested"]);

function lackingNote(lacking: string[], spec: FieldSpec): string {
  if (lacking.length === 0) return "";
  const names = lacking.length <= 6 ? `: ${listing(lacking)}` : "";
  return `\n(${count(lacking.length, "record")} without ${spec.label} in your records ${lacking.length === 1 ? "is" : "are"} left out${names}.)`;
}

export async function runQuery(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const base = { function: "query", arguments: args };
  const q = readQuery(args, ctx);
  if (typeof q === "string") return { ...base, text: q, data: null, links: [] };
  const reader = READERS[q.kind];
  const loaded = loadSet(ctx, reader, q);
  if ("answer" in loaded) return { ...base, text: loaded.answer, data: loaded.data ?? null, links: [] };
  const special = q.aggregate ? (historyAnswer(ctx, q, reader, loaded, base) ?? reader.aggregate?.(ctx, q, loaded)) : null;
  if (special) return { ...special, arguments: args, entities: special.entities ?? loaded.entities };

  let rows = loaded.rows;
  const notes = [...(loaded.notes ?? [])];
  let scope = loaded.scope;
  for (const w of q.where ?? []) {
    const spec = reader.field(w.field, ctx)!;
    const [words, test] = OPS[w.op];
    // ("Without an ownership on file": a company whose funds each have theirs has one, though not one figure.)
    const without = rows.filter((r) => numberOf(r, w.field, spec) === null && !(w.orNone && r.values[w.field]?.byPart));
    const lacking = without.map((r) => r.name);
    const holding = rows.filter((r) => numberOf(r, w.field, spec) !== null);
    // An amount said in a currency is compared only with figures in that currency; one said without
    // is compared with each record's figure in its own currency, and the answer says so.
    const currencies = [...new Set(holding.map((r) => currencyOf(r, w.field)).filter(Boolean))];
    const other = w.currency ? holding.filter((r) => currencyOf(r, w.field) && currencyOf(r, w.field) !== w.currency) : [];
    rows = holding.filter((r) => !other.includes(r) && test(numberOf(r, w.field, spec)!, w.value));
    if (w.orNone && spec.unit === "date") {
      // "Haven't sent October numbers": a last report before then, or none at all.
      rows = [...rows, ...without];
      scope += ` with ${spec.label} ${DATE_WORDS[w.op]} ${new Date(w.value).toISOString().slice(0, 10)} or never`;
      continue;
    }
    if (w.orNone) {
      // "Without distributions": none recorded is none; the records keep their order of the kind.
      rows = [...rows, ...without];
      scope += ` with no ${spec.label}`;
      continue;
    }
    const amount = spec.unit === "date" ? new Date(w.value).toISOString().slice(0, 10) : (written(spec, { value: w.value, currency: w.currency ?? null, unit: null, date: null }) ?? num(w.value));
    // (A second bound on the same figure reads "with runway at least 12 and below 20".)
    const sameField = (q.where ?? []).findIndex((x) => x.field === w.field) < (q.where ?? []).indexOf(w);
    scope += ` ${sameField ? "and" : `with ${spec.label}`} ${spec.unit === "date" ? DATE_WORDS[w.op] : words} ${amount}`;
    if (other.length) {
      const by = byCurrency(other, w.field).map(([c, g]) => `${count(g.length, reader.noun[0], reader.noun[1])} in ${c}`);
      notes.push(`(Not compared with an amount in ${w.currency}, figures in another currency are never converted: ${listing(by)}: ${listing(other.map((r) => r.name))}.)`);
    } else if (!w.currency && currencies.length > 1 && (spec.unit === "money" || spec.unit === "metric")) {
      notes.push(`(No currency was said, so ${amount} was compared with each figure in its own currency: ${listing(currencies)}.)`);
    }
    if (lacking.length) notes.push(lackingNote(lacking, spec).trim());
  }

  const shownFields = [...new Set([...(q.show ?? []), ...(q.order ? [q.order.by] : []), ...(q.field && q.aggregate !== "count" ? [q.field] : []), ...(q.where ?? []).map((w) => w.field)])];
  const fields = [...new Set([...(shownFields.length ? shownFields : reader.show), ...(reader.always ?? [])])];
  const [one, many] = loaded.noun ?? reader.noun;
  const head = (n: number) => `${n === 1 ? one : many}${scope}`;
  const source = `\nSource: ${loaded.source}`;
  const links = loaded.links;
  const entitiesOf = (list: Rec[]) => (list.length ? list[0].entities : undefined);

  if (q.group) return grouped(q, rows, loaded.noun ? { ...reader, noun: loaded.noun } : reader, ctx, { base, scope, notes, source, links });

  if (q.aggregate === "count") {
    // Records of one name (a company two funds hold) are named once, and said so.
    const distinct = [...new Set(rows.map((r) => r.name))];
    const names = distinct.slice(0, SHOWN);
    const more = distinct.length > SHOWN ? ` and ${distinct.length - SHOWN} more` : "";
    const twice = q.kind === "holdings" && distinct.length < rows.length ? ` (${distinct.length} companies: ${listing(distinct.filter((x) => rows.filter((r) => r.name === x).length > 1))} held by more than one fund)` : "";
    // A count asked with "how much": the total of the figure beside it, per currency.
    const sumSpec = q.field ? reader.field(q.field, ctx) : null;
    const sum = sumSpec?.combine === "sum" && rows.length ? totals(rows, q.field!, sumSpec, "sum").figures.map((f) => f.written) : [];
    const totalLine = sum.length ? `\nTotal ${sumSpec!.label}: ${listing(sum)}${sum.length > 1 ? " (one per currency, never converted or added across currencies)" : ""}.` : "";
    return {
      ...base,
      text: `${count(rows.length, one, many)}${scope}${twice}${q.status?.length === 1 ? "" : statusSplit(rows)}${rows.length ? `: ${listing(names)}${more}` : ""}.${totalLine}${notes.length ? `\n${notes.join("\n")}` : ""}${source}`,
      data: { kind: q.kind, count: rows.length, records: rows.map((r) => r.data) },
      links,
      entities: rows.length === 1 ? entitiesOf(rows) : undefined,
    };
  }

  if (q.aggregate === "sum" || q.aggregate === "avg" || q.aggregate === "median") {
    const field = q.field ?? q.order?.by;
    if (!field) return { ...base, text: `${q.aggregate === "sum" ? "A total" : q.aggregate === "median" ? "A median" : "An average"} of what? Name a figure of ${many}: ${listing(Object.values(FIELDS[q.kind]).map((f) => f.label))}.`, data: null, links };
    const spec = reader.field(field, ctx)!;
    if (spec.unit === "date") return { ...base, text: `${spec.label} is a date: it has no ${q.aggregate === "sum" ? "total" : "average"}.`, data: null, links };
    const detail = rows.length && rows.length <= SHOWN ? `\n${rows.map((r, i) => line(r, i, [field], reader, ctx)).join("\n")}` : "";
    const tail = `${notes.length ? `\n${notes.join("\n")}` : ""}${source}`;
    // A total of a figure that has none (a runway, a margin): said so, with each record's figure.
    if (q.aggregate === "sum" && spec.combine === "none") {
      return { ...base, text: `${noTotal(spec, many)}${detail || ` (${count(rows.length, one, many)}${scope}; too many to list)`}${tail}`, data: { kind: q.kind, aggregate: "sum", field, total: null, reason: `${spec.label} does not add up`, records: rows.map((r) => r.data) }, links };
    }
    // (A median, or an average asked as the plain mean of each record's own figure, is of the records' figures, not pooled.)
    const pool = spec.combine === "pooled" && q.aggregate !== "median" && !q.unweighted ? pooled(rows, field, spec) : null;
    if (pool) {
      const label = (f: string) => reader.field(f, ctx)?.label ?? f;
      const body = pool.figures.length
        ? `${spec.label} of ${count(rows.length - pool.lacking.length, one, many)}${scope} together, pooled as ${pooledHow(field, label)}: ${listing(pool.figures.map((f) => `${f.written} (${count(f.records, one, many)})`))}${pool.figures.length > 1 ? " (each currency pooled on its own, never converted)" : ""}.`
        : `No ${one}${scope} has the figures a pooled ${spec.label} is made of in your records.`;
      return { ...base, text: `${body}${detail}${lackingNote(pool.lacking, spec)}${tail}`, data: { kind: q.kind, aggregate: "pooled", field, totals: pool.figures.map(({ written: _w, ...f }) => f), lacking: pool.lacking, records: rows.map((r) => r.data) }, links };
    }
    if (spec.combine === "pooled" && q.aggregate === "sum") {
      return { ...base, text: `${spec.label} of several ${many} together is not a sum of their ${spec.label}s, and it cannot be pooled from what is listed here. Each one's own figure:${detail}${tail}`, data: { kind: q.kind, aggregate: "sum", field, total: null, reason: `${spec.label} is not additive`, records: rows.map((r) => r.data) }, links };
    }
    // "What we've invested in our portcos": the companies held today first; with the exited and
    // written-off ones on a line of its own (no status was said, and both readings are common).
    // (What a fund invested is its whole deployment, exits and write-offs included.)
    const gone = q.kind === "holdings" && !q.status?.length && !q.fund && !q.anyOf?.fund ? rows.filter((r) => r.groups?.status && !r.groups.status.split("/").includes("active")) : [];
    // (What was put in is a past flow: every company it went to counts, those still held on a line of their own.)
    if (gone.length && gone.length < rows.length && DEPLOYED.has(field) && q.all_time) {
      const held = rows.filter((r) => !gone.includes(r));
      const t = totals(rows, field, spec, q.aggregate);
      const h = totals(held, field, spec, q.aggregate);
      const per = t.figures.map((f) => `${f.written} (${count(f.named, one, many)})`);
      const body = `${q.aggregate === "sum" ? `Total ${spec.label}` : `Average ${spec.label}`} of ${count(new Set(rows.map((r) => r.name)).size - new Set(t.lacking).size, one, many)}${scope}, the exited and written-off ones included: ${listing(per)}${t.figures.length > 1 ? " (one per currency, never converted or added across currencies)" : ""}.`;
      const stillHeld = h.figures.length ? `\n(In the ${count(new Set(held.map((r) => r.name)).size, "company", "companies")} held today alone: ${listing(h.figures.map((f) => `${f.written} (${count(f.named, one, many)})`))}; ${listing(gone.map((r) => r.name))} ${gone.length === 1 ? "is" : "are"} exited or written off.)` : "";
      return {
        ...base,
        text: `${body}${stillHeld}${detail}${lackingNote(t.lacking, spec)}${tail}`,
        data: { kind: q.kind, aggregate: q.aggregate, field, totals: t.figures.map(({ written: _w, ...f }) => f), totals_held_today: h.figures.map(({ written: _w, ...f }) => f), lacking: t.lacking, records: rows.map((r) => r.data) },
        links,
      };
    }
    const counted = gone.length && gone.length < rows.length ? rows.filter((r) => !gone.includes(r)) : rows;
    const t = totals(counted, field, spec, q.aggregate);
    const what = q.aggregate === "sum" ? `Total ${spec.label}` : q.aggregate === "median" ? `Median ${spec.label}` : `Average ${spec.label}${spec.combine === "pooled" ? " (the plain mean of each one's own figure, not pooled)" : ""}`;
    // (Companies are counted once each, whatever number of funds' positions were added up.)
    const companies = q.kind === "holdings";
    const per = t.figures.map((f) => `${f.written} (${count(companies ? f.named : f.records, one, many)})`);
    const body = t.figures.length
      ? `${what} of ${count(companies ? new Set(counted.map((r) => r.name)).size - new Set(t.lacking).size : counted.length - t.lacking.length, one, many)}${counted === rows ? "" : " (active)"}${scope}: ${listing(per)}${t.figures.length > 1 ? " (one per currency, never converted or added across currencies)" : ""}.`
      : `No ${one}${scope} has ${spec.label} in your records, so there is no ${q.aggregate === "sum" ? "total" : q.aggregate === "median" ? "median" : "average"}.`;
    const all = counted === rows ? null : totals(rows, field, spec, q.aggregate);
    const withGone = all?.figures.length ? `\n(With the ${count(gone.length, "exited or written-off company", "exited or written-off companies")} too (${listing(gone.map((r) => r.name))}): ${listing(all.figures.map((f) => `${f.written} (${count(f.records, one, many)})`))}.)` : "";
    return {
      ...base,
      text: `${body}${withGone}${detail}${lackingNote(t.lacking, spec)}${tail}`,
      data: { kind: q.kind, aggregate: q.aggregate, field, totals: t.figures.map(({ written: _w, ...f }) => f), ...(all ? { totals_with_exited: all.figures.map(({ written: _w, ...f }) => f) } : {}), lacking: t.lacking, records: rows.map((r) => r.data) },
      links,
    };
  }

  // min, max and latest are an order and the first record; a plain list keeps the kind's order.
  let order = q.order ?? null;
  if (q.aggregate === "min" || q.aggregate === "max") {
    const by = q.field ?? q.order?.by;
    if (!by) return { ...base, text: `The ${q.aggregate === "max" ? "highest" : "lowest"} what? Name a figure of ${many}.`, data: null, links };
    order = { by, dir: q.aggregate === "max" ? "desc" : "asc" };
  }
  if (q.aggregate === "latest") {
    const dated = Object.entries(FIELDS[q.kind]).find(([, f]) => f.unit === "date")?.[0];
    if (dated && !q.field) order = { by: dated, dir: "desc" };
  }
  if (q.aggregate === "change") {
    return { ...base, text: `A change over a period is kept for metrics of portfolio companies and NAV of funds; ${many} have no history to compare.`, data: null, links };
  }
  // One record asked for by name, with the figures asked: those figures first, in a sentence.
  if ((q.name || q.names?.length) && !q.aggregate && !q.limit && rows.length >= 1 && rows.length <= 6 && (q.show?.length || q.field)) {
    return oneByOne(q, rows, reader, ctx, { base, scope, notes, source, links });
  }
  order ??= reader.order;
  let lackingOrder: string[] = [];
  let sections: [string, Rec[]][] = [["", rows]];
  if (order) {
    const spec = reader.field(order.by, ctx)!;
    lackingOrder = rows.filter((r) => numberOf(r, order!.by, spec) === null).map((r) => r.name);
    const dir = order.dir === "asc" ? 1 : -1;
    const ranked = rows.filter((r) => numberOf(r, order!.by, spec) !== null).sort((a, b) => dir * (numberOf(a, order!.by, spec)! - numberOf(b, order!.by, spec)!));
    rows = ranked;
    // Amounts in different currencies are never ranked against each other: one ranking per currency.
    const groups = spec.unit === "money" || spec.unit === "metric" ? byCurrency(ranked, order.by).filter(([c]) => c) : [];
    if (groups.length > 1) sections = groups;
    else sections = [["", ranked]];
  }
  const limit = q.aggregate === "min" || q.aggregate === "max" || q.aggregate === "latest" ? 1 : (q.limit ?? SHOWN);
  const orderWords = order && q.order ? `, by ${reader.field(order.by, ctx)!.label} (${describeOrder(order.by, reader.field(order.by, ctx)!, order.dir)})` : "";
  const missing = order && lackingOrder.length ? lackingNote(lackingOrder, reader.field(order.by, ctx)!) : "";
  const shownAll: Rec[] = [];
  const blocks = sections.map(([currency, list]) => {
    const shown = list.slice(0, Math.min(limit, SHOWN));
    shownAll.push(...shown);
    const cut = list.length > shown.length ? `, the ${shown.length === 1 ? "first" : `first ${shown.length}`} of ${list.length}` : "";
    const listed = shown.map((r, i) => line(r, i, fields, reader, ctx)).join("\n");
    const header = currency ? `In ${currency}: ${count(list.length, one, many)}${cut}:` : `${count(list.length, one, many)}${scope}${orderWords}${cut}:`;
    return `${header}${listed ? `\n${listed}` : ""}`;
  });
  const text = rows.length
    ? sections.length > 1
      ? `${count(rows.length, one, many)}${scope}${orderWords}. ${mixedCurrencies(sections, one, many)}\n${blocks.join("\n")}`
      : blocks[0]
    : order && lackingOrder.length && (q.name || q.names?.length)
      ? `${listing(lackingOrder)}: ${reader.field(order.by, ctx)!.label} not in your records (none is recorded).`
      : `None: no ${head(1)} in your records.`;
  // A list of a kind with a natural total (calls, distributions) ends with it, over every record listed or not.
  const sum = reader.totalOf && !q.aggregate && limit > 1 ? listTotals(rows, reader.totalOf.field, reader.field(reader.totalOf.field, ctx)!, reader.totalOf.by, groupWord) : "";
  return {
    ...base,
    text: `${text}${sum}${missing}${notes.length ? `\n${notes.join("\n")}` : ""}${source}`,
    data: { kind: q.kind, total: rows.length, records: shownAll.map((r) => r.data), lacking: lackingOrder },
    links,
    entities: entitiesOf(shownAll),
  };
}

/** Each named record's asked figures first ("Silverline Fund I: TVPI 1.39x."), a figure it lacks said to be not in the records. */
function oneByOne(q: Query, rows: Rec[], reader: KindReader, ctx: AskContext, f: Frame): Answer {
  const asked = [...new Set([...(q.show ?? []), ...(q.field ? [q.field] : [])])];
  const sentence = (r: Rec) => {
    const parts = asked.map((field) => {
      const spec = reader.field(field, ctx)!;
      const v = valueOf(r, field);
      const w = written(spec, v);
      if (w === null) return v?.why ? `${spec.label} ${v.why}` : `${spec.label} not in your records (none is recorded for ${r.name})`;
      const date = spec.unit !== "date" && v?.date ? ` (as of ${v.date.slice(0, 10)})` : "";
      return `${spec.label} ${w}${date}`;
    });
    return `${r.name}: ${parts.join("; ")}.`;
  };
  const details = rows.map((r) => line(r, 0, reader.show.filter((x) => !asked.includes(x)), reader, ctx).replace(/^1\. /, "  "));
  const missing = rows.every((r) => asked.every((field) => valueOf(r, field)?.value == null && !valueOf(r, field)?.date));
  return {
    ...f.base,
    text: `${rows.map(sentence).join("\n")}\n${details.join("\n")}${f.notes.length ? `\n${f.notes.join("\n")}` : ""}${f.source}`,
    data: { kind: q.kind, records: rows.map((r) => r.data), fields: asked, ...(missing ? { unavailable_reason: "not_in_records" } : {}) },
    links: f.links,
    entities: rows.length === 1 ? rows[0].entities : undefined,
  };
}

type Frame = { base: { function: string; arguments: Record<string, unknown> }; scope: string; notes: string[]; source: string; links: string[] };

/** Counts per group ("deals per stage"), with the field's total per group where it adds up. */
function grouped(q: Query, rows: Rec[], reader: KindReader, ctx: AskContext, f: Frame): Answer {
  const [one, many] = reader.noun;
  const key = q.group!;
  const lacking = rows.filter((r) => r.groups?.[key] === undefined);
  // (No records at all is not records that lack the group.)
  if (rows.length === 0) return { ...f.base, text: `None: no ${one}${f.scope} in your records, so there is nothing to count per ${key}.${f.source}`, data: { kind: q.kind, group: key, groups: [] }, links: f.links };
  if (lacking.length === rows.length) {
    return { ...f.base, text: `${capitalised(many)} are not kept by ${key} in your records, so they cannot be counted per ${key}.${f.source}`, data: null, links: f.links };
  }
  const groups = new Map<string, Rec[]>();
  for (const r of rows) for (const g of r.groups?.[key]?.split(MULTI_VALUE) ?? []) groups.set(g, [...(groups.get(g) ?? []), r]);
  // A count per group also totals the kind's natural figure ("distributions by currency": how many, how much).
  const field = q.field && q.aggregate !== "count" ? q.field : (reader.totalOf?.field ?? null);
  const spec = field ? reader.field(field, ctx) : null;
  // Calendar periods in their order; other groups largest first.
  const chronological = key === "year" || key === "quarter" || key === "month" || key === "vintage" || key === "founded";
  const ordered = [...groups].sort((a, b) => (chronological ? a[0].localeCompare(b[0]) : b[1].length - a[1].length || a[0].localeCompare(b[0])));
  const lines = ordered.map(([name, list], i) => {
    const sum = spec && spec.combine === "sum" ? totals(list, field!, spec, q.aggregate === "avg" ? "avg" : "sum").figures.map((t) => t.written) : [];
    const names = [...new Set(list.map((r) => r.name))];
    return `${i + 1}. ${name}: ${count(list.length, one, many)}${key === "status" || q.status?.length === 1 ? "" : statusSplit(list, statusSplit(rows) !== "")}${sum.length ? `, ${q.aggregate === "avg" ? "average" : "total"} ${spec!.label} ${listing(sum)}` : ""}${names.length === 1 && names[0] === name ? "" : ` (${names.length < list.length && !list[0].entities?.person ? "of " : ""}${listing(names.slice(0, 8))}${names.length > 8 ? ` and ${names.length - 8} more` : ""})`}`;
  });
  const noTotalNote = spec && spec.combine !== "sum" ? `\n(${spec.label} does not add up, so no total per ${key} is given.)` : "";
  // "From each fund and in total": the groups' total too, when each record is in one group only.
  const apart = ordered.reduce((n, [, list]) => n + list.length, 0) === rows.length;
  const overall = q.aggregate === "sum" && spec?.combine === "sum" && groups.size > 1 && apart ? totals(rows, field!, spec, "sum").figures.map((t) => t.written) : [];
  const overallLine = overall.length ? `\nIn total, all ${key === "fund" ? "funds" : "groups"} together: ${listing(overall)}${overall.length > 1 ? " (one per currency, never converted)" : ""}.` : "";
  return {
    ...f.base,
    text: `${count(rows.length, one, many)}${f.scope} by ${q.kind === "persons" && key === "status" ? "relationship" : (GROUP_WORDS[key] ?? key)} (${count(groups.size, "group", "groups")}):\n${lines.join("\n")}${overallLine}${noTotalNote}${f.notes.length ? `\n${f.notes.join("\n")}` : ""}${f.source}`,
    data: { kind: q.kind, group: key, groups: ordered.map(([name, list]) => ({ name, count: list.length })) },
    links: f.links,
  };
}

/** How a group is said when its name is not a word of its own. */
const GROUP_WORDS: Partial<Record<string, string>> = { founded: "founding year", flag: "data-quality flag" };

/** A group's value as a word of the totals line: "calls", "distributions". */
const groupWord = (g: string, n: number) => (g === "call" ? (n === 1 ? "call" : "calls") : g === "distribution" ? (n === 1 ? "distribution" : "distributions") : g);

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const s = (description: string) => ({ type: "string", description });

export const QUERY_FUNCTION: AskFunction = {
  name: "query",
  description:
    "Query one kind of the firm's records: deals (pipeline), holdings (portfolio companies and their latest metrics), metrics (one company's metric history), positions (LP fund positions), marks (an LP position's quarterly NAV marks with TVPI, DPI, RVPI at each), cashflows (LP calls and distributions), persons (warm paths), research (runs), documents (held documents and passages). Filter, order, top-N, count, sum per currency, average, min, max, latest, change over a period, a figure at a date (at), the latest against twelve months before (year_ago; months_back for another span).",
  parameters: {
    type: "object",
    properties: {
      kind: { type: "string", enum: [...RECORD_KINDS] },
      name: s("One record: a company, deal, fund, person or domain, research topic"),
      stage: { type: "array", items: { type: "string" }, description: "deals: new, screening, diligence, ic, invested, passed; holdings: seed, series_a, series_b, series_c, growth" },
      round: s("deals: the round being raised, e.g. seed, series a"),
      status: { type: "array", items: { type: "string" }, description: "holdings: active, exited, written_off; deals: queued, running, succeeded, failed; persons: strong, moderate, weak, dormant (the relationship)" },
      own: { type: "boolean", description: "persons: the key user's own contacts rather than the shared network's warm paths" },
      flag: { type: "array", items: { type: "string" }, description: "positions: data-quality flags (stale_nav, cashflows_after_last_mark, no_mark, no_cashflows, ...; \"any\" for any flag)" },
      type: s("deals: company or fund; cashflows: call or distribution; persons: colleague or outside (the firm)"),
      sector: s("A sector, e.g. fintech"),
      location: s("deals: the city a company is based in, e.g. London"),
      fund: s("holdings: one of the firm's own funds; positions, cashflows: an LP fund"),
      vintage: { type: "object", properties: { from: { type: "integer" }, to: { type: "integer" }, in: { type: "array", items: { type: "integer" } } }, description: "positions: vintage years, a range or a list" },
      founded: { type: "object", properties: { from: { type: "integer" }, to: { type: "integer" }, in: { type: "array", items: { type: "integer" } } }, description: "deals: the year the company was founded, a range or a list" },
      currency: s("ISO code, e.g. USD"),
      dates: { type: "object", properties: { from: s("YYYY-MM-DD"), to: s("YYYY-MM-DD"), label: s("How the question said it") } },
      where: {
        type: "array",
        items: { type: "object", properties: { field: { type: "string" }, op: { type: "string", enum: Object.keys(OPS) }, value: { type: "number" }, currency: { type: "string" } }, required: ["field", "op", "value"] },
      },
      metric: s("metrics: arr, monthly_burn, runway_months, headcount, gross_margin, ..."),
      text: s("documents: words to find; research: a topic"),
      show: { type: "array", items: { type: "string" }, description: "Fields to show per record" },
      order: { type: "object", properties: { by: { type: "string" }, dir: { type: "string", enum: ["asc", "desc"] } } },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      aggregate: { type: "string", enum: [...AGGREGATES] },
      group: { type: "string", enum: [...GROUPS], description: "Count (and total the field) per group, e.g. deals per stage" },
      names: { type: "array", items: { type: "string" }, description: "Several named records side by side (a comparison)" },
      anyOf: { type: "object", description: "Alternatives: records matching any of these values, e.g. {\"fund\": [\"Fund II\", \"Fund III\"]}" },
      except: { type: "object", description: "Records matching any of these are left out, e.g. {\"sector\": [\"fintech\"]}" },
      field: s("The field aggregated (not for count)"),
      budget: { type: "string", enum: ["only", "versus"], description: "metrics of one company: its budgeted figures, or each date's actual against its budget" },
      months_back: { type: "integer", minimum: 1, maximum: 240, description: "year_ago, year_change: months before the latest statement (default 12)" },
    },
    required: ["kind"],
  },
  action: false,
  run: runQuery,
};
