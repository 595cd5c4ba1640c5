// Network benchmark, each read against its plan-level baseline (hand-written best SQL written here,
// not the product's own statements) measured in the same run. Two firms (seeded by direct SQL, as
// CONTRACT.md allows):
//   --size 5m     50 users, 200,000 persons, 5,000,000 interactions (the default)
//   --size dense  20 users, 20,000 persons, 500,000 interactions, and one company of 500 people
//                 each known by 8 users: 4,000 pooled relationships at one domain
// Measured:
//   - who-knows by domain (a skewed sample, and the largest company alone, each asked three times)
//     and by person name: p50/p99 through the app, and the bare SQL for the same ranked, cut
//     paths. Target: p99 < 20 ms (of each request's best of three, and of every request).
//   - who-knows at the largest company with SQLite's page cache at 2 MB (SQLite's default), 64 MB
//     and 256 MB, and with and without the memory map (DEALGRAPH_SQLITE_CACHE_MB / _MMAP_MB).
//   - the contacts export: every page of every user, each page read three times and its best time
//     kept (its own cost, without the machine's noise); the first and last page of the first, a
//     middle and the last user beside the bare keyset read.                Target: <= 5 ms a page.
//   - the cadence-learning job over every touch, and the mail import rate (5m only)
//     (scripts/bench/network-import.ts, with its own bare baseline).
//
//   bun scripts/bench/network.ts [--size 5m|dense] [--users N] [--persons N] [--interactions N] [--skip-import]
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
import { nameKey } from "../../src/lib/names.ts";
import { rng } from "../../src/demo/rng.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { seedNetwork, type NetworkSize } from "../lib/bench-seed.ts";
import { pct } from "../lib/bench.ts";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "5m" },
    users: { type: "string" },
    persons: { type: "string" },
    interactions: { type: "string" },
    keep: { type: "string" },
    "skip-import": { type: "boolean" },
  },
});
const BIG = "bigco.com";
const PRESETS: Record<string, { users: number } & NetworkSize> = {
  "5m": { users: 50, persons: 200_000, interactions: 5_000_000, relationshipsPerUser: [4000, 8000] },
  dense: { users: 20, persons: 20_000, interactions: 500_000, relationshipsPerUser: [1500, 3000], bigCompany: { domain: BIG, persons: 500, knownBy: 8 } },
};
const preset = PRESETS[values.size!];
if (!preset) throw new Error(`--size takes ${Object.keys(PRESETS).join(" or ")}`);
const SIZE = {
  ...preset,
  users: Number(values.users ?? preset.users),
  persons: Number(values.persons ?? preset.persons),
  interactions: Number(values.interactions ?? preset.interactions),
};
const TARGET = { whoKnowsP99Ms: 20, contactsPageMs: 5 };

const ms = (x: number) => `${x.toFixed(2)} ms`;
const log = (line: string) => console.log(line);
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
// The CPU time this process spent on the last `timed` call of `cpuTimed`: on a machine shared with
// other work, a request's wall time includes the time it waited for a core; its CPU time does not.
let lastCpuMs = 0;
async function cpuTimed(fn: () => unknown): Promise<number> {
  const c = process.cpuUsage();
  const wall = await timed(fn);
  const d = process.cpuUsage(c);
  lastCpuMs = (d.user + d.system) / 1000;
  return wall;
}

const dir = values.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-network-"));
const config = loadConfig({}, { dataDir: dir });
const { db } = openDataDir(config);
const deps = createDeps({ db, config, log: silentLog });
const sqlite = db.$client;
const r = rng(7);

log(`Dealgraph network bench (${values.size}): bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs, page cache ${config.sqliteCacheMb} MB, map ${config.sqliteMmapMb} MB`);

// --- seed -------------------------------------------------------------------------------------
const seedStart = performance.now();
const org = orgsService(deps).createOrg("Bench Ventures");
const users = Array.from({ length: SIZE.users }, (_, i) =>
  orgsService(deps).createUser({ orgId: org.id, email: `partner${i}@bench.vc`, name: `Partner ${i}`, shareNetwork: i % 10 !== 9 }),
);
const keys = users.map((u) => apiKeysService(deps).create({ userId: u.id, scope: "read", dailyRequests: 10_000_000 }).secret);
const { domains, interactions } = seedNetwork(sqlite, org.id, users.map((u) => u.id), SIZE, (line) => console.error(line));
log(`seeded ${SIZE.users} users, ${SIZE.persons.toLocaleString()} persons, ${interactions.toLocaleString()} interactions, ${sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM relationships").get()!.n.toLocaleString()} relationships in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const app = createApp(deps);
const get = (path: string, key = keys[0]) =>
  app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } })).then(async (res) => {
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
    return text;
  });

// --- the baselines: hand-written for the best plan ----------------------------------------------
// Who-knows: the pooled relationships with the target (their owners a list read once), ranked by
// strength decayed to now and cut on the relationship's own columns; persons, owners and the first
// address read for those kept.
const STRENGTH = `(1 - exp(-(r.decayed_score * pow(0.5, max(0, julianday(+$now) - julianday(r.score_at)) / 90)) / 6))
  * (0.55 + 0.45 * (2.0 * min(r.sent_count + r.meeting_count, r.received_count + r.meeting_count) / max(1, r.sent_count + r.received_count + 2 * r.meeting_count)))`;
const bareTop = (target: string) =>
  sqlite.query(
    `SELECT r.seq, r.person_id, p.display_name, p.title, p.domain, p.linkedin_url, p.location, u.id, u.name,
       (SELECT e.email FROM person_emails e WHERE e.person_id = p.id ORDER BY e.email LIMIT 1) AS email,
       r.first_touch_at, r.last_touch_at, r.last_touch_direction, r.sent_count, r.received_count, r.meeting_count, r.decayed_score, r.score_at
     FROM (SELECT r.seq FROM persons p JOIN relationships r ON r.person_id = p.id
           WHERE +r.user_id IN (SELECT id FROM users WHERE org_id = +$org AND (share_network = 1 OR id = +$me)) AND p.org_id = +$org AND ${target} AND r.last_touch_at IS NOT NULL
           ORDER BY ${STRENGTH} DESC, r.last_touch_at DESC LIMIT 55) top
     CROSS JOIN relationships r ON r.seq = top.seq CROSS JOIN persons p ON p.id = r.person_id CROSS JOIN users u ON u.id = r.user_id`,
  );
const bareByDomain = bareTop("p.domain = +$domain");
const bareByName = bareTop("p.name_key = +$name");
// The contacts export: a keyset page of the user's relationships in seq order.
const bareContacts = sqlite.query(
  `SELECT r.seq, r.person_id, p.display_name, p.title, p.domain, p.linkedin_url, p.location, u.id, u.name,
     (SELECT e.email FROM person_emails e WHERE e.person_id = p.id ORDER BY e.email LIMIT 1) AS email,
     r.first_touch_at, r.last_touch_at, r.last_touch_direction, r.sent_count, r.received_count, r.meeting_count, r.decayed_score, r.score_at
   FROM relationships r CROSS JOIN persons p ON p.id = r.person_id CROSS JOIN users u ON u.id = r.user_id
   WHERE r.user_id = +$me AND r.seq > +$after ORDER BY r.seq LIMIT 201`,
);

// --- who-knows ----------------------------------------------------------------------------------
const sample = Array.from({ length: 300 }, () => domains[Math.floor(Math.pow(r.next(), 2) * domains.length)]);
const bigSample = SIZE.bigCompany ? Array.from({ length: 100 }, () => BIG) : [];
const params = (extra: Record<string, string>) => ({ org: org.id, me: users[0].id, now: new Date().toISOString(), ...extra });

/**
 * Each domain asked three times, alternating with the bare query: every time kept (`api`, `bare`),
 * and each request's best of three (`apiBest`: its own cost, without the machine's noise).
 */
async function whoKnows(domainsToAsk: string[]) {
  const api: number[] = [];
  const apiBest: number[] = [];
  const cpu: number[] = [];
  const bare: number[] = [];
  let paths = 0;
  for (const d of domainsToAsk) {
    const three: number[] = [];
    for (let k = 0; k < 3; k++) {
      let text = "";
      three.push(await cpuTimed(async () => (text = await get(`/api/v1/network/who-knows?domain=${d}&limit=50`))));
      cpu.push(lastCpuMs);
      if (k === 0) paths += JSON.parse(text).paths.length;
      bare.push(await timed(() => bareByDomain.all(params({ domain: d }))));
    }
    api.push(...three);
    apiBest.push(Math.min(...three));
  }
  return { api, apiBest, cpu, bare, paths: paths / domainsToAsk.length };
}

for (const d of [...sample.slice(0, 30), ...bigSample.slice(0, 5)]) await get(`/api/v1/network/who-knows?domain=${d}`);
const mixed = await whoKnows(sample);
const big = bigSample.length ? await whoKnows(bigSample) : null;

const nameApi: number[] = [];
const nameBare: number[] = [];
let named = 0;
for (let i = 0; i < 300; i++) {
  const n = r.int(0, SIZE.persons - 1);
  let text = "";
  nameApi.push(await timed(async () => (text = await get(`/api/v1/network/who-knows?person=${encodeURIComponent(`PERSON ${n}`)}&limit=10`))));
  named += JSON.parse(text).paths.length;
  nameBare.push(await timed(() => bareByName.all(params({ name: nameKey(`PERSON ${n}`) ?? "" }))));
}

// The page cache and the map, at the largest company (or the busiest domains of the sample).
const cacheProbe = bigSample.length ? bigSample : [...sample].sort().slice(0, 100);
const cacheRows: string[] = [];
for (const [cacheMb, mmapMb] of [[2, 0], [64, 0], [256, 0], [64, 256], [256, 256], [config.sqliteCacheMb, config.sqliteMmapMb]]) {
  sqlite.exec(`PRAGMA cache_size = ${-cacheMb * 1024}`);
  sqlite.exec(`PRAGMA mmap_size = ${mmapMb * 1024 * 1024}`);
  await whoKnows(cacheProbe.slice(0, 20)); // warm this setting
  const { api } = await whoKnows(cacheProbe);
  cacheRows.push(`  cache ${String(cacheMb).padStart(3)} MB, map ${String(mmapMb).padStart(3)} MB: p50 ${ms(pct(api, 50))}, p99 ${ms(pct(api, 99))}`);
}

// --- contacts export: every page of every user ---------------------------------------------------
type Page = { user: number; page: number; best: number; bare: number; cpu: number };
const pages: Page[] = [];
const allTimes: number[] = [];
for (const [ui, user] of users.entries()) {
  let cursor: string | null = null;
  let after = 0;
  let n = 0;
  do {
    const path = `/api/v1/network/contacts?limit=200${cursor ? `&cursor=${cursor}` : ""}`;
    let text = "";
    const runs: number[] = [];
    const cpus: number[] = [];
    for (let k = 0; k < 3; k++) {
      runs.push(await cpuTimed(async () => (text = await get(path, keys[ui]))));
      cpus.push(lastCpuMs);
    }
    const body = JSON.parse(text) as { contacts: unknown[]; next_cursor: string | null };
    const bareRuns: number[] = [];
    let rows: { seq: number }[] = [];
    for (let k = 0; k < 3; k++) bareRuns.push(await timed(() => (rows = bareContacts.all({ me: user.id, after }) as { seq: number }[])));
    if (rows.length !== body.contacts.length + (body.next_cursor ? 1 : 0)) throw new Error(`contacts page ${n} of user ${ui}: the app and the bare query disagree`);
    pages.push({ user: ui, page: n++, best: Math.min(...runs), bare: Math.min(...bareRuns), cpu: Math.min(...cpus) });
    allTimes.push(...runs);
    after = rows.length > 200 ? rows[199].seq : after;
    cursor = body.next_cursor;
  } while (cursor);
}
const pageOf = (user: number, which: "first" | "last") => {
  const own = pages.filter((p) => p.user === user);
  return which === "first" ? own[0] : own[own.length - 1];
};
const worst = pages.reduce((a, b) => (b.best > a.best ? b : a));

// --- cadence learning and the import rate ----------------------------------------------------------
let cadence: Record<string, unknown> = {};
const cadenceMs = await timed(async () => (cadence = await findJob("cadence-learning")!.runOnce(deps)));
let importLine = values.size === "5m" ? "skipped (--skip-import)" : "not measured at this size";
if (values.size === "5m" && !values["skip-import"]) {
  try {
    const sampler = "./network-import.ts";
    const { importRateSample } = (await import(sampler)) as {
      importRateSample(o: { messages: number }): Promise<{ messages: number; seconds: number; perSecond: number; baselinePerSecond?: number }>;
    };
    const s = await importRateSample({ messages: 100_000 });
    importLine = `${s.messages.toLocaleString()} messages in ${s.seconds.toFixed(1)} s = ${Math.round(s.perSecond).toLocaleString()} msg/s` +
      (s.baselinePerSecond ? `; bare read+split ${Math.round(s.baselinePerSecond).toLocaleString()} msg/s, ratio ${(s.perSecond / s.baselinePerSecond).toFixed(2)}` : "");
  } catch (error) {
    importLine = `not measured: ${(error as Error).message}`;
  }
}

// --- report ---------------------------------------------------------------------------------------
const line = (what: string, api: number[], bare: number[], best?: number[], cpu?: number[]) =>
  `  ${what}\n    through the app: p50 ${ms(pct(api, 50))}, p99 ${ms(pct(api, 99))}` +
  (best ? ` (each request's best of 3: p50 ${ms(pct(best, 50))}, p99 ${ms(pct(best, 99))})` : "") +
  (cpu ? `; CPU time p50 ${ms(pct(cpu, 50))}, p99 ${ms(pct(cpu, 99))}` : "") +
  `; bare SQL: p50 ${ms(pct(bare, 50))}, p99 ${ms(pct(bare, 99))}; ratio p50 ${(pct(api, 50) / pct(bare, 50)).toFixed(2)}`;
log("");
log(`who-knows (limit 50)`);
log(line(`by domain, ${sample.length} domains of the skewed sample (${mixed.paths.toFixed(1)} paths each on average)`, mixed.api, mixed.bare, mixed.apiBest, mixed.cpu));
if (big) {
  const pooled = sqlite.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM relationships r JOIN persons p ON p.id = r.person_id JOIN users u ON u.id = r.user_id WHERE p.domain = ? AND (u.share_network = 1 OR u.id = ?)").get(BIG, users[0].id)!.n;
  log(line(`at ${BIG}, ${bigSample.length} times (${pooled.toLocaleString()} pooled relationships at the domain)`, big.api, big.bare, big.apiBest, big.cpu));
}
log(line(`by person name, 300 names in upper case (${(named / 300).toFixed(1)} paths each on average)`, nameApi, nameBare));
log(`  page cache and map (who-knows at ${big ? BIG : "the sample's first domains"}, ${cacheProbe.length} requests each):`);
for (const row of cacheRows) log(row);
log("");
log(`contacts export: every page (200 contacts) of every user, ${pages.length} pages, each the best of 3 reads`);
for (const [label, ui] of [["first user", 0], ["middle user", Math.floor(users.length / 2)], ["last user", users.length - 1]] as const) {
  const first = pageOf(ui, "first");
  const last = pageOf(ui, "last");
  log(`  ${label.padEnd(11)} first page ${ms(first.best)} (bare ${ms(first.bare)}), last page (${last.page + 1}) ${ms(last.best)} (bare ${ms(last.bare)})`);
}
const worstCpu = Math.max(...pages.map((p) => p.cpu));
log(`  every page: best-of-3 p50 ${ms(pct(pages.map((p) => p.best), 50))}, max ${ms(worst.best)} (user ${worst.user}, page ${worst.page + 1}); CPU time (best of 3) max ${ms(worstCpu)}; bare max ${ms(Math.max(...pages.map((p) => p.bare)))}; every single read p99 ${ms(pct(allTimes, 99))}`);
log(`cadence-learning job: ${(cadenceMs / 1000).toFixed(1)} s ${JSON.stringify(cadence)}`);
log(`mail import: ${importLine}`);
const whoP99 = Math.max(pct(mixed.apiBest, 99), big ? pct(big.apiBest, 99) : 0);
const whoP99Raw = Math.max(pct(mixed.api, 99), big ? pct(big.api, 99) : 0, pct(nameApi, 99));
log("");
log("targets");
log(`  who-knows p99 < ${TARGET.whoKnowsP99Ms} ms (each request's best of 3; worst of the sample${big ? " and the largest company" : ""}) ${ms(whoP99).padStart(10)}   ${verdict(whoP99 < TARGET.whoKnowsP99Ms)}`);
const whoCpuP99 = Math.max(pct(mixed.cpu, 99), big ? pct(big.cpu, 99) : 0);
log(`    (every single request, name lookups included: p99 ${ms(whoP99Raw)}, ${verdict(whoP99Raw < TARGET.whoKnowsP99Ms)}; CPU time of every request p99 ${ms(whoCpuP99)}, ${verdict(whoCpuP99 < TARGET.whoKnowsP99Ms)})`);
log(`  every contacts page <= ${TARGET.contactsPageMs} ms (best of 3)       ${ms(worst.best).padStart(10)}   ${verdict(worst.best <= TARGET.contactsPageMs)}`);
log(`    (CPU time, best of 3: max ${ms(worstCpu)}, ${verdict(worstCpu <= TARGET.contactsPageMs)})`);
log(`  cadence-learning < 60 s                       ${`${(cadenceMs / 1000).toFixed(1)} s`.padStart(10)}   ${verdict(cadenceMs < 60_000)}`);

sqlite.close();
if (!values.keep) rmSync(dir, { recursive: true, force: true });
