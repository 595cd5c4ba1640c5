import type { Database } from "bun:sqlite";
import { dataSteps } from "../../migrations/data-steps.ts";
import { migrations } from "../../migrations/index.ts";

// Migrations are embedded (migrations/index.ts) and applied at start-up, each in its own
// IMMEDIATE transaction so two processes starting on one file cannot apply one twice; then the
// one-time data steps (migrations/data-steps.ts), recorded in the same ledger.
const LEDGER = `CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`;

export type MigrationStatus = { applied: number; expected: number; pending: string[] };

export function applyMigrations(sqlite: Database, now: Date = new Date()): string[] {
  sqlite.exec(LEDGER);
  // One read finds what is pending, so an up-to-date database (every start but the first) takes
  // no write lock; each pending one is checked again inside its transaction.
  const applied = new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag));
  const done: string[] = [];
  for (const m of migrations.filter((m) => !applied.has(m.tag))) {
    const apply = sqlite.transaction(() => {
      const seen = sqlite.query("SELECT 1 FROM _migrations WHERE tag = ?").get(m.tag);
      if (seen) return false;
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) sqlite.exec(statement);
      }
      sqlite.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, now.toISOString());
      return true;
    });
    if (apply.immediate()) done.push(m.tag);
  }
  for (const step of dataSteps.filter((s) => !applied.has(s.tag))) {
    const apply = sqlite.transaction(() => {
      if (sqlite.query("SELECT 1 FROM _migrations WHERE tag = ?").get(step.tag)) return false;
      step.run(sqlite);
      sqlite.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(step.tag, now.toISOString());
      return true;
    });
    if (apply.immediate()) done.push(step.tag);
  }
  return done;
}

export function migrationStatus(sqlite: Database): MigrationStatus {
  const hasLedger = sqlite
    .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'")
    .get();
  const applied = new Set(
    hasLedger ? sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag) : [],
  );
  const all = [...migrations.map((m) => m.tag), ...dataSteps.map((s) => s.tag)];
  const pending = all.filter((tag) => !applied.has(tag));
  return { applied: all.length - pending.length, expected: all.length, pending };
}
