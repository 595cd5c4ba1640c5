// Questions typed the way people who live in spreadsheets and databases type them, and amounts
// written the way much of the world writes them, put into the words the reader reads: the same
// question in another notation, never a rule per question. "sector != 'fintech'" is "sector not
// fintech", "ownership_pct IS NULL" is "with no ownership pct", "AVG(value_multiple)" is "average
// value multiple", "GROUP BY fund" is "by fund", "2,5 Mio USD" is "2.5m USD".

/** "IN ('Robotics', 'Fintech')": the values, as alternatives ("robotics or fintech"). */
const valuesOf = (list: string) =>
  list
    .split(",")
    .map((v) => v.trim().replace(/^['"]|['"]$/g, ""))
    .filter(Boolean)
    .join(" or ");

const AGGREGATES: Record<string, string> = { count: "count of", avg: "average", average: "average", mean: "average", sum: "total", total: "total", max: "highest", min: "lowest", median: "median" };

/** Query and formula notation as words; text without any is returned as it was. */
export function typedForm(text: string): string {
  let t = text;
  // Functions over a field: COUNT(*), AVG(value_multiple), MEDIAN(runway_months).
  t = t.replace(/\b(count|avg|average|mean|sum|total|max|min|median)\s*\(\s*(\*|[\w.]+)\s*\)/gi, (_m, fn: string, field: string) => `${AGGREGATES[fn.toLowerCase()]}${field === "*" ? "" : ` ${field}`}`.trim());
  // SELECT name FROM holdings WHERE ...: the records named after FROM (with what the columns total or count), then the conditions.
  // (Written in capitals or with a star: "select the deals from fintech" is English.)
  t = t.replace(/\b(?:SELECT|[Ss]elect(?=\s+\*))\s+(.+?)\s+(?:FROM|[Ff]rom)\s+([\w.]+)/g, (_m, cols: string, table: string, _at: number, whole: string) => {
    const list = cols.split(/\s*,\s*/);
    const grouped = new Set([...whole.matchAll(/\bgroup\s+by\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gi)].flatMap((g) => g[1].split(/\s*,\s*/).map((c) => c.toLowerCase())));
    const totals = list.filter((c) => /^(?:count of|average|total|highest|lowest|median)\b/.test(c));
    // (The columns asked for are figures asked for: "SELECT lead_investor FROM deals" asks each deal's lead investor.)
    const shown = list.filter((c) => !totals.includes(c) && !grouped.has(c.toLowerCase()) && !/^(?:\*|name|id|company|company_name|title)$/i.test(c)).map((c) => c.replace(/_/g, " "));
    return `${totals.length ? `${totals.join(" and ")} ` : ""}${table.replace(/^my_/i, "my ").replace(/_/g, " ")}${shown.length ? ` ${shown.join(" and ")}` : ""}`;
  });
  // "COUNT(*) FROM my_contacts", "AVG(arr) FROM holdings": of those records.
  t = t.replace(/\b(count of|(?:average|total|highest|lowest|median) [\w.]+)\s+(?:FROM|from)\s+(?=[\w.]+)/g, (_m, what: string) => (what === "count of" ? "count of " : `${what} of `));
  // Conditions: NOT IN (...), IN (...), IS [NOT] NULL, !=, <>, = and LIKE.
  // (A list in brackets is a query's when its values are quoted or several: "deals in (mostly) fintech" is English.)
  t = t.replace(/\b([\w.]+)\s+not\s+in\s*\(((?:\s*['"][^)]*)|[^)]*,[^)]*)\)/gi, (_m, field: string, list: string) => `${field} not ${valuesOf(list)}`);
  t = t.replace(/\b([\w.]+)\s+in\s*\(((?:\s*['"][^)]*)|[^)]*,[^)]*)\)/gi, (_m, field: string, list: string) => `${field} ${valuesOf(list)}`);
  t = t.replace(/\b([\w.]+)\s+is\s+not\s+null\b/gi, (_m, field: string) => `with a ${field}`);
  t = t.replace(/\b([\w.]+)\s+is\s+null\b/gi, (_m, field: string) => `with no ${field}`);
  t = t.replace(/\s*(?:!=|<>)\s*/g, " not ");
  t = t.replace(/(?<=[\w'"])\s*==?\s*(?=['"\w])/g, " is ");
  t = t.replace(/\b(?:ends with|starts with|like)\s+(?=['"%])/gi, "in ").replace(/(['"])%|%(['"])/g, "$1$2");
  // Order, limit and grouping.
  t = t.replace(/\border\s+by\s+([\w.]+)\s+desc\b/gi, "by $1 highest first").replace(/\border\s+by\s+([\w.]+)\s+asc\b/gi, "by $1 lowest first").replace(/\border\s+by\b/gi, "by");
  t = t.replace(/\blimit\s+(\d+)\b/gi, "top $1").replace(/\bgroup\s+by\b/gi, "by");
  // Quoted values and field names written as identifiers: "'fintech'" is fintech, "value_multiple" is "value multiple".
  t = t.replace(/(^|[\s(=,])'([^']*)'(?=$|[\s),?.;])/g, "$1$2");
  t = t.replace(/(?<![\w@./-])([a-z]+)_(?:pct|percent)(?![\w@./-])/gi, "$1");
  t = t.replace(/(?<![\w@./-])([a-z]+)_([a-z_]+)(?![\w@./-])/gi, (_m, a: string, b: string) => `${a} ${b.replace(/_/g, " ")}`);
  return t.replace(/\s{2,}/g, " ");
}

/** "2,5 Mio USD", "1.5 Mio EUR", "3 Mrd", "250 Tsd": amounts with a decimal comma or a European scale word, as the reader writes them. */
export function europeanAmounts(text: string): string {
  return text
    .replace(/(\d+),(\d{1,2})(?=\s?(?:mio|mn|m|mrd|bn|k|tsd)\b|\s?(?:€|eur|usd|\$|gbp|£)|\s?(?:million|billion|thousand)\b)/gi, "$1.$2")
    .replace(/(\d(?:[\d.]*\d)?)\s?(mio|mn|mrd|tsd)\b\.?/gi, (_m, n: string, scale: string) => `${n}${({ mio: "m", mn: "m", mrd: "bn", tsd: "k" } as Record<string, string>)[scale.toLowerCase()]}`);
}

/**
 * A bound said by negating its opposite: "not more than 2.5m" is at most 2.5m, "no fewer than 40
 * people" at least 40, "have not a round bigger than 5m" a round of at most 5m. Read as the bound, the
 * negation does not also exclude the figure's currency or the records it names.
 */
export function negatedBounds(text: string): string {
  return text
    // (Words between only after an article, "not a round bigger than": "not touched for more than 6 months" is a negated act.)
    .replace(/\b(?:not|no) (?:(an? (?:[a-z]+ ){0,2}?))?(?:more|greater|bigger|larger|higher|over|above) than\b|\bnot (?:over|above|exceeding)\b(?! the\b)|\b(?:does|do|did) not exceed\b/gi, (_m, noun?: string) => `${noun ?? ""}at most`)
    .replace(/\b(?:not|no) (?:(an? (?:[a-z]+ ){0,2}?))?(?:less|fewer|smaller|lower|under|below) than\b|\bnot (?:under|below)\b(?! the\b)/gi, (_m, noun?: string) => `${noun ?? ""}at least`);
}
