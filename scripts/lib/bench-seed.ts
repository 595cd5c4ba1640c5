// Firms for the benchmarks, written by direct SQL (CONTRACT.md allows it for benchmarks) into a
// migrated database, so the triggers and indexes the app relies on are there as in production:
// a portfolio book with monthly metric histories, an LP book, and a network whose density is set
// by the caller (users, persons, interactions, and optionally one very large company).
import type { Database } from "bun:sqlite";
import { rng } from "../../src/demo/rng.ts";
import { nameKey } from "../../src/lib/names.ts";
import { addTouch, type Aggregates, type Direction } from "../../src/modules/network/network.scoring.ts";

const DAY = 86_400_000;
export const FUNDS = ["Fund I", "Fund II", "Fund III", "Fund IV", "Fund V"];
export const METRICS = ["arr", "monthly_burn", "runway_months", "headcount", "gross_margin"];
const STATUSES = ["active", "active", "active", "exited", "written_off"];

export type BookSize = {
  holdings: number;
  /** Months of monthly actuals for each metric of each company. */
  months: number;
  /** ARR budget points per company, after the actuals. */
  budgets?: number;
  seed?: number;
};

/**
 * Holdings (one in twenty a follow-on of an earlier company from another fund) and, per company,
 * `months` monthly actuals of the five METRICS plus `budgets` ARR budgets. Returns the companies.
 */
export function seedBook(sqlite: Database, orgId: string, size: BookSize): { companies: string[]; points: number } {
  const r = rng(size.seed ?? 42);
  const now = new Date().toISOString();
  const holding = sqlite.prepare(
    `INSERT INTO portfolio_holdings (id, org_id, name, name_fold, website, company_key, sector, stage, status, fund_name, holding_type,
       investment_date, ownership_percentage, invested, current_valuation, currency, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'Fintech', 'series_a', ?, ?, 'direct_company', '2021-06-01', 5, ?, ?, 'USD', ?, ?)`,
  );
  const point = sqlite.prepare(`INSERT INTO portfolio_metric_points (org_id, company_key, metric, kind, statement_date, value, unit, currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const companies: string[] = [];
  const names: string[] = [];
  const held = new Set<string>();
  let points = 0;
  sqlite.transaction(() => {
    for (let i = 0; held.size < size.holdings; i++) {
      const follow = i > 100 && i % 20 === 0;
      const c = follow ? r.int(0, companies.length - 1) : companies.length;
      if (!follow) {
        companies.push(`company${String(c).padStart(5, "0")}.com`);
        names.push(`Company ${String(c).padStart(5, "0")} ${r.pick(["Labs", "AI", "Pay", "Health"])}`);
      }
      const fund = FUNDS[i % FUNDS.length];
      if (held.has(`${c}|${fund}`)) continue;
      held.add(`${c}|${fund}`);
      const invested = r.int(5, 100) * 100_000;
      holding.run(Bun.randomUUIDv7(), orgId, names[c], names[c].toLowerCase(), companies[c], companies[c], r.pick(STATUSES), fund, invested, r.chance(0.2) ? null : invested * 2, now, now);
    }
    const startYear = 2026 - Math.ceil(size.months / 12);
    for (const company of companies) {
      for (let m = 0; m < size.months; m++) {
        const date = new Date(Date.UTC(startYear, m + 1, 0)).toISOString();
        for (const metric of METRICS) point.run(orgId, company, metric, "actual", date, r.int(1, 1_000_000), "usd", "USD");
        points += METRICS.length;
      }
      for (let m = 0; m < (size.budgets ?? 0); m++) {
        point.run(orgId, company, "arr", "budget", new Date(Date.UTC(2026, m + 1, 0)).toISOString(), r.int(1, 1_000_000), "usd", "USD");
        points++;
      }
    }
  })();
  return { companies, points };
}

/** Commitments with `cashflows` spread evenly over ten years each, and `marks` quarterly marks each. */
export function seedFunds(sqlite: Database, orgId: string, size: { commitments: number; cashflows: number; marks: number; seed?: number }) {
  const r = rng(size.seed ?? 42);
  const now = new Date().toISOString();
  const commitment = sqlite.prepare(`INSERT INTO fund_commitments (id, org_id, fund_name, vintage_year, commitment, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'USD', ?, ?)`);
  const cashflow = sqlite.prepare(`INSERT OR IGNORE INTO fund_cashflows (id, org_id, commitment_id, cashflow_date, type, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const mark = sqlite.prepare(`INSERT INTO fund_marks (id, org_id, commitment_id, mark_date, nav, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  sqlite.transaction(() => {
    const per = size.cashflows / size.commitments;
    for (let i = 0; i < size.commitments; i++) {
      const id = Bun.randomUUIDv7();
      const vintage = 2012 + (i % 10);
      commitment.run(id, orgId, `Manager ${i} Fund ${1 + (i % 7)}`, vintage, 10_000_000, now, now);
      const start = Date.UTC(vintage, 0, 1);
      for (let k = 0; k < per; k++) {
        const date = new Date(start + Math.floor((k / per) * 10 * 365 + r.int(0, 10)) * DAY).toISOString().slice(0, 10);
        cashflow.run(Bun.randomUUIDv7(), orgId, id, date, k < per * 0.6 ? "call" : "distribution", r.int(10, 200) * 1000 + k, now);
      }
      for (let q = 0; q < size.marks; q++) mark.run(Bun.randomUUIDv7(), orgId, id, new Date(Date.UTC(vintage, 3 * q + 3, 0)).toISOString().slice(0, 10), r.int(1, 20) * 1_000_000, now, now);
    }
  })();
}

export type NetworkSize = {
  persons: number;
  interactions: number;
  /** How many relationships each user has: a range, drawn per user. */
  relationshipsPerUser: [number, number];
  /** Persons per company domain on average (a few large companies, many small ones). */
  personsPerDomain?: number;
  /**
   * One company whose employees half the team knows: `persons` of its people, each known by
   * `knownBy` users (a dense firm's "thousands of relationships at one domain").
   */
  bigCompany?: { domain: string; persons: number; knownBy: number };
  seed?: number;
};

/**
 * Persons (with one address each) and, per user, relationships with interactions spread over
 * them (a strong core, a long tail) over the last two years, with the aggregates the importer
 * would have computed. `users` must already exist.
 */
export function seedNetwork(sqlite: Database, orgId: string, userIds: string[], size: NetworkSize, progress: (line: string) => void = () => {}) {
  const r = rng(size.seed ?? 42);
  const now = new Date();
  const iso = now.toISOString();
  const domains = Array.from({ length: Math.ceil(size.persons / (size.personsPerDomain ?? 10)) }, (_, i) => `company${i}.com`);
  const personIds: string[] = [];
  const big: string[] = [];
  sqlite.transaction(() => {
    const p = sqlite.prepare("INSERT INTO persons (id, org_id, display_name, name_key, title, domain, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    const e = sqlite.prepare("INSERT INTO person_emails (org_id, email, person_id) VALUES (?, ?, ?)");
    for (let i = 0; i < size.persons; i++) {
      const inBig = size.bigCompany !== undefined && i < size.bigCompany.persons;
      const domain = inBig ? size.bigCompany!.domain : domains[Math.floor(Math.pow(r.next(), 2) * domains.length)];
      const id = Bun.randomUUIDv7();
      p.run(id, orgId, `Person ${i}`, nameKey(`Person ${i}`), r.pick(["CEO", "CTO", "VP Sales", "Engineer", "CFO", "Founder"]), domain, iso, iso);
      e.run(orgId, `person${i}@${domain}`, id);
      (inBig ? big : personIds).push(id);
    }
  })();

  const bigIds = new Set(big);
  const perUser = Math.floor(size.interactions / userIds.length);
  let interactionId = (sqlite.query<{ n: number | null }, []>("SELECT max(id) AS n FROM interactions").get()?.n ?? 0) as number;
  for (const [ui, userId] of userIds.entries()) {
    const relCount = r.int(size.relationshipsPerUser[0], size.relationshipsPerUser[1]);
    const rels: { seq: number; personId: string; a: Aggregates }[] = [];
    sqlite.transaction(() => {
      const rel = sqlite.prepare<{ seq: number }, [string, string, string, string, string, string]>(
        "INSERT INTO relationships (id, org_id, user_id, person_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq",
      );
      const seen = new Set<string>();
      const add = (personId: string) => {
        seen.add(personId);
        const { seq } = rel.get(Bun.randomUUIDv7(), orgId, userId, personId, iso, iso)!;
        rels.push({ seq, personId, a: { firstTouchAt: null, lastTouchAt: null, lastTouchDirection: null, sentCount: 0, receivedCount: 0, meetingCount: 0, decayedScore: 0, scoreAt: null } });
      };
      // The big company: known to the first `knownBy` users, every one of its people each.
      if (size.bigCompany && ui < size.bigCompany.knownBy) for (const id of big) add(id);
      while (rels.length < relCount + (size.bigCompany && ui < size.bigCompany.knownBy ? big.length : 0)) {
        const personId = personIds[r.int(0, personIds.length - 1)];
        if (!seen.has(personId)) add(personId);
      }
      const inter = sqlite.prepare("INSERT INTO interactions (id, user_id, source_key, kind, occurred_at, participant_count) VALUES (?, ?, ?, ?, ?, 2)");
      const touch = sqlite.prepare("INSERT INTO touches (relationship_seq, interaction_id, occurred_at, direction) VALUES (?, ?, ?, ?)");
      const people = sqlite.prepare("INSERT INTO interaction_people (interaction_id, person_id) VALUES (?, ?)");
      for (let k = 0; k < perUser; k++) {
        const target = rels[Math.floor(Math.pow(r.next(), 3) * rels.length)];
        const at = new Date(now.getTime() - Math.floor(r.next() * 730 * DAY));
        const direction: Direction = r.chance(0.1) ? "meeting" : r.chance(0.5) ? "sent" : "received";
        const id = ++interactionId;
        const when = at.toISOString();
        inter.run(id, userId, `msg:bench-${id}`, direction === "meeting" ? "meeting" : "email", when);
        touch.run(target.seq, id, when, direction);
        people.run(id, target.personId);
        addTouch(target.a, at, direction);
      }
      // Every relationship with the big company has been in touch at least once.
      for (const x of rels) if (x.a.lastTouchAt === null && bigIds.has(x.personId)) addTouch(x.a, new Date(now.getTime() - r.int(1, 700) * DAY), r.chance(0.5) ? "sent" : "received");
      const upd = sqlite.prepare(
        "UPDATE relationships SET first_touch_at=?, last_touch_at=?, last_touch_direction=?, sent_count=?, received_count=?, meeting_count=?, decayed_score=?, score_at=? WHERE seq=?",
      );
      for (const x of rels) upd.run(x.a.firstTouchAt, x.a.lastTouchAt, x.a.lastTouchDirection, x.a.sentCount, x.a.receivedCount, x.a.meetingCount, x.a.decayedScore, x.a.scoreAt, x.seq);
    })();
    if ((ui + 1) % 10 === 0) progress(`  seeded ${ui + 1}/${userIds.length} users, ${interactionId.toLocaleString()} interactions`);
  }
  return { domains, interactions: interactionId };
}

/**
 * The same kind of network as seedNetwork, written for size (the ten-times firm: 50M interactions
 * in minutes rather than hours): each user's interactions are drawn once inside SQLite (a recursive
 * CTE and random() into an in-memory temp table) and copied by INSERT ... SELECT into each table in
 * the order of its rowid (interactions and participants by interaction, source keys zero-padded,
 * touches by interaction: their primary key takes them within the user's own range), with the
 * relationships' aggregates computed by one GROUP BY (the same sums addTouch keeps); the one index that would take its rows at random over the whole table
 * (interaction_people by person) is dropped for the load and built again at the end, by a sort. A third of the interactions also involve a colleague of
 * the person touched (the same one each time), so proxy paths exist for reach candidates. Not
 * reproducible run to run (SQLite's random()), unlike seedNetwork. `users` must already exist.
 */
export function seedNetworkBulk(sqlite: Database, orgId: string, userIds: string[], size: NetworkSize, progress: (line: string) => void = () => {}) {
  const r = rng(size.seed ?? 42);
  const now = new Date();
  const nowMs = now.getTime();
  const iso = now.toISOString();
  sqlite.exec("PRAGMA synchronous = OFF");
  sqlite.exec("PRAGMA cache_size = -524288"); // 512 MB while loading
  const domains = Array.from({ length: Math.ceil(size.persons / (size.personsPerDomain ?? 10)) }, (_, i) => `company${i}.com`);
  const bigCount = size.bigCompany?.persons ?? 0;
  sqlite.transaction(() => {
    const p = sqlite.prepare("INSERT INTO persons (id, org_id, display_name, name_key, title, domain, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    const e = sqlite.prepare("INSERT INTO person_emails (org_id, email, person_id) VALUES (?, ?, ?)");
    for (let i = 0; i < size.persons; i++) {
      const domain = i < bigCount ? size.bigCompany!.domain : domains[Math.floor(Math.pow(r.next(), 2) * domains.length)];
      const id = Bun.randomUUIDv7();
      p.run(id, orgId, `Person ${i}`, nameKey(`Person ${i}`), r.pick(["CEO", "CTO", "VP Sales", "Engineer", "CFO", "Founder"]), domain, iso, iso);
      e.run(orgId, `person${i}@${domain}`, id);
    }
  })();
  // Persons' rowids, in the order written: the big company's first.
  const firstRowid = sqlite.query<{ n: number }, []>("SELECT min(rowid) AS n FROM persons WHERE created_at = (SELECT max(created_at) FROM persons)").get()!.n;
  progress(`  seeded ${size.persons.toLocaleString()} persons`);

  // The draws' temp tables in memory. (The journal stays WAL: a rollback journal in memory for the
  // load saved little and left the connection unable to checkpoint afterwards.)
  sqlite.exec("PRAGMA temp_store = MEMORY");
  const dropped = sqlite.query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name = 'interaction_people_person_idx'").all();
  for (const d of dropped) sqlite.exec(`DROP INDEX ${d.name}`);
  // One user's draws (k is the interaction's offset), and that user's relationships with the colleague
  // who appears beside each person; both in memory, emptied per user.
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS bulk_gen (k INTEGER PRIMARY KEY, rel INTEGER NOT NULL, at_ms INTEGER NOT NULL, at TEXT NOT NULL, dir INTEGER NOT NULL, col INTEGER NOT NULL)");
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS bulk_rel (seq INTEGER PRIMARY KEY, person_id TEXT NOT NULL, colleague_id TEXT NOT NULL)");

  const DAY = 86_400_000;
  const isoOf = (col: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${col}) / 1000.0, 'unixepoch')`;
  const u01 = "((random() & 4294967295) / 4294967296.0)";
  const relsOf = sqlite.prepare<{ lo: number; n: number }, [string]>("SELECT min(seq) AS lo, count(*) AS n FROM relationships WHERE user_id = ?");
  const relBig = sqlite.prepare(
    `INSERT INTO relationships (id, org_id, user_id, person_id, created_at, updated_at)
     SELECT lower(hex(randomblob(16))), $org, $user, id, $iso, $iso FROM persons WHERE rowid >= $first AND rowid < $first + $big ORDER BY rowid`,
  );
  const relRandom = sqlite.prepare(
    `INSERT OR IGNORE INTO relationships (id, org_id, user_id, person_id, created_at, updated_at)
     SELECT lower(hex(randomblob(16))), $org, $user, p.id, $iso, $iso
     FROM (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $want - 1)
           SELECT DISTINCT $first + $big + abs(random()) % ($persons - $big) AS rid FROM n) x
     JOIN persons p ON p.rowid = x.rid`,
  );
  // The colleague: the same other person each time a person is written to (so proxy paths exist).
  const relMap = sqlite.prepare(
    `INSERT INTO bulk_rel (seq, person_id, colleague_id)
     SELECT r.seq, r.person_id, c.id FROM relationships r CROSS JOIN persons p CROSS JOIN persons c
     WHERE r.user_id = $user AND p.id = r.person_id AND c.rowid = $pfirst + ((p.rowid - $pfirst) * 7919 + 13) % $persons`,
  );
  // Each draw once, in offset order: which relationship (a strong core, a long tail), when (the last
  // two years), which way (10% meetings, then sent or received), and whether a colleague was in it.
  const gen = sqlite.prepare(
    `INSERT INTO bulk_gen (k, rel, at_ms, at, dir, col)
     SELECT k, rel, at_ms, ${isoOf("at_ms")}, dir, col FROM (
       WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < $count - 1)
       SELECT k, $lo + CAST(pow(${u01}, 3) * $rels AS INTEGER) AS rel, $now - abs(random()) % ${730 * DAY} AS at_ms,
              CASE WHEN ${u01} < 0.1 THEN 2 WHEN ${u01} < 0.5 THEN 0 ELSE 1 END AS dir, ${u01} < 0.33 AS col
       FROM n)`,
  );
  // Every table written in the order of its rowid and primary key (interactions, participants) or of
  // its one other index (touches by interaction): no sort, appends only.
  const inter = sqlite.prepare(
    `INSERT INTO interactions (id, user_id, source_key, kind, occurred_at, participant_count)
     SELECT $first + k, $user, printf('msg:bench-%010d', $first + k), CASE dir WHEN 2 THEN 'meeting' ELSE 'email' END, at, 2 + col FROM bulk_gen`,
  );
  const people = sqlite.prepare(
    `INSERT INTO interaction_people (interaction_id, person_id)
     SELECT $first + g.k, CASE x.j WHEN 0 THEN r.person_id ELSE r.colleague_id END
     FROM bulk_gen g CROSS JOIN bulk_rel r CROSS JOIN (SELECT 0 AS j UNION ALL SELECT 1) x
     WHERE r.seq = g.rel AND (x.j = 0 OR (g.col = 1 AND r.colleague_id != r.person_id))`,
  );
  const touch = sqlite.prepare(
    `INSERT INTO touches (relationship_seq, interaction_id, occurred_at, direction)
     SELECT rel, $first + k, at, CASE dir WHEN 0 THEN 'sent' WHEN 1 THEN 'received' ELSE 'meeting' END FROM bulk_gen`,
  );
  // addTouch's aggregates: counts by direction, first and last touch and the last one's direction
  // (max(at_ms * 4 + dir) holds both), and the decayed activity at the last touch, each touch's
  // weight halving every 90 days: sum(w * 2^((t - last) / 90d)) = 2^((now - last) / 90d) *
  // sum(w * 2^((t - now) / 90d)), so one GROUP BY pass with no join.
  const aggregates = sqlite.prepare(
    `UPDATE relationships SET first_touch_at = ${isoOf("a.first_ms")}, last_touch_at = ${isoOf("a.last / 4")},
       last_touch_direction = CASE a.last % 4 WHEN 0 THEN 'sent' WHEN 1 THEN 'received' ELSE 'meeting' END,
       sent_count = a.sent, received_count = a.received, meeting_count = a.meetings,
       decayed_score = a.s * pow(2, ($now - a.last / 4) / ${90 * DAY}.0), score_at = ${isoOf("a.last / 4")}
     FROM (SELECT rel, min(at_ms) AS first_ms, max(at_ms * 4 + dir) AS last,
             sum(dir = 0) AS sent, sum(dir = 1) AS received, sum(dir = 2) AS meetings,
             sum(CASE dir WHEN 2 THEN 2.5 ELSE 1.0 END * pow(2, (at_ms - $now) / ${90 * DAY}.0)) AS s
           FROM bulk_gen GROUP BY rel) a
     WHERE relationships.seq = a.rel AND relationships.seq BETWEEN $lo AND $lo + $rels - 1`,
  );
  // The big company: every relationship with it has been in touch at least once (as seedNetwork).
  const bigTouched = sqlite.prepare(
    `UPDATE relationships SET first_touch_at = $at, last_touch_at = $at, last_touch_direction = 'sent', sent_count = 1, decayed_score = 1, score_at = $at
     WHERE user_id = $user AND last_touch_at IS NULL AND person_id IN (SELECT id FROM persons WHERE rowid >= $pfirst AND rowid < $pfirst + $big)`,
  );

  const perUser = Math.floor(size.interactions / userIds.length);
  let interactionId = (sqlite.query<{ n: number | null }, []>("SELECT max(id) AS n FROM interactions").get()?.n ?? 0) as number;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const spent = new Map<string, number>();
  const step = (name: string, fn: () => unknown) => {
    const t0 = performance.now();
    fn();
    spent.set(name, (spent.get(name) ?? 0) + performance.now() - t0);
  };
  for (const [ui, userId] of userIds.entries()) {
    const want = r.int(size.relationshipsPerUser[0], size.relationshipsPerUser[1]);
    const knowsBig = size.bigCompany !== undefined && ui < size.bigCompany.knownBy;
    sqlite.transaction(() => {
      step("relationships", () => {
        if (knowsBig) relBig.run({ org: orgId, user: userId, iso, first: firstRowid, big: bigCount });
        relRandom.run({ org: orgId, user: userId, iso, want, first: firstRowid, big: bigCount, persons: size.persons });
        sqlite.exec("DELETE FROM bulk_rel");
        relMap.run({ user: userId, pfirst: firstRowid, persons: size.persons });
      });
      const { lo, n } = relsOf.get(userId)!;
      step("draws", () => {
        sqlite.exec("DELETE FROM bulk_gen");
        gen.run({ count: perUser, lo, rels: n, now: nowMs });
      });
      const first = interactionId + 1;
      step("interactions", () => inter.run({ first, user: userId }));
      step("participants", () => people.run({ first }));
      step("touches", () => touch.run({ first }));
      step("aggregates", () => aggregates.run({ now: nowMs, lo, rels: n }));
      if (knowsBig) bigTouched.run({ at: new Date(nowMs - r.int(1, 700) * DAY).toISOString(), user: userId, pfirst: firstRowid, big: bigCount });
      interactionId += perUser;
    })();
    if ((ui + 1) % 10 === 0 || ui === userIds.length - 1) {
      const s = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuStart);
      const cpuS = (cpu.user + cpu.system) / 1e6;
      progress(`  seeded ${ui + 1}/${userIds.length} users, ${interactionId.toLocaleString()} interactions (${Math.round(interactionId / s).toLocaleString()}/s, ${Math.round(interactionId / cpuS).toLocaleString()} per CPU-second; ${[...spent].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(", ")})`);
    }
  }
  sqlite.exec("DROP TABLE temp.bulk_gen");
  sqlite.exec("DROP TABLE temp.bulk_rel");
  sqlite.exec("PRAGMA temp_store = DEFAULT"); // the index's sort spills to a file rather than holding it all in memory
  const t = performance.now();
  for (const d of dropped) sqlite.exec(d.sql);
  if (dropped.length) progress(`  rebuilt ${dropped.map((d) => d.name).join(", ")} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  sqlite.exec("PRAGMA synchronous = NORMAL");
  return { domains, interactions: interactionId };
}
