// A record's figure at a point of its history, and against a year before: a portfolio company's
// metric (its imported actuals) or an LP position's NAV, TVPI, DPI or RVPI (its quarterly marks).
// The figure at some dates is the last statement within them, dated; when none falls within them
// the answer says so and names the nearest statements' dates, never their figures (a figure of
// another date is not the figure asked for). A year ago is twelve months before the latest
// statement, so both figures are real statements, each with its date.
import type { Answer, Query } from "../../engines/ask-engine.ts";
import { possessive } from "../../lib/prose.ts";
import type { AskContext } from "./ask.context.ts";
import { forDates, metricLabel, written, type KindReader, type Loaded, type Rec } from "./ask.query.fields.ts";

const dateOf = (r: Rec) => (r.values.date?.date ?? "").slice(0, 10);

/** The field read from each dated row: a metric point's value, or the mark's figure asked for. */
function fieldOf(q: Query): string {
  return q.kind === "metrics" ? "value" : (q.field ?? q.show?.[0] ?? "tvpi");
}

function labelOf(q: Query, reader: KindReader, ctx: AskContext): string {
  return q.kind === "metrics" ? metricLabel(q.metric ?? "value") : (reader.field(fieldOf(q), ctx)?.label ?? fieldOf(q));
}

/** YYYY-MM-DD some months earlier, twelve when not said (the last day of that month when the day is a month end). */
export function yearBefore(day: string, months = 12): string {
  const [y, m, d] = day.split("-").map(Number);
  const monthEnd = new Date(Date.UTC(y, m, 0)).getUTCDate() === d;
  const back = y * 12 + (m - 1) - months;
  const [py, pm] = [Math.floor(back / 12), (back % 12) + 1];
  const last = new Date(Date.UTC(py, pm, 0)).getUTCDate();
  return `${py}-${String(pm).padStart(2, "0")}-${String(monthEnd ? last : Math.min(d, last)).padStart(2, "0")}`;
}

const SPAN_WORDS: Record<number, string> = { 1: "one month", 3: "three months", 6: "six months", 9: "nine months", 12: "twelve months", 18: "eighteen months", 24: "twenty-four months" };
const spanWords = (months: number) => SPAN_WORDS[months] ?? `${months} months`;

export function historyAnswer(ctx: AskContext, q: Query, reader: KindReader, loaded: Loaded, base: { function: string; arguments: Record<string, unknown> }): Answer | null {
  if (q.aggregate !== "at" && q.aggregate !== "first" && q.aggregate !== "year_ago" && q.aggregate !== "year_change") return null;
  // (Every company's year over year is the metrics reader's own ranking.)
  if (q.aggregate === "year_change" && q.kind === "metrics" && !q.name) return null;
  if (q.kind !== "metrics" && q.kind !== "marks") {
    return { ...base, text: `A figure at a date is kept for portfolio companies' metrics and LP positions' NAV marks; ${reader.noun[1]} have no history to read it from.`, data: null, links: loaded.links };
  }
  const field = fieldOf(q);
  const spec = reader.field(field, ctx);
  if (!spec) return null;
  const label = labelOf(q, reader, ctx);
  const subjects = [...new Set(loaded.rows.map((r) => r.name))];
  const subject = loaded.subject ?? (q.kind === "marks" && subjects.length === 1 ? subjects[0] : null);
  const source = `\nSource: ${loaded.source}`;
  const links = loaded.links;
  if (!subject && q.kind === "marks" && subjects.length > 1) {
    return { ...base, text: `Which fund? Several LP positions have marks: a figure at a date is read for one fund at a time.${source}`, data: null, links };
  }
  if (!subject && q.kind === "metrics") {
    return { ...base, text: `Which portfolio company? A figure at a date is read for one company at a time.${source}`, data: null, links };
  }
  const who = possessive(subject ?? "The record");
  const rows = loaded.rows.filter((r) => r.values[field]?.value != null && dateOf(r)).sort((a, b) => dateOf(a).localeCompare(dateOf(b)));
  const say = (r: Rec) => written(spec, r.values[field]);

  if (q.aggregate === "at" || q.aggregate === "first") {
    const range = q.dates;
    const hit = q.aggregate === "first" ? rows[0] : rows.at(-1);
    if (!hit) {
      const everything = reader.load(ctx, { ...q, dates: undefined, aggregate: undefined });
      const all = "answer" in everything ? [] : everything.rows.filter((r) => r.values[field]?.value != null).map(dateOf).sort();
      const before = range?.from ? all.filter((d) => d < range.from!).at(-1) : undefined;
      const after = range?.to ? all.find((d) => d > range.to!) : undefined;
      const nearest = [before && `the last before is dated ${before}`, after && `the first after is dated ${after}`].filter(Boolean).join(", and ");
      return {
        ...base,
        text: `${who} ${label} ${range ? forDates(range) : "for that date"} is not in your records: no statement is dated within it${nearest ? ` (${nearest})` : ""}.${source}`,
        data: { field, value: null, reason: "no statement dated within the range", nearest: { before: before ?? null, after: after ?? null } },
        links,
      };
    }
    const within = range ? ` ${forDates(range)}` : "";
    const when = q.aggregate === "first" ? ` when first stated${within ? `,${within}` : ""}` : within;
    const latest = q.aggregate === "first" && rows.length > 1 ? `\nLatest: ${say(rows.at(-1)!)} (${dateOf(rows.at(-1)!)}).` : "";
    return {
      ...base,
      text: `${who} ${label}${when}: ${say(hit)} (statement of ${dateOf(hit)}).${latest}${source}`,
      data: { field, value: hit.values[field].value, currency: hit.values[field].currency ?? null, date: dateOf(hit), record: hit.data },
      links,
    };
  }

  // year_ago: the latest statement, and the one twelve months before it.
  const latest = rows.at(-1);
  if (!latest) return { ...base, text: `No ${label} of ${subject ?? "it"} is in your records.${source}`, data: { field, value: null }, links };
  const back = q.months_back ?? 12;
  const span = spanWords(back);
  const target = yearBefore(dateOf(latest), back);
  const prior = rows.find((r) => dateOf(r) === target) ?? rows.find((r) => dateOf(r).slice(0, 7) === target.slice(0, 7));
  if (!prior) {
    return {
      ...base,
      text: `${who} ${label} ${span} before its latest statement (${dateOf(latest)}) is not in your records: nothing is dated ${target.slice(0, 7)}.\nLatest: ${say(latest)} (${dateOf(latest)}).${source}`,
      data: { field, latest: { value: latest.values[field].value, date: dateOf(latest) }, year_before: null, reason: `no statement dated ${target.slice(0, 7)}` },
      links,
    };
  }
  // Asked only what it was then: that figure, and the latest statement's date (its figure is not what was asked).
  if (q.aggregate === "year_ago") {
    return {
      ...base,
      text: `${who} ${label} ${span} before its latest statement (${dateOf(latest)}): ${say(prior)} (statement of ${dateOf(prior)}).${source}`,
      data: { field, value: prior.values[field].value, date: dateOf(prior), latest_date: dateOf(latest) },
      links,
    };
  }
  const a = prior.values[field].value!;
  const b = latest.values[field].value!;
  const delta = b - a;
  const pct = a !== 0 ? Math.round((delta / Math.abs(a)) * 1000) / 10 : null;
  const deltaWords = `${delta >= 0 ? "+" : "-"}${written(spec, { ...latest.values[field], value: Math.abs(Math.round(delta * 10000) / 10000) })}`;
  return {
    ...base,
    text: `${who} ${label} ${back === 12 ? "a year" : span} before its latest statement: ${say(prior)} (${dateOf(prior)}).\nLatest: ${say(latest)} (${dateOf(latest)}); a change of ${deltaWords}${pct !== null ? ` (${pct >= 0 ? "+" : ""}${pct}%)` : ""} over those ${span}.${source}`,
    data: { field, year_before: { value: a, date: dateOf(prior) }, latest: { value: b, date: dateOf(latest) }, change: delta, change_pct: pct },
    links,
  };
}
