// Statements compiled once (src/db/stable-statements.ts): every parameter of the app's connection
// is bound as `+param`, which SQLite's planner leaves alone, so a new binding never recompiles the
// statement; and the answers are exactly those of the statement as written.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { wrapDrizzle } from "../../src/db/client.ts";
import { stableParameters } from "../../src/db/stable-statements.ts";

describe("stableParameters", () => {
  const cases: [string, string, string][] = [
    ["anonymous and numbered", "SELECT a FROM t WHERE b = ? AND c = ?2 LIMIT ?", "SELECT a FROM t WHERE b = +? AND c = +?2 LIMIT +?"],
    ["named, every prefix", "SELECT $a, :b, @c", "SELECT +$a, +:b, +@c"],
    ["strings and quoted names untouched", `SELECT 'a?b', 'it''s $x', "q?", [w?], \`z?\` FROM t WHERE x = ?`, `SELECT 'a?b', 'it''s $x', "q?", [w?], \`z?\` FROM t WHERE x = +?`],
    ["comments untouched", "SELECT 1 -- where x = ?\nFROM t /* :y */ WHERE y = :y", "SELECT 1 -- where x = ?\nFROM t /* :y */ WHERE y = +:y"],
    ["already after a plus", "SELECT a + ?, +?, + $x", "SELECT a + ?, +?, + $x"],
    ["JSON paths are strings", "SELECT json_extract(x, '$.a') FROM t WHERE id = $id", "SELECT json_extract(x, '$.a') FROM t WHERE id = +$id"],
    ["no parameter: the same string", "SELECT count(*) FROM t", "SELECT count(*) FROM t"],
  ];
  test.each(cases)("%s", (_, input, expected) => {
    expect(stableParameters(input)).toBe(expected);
    // Applying it twice changes nothing more.
    expect(stableParameters(expected)).toBe(expected);
  });
});

function connection() {
  const raw = new Database(":memory:", { strict: true });
  raw.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER, r REAL, b BLOB);
            CREATE INDEX t_name ON t (name, n);
            INSERT INTO t (name, n, r, b) VALUES ('1', 1, 1.5, x'00ff'), ('a', 2, NULL, NULL), ('a', 3, 2.5, x'01'), ('b', 10, -1, NULL), (NULL, NULL, NULL, NULL);`);
  return raw;
}

describe("a stabilized connection", () => {
  test("answers every statement exactly as written: affinity, NULL, blobs, LIMIT and OFFSET, IN lists, expressions", () => {
    const written = connection();
    const stable = connection();
    wrapDrizzle(stable);
    const statements: [string, unknown[]][] = [
      // A number compared with a TEXT column gets the column's affinity either way.
      ["SELECT id FROM t WHERE name = ? ORDER BY n", [1]],
      ["SELECT id FROM t WHERE name = ? ORDER BY n", ["a"]],
      ["SELECT id FROM t WHERE n = ? ORDER BY name", ["10"]],
      ["SELECT id FROM t WHERE r > ? ORDER BY id", [1]],
      ["SELECT id FROM t WHERE b = ? ORDER BY id", [new Uint8Array([0, 255])]],
      ["SELECT id FROM t WHERE (? IS NULL OR name = ?) ORDER BY id", [null, null]],
      ["SELECT id FROM t WHERE name IS ? ORDER BY id", [null]],
      ["SELECT id FROM t ORDER BY id LIMIT ? OFFSET ?", [2, 1]],
      ["SELECT id FROM t ORDER BY id LIMIT ?", [-1]],
      ["SELECT id FROM t WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id", ["[1,3,99]"]],
      ["SELECT ? || name AS x, -? AS neg, typeof(?) AS ty FROM t WHERE name = 'b'", ["x-", 5, 2.5]],
      ["SELECT name, max(n) AS top FROM t WHERE n >= $min GROUP BY name ORDER BY name", [{ min: 2 }]],
      ["SELECT a.id FROM t a JOIN t b ON b.name = a.name AND b.id <> a.id WHERE a.name = :name ORDER BY a.id", [{ name: "a" }]],
    ];
    for (const [sqlText, args] of statements) {
      expect({ sqlText, rows: stable.query(sqlText).all(...(args as never[])) }).toEqual({ sqlText, rows: written.query(sqlText).all(...(args as never[])) });
      expect({ sqlText, rows: stable.prepare(sqlText).values(...(args as never[])) }).toEqual({ sqlText, rows: written.prepare(sqlText).values(...(args as never[])) });
    }
  });

  test("drizzle's prepared statements (placeholders, a bound LIMIT) go through it too", () => {
    const sqlite = connection();
    const db = wrapDrizzle(sqlite);
    const t = sqliteTable("t", { id: integer("id").primaryKey(), name: text("name"), n: integer("n") });
    const page = db
      .select({ id: t.id })
      .from(t)
      .where(sql`${t.name} = ${sql.placeholder("name")}`)
      .orderBy(t.n)
      .limit(sql.placeholder("limit"))
      .prepare();
    expect(page.all({ name: "a", limit: 1 })).toEqual([{ id: 2 }]);
    expect(page.all({ name: "a", limit: 5 })).toEqual([{ id: 2 }, { id: 3 }]);
  });

  // Bun exposes no sqlite3_stmt_status (SQLITE_STMTSTATUS_REPREPARE), but a statement whose
  // program embeds a bound value is one SQLite must recompile for every new value: EXPLAIN, run
  // with two bindings, shows it. (A parameter compared with a column in an ORDER BY or a join
  // recompiles without changing the program; scripts/bench/statements.ts times those.)
  test("a bound LIMIT no longer makes the program depend on the value", () => {
    const program = (db: Database, sqlText: string, limit: number) =>
      db.query(`EXPLAIN ${sqlText}`).values(limit).map((row) => row.slice(1, 6).join(" ")).join("\n");
    const limited = "SELECT id FROM t WHERE name = 'a' ORDER BY n LIMIT ?";
    const written = connection();
    expect(program(written, limited, 5)).not.toBe(program(written, limited, 7));
    const stable = connection();
    wrapDrizzle(stable);
    expect(program(stable, limited, 5)).toBe(program(stable, limited, 7));
  });
});
