// Which SQL statements the app runs, and with which parameters: bun:sqlite's prepare and query are
// wrapped, for the whole process or for one connection, so every statement prepared afterwards
// (raw ones and drizzle's) reports its executions. Start it before the app and its services are
// built. On the prototype it sees the SQL as the connection finally prepares it; on a connection
// the app has already wrapped (wrapDrizzle) it sees the SQL as the code wrote it. Shared by
// scripts/bench/statements.ts (each hot statement timed) and the query-plan test.
import { Database, type Statement } from "bun:sqlite";

export type RecordedStatement = {
  /** The SQL as the connection prepared it (after the app's own rewriting). */
  sql: string;
  /** Executions seen (all, get, values, run, iterate). */
  calls: number;
  /** The parameters of up to `keepArgs` executions, the first ones. */
  args: unknown[][];
};

const RUNNERS = ["all", "get", "values", "run", "iterate"] as const;

export function recordStatements(opts: { keepArgs?: number; on?: Database } = {}) {
  const keep = opts.keepArgs ?? 200;
  const statements = new Map<string, RecordedStatement>();
  type Preparing = Record<"prepare" | "query", (this: Database, sql: string, ...rest: unknown[]) => Statement>;
  const proto = (opts.on ?? Database.prototype) as unknown as Preparing;
  const original = { prepare: proto.prepare, query: proto.query };
  const seen = new WeakSet<Statement>();

  function watch(statement: Statement, sql: string): Statement {
    if (seen.has(statement) || typeof sql !== "string") return statement;
    seen.add(statement);
    let entry = statements.get(sql);
    if (!entry) statements.set(sql, (entry = { sql, calls: 0, args: [] }));
    const record = entry;
    const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of RUNNERS) {
      const run = target[name];
      target[name] = (...args: unknown[]) => {
        record.calls++;
        if (record.args.length < keep) record.args.push(args);
        return run.apply(statement, args);
      };
    }
    return statement;
  }

  proto.prepare = function (sql, ...rest) {
    return watch(original.prepare.call(this, sql, ...rest), sql);
  };
  proto.query = function (sql) {
    return watch(original.query.call(this, sql), sql);
  };

  return {
    statements,
    /** Forgets the executions seen so far (the statements stay watched). */
    reset() {
      for (const entry of statements.values()) {
        entry.calls = 0;
        entry.args = [];
      }
    },
    /** The statements that ran at least once, most executed first. */
    executed: () => [...statements.values()].filter((s) => s.calls > 0).sort((a, b) => b.calls - a.calls),
    stop() {
      proto.prepare = original.prepare;
      proto.query = original.query;
    },
  };
}
