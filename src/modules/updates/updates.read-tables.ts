// Figures out of tables: an HTML table of the body, a sheet of an XLSX, a CSV, or a plain-text table
// (cells joined by " | ", tabs, or runs of spaces). A row is read when its first cell names one
// metric; its value is the cell under the column for the update's period (or the one column of
// values), never a column of plans, budgets, targets or forecasts, of changes (MoM, %, Δ), or of an
// earlier period. A header or label such as "(€k)" or "in EUR thousands" scales the bare cells.
import { amountsIn, type Amount } from "./updates.numbers.ts";
import { isElsewhere, isForecast, KIND, metricsIn, type Metric } from "./updates.metrics.ts";
import { periodsIn, type Period } from "./updates.periods.ts";
import { fits, quoteOf, type ReadFigure, type Where } from "./updates.read-text.ts";

/** The cells of a line when it is a table row, else null. */
export function cellsOf(line: string): string[] | null {
  const t = line.trim().replace(/\.$/, "");
  let cells: string[];
  if (t.includes("|")) cells = t.replace(/^\|/, "").replace(/\|$/, "").split("|");
  else if (t.includes("\t")) cells = t.split(/\t+/);
  else if (/\S {2,}\S/.test(t)) cells = t.split(/ {2,}/);
  else return null;
  cells = cells.map((c) => c.trim());
  // "ARR: $1.2M | MRR: $100k": statements joined by bars, not a table's cells.
  if (cells.filter((c) => /^[^:|]{1,40}:\s*\S/.test(c)).length >= 2) return null;
  // A markdown rule (|---|---|) is no row.
  if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === "")) return [];
  return cells.length >= 2 ? cells : null;
}

type Column = { skip: string | null; period: Period | null; actual?: boolean };

const CHANGE_HEADER = /(?:^|\b)(?:MoM|QoQ|YoY|Δ|delta|change|chg|growth|var(?:iance)?|diff(?:erence)?|vs\.?|%|Veränderung|Abweichung)(?:\b|$)/i;
const EARLIER_HEADER = /\b(?:prior|previous|last (?:month|quarter|year)|LM|LQ|LY|PY|Vormonat|Vorjahr|Vorquartal)\b/i;

function columnOf(header: string, sent: Date): Column {
  header = header.trim();
  if (isForecast(header) || /\b(?:plan|budget|target|forecast|fcst|goal|BP|outlook|est\.?|projected|Ziel|Soll)\b/i.test(header)) return { skip: "plan", period: null };
  if (CHANGE_HEADER.test(header)) return { skip: "change", period: null };
  if (EARLIER_HEADER.test(header)) return { skip: "earlier", period: null };
  // A spreadsheet's date header read without its format: an Excel serial day (46082 is 2026-03-31).
  if (/^\d{5}$/.test(header.trim()) && Number(header) > 36000 && Number(header) < 60000) {
    const day = new Date(Date.UTC(1899, 11, 30) + Number(header) * 86_400_000).toISOString().slice(0, 10);
    // A month column of a sheet is stored as its first day (shown "Mar-26"): the month.
    header = day.endsWith("-01") ? day.slice(0, 7) : day;
  }
  const periods = periodsIn(header, sent);
  return { skip: null, period: periods.length === 1 ? periods[0] : null, actual: /\b(?:actuals?|Ist|réel|current|aktuell)\b/i.test(header) };
}

/** The scale and currency a header or label writes for bare cells: "(€k)", "EUR thousands", "TEUR", "in $m". */
export function unitNote(text: string): { factor: number; currency: string | null } | null {
  const t = text.toLowerCase();
  let factor = 1;
  if (/\b(?:teur|tusd|tsd\.?|k€|€k|\$k|k\$|kusd|keur|thousands?|in k|000s)\b|'000|\(k\)|€\s?k\b|\$\s?k\b|£\s?k\b/i.test(t)) factor = 1e3;
  else if (/\b(?:mio\.?|mn|mm|millions?|meur|musd|\$m|€m|m€|m\$)\b|\(m\)|€\s?m\b|\$\s?m\b|£\s?m\b/i.test(t)) factor = 1e6;
  let currency: string | null = null;
  if (/€|\beur\b|teur|keur|meur/.test(t)) currency = "EUR";
  else if (/\$|\busd\b|tusd|kusd|musd/.test(t)) currency = "USD";
  else if (/£|\bgbp\b/.test(t)) currency = "GBP";
  else if (/\bchf\b/.test(t)) currency = "CHF";
  return factor === 1 && !currency ? null : { factor, currency };
}

/** The figures of the table rows among `lines` (the others are left for the prose reader). */
export function readTables(lines: string[], where: Where, caption: string): { figures: ReadFigure[]; prose: string[] } {
  const figures: ReadFigure[] = [];
  const prose: string[] = [];
  let header: Column[] | null = null;
  let headerNote: ReturnType<typeof unitNote> = unitNote(caption);
  let inTable = false;
  let long: LongColumns | null = null;
  let transposed: (Metric | null)[] | null = null;
  for (const line of lines) {
    // A rule under a plain-text table's header ("-----", "|---|---|") belongs to the table.
    if (inTable && /^[\s\-=_+|:]{3,}$/.test(line)) continue;
    const cells = cellsOf(line);
    if (cells === null) {
      prose.push(line);
      if (inTable) {
        header = null;
        long = null;
        transposed = null;
        inTable = false;
      }
      // A line just before a table may say its unit ("All figures in EUR thousands").
      headerNote = unitNote(line) ?? (line.trim() ? unitNote(caption) : headerNote);
      continue;
    }
    inTable = true;
    if (cells.length === 0) continue;
    // A transposed table: metrics as columns, a period per row ("Month | MRR | Net burn | Cash").
    const across = metricColumns(cells);
    if (across) {
      transposed = across;
      headerNote = unitNote(cells.join(" ")) ?? headerNote;
      continue;
    }
    if (transposed) {
      figures.push(...transposedRow(cells, transposed, where, headerNote));
      continue;
    }
    // A long table (a finance system's export): one row per figure, its metric, value, period and currency in named columns.
    const longHeader = longColumns(cells);
    if (longHeader) {
      long = longHeader;
      continue;
    }
    if (long) {
      const figure = longRow(cells, long, where, headerNote);
      if (figure) figures.push(figure);
      continue;
    }
    const label = cells[0];
    const mentions = metricsIn(label);
    const named = mentions.filter((m) => m.metric);
    // A header row: no metric in its first cell, and some period, plan or change headings.
    if (named.length === 0) {
      const cols = cells.map((c) => columnOf(c, where.sent));
      if (cols.slice(1).some((c) => c.period || c.skip) || header === null) {
        header = cols;
        headerNote = unitNote(cells.join(" ")) ?? headerNote;
      }
      continue;
    }
    if (named.length !== 1 || mentions.length !== 1 || isForecast(label) || isElsewhere(label) || /\b(?:new|added|net new|change|growth)\b/i.test(label)) continue;
    const metric = named[0].metric!;
    const note = unitNote(label.slice(named[0].end)) ?? unitNote(label) ?? headerNote;
    // The candidate cells: not a plan, change or earlier column; the update's period's column when headed by periods.
    const candidates: { cell: string; col: Column; amount: Amount }[] = [];
    // A header without the label column's corner cell ("      Q4 2025   Q1 2026") is aligned right.
    const shift = header && cells.length > header.length ? cells.length - header.length : 0;
    for (let i = 1; i < cells.length; i++) {
      const col = header?.[i - shift] ?? { skip: null, period: null };
      if (col.skip) continue;
      const found = amountsIn(cells[i]);
      if (found.length !== 1) continue;
      let a = found[0];
      if (a.signed) continue;
      // A header's unit note ("(USD)", "(TEUR)") speaks of the money rows, not of counts or percentages.
      if (KIND[metric] !== "money") {
        // nothing to scale
      } else if (note && a.unit === null && !a.scaled) a = { ...a, value: Math.round(a.value * note.factor * 100) / 100, currency: a.currency ?? note.currency, scaled: note.factor !== 1 };
      else if (note && a.currency === null && a.unit === null) a = { ...a, currency: note.currency };
      if (!fits(metric, a, true)) continue;
      candidates.push({ cell: cells[i], col, amount: a });
    }
    if (candidates.length === 0) continue;
    // Columns headed by periods: each is that period's actual (a table of the last three months
    // is three months of history). Otherwise the one value, or the column headed "actual".
    const dated = candidates.filter((c) => c.col.period);
    const actual = candidates.filter((c) => c.col.actual);
    let chosen: typeof candidates;
    let review: string | null = null;
    if (dated.length) chosen = [...new Map(dated.map((c) => [c.col.period!.end, c])).values()];
    else if (actual.length === 1) chosen = actual;
    else {
      chosen = [candidates[0]];
      if (candidates.length > 1 && new Set(candidates.map((c) => c.amount.value)).size > 1) review = "the row has several values and no column says which is the actual";
    }
    const quote = quoteOf(cells.filter(Boolean).join(" | "));
    for (const c of chosen) {
      figures.push({ metric, value: c.amount.value, currency: c.amount.currency, period: c.col.period, review, quote, documentId: where.documentId, page: where.page, fromTable: true });
    }
  }
  return { figures, prose };
}

/** The metric of each column when a header row names two or more metrics after a period heading (or none). */
function metricColumns(cells: string[]): (Metric | null)[] | null {
  if (!/^(?:|month|period|date|quarter|as of|monat|zeitraum|mois|période|periode)$/i.test(cells[0].trim())) return null;
  const metrics = cells.map((c, i) => {
    if (i === 0) return null;
    const m = metricsIn(c.replace(/_/g, " "));
    return m.length === 1 && m[0].metric && !isForecast(c) && !isElsewhere(c) ? m[0].metric : null;
  });
  return metrics.filter(Boolean).length >= 2 ? metrics : null;
}

function transposedRow(cells: string[], metrics: (Metric | null)[], where: Where, note: ReturnType<typeof unitNote>): ReadFigure[] {
  const periods = periodsIn(cells[0] ?? "", where.sent);
  if (periods.length !== 1 || isForecast(cells[0]) || /\b(?:plan|budget|target|forecast|fcst)\b/i.test(cells[0])) return [];
  const out: ReadFigure[] = [];
  for (let i = 1; i < cells.length; i++) {
    const metric = metrics[i];
    if (!metric) continue;
    const found = amountsIn(cells[i] ?? "");
    if (found.length !== 1 || found[0].signed) continue;
    let a: Amount = found[0];
    if (KIND[metric] === "money" && note && a.unit === null) {
      if (!a.scaled) a = { ...a, value: Math.round(a.value * note.factor * 100) / 100, scaled: note.factor !== 1 };
      if (!a.currency) a = { ...a, currency: note.currency };
    }
    if (!fits(metric, a, true)) continue;
    out.push({ metric, value: a.value, currency: a.currency, period: periods[0], review: null, quote: quoteOf(cells.join(" | ")), documentId: where.documentId, page: where.page, fromTable: true });
  }
  return out;
}

type LongColumns = { metric: number; value: number; period: number | null; currency: number | null; unit: number | null };

function longColumns(cells: string[]): LongColumns | null {
  const find = (re: RegExp) => {
    const i = cells.findIndex((c) => re.test(c.trim()));
    return i < 0 ? null : i;
  };
  const metric = find(/^(?:metric|kpi|kennzahl|indicateur|name)$/i);
  const value = find(/^(?:value|amount|wert|valeur|betrag|actual)$/i);
  if (metric === null || value === null) return null;
  return { metric, value, period: find(/^(?:period(?:_end)?|date|as[_ ]of|month|stichtag|datum|période|statement_date)$/i), currency: find(/^(?:currency|ccy|währung|devise)$/i), unit: find(/^unit$/i) };
}

function longRow(cells: string[], cols: LongColumns, where: Where, note: ReturnType<typeof unitNote>): ReadFigure | null {
  const name = (cells[cols.metric] ?? "").replace(/_/g, " ");
  const mentions = metricsIn(name);
  if (mentions.length !== 1 || !mentions[0].metric || isForecast(name) || isElsewhere(name)) return null;
  const metric = mentions[0].metric;
  const found = amountsIn(cells[cols.value] ?? "");
  if (found.length !== 1) return null;
  let a: Amount = found[0];
  const currency = cols.currency !== null ? unitNote(cells[cols.currency] ?? "")?.currency ?? null : null;
  if (currency && !a.currency) a = { ...a, currency };
  if (note && !a.currency && note.currency) a = { ...a, currency: note.currency };
  if (!fits(metric, a, true)) return null;
  const periods = cols.period !== null ? periodsIn(cells[cols.period] ?? "", where.sent) : [];
  return { metric, value: a.value, currency: a.currency, period: periods.length === 1 ? periods[0] : null, review: null, quote: quoteOf(cells.join(" | ")), documentId: where.documentId, page: where.page, fromTable: true };
}

const ONLY_PUNCT = /^[\s.:;,\-–—]*$/;

/**
 * Label and value stacked on lines of their own ("ARR" then "$2,885,856": a KPI card, a Word
 * table read cell by cell) joined into one statement ("ARR: $2,885,856"); other lines as they are.
 */
export function joinStacked(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const label = lines[i].trim().replace(/[.:]$/, "");
    const mentions = label.length <= 40 ? metricsIn(label) : [];
    if (mentions.length === 1 && mentions[0].metric && amountsIn(label).length === 0 && ONLY_PUNCT.test(label.slice(0, mentions[0].start)) && /^\s*(?:\([^)]*\))?\s*$/.test(label.slice(mentions[0].end))) {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() === "") j++;
      const value = (lines[j] ?? "").trim().replace(/\.$/, "");
      const amounts = value.length <= 40 ? amountsIn(value) : [];
      if (amounts.length === 1 && amounts[0].text.length >= value.replace(/\s+/g, "").length * 0.5) {
        out.push(`${label}: ${value}.`);
        i = j;
        continue;
      }
    }
    out.push(lines[i]);
  }
  return out;
}
