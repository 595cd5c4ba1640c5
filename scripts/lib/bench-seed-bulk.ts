// The scale bench's network (the ten-times firm: 50M interactions in minutes rather than hours),
// written by direct SQL (CONTRACT.md allows it for benchmarks) into a migrated database. No row
// passes through JavaScript: persons, addresses, relationships and each user's interactions are
// drawn inside SQLite (recursive CTEs and random()) and copied by INSERT ... SELECT into each table
// in the order of its rowid and primary key.
//
// For the load only: foreign keys off (every row is written from rows just written), the journal in
// memory instead of the WAL (the WAL wrote every page twice: once into the log, once at the
// checkpoint; SQLite's defensive mode, which Bun turns on, refuses journal_mode=OFF, and a memory
// journal holds only the few pages a transaction rewrites), synchronous off, a 64 MB page cache, and
// every secondary index whose rows would arrive out of its order dropped and built again at the
// end by a sort (relationships', persons' and addresses', and the participants' person index). The
// indexes that take their rows in order as they come (interactions by user and source key,
// touches by interaction, the primary keys) stay. Afterwards the database is as the app leaves it:
// WAL, foreign keys on, every index there.
import type { Database } from "bun:sqlite";
import type { NetworkSize } from "./bench-seed.ts";

const DAY = 86_400_000;
/** The tables whose secondary indexes are dropped for the load and rebuilt after. */
const REBUILT = ["persons", "person_emails", "relationships", "interaction_people"];

/**
 * Persons (one address each; a big company's first when asked for) and, per user, relationships with
 * interactions spread over them (a strong core, a long tail) over the last two years, with the
 * aggregates the importer would have computed (the same sums addTouch keeps). A third of the
 * interactions also involve a colleague of the person touched (the same one each time), so proxy
 * paths exist for reach candidates. Not reproducible run to run (SQLite's random()). `users` must
 * already exist.
 */
export function seedNetworkBulk(sqlite: Database, orgId: string, userIds: string[], size: NetworkSize, progress: (line: string) => void = () => {}) {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const spent = new Map<string, number>();
  // CPU time per step (on a shared machine its wall time is mostly waiting for a core).
  const step = <T>(name: string, fn: () => T): T => {
    const c0 = process.cpuUsage();
    const out = fn();
    const c = process.cpuUsage(c0);
    spent.set(name, (spent.get(name) ?? 0) + (c.user + c.system) / 1000);
    return out;
  };
  const rates = (done: number) => {
    const s = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    return `${Math.round(done / s).toLocaleString()}/s, ${Math.round(done / cpuS).toLocaleString()} per CPU-second; ${[...spent].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(", ")} CPU`;
  };

  sqlite.exec("PRAGMA foreign_keys = OFF");
  const journal = sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode = MEMORY").get()!.journal_mode;
  sqlite.exec("PRAGMA synchronous = OFF");
  const cacheSize = sqlite.query<{ cache_size: number }, []>("PRAGMA cache_size").get()!.cache_size;
  // 64 MB while loading: each user's rows go to the tails of the tables and indexes, which stay in it.
  // A 1 GB cache cost more CPU, not less (measured at 5m: interactions 6.4 -> 3.0, participants 7.1 ->
  // 4.0, touches 7.4 -> 5.1 CPU-s with 64 MB; not profiled: probably its pages, fresh memory faulted in).
  sqlite.exec("PRAGMA cache_size = -65536");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  // The load's sorts (GROUP BY) on a second thread where SQLite has one (the index rebuilds: none, below).
  const threads = sqlite.query<{ threads: number }, []>("PRAGMA threads = 2").get()?.threads ?? 0;
  const placeholders = REBUILT.map(() => "?").join(", ");
  const dropped = sqlite
    .query<{ name: string; sql: string }, string[]>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${placeholders})`)
    .all(...REBUILT);
  for (const d of dropped) sqlite.exec(`DROP INDEX ${d.name}`);
  progress(`  load: journal ${journal}, foreign keys off, ${threads} sort threads, ${dropped.length} indexes dropped until the end`);

  const now = new Date();
  const nowMs = now.getTime();
  const iso = now.toISOString();
  const u01 = "((random() & 4294967295) / 4294967296.0)";
  const isoOf = (col: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${col}) / 1000.0, 'unixepoch')`;
  const uuid = (h: string) => `lower(substr(${h}, 1, 8) || '-' || substr(${h}, 9, 4) || '-' || substr(${h}, 13, 4) || '-' || substr(${h}, 17, 4) || '-' || substr(${h}, 21))`;
  const bigCount = size.bigCompany?.persons ?? 0;
  const domainCount = Math.ceil(size.persons / (size.personsPerDomain ?? 10));

  // Persons: the big company's first (rowids first .. first + big - 1), then the rest over many
  // companies (a few large, many small).
  const firstRowid = (sqlite.query<{ n: number | null }, []>("SELECT max(rowid) AS n FROM persons").get()!.n ?? 0) + 1;
  step("persons", () => {
    sqlite.transaction(() => {
      sqlite
        .query(
          `INSERT INTO persons (rowid, id, org_id, display_name, name_key, title, domain, created_at, updated_at)
           SELECT $first + i, ${uuid("h")}, $org, 'Person ' || i, 'person ' || i,
                  CASE abs(random()) % 6 WHEN 0 THEN 'CEO' WHEN 1 THEN 'CTO' WHEN 2 THEN 'VP Sales' WHEN 3 THEN 'Engineer' WHEN 4 THEN 'CFO' ELSE 'Founder' END,
                  CASE WHEN i < $big THEN $bigDomain ELSE 'company' || CAST(pow(${u01}, 2) * $domains AS INTEGER) || '.com' END, $iso, $iso
           FROM (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $persons - 1) SELECT i, hex(randomblob(16)) AS h FROM n)`,
        )
        .run({ first: firstRowid, org: orgId, big: bigCount, bigDomain: size.bigCompany?.domain ?? "", domains: domainCount, iso, persons: size.persons });
      sqlite
        .query(`INSERT INTO person_emails (org_id, email, person_id) SELECT $org, 'person' || (rowid - $first) || '@' || domain, id FROM persons WHERE rowid >= $first ORDER BY rowid`)
        .run({ org: orgId, first: firstRowid });
    })();
  });
  progress(`  seeded ${size.persons.toLocaleString()} persons (${rates(0).split("; ")[1]})`);

  // One user's draws (k is the interaction's offset), and that user's relationships with the colleague
  // who appears beside each person; both in memory, emptied per user.
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS bulk_gen (k INTEGER PRIMARY KEY, rel INTEGER NOT NULL, at_ms INTEGER NOT NULL, at TEXT NOT NULL, dir INTEGER NOT NULL, col INTEGER NOT NULL)");
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS bulk_rel (seq INTEGER PRIMARY KEY, person_id TEXT NOT NULL, colleague_id TEXT NOT NULL)");
  const maxSeq = sqlite.query<{ n: number | null }, []>("SELECT max(seq) AS n FROM relationships");
  const relBig = sqlite.query(
    `INSERT INTO relationships (id, org_id, user_id, person_id, created_at, updated_at)
     SELECT ${uuid("hex(randomblob(16))")}, $org, $user, id, $iso, $iso FROM persons WHERE rowid >= $first AND rowid < $first + $big ORDER BY rowid`,
  );
  // Distinct persons outside the big company (so no user-person pair repeats: the unique index is
  // rebuilt at the end and would refuse one).
  const relRandom = sqlite.query(
    `INSERT INTO relationships (id, org_id, user_id, person_id, created_at, updated_at)
     SELECT ${uuid("hex(randomblob(16))")}, $org, $user, p.id, $iso, $iso
     FROM (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $want - 1)
           SELECT DISTINCT $first + $big + abs(random()) % ($persons - $big) AS rid FROM n) x
     JOIN persons p ON p.rowid = x.rid`,
  );
  // The colleague: the same other person each time a person is written to (so proxy paths exist).
  const relMap = sqlite.query(
    `INSERT INTO bulk_rel (seq, person_id, colleague_id)
     SELECT r.seq, r.person_id, c.id FROM relationships r CROSS JOIN persons p CROSS JOIN persons c
     WHERE r.seq BETWEEN $lo AND $hi AND p.id = r.person_id AND c.rowid = $pfirst + ((p.rowid - $pfirst) * 7919 + 13) % $persons`,
  );
  // Each draw once, in offset order: which relationship (a strong core, a long tail), when (the last
  // two years), which way (10% meetings, then sent or received), and whether a colleague was in it.
  const gen = sqlite.query(
    `INSERT INTO bulk_gen (k, rel, at_ms, at, dir, col)
     SELECT k, rel, at_ms, ${isoOf("at_ms")}, dir, col FROM (
       WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < $count - 1)
       SELECT k, $lo + CAST(pow(${u01}, 3) * $rels AS INTEGER) AS rel, $now - abs(random()) % ${730 * DAY} AS at_ms,
              CASE WHEN ${u01} < 0.1 THEN 2 WHEN ${u01} < 0.5 THEN 0 ELSE 1 END AS dir, ${u01} < 0.33 AS col
       FROM n)`,
  );
  // Every table written in the order of its rowid and primary key (interactions, participants) or of
  // its one other index (touches by interaction): no sort, appends only.
  const inter = sqlite.query(
    `INSERT INTO interactions (id, user_id, source_key, kind, occurred_at, participant_count)
     SELECT $first + k, $user, printf('msg:bench-%010d', $first + k), CASE dir WHEN 2 THEN 'meeting' ELSE 'email' END, at, 2 + col FROM bulk_gen`,
  );
  const people = sqlite.query(
    `INSERT INTO interaction_people (interaction_id, person_id)
     SELECT $first + g.k, CASE x.j WHEN 0 THEN r.person_id ELSE r.colleague_id END
     FROM bulk_gen g CROSS JOIN bulk_rel r CROSS JOIN (SELECT 0 AS j UNION ALL SELECT 1) x
     WHERE r.seq = g.rel AND (x.j = 0 OR (g.col = 1 AND r.colleague_id != r.person_id))`,
  );
  const touch = sqlite.query(
    `INSERT INTO touches (relationship_seq, interaction_id, occurred_at, direction)
     SELECT rel, $first + k, at, CASE dir WHEN 0 THEN 'sent' WHEN 1 THEN 'received' ELSE 'meeting' END FROM bulk_gen`,
  );
  // addTouch's aggregates: counts by direction, first and last touch and the last one's direction
  // (max(at_ms * 4 + dir) holds both), and the decayed activity at the last touch, each touch's
  // weight halving every 90 days: sum(w * 2^((t - last) / 90d)) = 2^((now - last) / 90d) *
  // sum(w * 2^((t - now) / 90d)), so one GROUP BY pass with no join.
  const aggregates = sqlite.query(
    `UPDATE relationships SET first_touch_at = ${isoOf("a.first_ms")}, last_touch_at = ${isoOf("a.last / 4")},
       last_touch_direction = CASE a.last % 4 WHEN 0 THEN 'sent' WHEN 1 THEN 'received' ELSE 'meeting' END,
       sent_count = a.sent, received_count = a.received, meeting_count = a.meetings,
       decayed_score = a.s * pow(2, ($now - a.last / 4) / ${90 * DAY}.0), score_at = ${isoOf("a.last / 4")}
     FROM (SELECT rel, min(at_ms) AS first_ms, max(at_ms * 4 + dir) AS last,
             sum(dir = 0) AS sent, sum(dir = 1) AS received, sum(dir = 2) AS meetings,
             sum(CASE dir WHEN 2 THEN 2.5 ELSE 1.0 END * pow(2, (at_ms - $now) / ${90 * DAY}.0)) AS s
           FROM bulk_gen GROUP BY rel) a
     WHERE relationships.seq = a.rel`,
  );
  // The big company: every relationship with it has been in touch at least once (as seedNetwork).
  const bigTouched = sqlite.query(
    `UPDATE relationships SET first_touch_at = $at, last_touch_at = $at, last_touch_direction = 'sent', sent_count = 1, decayed_score = 1, score_at = $at
     WHERE seq BETWEEN $lo AND $lo + $big - 1 AND last_touch_at IS NULL`,
  );

  const perUser = Math.floor(size.interactions / userIds.length);
  let interactionId = sqlite.query<{ n: number | null }, []>("SELECT max(id) AS n FROM interactions").get()!.n ?? 0;
  for (const [ui, userId] of userIds.entries()) {
    const want = size.relationshipsPerUser[0] + Math.floor(Math.random() * (size.relationshipsPerUser[1] - size.relationshipsPerUser[0] + 1));
    const knowsBig = size.bigCompany !== undefined && ui < size.bigCompany.knownBy;
    sqlite.transaction(() => {
      const lo = (maxSeq.get()!.n ?? 0) + 1;
      step("relationships", () => {
        if (knowsBig) relBig.run({ org: orgId, user: userId, iso, first: firstRowid, big: bigCount });
        relRandom.run({ org: orgId, user: userId, iso, want, first: firstRowid, big: bigCount, persons: size.persons });
      });
      const hi = maxSeq.get()!.n!;
      step("colleagues", () => {
        sqlite.exec("DELETE FROM bulk_rel");
        relMap.run({ lo, hi, pfirst: firstRowid, persons: size.persons });
      });
      step("draws", () => {
        sqlite.exec("DELETE FROM bulk_gen");
        gen.run({ count: perUser, lo, rels: hi - lo + 1, now: nowMs });
      });
      const first = interactionId + 1;
      step("interactions", () => inter.run({ first, user: userId }));
      step("participants", () => people.run({ first }));
      step("touches", () => touch.run({ first }));
      step("aggregates", () => aggregates.run({ now: nowMs }));
      if (knowsBig) bigTouched.run({ at: new Date(nowMs - (1 + Math.floor(Math.random() * 700)) * DAY).toISOString(), lo, big: bigCount });
      interactionId += perUser;
    })();
    if ((ui + 1) % 10 === 0 || ui === userIds.length - 1) progress(`  seeded ${ui + 1}/${userIds.length} users, ${interactionId.toLocaleString()} interactions (${rates(interactionId)})`);
  }
  sqlite.exec("DROP TABLE temp.bulk_gen");
  sqlite.exec("DROP TABLE temp.bulk_rel");
  // The rebuilds' sorts spill to files rather than holding every key in memory, in runs the size of
  // a small page cache, on this thread alone: measured on 2M participants' rows (a 36-character
  // person id), CREATE INDEX took 0.9-1.4 CPU-s with a 16 MB cache and no sort threads, 3.9-4.9 with
  // a 1 GB cache (a sort over a gigabyte of records misses the CPU's caches), and the sort
  // threads added CPU (1.6-2.6 CPU-s) for wall time only a free core would give.
  sqlite.exec("PRAGMA temp_store = DEFAULT");
  sqlite.exec("PRAGMA threads = 0");
  sqlite.exec("PRAGMA cache_size = -16384");
  for (const d of dropped) step(`index ${d.name}`, () => sqlite.exec(d.sql));
  progress(`  rebuilt ${dropped.length} indexes (${rates(interactionId)})`);
  sqlite.exec(`PRAGMA cache_size = ${cacheSize}`);
  sqlite.query("PRAGMA journal_mode = WAL").get();
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  return { interactions: interactionId };
}
