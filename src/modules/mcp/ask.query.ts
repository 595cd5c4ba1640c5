// The `query` operation: one record kind of the firm (deals, holdings, metrics, LP positions,
// cashflows, people, research runs, documents), filtered, ordered, cut to the top N, or counted,
// summed per currency, averaged, or its extreme, latest or change. Each kind's reader
// (ask.query.*.ts) loads its records through the owning module's service with the caller's org
// and filters them by what only it knows (stage, fund, sector, dates); thresholds, order, top-N and
// the aggregates are applied here alike for every kind. The answer states each figure with its
// unit, its date where it has one, what was left out for lack of a figure, and where it came from.
import { AGGREGATES, RECORD_KINDS, type Aggregate, type Answer, type Query, type RecordKind, type Threshold } from "../../engines/ask-engine.ts";
import { count, listing, num } from "../../lib/prose.ts";
import type { AskContext, AskFunction } from "./ask.context.ts";
import { FIELDS, written, type FieldSpec, type KindReader, type Rec, type Value } from "./ask.query.fields.ts";
import { DEALS } from "./ask.query.deals.ts";
import { CASHFLOWS, POSITIONS } from "./ask.query.funds.ts";
import { HOLDINGS, METRICS } from "./ask.query.holdings.ts";
import { DOCUMENTS, PERSONS, RESEARCH } from "./ask.query.records.ts";

const READERS: Record<RecordKind, KindReader> = {
  deals: DEALS,
  holdings: HOLDINGS,
  metrics: METRICS,
  positions: POSITIONS,
  cashflows: CASHFLOWS,
  persons: PERSONS,
  research: RESEARCH,
  documents: DOCUMENTS,
};

/** Lines shown at most; the total is always said. */
const SHOWN = 25;
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
  for (const k of ["name", "round", "type", "sector", "fund", "currency", "metric", "text"] as const) if (text(args[k])) q[k] = text(args[k]);
  for (const k of ["stage", "status", "show"] as const) if (strings(args[k])) q[k] = strings(args[k]);
  const vintage = args.vintage as { from?: unknown; to?: unknown } | undefined;
  if (vintage && typeof vintage === "object") q.vintage = { from: int(vintage.from), to: int(vintage.to) };
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
      q.where.push({ field: w.field, op: w.op as Threshold["op"], value: w.value });
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
  if (unknown.length) return notHeld(kind as RecordKind, unknown, ctx);
  return q;
}

/** "not in your records", with what the records do hold for that kind. */
function notHeld(kind: RecordKind, fields: string[], ctx: AskContext): string {
  const reader = READERS[kind];
  const held = reader.fieldNames?.(ctx) ?? Object.keys(FIELDS[kind]);
  const label = (f: string) => reader.field(f, ctx)?.label ?? f.replaceAll("_", " ");
  return `${listing(fields.map((f) => f.replaceAll("_", " ")))} ${fields.length === 1 ? "is" : "are"} not in your records for ${reader.noun[1]}. What they hold: ${listing(held.map(label))}.`;
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

/** Sums or means per currency (money and currency metrics), or one figure; with the records that lacked it. */
function totals(rows: Rec[], field: string, spec: FieldSpec, how: "sum" | "avg") {
  const groups = new Map<string, { sum: number; n: number; unit: string | null }>();
  const lacking: string[] = [];
  for (const r of rows) {
    const v = valueOf(r, field);
    if (!v || v.value === null) {
      lacking.push(r.name);
      continue;
    }
    const key = v.currency ?? "";
    const g = groups.get(key) ?? { sum: 0, n: 0, unit: v.unit ?? null };
    g.sum += v.value;
    g.n++;
    groups.set(key, g);
  }
  const figures = [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([currency, g]) => {
    const value = how === "sum" ? g.sum : g.sum / g.n;
    const rounded = spec.unit === "money" || (spec.unit === "metric" && currency) ? Math.round(value) : Math.round(value * 100) / 100;
    return { currency: currency || null, value: rounded, records: g.n, written: written(spec, { value: rounded, currency: currency || null, unit: g.unit }) };
  });
  return { figures, lacking };
}

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
  const loaded = reader.load(ctx, q);
  if ("answer" in loaded) return { ...base, text: loaded.answer, data: loaded.data ?? null, links: [] };
  const special = q.aggregate ? reader.aggregate?.(ctx, q, loaded) : null;
  if (special) return { ...special, arguments: args };

  let rows = loaded.rows;
  const notes = [...(loaded.notes ?? [])];
  let scope = loaded.scope;
  for (const w of q.where ?? []) {
    const spec = reader.field(w.field, ctx)!;
    const [words, test] = OPS[w.op];
    const lacking = rows.filter((r) => numberOf(r, w.field, spec) === null).map((r) => r.name);
    rows = rows.filter((r) => {
      const v = numberOf(r, w.field, spec);
      return v !== null && test(v, w.value);
    });
    // The threshold in the figure's own unit (a metric's, from a record that has it).
    const like = rows.map((r) => valueOf(r, w.field)).find((v) => v && v.value !== null);
    scope += ` with ${spec.label} ${words} ${written(spec, { value: w.value, currency: like?.currency ?? null, unit: like?.unit ?? null, date: null }) ?? num(w.value)}`;
    if (lacking.length) notes.push(lackingNote(lacking, spec).trim());
  }

  const shownFields = [...new Set([...(q.show ?? []), ...(q.order ? [q.order.by] : []), ...(q.field && q.aggregate !== "count" ? [q.field] : []), ...(q.where ?? []).map((w) => w.field)])];
  const fields = [...new Set([...(shownFields.length ? shownFields : reader.show), ...(reader.always ?? [])])];
  const [one, many] = reader.noun;
  const head = (n: number) => `${n === 1 ? one : many}${scope}`;
  const source = `\nSource: ${loaded.source}`;
  const links = loaded.links;
  const entitiesOf = (list: Rec[]) => (list.length ? list[0].entities : undefined);

  if (q.aggregate === "count") {
    const names = rows.slice(0, SHOWN).map((r) => r.name);
    const more = rows.length > SHOWN ? ` and ${rows.length - SHOWN} more` : "";
    return {
      ...base,
      text: `${count(rows.length, one, many)}${scope}${rows.length ? `: ${listing(names)}${more}` : ""}.${notes.length ? `\n${notes.join("\n")}` : ""}${source}`,
      data: { kind: q.kind, count: rows.length, records: rows.map((r) => r.data) },
      links,
      entities: rows.length === 1 ? entitiesOf(rows) : undefined,
    };
  }

  if (q.aggregate === "sum" || q.aggregate === "avg") {
    const field = q.field ?? q.order?.by;
    if (!field) return { ...base, text: `${q.aggregate === "sum" ? "A total" : "An average"} of what? Name a figure of ${many}: ${listing(Object.values(FIELDS[q.kind]).map((f) => f.label))}.`, data: null, links };
    const spec = reader.field(field, ctx)!;
    if (spec.unit === "date") return { ...base, text: `${spec.label} is a date: it has no ${q.aggregate === "sum" ? "total" : "average"}.`, data: null, links };
    const t = totals(rows, field, spec, q.aggregate);
    const what = q.aggregate === "sum" ? `Total ${spec.label}` : `Average ${spec.label}`;
    const per = t.figures.map((f) => `${f.written} (${count(f.records, one, many)})`);
    const body = t.figures.length
      ? `${what} of ${count(rows.length - t.lacking.length, one, many)}${scope}: ${listing(per)}${t.figures.length > 1 ? " (not pooled across currencies)" : ""}.`
      : `No ${one}${scope} has ${spec.label} in your records, so there is no ${q.aggregate === "sum" ? "total" : "average"}.`;
    const detail = rows.length && rows.length <= SHOWN ? `\n${rows.map((r, i) => line(r, i, [field], reader, ctx)).join("\n")}` : "";
    return {
      ...base,
      text: `${body}${detail}${lackingNote(t.lacking, spec)}${notes.length ? `\n${notes.join("\n")}` : ""}${source}`,
      data: { kind: q.kind, aggregate: q.aggregate, field, totals: t.figures.map(({ written: _w, ...f }) => f), lacking: t.lacking, records: rows.map((r) => r.data) },
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
  order ??= reader.order;
  let lackingOrder: string[] = [];
  if (order) {
    const spec = reader.field(order.by, ctx)!;
    lackingOrder = rows.filter((r) => numberOf(r, order!.by, spec) === null).map((r) => r.name);
    const dir = order.dir === "asc" ? 1 : -1;
    rows = rows.filter((r) => numberOf(r, order!.by, spec) !== null).sort((a, b) => dir * (numberOf(a, order!.by, spec)! - numberOf(b, order!.by, spec)!));
  }
  const limit = q.aggregate === "min" || q.aggregate === "max" || q.aggregate === "latest" ? 1 : (q.limit ?? SHOWN);
  const shown = rows.slice(0, Math.min(limit, SHOWN));
  const orderWords = order && q.order ? `, by ${reader.field(order.by, ctx)!.label} (${describeOrder(order.by, reader.field(order.by, ctx)!, order.dir)})` : "";
  const cut = rows.length > shown.length ? `, the ${shown.length === 1 ? "first" : `first ${shown.length}`} of ${rows.length}` : "";
  const listed = shown.map((r, i) => line(r, i, fields, reader, ctx)).join("\n");
  const header = rows.length
    ? `${count(rows.length, one, many).replace(/^\d[\d,]*/, (n) => n)}${scope}${orderWords}${cut}:`
    : `No ${head(0)} in your records.`;
  const missing = order && lackingOrder.length ? lackingNote(lackingOrder, reader.field(order.by, ctx)!) : "";
  return {
    ...base,
    text: `${header}${listed ? `\n${listed}` : ""}${missing}${notes.length ? `\n${notes.join("\n")}` : ""}${source}`,
    data: { kind: q.kind, total: rows.length, records: shown.map((r) => r.data), lacking: lackingOrder },
    links,
    entities: entitiesOf(shown),
  };
}

const s = (description: string) => ({ type: "string", description });

export const QUERY_FUNCTION: AskFunction = {
  name: "query",
  description:
    "Query one kind of the firm's records: deals (pipeline), holdings (portfolio companies and their latest metrics), metrics (one company's metric history), positions (LP fund positions), cashflows (LP calls and distributions), persons (warm paths), research (runs), documents (held documents and passages). Filter, order, top-N, count, sum per currency, average, min, max, latest, change over a period.",
  parameters: {
    type: "object",
    properties: {
      kind: { type: "string", enum: [...RECORD_KINDS] },
      name: s("One record: a company, deal, fund, person or domain, research topic"),
      stage: { type: "array", items: { type: "string" }, description: "deals: new, screening, diligence, ic, invested, passed; holdings: seed, series_a, series_b, series_c, growth" },
      round: s("deals: the round being raised, e.g. seed, series a"),
      status: { type: "array", items: { type: "string" }, description: "holdings: active, exited, written_off; deals: queued, running, succeeded, failed" },
      type: s("deals: company or fund; cashflows: call or distribution"),
      sector: s("A sector, e.g. fintech"),
      fund: s("holdings: one of the firm's own funds; positions, cashflows: an LP fund"),
      vintage: { type: "object", properties: { from: { type: "integer" }, to: { type: "integer" } } },
      currency: s("ISO code, e.g. USD"),
      dates: { type: "object", properties: { from: s("YYYY-MM-DD"), to: s("YYYY-MM-DD"), label: s("How the question said it") } },
      where: {
        type: "array",
        items: { type: "object", properties: { field: { type: "string" }, op: { type: "string", enum: Object.keys(OPS) }, value: { type: "number" } }, required: ["field", "op", "value"] },
      },
      metric: s("metrics: arr, monthly_burn, runway_months, headcount, gross_margin, ..."),
      text: s("documents: words to find; research: a topic"),
      show: { type: "array", items: { type: "string" }, description: "Fields to show per record" },
      order: { type: "object", properties: { by: { type: "string" }, dir: { type: "string", enum: ["asc", "desc"] } } },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      aggregate: { type: "string", enum: [...AGGREGATES] },
      field: s("The field aggregated (not for count)"),
    },
    required: ["kind"],
  },
  action: false,
  run: runQuery,
};
