// Typed values out of a CSV row, each problem recorded against the row's line and column so an
// importer can report every bad row of a file at once. An empty optional cell is null, never a
// default.
import type { CsvRow, ImportProblem } from "./csv.ts";

import { isCalendarDate, parseDateOrTimestamp } from "./dates.ts";

export { isCalendarDate };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const CURRENCY = /^[A-Za-z]{3}$/;

type Opts = { required?: boolean };
type NumberOpts = Opts & { min?: number; max?: number; positive?: boolean; integer?: boolean };

export function cellReader(file: string, problems: ImportProblem[]) {
  return (row: CsvRow) => {
    const bad = (column: string, message: string): null => {
      problems.push({ file, line: row.line, column, message });
      return null;
    };
    const raw = (c: string) => row.values.get(c) ?? "";
    const empty = (c: string, o: Opts) => (o.required ? bad(c, `${c} is required`) : null);
    const show = (v: string) => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

    return {
      line: row.line,
      text(c: string, o: Opts = {}): string | null {
        const v = raw(c);
        return v === "" ? empty(c, o) : v;
      },
      number(c: string, o: NumberOpts = {}): number | null {
        const v = raw(c);
        if (v === "") return empty(c, o);
        const n = Number(v);
        if (!NUMBER.test(v) || !Number.isFinite(n)) return bad(c, `${c} ${show(v)} is not a number`);
        if (o.integer && !Number.isInteger(n)) return bad(c, `${c} ${show(v)} is not a whole number`);
        if (o.positive && !(n > 0)) return bad(c, `${c} must be greater than 0, got ${v}`);
        if (o.min !== undefined && n < o.min) return bad(c, `${c} must be at least ${o.min}, got ${v}`);
        if (o.max !== undefined && n > o.max) return bad(c, `${c} must be at most ${o.max}, got ${v}`);
        return n;
      },
      /** A calendar day, `YYYY-MM-DD`. */
      date(c: string, o: Opts = {}): string | null {
        const v = raw(c);
        if (v === "") return empty(c, o);
        return isCalendarDate(v) ? v : bad(c, `${c} ${show(v)} is not a date (YYYY-MM-DD)`);
      },
      /** A day or an ISO 8601 timestamp, as an ISO UTC timestamp (a day is its UTC midnight). */
      timestamp(c: string, o: Opts = {}): string | null {
        const v = raw(c);
        if (v === "") return empty(c, o);
        const t = parseDateOrTimestamp(v);
        return t ? t.toISOString() : bad(c, `${c} ${show(v)} is not a date (YYYY-MM-DD) or an ISO 8601 timestamp with a zone`);
      },
      oneOf<T extends string>(c: string, values: readonly T[], o: Opts & { otherwise?: T } = {}): T | null {
        const v = raw(c).toLowerCase();
        if (v === "") return o.otherwise ?? empty(c, o);
        return (values as readonly string[]).includes(v) ? (v as T) : bad(c, `${c} ${show(raw(c))} is not one of ${values.join(", ")}`);
      },
      /** An ISO 4217 code, upper-cased. */
      currency(c: string, o: Opts = {}): string | null {
        const v = raw(c);
        if (v === "") return empty(c, o);
        return CURRENCY.test(v) ? v.toUpperCase() : bad(c, `${c} ${show(v)} is not a three-letter currency code`);
      },
      bad,
    };
  };
}

export type Cells = ReturnType<ReturnType<typeof cellReader>>;

/** Finds a second row with the same natural key in one file, recording it as a problem. */
export function duplicateChecker(file: string, problems: ImportProblem[]) {
  const firstLine = new Map<string, number>();
  /** True when `key` was already on an earlier line. */
  return (key: string, line: number, what: string): boolean => {
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, line);
    else problems.push({ file, line, message: `${what} is already on line ${first} of this file` });
    return first !== undefined;
  };
}
