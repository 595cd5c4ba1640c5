import type { Database } from "bun:sqlite";
import { dataSteps as allDataSteps, type DataStep } from "../../migrations/data-steps.ts";
import { migrations as allMigrations } from "../../migrations/index.ts";

// Migrations are embedded (migrations/index.ts) and applied at start-up, then the one-time data
// steps (migrations/data-steps.ts), recorded in the same ledger. Everything pending is applied in
// ONE immediate transaction: an upgrade either lands whole or, when any step fails, leaves the
// database exactly as it was (and says which step failed). The transaction also keeps two
// processes starting on one file from applying a migration twice.
const LEDGER = `CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`;

export type Migration = { tag: string; sql: string };
export type MigrationStatus = { applied: number; expected: number; pending: string[] };

/** A migration or data step failed; nothing of the upgrade was applied. */
export class MigrationError extends Error {
  constructor(
    readonly tag: string,
    override readonly cause: unknown,
    readonly pending: string[],
  ) {
    super(
      `migration ${tag} failed: ${(cause as Error)?.message ?? String(cause)}. Nothing was applied: the database is as it was ` +
        `(${pending.length} pending: ${pending.join(", ")})`,
    );
  }
}

export type MigrationSet = { migrations?: Migration[]; dataSteps?: DataStep[] };

const appliedTags = (sqlite: Database) => new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag));

export function applyMigrations(sqlite: Database, now: Date = new Date(), set: MigrationSet = {}): string[] {
  const migrations = set.migrations ?? allMigrations;
  const dataSteps = set.dataSteps ?? allDataSteps;
  sqlite.exec(LEDGER);
  // One read finds what is pending, so an up-to-date database (every start but the first) takes
  // no write lock; what is pending is read again inside the transaction.
  const before = appliedTags(sqlite);
  if (migrations.every((m) => before.has(m.tag)) && dataSteps.every((s) => before.has(s.tag))) return [];
  const apply = sqlite.transaction(() => {
    const applied = appliedTags(sqlite);
    const steps = [
      ...migrations.filter((m) => !applied.has(m.tag)).map((m) => ({ tag: m.tag, run: () => runSql(sqlite, m.sql) })),
      ...dataSteps.filter((s) => !applied.has(s.tag)).map((s) => ({ tag: s.tag, run: () => void s.run(sqlite) })),
    ];
    const record = sqlite.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)");
    for (const step of steps) {
      try {
        step.run();
      } catch (error) {
        throw new MigrationError(step.tag, error, steps.map((s) => s.tag));
      }
      record.run(step.tag, now.toISOString());
    }
    return steps.map((s) => s.tag);
  });
  return apply.immediate();
}

function runSql(sqlite: Database, sql: string): void {
  for (const statement of sql.split("--> statement-breakpoint")) {
    if (statement.trim()) sqlite.exec(statement);
  }
}

export function migrationStatus(sqlite: Database): MigrationStatus {
  const hasLedger = sqlite
    .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'")
    .get();
  const applied = hasLedger ? appliedTags(sqlite) : new Set<string>();
  const all = [...allMigrations.map((m) => m.tag), ...allDataSteps.map((s) => s.tag)];
  const pending = all.filter((tag) => !applied.has(tag));
  return { applied: all.length - pending.length, expected: all.length, pending };
}
