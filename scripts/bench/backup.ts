// Backup benchmark: a firm grown to about 2.5 GB (5,000,000 interactions with their touches and
// participants, 2,000 deal documents in the blob store; seeded by direct SQL, as CONTRACT.md
// allows), served by a real `dealgraph serve` (a child process) under a steady read load. Then:
//   - a plain file copy of the same bytes (the database file and the blobs): the baseline, MB/s; and
//     the same copy made durable (each file fsynced, as a backup's archive is): what a copy that
//     survives a power cut costs on this disk, beside it
//   - `dealgraph backup` (snapshot, archive: tar + gzip + sha256) while the read load runs: time, MB/s, ratio
//     (target >= 0.5), and its CPU time beside the copy's (the machine is shared: wall time moves)
//   - the read load's p50/p99 without a backup running, and while one runs (target: ratio <= 2)
//
//   bun scripts/bench/backup.ts [--interactions 5000000] [--documents 2000] [--keep DIR] [--verify] [--reuse DIR]
// --reuse DIR measures a data dir an earlier run kept (--keep) instead of seeding one.
import { closeSync, copyFileSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { blobPath } from "../../src/lib/blobs.ts";
import { silentLog } from "../../src/lib/log.ts";
import { rng } from "../../src/demo/rng.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { seedNetworkBulk } from "../lib/bench-seed-bulk.ts";
import { cleanEnv, run, startServe } from "../lib/child-process.ts";

const { values } = parseArgs({ options: { interactions: { type: "string" }, documents: { type: "string" }, keep: { type: "string" }, verify: { type: "boolean" }, reuse: { type: "string" } } });
const INTERACTIONS = Number(values.interactions ?? 5_000_000);
const DOCUMENTS = Number(values.documents ?? 2000);
const USERS = 50;
const PERSONS = 200_000;
const DOC_BYTES = 96 * 1024;
const ROOT = join(import.meta.dir, "../..");
const MB = 1024 * 1024;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

const dir = values.reuse ?? values.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-backup-"));
const loadAverage = () => loadavg().map((x) => x.toFixed(1)).join(" ");
console.log(`Dealgraph backup bench: bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs, data dir ${dir}; load average ${loadAverage()}`);

// --- seed -------------------------------------------------------------------------------------
const seedStart = performance.now();
const config = { ...loadConfig({}), dataDir: dir };
const { db } = openDataDir(config);
const deps = createDeps({ db, config, log: silentLog });
const sqlite = db.$client;
const r = rng(7);
const now = new Date();
let key = "";
let interactionId = 0;
if (values.reuse) {
  const first = sqlite.query<{ id: string }, []>("SELECT id FROM users ORDER BY email LIMIT 1").get()!;
  key = apiKeysService(deps).create({ userId: first.id, scope: "read", dailyRequests: 10_000_000 }).secret;
  interactionId = sqlite.query<{ n: number }, []>("SELECT max(id) AS n FROM interactions").get()!.n;
} else {
const org = orgsService(deps).createOrg("Bench Ventures");
const users = Array.from({ length: USERS }, (_, i) => orgsService(deps).createUser({ orgId: org.id, email: `p${i}@bench.vc`, name: `Partner ${i}`, shareNetwork: true }));
key = apiKeysService(deps).create({ userId: users[0].id, scope: "read", dailyRequests: 10_000_000 }).secret;
// The network written straight into SQL (scripts/lib/bench-seed-bulk.ts, the scale bench's seeder).
seedNetworkBulk(sqlite, org.id, users.map((u) => u.id), { persons: PERSONS, interactions: INTERACTIONS, relationshipsPerUser: [4000, 8000] }, (line) => console.error(line));
interactionId = sqlite.query<{ n: number }, []>("SELECT max(id) AS n FROM interactions").get()!.n;
// Deals with one document each, its bytes in the blob store (incompressible, as PDFs mostly are).
sqlite.transaction(() => {
  const deal = sqlite.query("INSERT INTO deals (id, org_id, created_by, company_name, kind, source, target_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'company', 'upload', ?, ?, ?)");
  const doc = sqlite.query(
    "INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, page_count, status, pages, uploaded_at) VALUES (?, ?, ?, 'deck.pdf', 'primary_upload', 'application/pdf', ?, ?, 4, 'extracted', ?, ?)",
  );
  const iso = now.toISOString();
  for (let i = 0; i < DOCUMENTS; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(DOC_BYTES));
    const sha = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    mkdirSync(join(dir, "blobs", sha.slice(0, 2)), { recursive: true });
    writeFileSync(blobPath(dir, sha), bytes);
    const dealId = Bun.randomUUIDv7();
    deal.run(dealId, org.id, users[0].id, `Company ${i}`, `upload:${i}`, iso, iso);
    const pages = JSON.stringify(Array.from({ length: 4 }, (_, p) => `Company ${i} page ${p + 1}: `.padEnd(2000, "market traction team ")));
    doc.run(Bun.randomUUIDv7(), org.id, dealId, DOC_BYTES, sha, pages, iso);
  }
})();
}
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
sqlite.close();
const dbBytes = statSync(join(dir, "dealgraph.db")).size;
const blobFiles = readdirSync(join(dir, "blobs"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
const blobBytes = blobFiles.reduce((sum, f) => sum + statSync(f).size, 0);
const totalMb = (dbBytes + blobBytes) / MB;
if (values.reuse) rmSync(join(dir, "backups"), { recursive: true, force: true });
console.log(`seeded ${interactionId.toLocaleString()} interactions, ${blobFiles.length} documents in ${((performance.now() - seedStart) / 1000).toFixed(1)} s: database ${(dbBytes / MB).toFixed(0)} MB + blobs ${(blobBytes / MB).toFixed(0)} MB = ${totalMb.toFixed(0)} MB`);

// --- baseline: a plain copy of the same bytes ---------------------------------------------------
const copyDir = mkdtempSync(join(tmpdir(), "dealgraph-bench-copy-"));
const copyCpu = process.cpuUsage();
let t = performance.now();
copyFileSync(join(dir, "dealgraph.db"), join(copyDir, "dealgraph.db"));
for (const [i, f] of blobFiles.entries()) copyFileSync(f, join(copyDir, `b${i}`));
const copyS = (performance.now() - t) / 1000;
const copyCpuS = ((c) => (c.user + c.system) / 1e6)(process.cpuUsage(copyCpu));
rmSync(copyDir, { recursive: true, force: true });
// The same copy, each file fsynced before the next (the archive is fsynced before it is named).
const durableDir = mkdtempSync(join(tmpdir(), "dealgraph-bench-copy-"));
const durableCpu = process.cpuUsage();
t = performance.now();
for (const [i, f] of [join(dir, "dealgraph.db"), ...blobFiles].entries()) {
  const to = join(durableDir, `f${i}`);
  copyFileSync(f, to);
  const fd = openSync(to, "r");
  fsyncSync(fd);
  closeSync(fd);
}
const durableS = (performance.now() - t) / 1000;
const durableCpuS = ((c) => (c.user + c.system) / 1e6)(process.cpuUsage(durableCpu));
rmSync(durableDir, { recursive: true, force: true });

// --- the backup alone: the same command with no server and no load beside it ----------------------
// (no server on the data dir: it keeps the priority it was started with, as the copy does; beside the
// server below it runs 10 nicer, and on a machine others share its time there is mostly how much of
// a core a nice +10 process is left)
const backupCommand = (out: string) => [process.execPath, join(ROOT, "src/main.ts"), "backup", "--json", "--data-dir", dir, ...(out ? ["--out", out] : [])];
const aloneOut = join(dir, "tmp", `bench-alone-${process.pid}.tar.gz`);
t = performance.now();
const aloneProc = Bun.spawn(backupCommand(aloneOut), { cwd: ROOT, env: cleanEnv(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
const [, aloneErr, aloneCode] = await Promise.all([new Response(aloneProc.stdout).text(), new Response(aloneProc.stderr).text(), aloneProc.exited]);
const aloneS = (performance.now() - t) / 1000;
if (aloneCode !== 0) throw new Error(`backup (alone) failed: ${aloneErr}`);
const aloneUsage = aloneProc.resourceUsage();
const aloneCpuS = aloneUsage ? (Number(aloneUsage.cpuTime.user) + Number(aloneUsage.cpuTime.system)) / 1e6 : NaN;
rmSync(aloneOut, { force: true });

// --- the read load on a real server -------------------------------------------------------------
const { child, url } = await startServe([process.execPath, join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data-dir", dir], { cwd: ROOT, env: cleanEnv() }, 300_000);
const paths = ["/api/v1/me", "/api/v1/deals?limit=20", `/api/v1/network/who-knows?domain=company${r.int(0, 19_999)}.com&limit=10`];
async function load(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  const worker = async () => {
    let i = 0;
    while (!until()) {
      const path = i++ % 3 === 2 ? `/api/v1/network/who-knows?domain=company${r.int(0, 19_999)}.com&limit=10` : paths[i % 2];
      const start = performance.now();
      const res = await fetch(url + path, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      times.push(performance.now() - start);
    }
  };
  await Promise.all([worker(), worker()]);
  return times;
}
try {
  const warm = performance.now();
  await load(() => performance.now() - warm > 2000);
  const quietStart = performance.now();
  const quiet = await load(() => performance.now() - quietStart > 15_000);

  let backupDone = false;
  const during = load(() => backupDone);
  t = performance.now();
  const proc = Bun.spawn(backupCommand(""), { cwd: ROOT, env: cleanEnv(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const backupS = (performance.now() - t) / 1000;
  const usage = proc.resourceUsage();
  const backupCpuS = usage ? (Number(usage.cpuTime.user) + Number(usage.cpuTime.system)) / 1e6 : NaN;
  backupDone = true;
  const busy = await during;
  const backup = { code, stdout, stderr };
  if (backup.code !== 0) throw new Error(`backup failed: ${backup.stderr}`);
  const written = JSON.parse(backup.stdout) as { file: string; bytes: number };
  const phases = Object.fromEntries([...backup.stderr.matchAll(/^(snapshot|archive|done): .*? in ([\d.]+) s/gm)].map((m) => [m[1], Number(m[2])]));
  const blocks = /\((\d+) of (\d+) blocks compressed/.exec(backup.stderr);
  const aloneBlocks = /\((\d+) of (\d+) blocks compressed/.exec(aloneErr);
  const method = /^snapshot: .*\((frozen-file|vacuum-into)\)/m.exec(backup.stderr)?.[1] ?? "?";
  const copyRate = totalMb / copyS;
  const backupRate = totalMb / backupS;
  console.log(`
plain copy of the same ${totalMb.toFixed(0)} MB (database file + ${blobFiles.length} blobs): ${copyS.toFixed(1)} s = ${copyRate.toFixed(0)} MB/s (CPU ${copyCpuS.toFixed(1)} s)
the same copy, each file fsynced (durable, as the archive is): ${durableS.toFixed(1)} s = ${(totalMb / durableS).toFixed(0)} MB/s (CPU ${durableCpuS.toFixed(1)} s)
dealgraph backup alone (no server, no load): ${aloneS.toFixed(1)} s = ${(totalMb / aloneS).toFixed(0)} MB/s (ratio to the copy ${(totalMb / aloneS / copyRate).toFixed(2)}, target >= 0.5; to the durable copy ${(durableS / aloneS).toFixed(2)}; CPU ${aloneCpuS.toFixed(1)} s, no server: not niced; ${aloneBlocks ? `${aloneBlocks[1]} of ${aloneBlocks[2]} blocks compressed` : "?"})
  ${/^archive time: .*$/m.exec(aloneErr)?.[0] ?? ""}
  ${/^archive CPU: .*$/m.exec(aloneErr)?.[0] ?? ""} (the copy's CPU ${copyCpuS.toFixed(1)} s, the durable copy's ${durableCpuS.toFixed(1)} s)
dealgraph backup while the read load runs: ${backupS.toFixed(1)} s = ${backupRate.toFixed(0)} MB/s (ratio to the copy ${(backupRate / copyRate).toFixed(2)}, target >= 0.5; CPU ${backupCpuS.toFixed(1)} s${/runs at nice (\d+)/.test(stderr) ? ` at nice ${/runs at nice (\d+)/.exec(stderr)![1]}` : ""}, beside the server)
  snapshot (${method}) ${phases.snapshot?.toFixed(1)} s, archive (tar + gzip + sha256) ${phases.archive?.toFixed(1)} s
  ${/^archive CPU: .*$/m.exec(backup.stderr)?.[0] ?? ""}
  archive ${(written.bytes / MB).toFixed(0)} MB (${((written.bytes / MB / totalMb) * 100).toFixed(0)}% of the data; ${blocks ? `${blocks[1]} of ${blocks[2]} blocks compressed, the rest stored while the compressor was busy` : "?"})
read load (2 clients: /me, deals list, who-knows by domain)
  without a backup: ${quiet.length} requests, p50 ${ms(pct(quiet, 50))}, p99 ${ms(pct(quiet, 99))}
  during the backup: ${busy.length} requests, p50 ${ms(pct(busy, 50))}, p99 ${ms(pct(busy, 99))} (p99 ratio ${(pct(busy, 99) / pct(quiet, 99)).toFixed(2)}, target <= 2)
load average at the end ${loadAverage()} (2 cores shared with other work: wall times follow CPU times)`);
  if (values.verify) {
    const vt = performance.now();
    const v = await run([process.execPath, join(ROOT, "src/main.ts"), "backup", "verify", written.file, "--json"], { cwd: ROOT, env: cleanEnv(), timeoutMs: 30 * 60_000 });
    console.log(`backup verify (gunzip, sha256 of every entry, the full integrity_check): ${((performance.now() - vt) / 1000).toFixed(1)} s, ${v.code === 0 ? "ok" : `FAILED: ${v.stderr.trim().split("\n").pop()}`}`);
  }
} finally {
  await child.stop();
  if (!values.keep && !values.reuse) rmSync(dir, { recursive: true, force: true });
}
