// Scale benchmark: the same measurements on a 5M-interaction firm and on a ten-times firm, each
// figure beside the other with its ratio and the growth of the data it depends on. A figure that
// grows faster than its data is a read or a job that does not scale.
//   5m:  50 users, 200,000 persons, 5,000,000 interactions, a dense company (500 people, known by 10 users)
//   50m: 100 users, 500,000 persons, 50,000,000 interactions, a dense company (1,250 people, known by 20 users)
// Each firm is written by direct SQL (CONTRACT.md allows it for benchmarks; scripts/lib/bench-seed.ts
// seedNetworkBulk) into a migrated data dir, then measured in a fresh process (its RSS is the
// reads' and the jobs', not the seeding's):
//   - who-knows p99 by domain (a skewed sample of domains, each asked 3 times) and at the dense company
//   - the contacts export's first, middle and last page for five users (each page's best of 3)
//   - the cadence-learning and reach-candidates jobs over the whole firm
//   - RSS after the reads and at its peak (the jobs included)
// then `dealgraph backup` of the data dir (a child process, as the job runs it), and the database's size.
//
//   bun scripts/bench/scale.ts [--size 5m|50m|5m,50m] (default: both, 5m first) [--keep] [--save FILE] [--against FILE]
//   bun scripts/bench/scale.ts --measure DIR [--who-knows-only]: measure a kept data dir (JSON on stdout)
// (--size tiny,tiny10: the same shapes at a few thousand persons, what the bench's test runs)
// --save writes the results as JSON; --against reads a saved run (e.g. the 5m one) and prints it beside this one.
// --divide N: every firm with 1/N of its interactions (the same users and persons), where the machine
// cannot give the full run the time it needs.
// The seeder (scripts/lib/bench-seed-bulk.ts) wrote the full 50m firm at about 110k interactions per
// CPU-second (about 450 CPU-s; the whole run took 12 minutes at a load average of 3-7): on a shared
// machine where it gets a fraction of a core, use --divide. The data dirs (about 2.5 and 24 GB at
// full size) go to the temp dir (TMPDIR) and are removed unless --keep.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { findJob } from "../../jobs/index.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { rng } from "../../src/demo/rng.ts";
import { silentLog } from "../../src/lib/log.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import type { NetworkSize } from "../lib/bench-seed.ts";
import { seedNetworkBulk } from "../lib/bench-seed-bulk.ts";
import { pct } from "../lib/bench.ts";
import { cleanEnv } from "../lib/child-process.ts";

const { values } = parseArgs({
  options: { size: { type: "string" }, keep: { type: "boolean" }, measure: { type: "string" }, interactions: { type: "string" }, divide: { type: "string" }, "seed-only": { type: "boolean" }, save: { type: "string" }, against: { type: "string" }, "who-knows-only": { type: "boolean" } },
});
const ROOT = join(import.meta.dir, "../..");
const BIG = "bigco.com";
type Preset = { users: number } & NetworkSize;
const PRESETS: Record<string, Preset> = {
  "5m": { users: 50, persons: 200_000, interactions: 5_000_000, relationshipsPerUser: [4000, 8000], bigCompany: { domain: BIG, persons: 500, knownBy: 10 } },
  "50m": { users: 100, persons: 500_000, interactions: 50_000_000, relationshipsPerUser: [8000, 16000], bigCompany: { domain: BIG, persons: 1250, knownBy: 20 } },
  // The same shapes, small, for the bench's own test (test/cli/scale-bench.test.ts).
  tiny: { users: 4, persons: 2_000, interactions: 20_000, relationshipsPerUser: [100, 200], bigCompany: { domain: BIG, persons: 20, knownBy: 2 } },
  tiny10: { users: 8, persons: 5_000, interactions: 200_000, relationshipsPerUser: [200, 400], bigCompany: { domain: BIG, persons: 50, knownBy: 4 } },
};
const MB = 1024 * 1024;

type Measured = {
  whoKnows: { p50: number; p99: number; best99: number; cpu99: number; paths: number };
  dense: { p50: number; p99: number; best99: number; cpu99: number; pooled: number };
  contacts: { user: number; pages: number; first: number; middle: number; last: number; cpu: { first: number; middle: number; last: number } }[];
  cadenceS: number;
  cadenceCpuS: number;
  cadence: unknown;
  reachS: number;
  reachCpuS: number;
  reach: unknown;
  rssAfterReadsMb: number;
  /** Peak RSS after the reads and cadence learning, before the reach job (absent in runs saved before it was measured). */
  peakBeforeReachMb?: number;
  peakRssMb: number;
  counts: { users: number; persons: number; relationships: number; interactions: number; touches: number };
};

if (values.measure) {
  console.log(JSON.stringify(await measure(values.measure)));
  process.exit(0);
}

async function measure(dir: string): Promise<Measured> {
  const config = loadConfig({}, { dataDir: dir });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, log: silentLog });
  const sqlite = db.$client;
  const r = rng(11);
  const users = sqlite.query<{ id: string }, []>("SELECT id FROM users ORDER BY email").all();
  const keyOf = new Map<string, string>();
  const key = (userId: string) => {
    let k = keyOf.get(userId);
    if (!k) keyOf.set(userId, (k = apiKeysService(deps).create({ userId, scope: "read", dailyRequests: 10_000_000 }).secret));
    return k;
  };
  const app = createApp(deps);
  const get = async (path: string, userId = users[0].id) => {
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key(userId)}` } }));
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
    return text;
  };
  // Wall time, and the CPU time this process spent (on a shared machine a request's wall time
  // includes waiting for a core; its CPU time does not).
  let lastCpu = 0;
  const timed = async (fn: () => Promise<unknown>) => {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    const d = process.cpuUsage(c);
    lastCpu = (d.user + d.system) / 1000;
    return performance.now() - t;
  };
  const counts = sqlite
    .query<Measured["counts"], []>(
      "SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM persons) AS persons, (SELECT count(*) FROM relationships) AS relationships, (SELECT max(id) FROM interactions) AS interactions, (SELECT count(*) FROM touches) AS touches",
    )
    .get()!;
  const domainCount = sqlite.query<{ n: number }, []>("SELECT count(DISTINCT domain) AS n FROM persons").get()!.n;

  // who-knows: a skewed sample of domains (the busy ones asked more), each three times.
  const askDomains = async (domains: string[]) => {
    const all: number[] = [];
    const best: number[] = [];
    const cpu: number[] = [];
    let paths = 0;
    for (const d of domains) {
      const three: number[] = [];
      for (let k = 0; k < 3; k++) {
        let text = "";
        three.push(await timed(async () => (text = await get(`/api/v1/network/who-knows?domain=${d}&limit=50`))));
        cpu.push(lastCpu);
        if (k === 0) paths += (JSON.parse(text) as { paths: unknown[] }).paths.length;
      }
      all.push(...three);
      best.push(Math.min(...three));
    }
    return { p50: pct(all, 50), p99: pct(all, 99), best99: pct(best, 99), cpu99: pct(cpu, 99), paths: paths / domains.length };
  };
  const sample = Array.from({ length: 300 }, () => `company${Math.floor(Math.pow(r.next(), 2) * (domainCount - 1))}.com`);
  for (const d of sample.slice(0, 30)) await get(`/api/v1/network/who-knows?domain=${d}`);
  const whoKnows = await askDomains(sample);
  const denseRun = await askDomains(Array.from({ length: 60 }, () => BIG));
  const pooled = sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM relationships r JOIN persons p ON p.id = r.person_id WHERE p.domain = ?").get(BIG)!.n;
  // --measure DIR --who-knows-only: these two figures alone (an index tried on a kept data dir, before and after).
  if (values["who-knows-only"]) {
    sqlite.close();
    return { whoKnows, dense: { p50: denseRun.p50, p99: denseRun.p99, best99: denseRun.best99, cpu99: denseRun.cpu99, pooled }, counts } as Measured;
  }

  // Contacts: every page of five users walked in order; the first, middle and last page timed (best of 3).
  const contacts: Measured["contacts"] = [];
  for (const ui of [0, Math.floor(users.length / 4), Math.floor(users.length / 2), Math.floor((3 * users.length) / 4), users.length - 1]) {
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      cursors.push(cursor);
      const body = JSON.parse(await get(`/api/v1/network/contacts?limit=200${cursor ? `&cursor=${cursor}` : ""}`, users[ui].id)) as { next_cursor: string | null };
      cursor = body.next_cursor;
    } while (cursor);
    const page = async (i: number) => {
      const c = cursors[i];
      const runs: number[] = [];
      const cpus: number[] = [];
      for (let k = 0; k < 3; k++) {
        runs.push(await timed(() => get(`/api/v1/network/contacts?limit=200${c ? `&cursor=${c}` : ""}`, users[ui].id)));
        cpus.push(lastCpu);
      }
      return { wall: Math.min(...runs), cpu: Math.min(...cpus) };
    };
    const [p1, p2, p3] = [await page(0), await page(Math.floor(cursors.length / 2)), await page(cursors.length - 1)];
    contacts.push({ user: ui, pages: cursors.length, first: p1.wall, middle: p2.wall, last: p3.wall, cpu: { first: p1.cpu, middle: p2.cpu, last: p3.cpu } });
  }
  const rssAfterReadsMb = process.memoryUsage().rss / MB;

  let cadence: unknown;
  const cadenceS = (await timed(async () => (cadence = await findJob("cadence-learning")!.runOnce(deps)))) / 1000;
  const cadenceCpuS = lastCpu / 1000;
  // The peak so far (the reads and cadence learning): what the reach job adds shows against the final peak.
  const peakBeforeReachMb = process.resourceUsage().maxRSS / 1024;
  let reach: unknown;
  const reachS = (await timed(async () => (reach = await findJob("reach-candidates")!.runOnce(deps)))) / 1000;
  const reachCpuS = lastCpu / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  sqlite.close();
  return { whoKnows, dense: { p50: denseRun.p50, p99: denseRun.p99, best99: denseRun.best99, cpu99: denseRun.cpu99, pooled }, contacts, cadenceS, cadenceCpuS, cadence, reachS, reachCpuS, reach, rssAfterReadsMb, peakBeforeReachMb, peakRssMb, counts };
}

type Result = { size: string; seedS: number; measured: Measured; backup: { s: number; cpuS: number; bytes: number; stderr: string }; dbBytes: number; totalS: number };

async function runSize(size: string): Promise<Result> {
  const preset = { ...PRESETS[size] };
  if (values.interactions) preset.interactions = Number(values.interactions);
  if (values.divide) preset.interactions = Math.round(preset.interactions / Number(values.divide));
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), `dealgraph-bench-scale-${size}-`));
  console.log(`\n[${size}] ${preset.users} users, ${preset.persons.toLocaleString()} persons, ${preset.interactions.toLocaleString()} interactions into ${dir}`);
  try {
    const config = loadConfig({}, { dataDir: dir });
    const { db } = openDataDir(config);
    const deps = createDeps({ db, config, log: silentLog });
    const org = orgsService(deps).createOrg("Scale Ventures");
    const users = Array.from({ length: preset.users }, (_, i) =>
      orgsService(deps).createUser({ orgId: org.id, email: `partner${String(i).padStart(3, "0")}@scale.vc`, name: `Partner ${i}`, shareNetwork: i % 10 !== 9 }),
    );
    let t = performance.now();
    seedNetworkBulk(db.$client, org.id, users.map((u) => u.id), preset, (line) => console.log(line));
    db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.$client.close();
    const seedS = (performance.now() - t) / 1000;
    const dbBytes = statSync(join(dir, "dealgraph.db")).size;
    console.log(`[${size}] seeded in ${seedS.toFixed(0)} s; database ${(dbBytes / MB).toFixed(0)} MB`);
    // --seed-only: the seeding alone (its rate, measured at a fraction of the size before a full run).
    if (values["seed-only"]) {
      if (!values.keep) rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }

    t = performance.now();
    const m = Bun.spawn([process.execPath, import.meta.path, "--measure", dir], { cwd: ROOT, env: cleanEnv(), stdout: "pipe", stderr: "inherit" });
    const [out, code] = await Promise.all([new Response(m.stdout).text(), m.exited]);
    if (code !== 0) throw new Error(`measuring ${size} failed (exit ${code}): ${out}`);
    const measured = JSON.parse(out.trim().split("\n").pop()!) as Measured;
    console.log(`[${size}] reads and jobs measured in ${((performance.now() - t) / 1000).toFixed(0)} s`);

    t = performance.now();
    const b = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "backup", "--json", "--data-dir", dir], { cwd: ROOT, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
    const [bout, berr, bcode] = await Promise.all([new Response(b.stdout).text(), new Response(b.stderr).text(), b.exited]);
    if (bcode !== 0) throw new Error(`backup of ${size} failed: ${berr}`);
    const usage = b.resourceUsage();
    const backup = { s: (performance.now() - t) / 1000, cpuS: usage ? (Number(usage.cpuTime.user) + Number(usage.cpuTime.system)) / 1e6 : NaN, bytes: (JSON.parse(bout) as { bytes: number }).bytes, stderr: berr };
    console.log(`[${size}] backup ${backup.s.toFixed(0)} s, ${(backup.bytes / MB).toFixed(0)} MB`);
    return { size, seedS, measured, backup, dbBytes, totalS: (performance.now() - started) / 1000 };
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
    else console.log(`[${size}] kept ${dir}`);
  }
}

const sizes = values.size ? values.size.split(",") : ["5m", "50m"];
for (const s of sizes) if (!PRESETS[s]) throw new Error(`--size takes ${Object.keys(PRESETS).join(" or ")}`);
console.log(`Dealgraph scale bench: bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs, sizes ${sizes.join(", ")}`);
const wall = performance.now();
const results: Result[] = values.against ? [JSON.parse(await Bun.file(values.against).text()) as Result] : [];
for (const s of sizes) {
  const result = await runSize(s);
  results.push(result);
  if (values.save) await Bun.write(values.save.replace(/(\.json)?$/, sizes.length > 1 ? `-${s}.json` : ".json"), JSON.stringify(result, null, 2));
}

// --- report ---------------------------------------------------------------------------------------
const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const rows: [string, (r: Result) => number, string, (r: Result) => number][] = [
  // [figure, value, unit, the size of the data it depends on]
  ["who-knows p99, skewed domains (every request)", (r) => r.measured.whoKnows.p99, "ms", (r) => r.measured.counts.relationships / r.measured.counts.persons],
  ["who-knows p99, skewed domains (best of 3)", (r) => r.measured.whoKnows.best99, "ms", (r) => r.measured.counts.relationships / r.measured.counts.persons],
  ["who-knows p99 CPU time, skewed domains", (r) => r.measured.whoKnows.cpu99, "ms", (r) => r.measured.counts.relationships / r.measured.counts.persons],
  [`who-knows p99, dense domain ${BIG} (every request)`, (r) => r.measured.dense.p99, "ms", (r) => r.measured.dense.pooled],
  [`who-knows p50, dense domain ${BIG}`, (r) => r.measured.dense.p50, "ms", (r) => r.measured.dense.pooled],
  [`who-knows p99 CPU time, dense domain ${BIG}`, (r) => r.measured.dense.cpu99, "ms", (r) => r.measured.dense.pooled],
  ["contacts first page (worst of 5 users, best of 3)", (r) => Math.max(...r.measured.contacts.map((c) => c.first)), "ms", () => 1],
  ["contacts middle page (worst of 5 users, best of 3)", (r) => Math.max(...r.measured.contacts.map((c) => c.middle)), "ms", () => 1],
  ["contacts last page (worst of 5 users, best of 3)", (r) => Math.max(...r.measured.contacts.map((c) => c.last)), "ms", () => 1],
  ["contacts page CPU time (worst page of 5 users)", (r) => Math.max(...r.measured.contacts.flatMap((c) => [c.cpu.first, c.cpu.middle, c.cpu.last])), "ms", () => 1],
  ["cadence learning", (r) => r.measured.cadenceS, "s", (r) => r.measured.counts.touches],
  ["cadence learning CPU", (r) => r.measured.cadenceCpuS, "s", (r) => r.measured.counts.touches],
  ["reach candidates", (r) => r.measured.reachS, "s", (r) => r.measured.counts.interactions],
  ["reach candidates CPU", (r) => r.measured.reachCpuS, "s", (r) => r.measured.counts.interactions],
  ["backup (no load)", (r) => r.backup.s, "s", (r) => r.dbBytes],
  ["backup CPU", (r) => r.backup.cpuS, "s", (r) => r.dbBytes],
  ["database size", (r) => r.dbBytes / MB, "MB", (r) => r.measured.counts.interactions],
  ["archive size", (r) => r.backup.bytes / MB, "MB", (r) => r.dbBytes],
  ["RSS after the reads", (r) => r.measured.rssAfterReadsMb, "MB", () => 1],
  ["peak RSS before the reach job (reads and cadence)", (r) => r.measured.peakBeforeReachMb ?? NaN, "MB", () => 1],
  ["peak RSS (jobs included)", (r) => r.measured.peakRssMb, "MB", () => 1],
];
console.log("");
for (const r of results) {
  const c = r.measured.counts;
  console.log(`[${r.size}] ${c.users} users, ${c.persons.toLocaleString()} persons, ${c.relationships.toLocaleString()} relationships, ${c.interactions.toLocaleString()} interactions, ${c.touches.toLocaleString()} touches; ${r.measured.whoKnows.paths.toFixed(1)} paths per who-knows, ${r.measured.dense.pooled.toLocaleString()} relationships at ${BIG}; seeded in ${r.seedS.toFixed(0)} s, all of it ${r.totalS.toFixed(0)} s`);
  console.log(`  contacts pages per user: ${r.measured.contacts.map((x) => `${x.pages} (first ${f(x.first)}, middle ${f(x.middle)}, last ${f(x.last)} ms)`).join("; ")}`);
  console.log(`  cadence ${JSON.stringify(r.measured.cadence)}; reach ${JSON.stringify(r.measured.reach)}`);
}
if (results.length === 2) {
  const [a, b] = results;
  console.log(`\n| figure | ${a.size} | ${b.size} | ratio | data ratio |`);
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name, value, unit, data] of rows) {
    const x = value(a);
    const y = value(b);
    console.log(`| ${name} | ${f(x)} ${unit} | ${f(y)} ${unit} | ${f(y / x)}x | ${f(data(b) / data(a))}x |`);
  }
} else {
  for (const [name, value, unit] of rows) console.log(`  ${name}: ${f(value(results[0]))} ${unit}`);
}
console.log(`\ntotal ${((performance.now() - wall) / 60_000).toFixed(1)} minutes`);
