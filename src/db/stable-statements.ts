// Statements SQLite compiles once. SQLite (3.54, as Bun ships it) marks a prepared statement for
// recompilation on its next step whenever a parameter is bound that its query planner looked at:
// a LIMIT parameter, and a parameter compared with a column in a statement with ORDER BY, GROUP
// BY or a join. Bun binds every parameter on every execution, so such a statement is parsed and
// planned again on every call (the API-key lookup cost 17 us instead of 3; a long statement
// 870 us instead of 48; scripts/bench/statements.ts measures each hot statement).
//
// The planner only looks at a bare parameter. Written as `+?` (unary plus: the same value, type
// and affinity, no extra work at run time) it is an expression the planner leaves alone, and the
// plan is the one EXPLAIN QUERY PLAN shows for the unbound statement. Every statement of the
// app's connection is written that way by `stabilizeStatements`, in one place, so no statement
// has to remember a cast.
import { Database } from "bun:sqlite";

const PARAMETER_NAME = /[\p{L}\p{N}_$\u0080-\uffff]/u;

/**
 * The SQL with each bound parameter (`?`, `?3`, `$name`, `:name`, `@name`) written as `+param`.
 * Quoted strings and identifiers, comments, and a parameter already after a `+` are left as they are.
 */
export function stableParameters(sql: string): string {
  let out = "";
  let copied = 0;
  // The last character outside whitespace and comments: a `+` before a parameter makes the rewrite a no-op.
  let previous = "";
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`") {
      // A quoted string or identifier; a doubled quote is an escaped one.
      let j = i + 1;
      while (j < n && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      i = j + 1;
      previous = c;
    } else if (c === "[") {
      const end = sql.indexOf("]", i);
      i = end < 0 ? n : end + 1;
      previous = "]";
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "?" || ((c === "$" || c === ":" || c === "@") && i + 1 < n && PARAMETER_NAME.test(sql[i + 1]))) {
      if (previous !== "+") {
        out += sql.slice(copied, i) + "+";
        copied = i;
      }
      i++;
      if (c === "?") while (i < n && sql[i] >= "0" && sql[i] <= "9") i++;
      else while (i < n && (PARAMETER_NAME.test(sql[i]) || (c === "$" && sql[i] === ":" && sql[i + 1] === ":"))) i += sql[i] === ":" ? 2 : 1;
      previous = "?";
    } else {
      if (c !== " " && c !== "\n" && c !== "\t" && c !== "\r") previous = c;
      i++;
    }
  }
  return copied === 0 ? sql : out + sql.slice(copied);
}

// Statements built per request (a filter combination, an IN list) are looked up again and again:
// their rewritten text is remembered, up to a bound.
const MEMO_LIMIT = 2000;

/** Bun's cache of `query()` statements (20 by default) is far smaller than the app's working set. */
const QUERY_CACHE_SIZE = 1000;

const stabilized = new WeakSet<Database>();

/**
 * Makes every statement the connection prepares (`prepare`, `query`, and drizzle's statements,
 * which go through `prepare`) bind its parameters as `+param` (see above). Idempotent.
 */
export function stabilizeStatements(sqlite: Database): void {
  if (stabilized.has(sqlite)) return;
  stabilized.add(sqlite);
  if (Database.MAX_QUERY_CACHE_SIZE < QUERY_CACHE_SIZE) Database.MAX_QUERY_CACHE_SIZE = QUERY_CACHE_SIZE;
  const memo = new Map<string, string>();
  const rewrite = (sql: string) => {
    let stable = memo.get(sql);
    if (stable === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(sql, (stable = stableParameters(sql)));
    }
    return stable;
  };
  const prepare = sqlite.prepare.bind(sqlite);
  const query = sqlite.query.bind(sqlite);
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => (prepare as (...a: unknown[]) => unknown)(typeof sql === "string" ? rewrite(sql) : sql, ...rest)) as typeof sqlite.prepare;
  sqlite.query = ((sql: string) => query(typeof sql === "string" ? rewrite(sql) : sql)) as typeof sqlite.query;
}
