// Network benchmark: a generated firm of 50 users, 200,000 persons and 5,000,000 interactions
// (seeded by direct SQL, as CONTRACT.md allows), then:
//   - who-knows p50/p99 through the app, and its ratio to the bare SQL query it runs
//   - contacts export: per-page time of the first vs the last page (keyset paging: ratio ~1)
//   - the cadence-learning job over every touch
//   - the import rate of the real mail importer on a sample of >= 100,000 messages
//     (scripts/bench/network-import.ts), with its own bare baseline
//
//   bun scripts/bench/network.ts [--users 50] [--persons 200000] [--interactions 5000000] [--keep DIR]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { findJob } from "../../jobs/index.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { nameKey } from "../../src/lib/names.ts";
import { PATH_COLUMNS, POOLED, STRENGTH_SQL } from "../../src/modules/network/network.paths.ts";
import { addTouch, type Aggregates, type Direction } from "../../src/modules/network/network.scoring.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { rng } from "../../src/demo/rng.ts";

const { values } = parseArgs({
  options: { users: { type: "string" }, persons: { type: "string" }, interactions: { type: "string" }, keep: { type: "string" }, "skip-import": { type: "boolean" } },
});
const USERS = Number(values.users ?? 50);
const PERSONS = Number(values.persons ?? 200_000);
const INTERACTIONS = Number(values.interactions ?? 5_000_000);
const DAY = 86_400_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(2)} ms`;
const timed = async (fn: () => unknown) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const dir = values.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-network-"));
const config = { ...loadConfig({}), dataDir: dir };
const { db } = openDataDir(config);
const deps = createDeps({ db, config, log: silentLog });
const sqlite = db.$client;
const r = rng(42);
const now = new Date();

console.log(`Dealgraph network bench: bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs, data dir ${dir}`);

// --- seed -------------------------------------------------------------------------------------
const seedStart = performance.now();
const org = orgsService(deps).createOrg("Bench Ventures");
const users = Array.from({ length: USERS }, (_, i) =>
  orgsService(deps).createUser({ orgId: org.id, email: `partner${i}@bench.vc`, name: `Partner ${i}`, shareNetwork: i % 10 !== 9 }),
);
const key = apiKeysService(deps).create({ userId: users[0].id, scope: "read", dailyRequests: 10_000_000 }).secret;
const domains = Array.from({ length: Math.ceil(PERSONS / 10) }, (_, i) => `company${i}.com`);
const personIds: string[] = [];
sqlite.transaction(() => {
  const p = sqlite.query("INSERT INTO persons (id, org_id, display_name, name_key, title, domain, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const e = sqlite.query("INSERT INTO person_emails (org_id, email, person_id) VALUES (?, ?, ?)");
  const iso = now.toISOString();
  for (let i = 0; i < PERSONS; i++) {
    // A few large companies, many small ones.
    const domain = domains[Math.floor(Math.pow(r.next(), 2) * domains.length)];
    const id = Bun.randomUUIDv7();
    p.run(id, org.id, `Person ${i}`, nameKey(`Person ${i}`), r.pick(["CEO", "CTO", "VP Sales", "Engineer", "CFO", "Founder"]), domain, iso, iso);
    e.run(org.id, `person${i}@${domain}`, id);
    personIds.push(id);
  }
})();

// Each user knows a slice of the persons; interactions are spread over their relationships.
const perUser = Math.floor(INTERACTIONS / USERS);
let interactionId = 0;
for (const [ui, user] of users.entries()) {
  const relCount = 4000 + r.int(0, 4000);
  const rels: { seq: number; personId: string; a: Aggregates }[] = [];
  sqlite.transaction(() => {
    const rel = sqlite.query<{ seq: number }, [string, string, string, string, string, string]>(
      "INSERT INTO relationships (id, org_id, user_id, person_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq",
    );
    const seen = new Set<string>();
    const iso = now.toISOString();
    while (rels.length < relCount) {
      const personId = personIds[r.int(0, personIds.length - 1)];
      if (seen.has(personId)) continue;
      seen.add(personId);
      const { seq } = rel.get(Bun.randomUUIDv7(), org.id, user.id, personId, iso, iso)!;
      rels.push({ seq, personId, a: { firstTouchAt: null, lastTouchAt: null, lastTouchDirection: null, sentCount: 0, receivedCount: 0, meetingCount: 0, decayedScore: 0, scoreAt: null } });
    }
    const inter = sqlite.query("INSERT INTO interactions (id, user_id, source_key, kind, occurred_at, participant_count) VALUES (?, ?, ?, ?, ?, 2)");
    const touch = sqlite.query("INSERT INTO touches (relationship_seq, interaction_id, occurred_at, direction) VALUES (?, ?, ?, ?)");
    const people = sqlite.query("INSERT INTO interaction_people (interaction_id, person_id) VALUES (?, ?)");
    for (let k = 0; k < perUser; k++) {
      const target = rels[Math.floor(Math.pow(r.next(), 3) * rels.length)]; // a strong core, a long tail
      const at = new Date(now.getTime() - Math.floor(r.next() * 730 * DAY));
      const direction: Direction = r.chance(0.1) ? "meeting" : r.chance(0.5) ? "sent" : "received";
      const id = ++interactionId;
      const iso2 = at.toISOString();
      inter.run(id, user.id, `msg:bench-${id}`, direction === "meeting" ? "meeting" : "email", iso2);
      touch.run(target.seq, id, iso2, direction);
      people.run(id, target.personId);
      addTouch(target.a, at, direction);
    }
    const upd = sqlite.query(
      "UPDATE relationships SET first_touch_at=?, last_touch_at=?, last_touch_direction=?, sent_count=?, received_count=?, meeting_count=?, decayed_score=?, score_at=? WHERE seq=?",
    );
    for (const x of rels) upd.run(x.a.firstTouchAt, x.a.lastTouchAt, x.a.lastTouchDirection, x.a.sentCount, x.a.receivedCount, x.a.meetingCount, x.a.decayedScore, x.a.scoreAt, x.seq);
  })();
  if ((ui + 1) % 10 === 0) console.error(`  seeded ${ui + 1}/${USERS} users, ${interactionId.toLocaleString()} interactions`);
}
sqlite.exec("ANALYZE");
console.log(`seeded ${USERS} users, ${PERSONS.toLocaleString()} persons, ${interactionId.toLocaleString()} interactions in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

// --- who-knows ----------------------------------------------------------------------------------
const app = createApp(deps);
const get = (path: string) => app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } })).then((res) => res.text());
// The same ranked, cut query the endpoint runs, without HTTP, auth, scoring or JSON.
const bare = sqlite.query(
  `SELECT ${PATH_COLUMNS} FROM persons p JOIN relationships r ON r.person_id = p.id JOIN users u ON u.id = r.user_id
   WHERE ${POOLED} AND p.org_id = $org AND p.domain = $domain AND r.last_touch_at IS NOT NULL
   ORDER BY ${STRENGTH_SQL} DESC, r.last_touch_at DESC LIMIT 55`,
);
const sample = Array.from({ length: 300 }, () => domains[Math.floor(Math.pow(r.next(), 2) * domains.length)]);
for (const d of sample.slice(0, 30)) await get(`/api/v1/network/who-knows?domain=${d}`);
const apiTimes: number[] = [];
const sqlTimes: number[] = [];
let paths = 0;
for (const d of sample) {
  apiTimes.push(await timed(async () => (paths += JSON.parse(await get(`/api/v1/network/who-knows?domain=${d}&limit=50`)).paths.length)));
  sqlTimes.push(await timed(() => bare.all({ org: org.id, me: users[0].id, domain: d, now: new Date().toISOString() })));
}

// By person name, written in another case than stored (the lookup folds case through persons.name_key).
const nameTimes: number[] = [];
let named = 0;
for (let i = 0; i < 300; i++) {
  const name = `PERSON ${r.int(0, PERSONS - 1)}`;
  nameTimes.push(await timed(async () => (named += JSON.parse(await get(`/api/v1/network/who-knows?person=${encodeURIComponent(name)}&limit=10`)).paths.length)));
}

// --- contacts export ------------------------------------------------------------------------------
const pageTimes: number[] = [];
let cursor: string | null = null;
do {
  let body: any;
  pageTimes.push(await timed(async () => (body = JSON.parse(await get(`/api/v1/network/contacts?limit=200${cursor ? `&cursor=${cursor}` : ""}`)))));
  cursor = body.next_cursor;
} while (cursor);
const firstPages = pageTimes.slice(0, 3);
const lastPages = pageTimes.slice(-3);

// --- cadence learning -----------------------------------------------------------------------------
let cadence: Record<string, unknown> = {};
const cadenceMs = await timed(async () => (cadence = await findJob("cadence-learning")!.runOnce(deps)));

// --- import rate ----------------------------------------------------------------------------------
let importLine = "skipped (--skip-import)";
let importRate: number | null = null;
if (!values["skip-import"]) {
  try {
    // Resolved at run time: the sampler lives beside this file (scripts/bench/network-import.ts).
    const sampler = "./network-import.ts";
    const { importRateSample } = (await import(sampler)) as {
      importRateSample(o: { messages: number }): Promise<{ messages: number; seconds: number; perSecond: number; baselinePerSecond?: number }>;
    };
    const sampleResult = await importRateSample({ messages: 100_000 });
    importRate = sampleResult.perSecond;
    importLine = `${sampleResult.messages.toLocaleString()} messages in ${sampleResult.seconds.toFixed(1)} s = ${Math.round(sampleResult.perSecond).toLocaleString()} msg/s` +
      (sampleResult.baselinePerSecond ? `; bare read+split ${Math.round(sampleResult.baselinePerSecond).toLocaleString()} msg/s, ratio ${(sampleResult.perSecond / sampleResult.baselinePerSecond).toFixed(2)}` : "");
  } catch (error) {
    importLine = `not measured: ${(error as Error).message}`;
  }
}

const whoP50 = pct(apiTimes, 50);
const whoP99 = pct(apiTimes, 99);
const sqlP50 = pct(sqlTimes, 50);
const sqlP99 = pct(sqlTimes, 99);
const pageRatio = pct(lastPages, 50) / pct(firstPages, 50);
console.log(`
who-knows by domain (${sample.length} domains, ${(paths / sample.length).toFixed(1)} paths each on average, limit 50)
  through the app:  p50 ${ms(whoP50)}, p99 ${ms(whoP99)}
  bare SQL query:   p50 ${ms(sqlP50)}, p99 ${ms(sqlP99)}
  ratio app / bare: p50 ${(whoP50 / sqlP50).toFixed(2)}, p99 ${(whoP99 / sqlP99).toFixed(2)}
who-knows by person name (300 names in upper case, ${(named / 300).toFixed(1)} paths each on average): p50 ${ms(pct(nameTimes, 50))}, p99 ${ms(pct(nameTimes, 99))}
contacts export (${pageTimes.length} pages of 200 for one user)
  first pages ${firstPages.map(ms).join(", ")}; last pages ${lastPages.map(ms).join(", ")}; ratio last/first ${pageRatio.toFixed(2)}
cadence-learning job: ${(cadenceMs / 1000).toFixed(1)} s ${JSON.stringify(cadence)}
mail import: ${importLine}

targets
  who-knows p99 < 20 ms              ${ms(whoP99).padStart(10)}   ${whoP99 < 20 ? "PASS" : "MISS"}
  contacts last/first page < 1.5     ${pageRatio.toFixed(2).padStart(10)}   ${pageRatio < 1.5 ? "PASS" : "MISS"}
  cadence-learning < 60 s            ${`${(cadenceMs / 1000).toFixed(1)} s`.padStart(10)}   ${cadenceMs < 60_000 ? "PASS" : "MISS"}
  import >= 5,000 msg/s              ${(importRate === null ? "n/a" : `${Math.round(importRate)}/s`).padStart(10)}   ${importRate === null ? "n/a" : importRate >= 5000 ? "PASS" : "MISS"}`);

sqlite.close();
if (!values.keep) rmSync(dir, { recursive: true, force: true });
