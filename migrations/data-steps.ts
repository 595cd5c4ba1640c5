// One-time data steps: work a SQL migration cannot do (it needs JavaScript), applied right after
// the SQL migrations and recorded in the same ledger (`_migrations`, tags `js:...`), so every
// later start costs one probe of the ledger. Each runs in its own IMMEDIATE transaction.
import type { Database } from "bun:sqlite";
import { nameKey } from "../src/lib/names.ts";

export type DataStep = { tag: string; run(sqlite: Database): number };

export const dataSteps: DataStep[] = [
  {
    // Migration 0013 folds plain-ASCII names in SQL; SQLite's lower() leaves "É" as it is, so the
    // names it could not fold are folded here (Unicode case folding, as lookups fold them).
    tag: "js:persons-name-key",
    run(sqlite) {
      const rows = sqlite.query<{ id: string; display_name: string }, []>("SELECT id, display_name FROM persons WHERE name_key IS NULL AND display_name IS NOT NULL").all();
      const set = sqlite.query("UPDATE persons SET name_key = ? WHERE id = ?");
      for (const r of rows) set.run(nameKey(r.display_name), r.id);
      return rows.length;
    },
  },
];
