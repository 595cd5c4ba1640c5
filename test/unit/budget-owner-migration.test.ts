// Migration budget_owner on a database from before it: every key gets the first key of its rotation
// chain as its budget owner, and a rotated key's counters so far join its owner's row of the same
// day (its own row keeps its last use), so the day's budget carries over the upgrade.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { migrations } from "../../migrations/index.ts";

const exec = (db: Database, sql: string) => {
  for (const statement of sql.split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
};

test("owners from rotation chains; a successor's counts move to its owner's row, day by day", () => {
  const db = new Database(":memory:");
  const at = migrations.findIndex((m) => m.tag.endsWith("_budget_owner"));
  expect(at).toBeGreaterThan(0);
  for (const m of migrations.slice(0, at)) exec(db, m.sql);
  db.exec(`INSERT INTO orgs (id, name, created_at) VALUES ('o', 'Org', 'now')`);
  db.exec(`INSERT INTO users (id, org_id, email, name, created_at) VALUES ('u', 'o', 'u@o.vc', 'U', 'now')`);
  const key = (id: string, from: string | null) =>
    db.query("INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, scope, created_at, rotated_from_id) VALUES (?, 'u', 'k', 'p', ?, 'write', 'now', ?)").run(id, `h-${id}`, from);
  key("a1", null);
  key("a2", "a1");
  key("a3", "a2");
  key("b1", null);
  const usage = db.query("INSERT INTO key_usage (key_id, day, requests, actions, last_used_at) VALUES (?, ?, ?, ?, ?)");
  usage.run("a1", "2026-11-25", 10, 1, "2026-11-25T09:00:00Z");
  usage.run("a2", "2026-11-25", 5, 2, "2026-11-25T10:00:00Z");
  usage.run("a2", "2026-11-26", 7, 0, "2026-11-26T08:00:00Z");
  usage.run("a3", "2026-11-26", 3, 1, "2026-11-26T09:00:00Z");
  usage.run("b1", "2026-11-26", 4, 0, "2026-11-26T07:00:00Z");
  exec(db, migrations[at].sql);
  expect(db.query("SELECT id, budget_owner_id AS owner FROM api_keys ORDER BY id").all()).toEqual([
    { id: "a1", owner: "a1" },
    { id: "a2", owner: "a1" },
    { id: "a3", owner: "a1" },
    { id: "b1", owner: "b1" },
  ]);
  expect(db.query("SELECT key_id, day, requests, actions, last_used_at FROM key_usage ORDER BY key_id, day").all()).toEqual([
    { key_id: "a1", day: "2026-11-25", requests: 15, actions: 3, last_used_at: "2026-11-25T09:00:00Z" },
    // The owner had no row that day: one is made for the chain, with no last use of its own.
    { key_id: "a1", day: "2026-11-26", requests: 10, actions: 1, last_used_at: null },
    { key_id: "a2", day: "2026-11-25", requests: 0, actions: 0, last_used_at: "2026-11-25T10:00:00Z" },
    { key_id: "a2", day: "2026-11-26", requests: 0, actions: 0, last_used_at: "2026-11-26T08:00:00Z" },
    { key_id: "a3", day: "2026-11-26", requests: 0, actions: 0, last_used_at: "2026-11-26T09:00:00Z" },
    { key_id: "b1", day: "2026-11-26", requests: 4, actions: 0, last_used_at: "2026-11-26T07:00:00Z" },
  ]);
  db.close();
});
