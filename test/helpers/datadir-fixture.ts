// Data-dir fixtures kept as text: a SQL dump of the database (reviewable, diffable), the blob files
// it names and the server key. `dumpDatabase` writes what `sqlite3 .dump` would, except that an
// FTS5 table is re-created and refilled through its own interface (bun:sqlite, rightly, refuses the
// writable_schema inserts sqlite3 uses for virtual tables); `loadDataDirFixture` makes a data dir
// from one. The fixtures are made by scripts/make-datadir-fixture.ts.
import { Database } from "bun:sqlite";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dir, "..", "fixtures");

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

function insertRows(sqlite: Database, table: string, columns: string[] | null, lines: string[]): void {
  const cols = columns ?? sqlite.query<{ name: string }, []>(`SELECT name FROM pragma_table_info(${ident(table).replace(/"/g, "'")})`).all().map((c) => c.name);
  const select = `SELECT ${cols.map((c) => `quote(${c === "rowid" ? "rowid" : ident(c)})`).join(" || ',' || ")} AS v FROM ${ident(table)}`;
  const target = columns ? `${ident(table)}(${columns.map((c) => (c === "rowid" ? "rowid" : ident(c))).join(",")})` : ident(table);
  for (const row of sqlite.query<{ v: string }, []>(select).all()) lines.push(`INSERT INTO ${target} VALUES(${row.v});`);
}

export function dumpDatabase(sqlite: Database): string {
  const schema = sqlite.query<SchemaRow, []>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid").all();
  const virtual = schema.filter((s) => s.type === "table" && /^CREATE VIRTUAL TABLE/i.test(s.sql!));
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v.name}_`));
  const tables = schema.filter((s) => s.type === "table" && !s.name.startsWith("sqlite_") && !virtual.includes(s) && !shadow(s.name));
  const lines = ["PRAGMA foreign_keys=OFF;", "BEGIN TRANSACTION;"];
  for (const t of tables) {
    lines.push(`${t.sql};`);
    insertRows(sqlite, t.name, null, lines);
  }
  for (const v of virtual) {
    lines.push(`${v.sql};`);
    const cols = sqlite.query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${v.name}')`).all().map((c) => c.name);
    insertRows(sqlite, v.name, ["rowid", ...cols], lines);
  }
  if (schema.some((s) => s.name === "sqlite_sequence")) {
    lines.push("DELETE FROM sqlite_sequence;");
    insertRows(sqlite, "sqlite_sequence", null, lines);
  }
  for (const s of schema.filter((s) => (s.type === "index" || s.type === "trigger" || s.type === "view") && !shadow(s.tbl_name))) lines.push(`${s.sql};`);
  lines.push("COMMIT;");
  return lines.join("\n") + "\n";
}

export type DataDirFixture = {
  /** What the fixture's maker recorded to check it by (keys, ids, secrets). */
  facts: Record<string, any>;
};

/** Makes a data dir at `into` from test/fixtures/<name>/ (dump.sql, blobs/, secret.key, facts.json). */
export function loadDataDirFixture(name: string, into: string): DataDirFixture {
  const from = join(FIXTURES, name);
  mkdirSync(into, { recursive: true });
  const sqlite = new Database(join(into, "dealgraph.db"), { create: true });
  try {
    sqlite.exec(readFileSync(join(from, "dump.sql"), "utf8"));
  } finally {
    sqlite.close();
  }
  if (existsSync(join(from, "blobs"))) cpSync(join(from, "blobs"), join(into, "blobs"), { recursive: true });
  if (existsSync(join(from, "secret.key"))) {
    cpSync(join(from, "secret.key"), join(into, "secret.key"));
    chmodSync(join(into, "secret.key"), 0o600); // git keeps no mode but the executable bit
  }
  return { facts: JSON.parse(readFileSync(join(from, "facts.json"), "utf8")) };
}
