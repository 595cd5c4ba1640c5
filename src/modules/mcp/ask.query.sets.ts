// Which records a query is about, when one filter is not enough: several values of a filter
// ("Fund II or Fund III", "seed or series A"), values left out ("not fintech", "outside Fund II")
// and several named records side by side ("compare Acme and Lumen"). Each value is one ordinary
// load through the kind's own reader (its own matching of funds, sectors and names), and the sets
// are combined here: a union for alternatives, a difference for exclusions. So every kind gets
// negation and alternatives from the filters it already has, with nothing re-implemented.
import type { FilterValues, Query } from "../../engines/ask-engine.ts";
import { listing } from "../../lib/prose.ts";
import type { AskContext } from "./ask.context.ts";
import type { KindReader, Loaded, Rec } from "./ask.query.fields.ts";

type Result = Loaded | { answer: string; data?: Record<string, unknown> };

/** One record's identity across loads: its name, and for dated records (cashflows) its date and amount. */
// (A person is one by their id: two people may share a name.)
const keyOf = (r: Rec) => r.entities?.person?.id ?? `${r.name}|${r.values.date?.date ?? ""}|${r.values.amount?.value ?? ""}`;
// (In a union, a company two funds hold is two positions when each fund's are read: one per fund;
// left out, it is left out whatever fund holds it.)
const unionKey = (r: Rec) => `${keyOf(r)}|${r.entities?.person ? "" : (r.groups?.fund ?? "")}`;

const FILTERS = ["name", "fund", "sector", "round", "stage", "status", "type", "currency", "location", "flag"] as const;
type Filter = (typeof FILTERS)[number];

/** The query with one value of a filter set (stage and status are lists in a query; the others one value). */
function withValue(q: Query, filter: Filter, value: string): Query {
  const out: Query = { ...q };
  if (filter === "stage" || filter === "status" || filter === "flag") out[filter] = [value];
  else out[filter] = value;
  return out;
}

const without = (q: Query): Query => {
  const { anyOf: _a, except: _e, names: _n, ...rest } = q;
  return rest;
};

/** The group that says a filter's value is not known ("city unknown"): such records are not known to be outside it. */
const UNKNOWN_GROUP: Partial<Record<Filter, string>> = { location: "city", sector: "sector", round: "round", currency: "currency" };

/** The records of a query with its alternatives, names and exclusions applied. */
export function loadSet(ctx: AskContext, reader: KindReader, q: Query): Result {
  // Several named records: each loaded by its name, in the order said.
  if (q.names?.length) {
    const loads = q.names.map((name) => loadSet(ctx, reader, { ...without(q), name, ...(q.except ? { except: q.except } : {}) }));
    return union(loads, (l) => l.scope.replace(/ named /, " "), " and", true);
  }
  // Several values of one filter: one load per value, their union.
  const alternative = q.anyOf ? FILTERS.find((f) => (q.anyOf![f]?.length ?? 0) > 0) : undefined;
  if (alternative) {
    const rest: FilterValues = { ...q.anyOf };
    delete rest[alternative];
    const base: Query = { ...q, anyOf: Object.keys(rest).length ? rest : undefined };
    const loads = q.anyOf![alternative]!.map((v) => loadSet(ctx, reader, withValue(base, alternative, v)));
    return union(loads, (l) => l.scope, " or", false);
  }
  const loaded = reader.load(ctx, without(q));
  if ("answer" in loaded || !q.except) return loaded;
  // Exclusions: the records each excluded value names, taken away (by the reader's own matching).
  let rows = loaded.rows;
  const said: string[] = [];
  for (const filter of FILTERS) {
    for (const value of q.except[filter] ?? []) {
      // (Left out of the same records: one's own contacts stay one's own.)
      const excluded = reader.load(ctx, withValue({ kind: q.kind, ...(q.own ? { own: true } : {}) }, filter, value));
      if ("answer" in excluded) {
        // Nothing of that name to leave out: said, never silently ignored.
        said.push(`(Nothing was left out for "not ${value}": ${excluded.answer})`);
        continue;
      }
      const gone = new Set(excluded.rows.map(keyOf));
      rows = rows.filter((r) => !gone.has(keyOf(r)));
      said.push(` not${excluded.scope || ` ${value}`}`);
      // A record whose value is not known is not known to be something else: left out, and said so.
      const group = UNKNOWN_GROUP[filter];
      const unknown = group ? rows.filter((r) => r.groups?.[group]?.endsWith(" unknown")) : [];
      if (unknown.length) {
        rows = rows.filter((r) => !unknown.includes(r));
        const names = [...new Set(unknown.map((r) => r.name))];
        said.push(`(${names.length} ${names.length === 1 ? reader.noun[0] : reader.noun[1]} with ${unknown[0].groups![group!]} in your records ${names.length === 1 ? "is" : "are"} left out, as not known to be other than ${value}: ${listing(names.slice(0, 8))}${names.length > 8 ? ` and ${names.length - 8} more` : ""}.)`);
      }
    }
  }
  const notes = said.filter((s) => s.startsWith("("));
  return { ...loaded, rows, scope: loaded.scope + said.filter((s) => !s.startsWith("(")).join(","), notes: [...(loaded.notes ?? []), ...notes] };
}

/** The union of several loads (records said once, first seen first); the first answer that is not records wins. */
function union(loads: Result[], scopeOf: (l: Loaded) => string, joiner: string, keepAnswers: boolean): Result {
  const ok = loads.filter((l): l is Loaded => !("answer" in l));
  const answers = loads.filter((l): l is { answer: string } => "answer" in l);
  if (ok.length === 0) return answers[0];
  if (answers.length && !keepAnswers) return answers[0];
  const seen = new Set<string>();
  const rows: Rec[] = [];
  for (const l of ok) for (const r of l.rows) if (!seen.has(unionKey(r)) && seen.add(unionKey(r))) rows.push(r);
  const scopes = [...new Set(ok.map(scopeOf))];
  return {
    rows,
    scope: scopes.length > 1 ? factored(scopes, joiner) : scopes[0],
    source: ok[0].source,
    links: [...new Set(ok.flatMap((l) => l.links))],
    notes: [...new Set([...ok.flatMap((l) => l.notes ?? []), ...answers.map((a) => a.answer)])],
    subject: ok.length === 1 ? ok[0].subject : undefined,
  };
}

/**
 * Several scopes said once, their shared words factored out: " at IC raising a seed round" and
 * " at IC raising a Series A round" read " at IC raising a seed or Series A round".
 */
function factored(scopes: string[], joiner: string): string {
  const words = scopes.map((s) => s.split(" "));
  const shortest = Math.min(...words.map((w) => w.length));
  let head = 0;
  while (head < shortest - 1 && words.every((w) => w[head] === words[0][head])) head++;
  let tail = 0;
  while (tail < shortest - head - 1 && words.every((w) => w[w.length - 1 - tail] === words[0][words[0].length - 1 - tail])) tail++;
  const middles = words.map((w) => w.slice(head, w.length - tail).join(" "));
  if (middles.some((m) => !m.trim()) || (head <= 1 && tail === 0)) return scopes.join(joiner);
  const word = joiner.trim();
  const listed = middles.length > 2 ? `${middles.slice(0, -1).join(", ")} ${word} ${middles.at(-1)}` : middles.join(` ${word} `);
  return [...words[0].slice(0, head), listed, ...words[0].slice(words[0].length - tail)].join(" ");
}
