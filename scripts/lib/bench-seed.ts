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

// The ten-times firm's bulk seeder (no row through JavaScript) is scripts/lib/bench-seed-bulk.ts.
