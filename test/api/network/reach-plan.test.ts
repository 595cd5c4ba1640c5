// The reach-candidates job reads the proxies' interactions in one ordered pass: their ids from the
// participants' person index alone (no row of interaction_people visited), then the interactions
// and their other participants by id in the sorted order. Pinned here because the job's cost at
// scale rests on it: a plan that visited the table, or looked interactions up per proxy, would make
// every row a random page read once the database outgrows the page cache.
import { expect, test } from "bun:test";
import { createReachTempTables, READ_SQL } from "../../../src/modules/network/network.reach-contacts.ts";
import { seededApp } from "../../helpers/app.ts";

test("the proxies' interactions come from the covering person index, and the hits drive the lookups in id order", () => {
  const { t } = seededApp();
  const sqlite = t.deps.db.$client;
  const plan = (sql: string) =>
    sqlite
      .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((r) => r.detail);
  createReachTempTables(sqlite);
  expect(plan(READ_SQL.hits).some((d) => d.includes("USING COVERING INDEX interaction_people_person_idx"))).toBe(true);
  const read = plan(READ_SQL.contacts.replace("$org", "'o'").replace("$since", "'2020'"));
  // The hits scanned in the order they were written (by interaction id), each lookup a seek.
  expect(read[0]).toMatch(/^SCAN h/);
  expect(read.some((d) => /SEARCH i USING INTEGER PRIMARY KEY/.test(d))).toBe(true);
  expect(read.some((d) => /SEARCH ip2 USING COVERING INDEX sqlite_autoindex_interaction_people_1 \(interaction_id=\?\)/.test(d))).toBe(true);
});
