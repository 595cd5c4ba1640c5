// Mailbox sync benchmark against a local Dovecot (Debian's dovecot-imapd, started on loopback with
// its own temp config by the test helper), measured in the same run:
//   1. The first sync of a mailbox of --messages (default 50,000) into a fresh data dir: messages/s
//      (target >= 3,000), against a bare imapflow fetch of the same header blocks of the same
//      messages, as the sync asks for them (no processing, no database): the ratio dealgraph / bare. Rounds alternate
//      (bare, sync, bare, sync...) on a warmed Dovecot; the best of each is kept.
//   2. Freshness: a real server (the serve wiring, its own mail-sync timer every --interval
//      seconds, default 10) over that data dir; a message from a new person is delivered and
//      who-knows is polled over HTTP until the person appears: the delay, against the interval
//      (target: within one interval).
//   3. IDLE latency: a server whose interval is an hour (so only IMAP IDLE can bring mail in
//      early); --idle-probes messages from new people, each polled in who-knows until it shows:
//      p50/p95 of delivery to who-knows (target p95 <= 15 s), against a bare imapflow client in
//      IDLE on the same INBOX (delivery to its EXISTS: the ratio dealgraph / bare).
//   4. The ledger after kill -9: --kill-rounds `dealgraph sync` children on a fresh data dir, each
//      killed with -9 mid-backfill of the whole mailbox, then one that finishes; the ledger is
//      checked against the server (lost = messages up to the high-water the ledger does not
//      count, double-counted = counted beyond what the server holds, and the ledger's imported
//      against the network's interactions), and the whole time against one bare fetch of the mailbox.
//
//   bun scripts/bench/mail-sync.ts [--messages 50000] [--rounds 2] [--interval 10] [--probes 3] [--idle-probes 10] [--kill-rounds 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ImapFlow } from "imapflow";
import { startServer } from "../../src/cli/serve.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { connectionsIdle } from "../../src/modules/connections/connections.idle.ts";
import { checkLedger } from "../../src/modules/connections/connections.ledger.check.ts";
import { connectionsLedger } from "../../src/modules/connections/connections.ledger.ts";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../src/modules/connections/connections.sync.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { message } from "../../test/helpers/import-files.ts";
import { freePort, startDovecot } from "../../test/helpers/mail-servers.ts";
import { Child, cleanEnv } from "../lib/child-process.ts";

const { values } = parseArgs({
  options: { messages: { type: "string" }, rounds: { type: "string" }, interval: { type: "string" }, probes: { type: "string" }, "idle-probes": { type: "string" }, "kill-rounds": { type: "string" } },
});
const N = Number(values.messages ?? 50_000);
const ROUNDS = Number(values.rounds ?? 2);
const INTERVAL = Number(values.interval ?? 10);
const PROBES = Number(values.probes ?? 3);
const IDLE_PROBES = Number(values["idle-probes"] ?? 10);
const KILL_ROUNDS = Number(values["kill-rounds"] ?? 3);
const IDLE_TARGET_S = 15;
const TARGET = 3_000;
const USER = { login: "maya@northwind.vc", password: "bench-Pa55word-1" };

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const log = (line: string) => console.log(line);

const dovecot = await startDovecot({ users: [USER] });
if (!dovecot) {
  console.error("Dovecot is not installed (apt-get install dovecot-imapd): nothing to measure");
  process.exit(1);
}
log(`Dealgraph mail-sync bench: bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs, ${fmt(N)} messages, Dovecot on 127.0.0.1:${dovecot.port}`);

// A realistic mailbox: 2,000 correspondents at 400 companies, replies with Cc, some list and robot mail.
const started = performance.now();
const messages: string[] = [];
for (let i = 0; i < N; i++) {
  const p = i % 2000;
  const date = new Date(Date.now() - (N - i) * 20 * 60_000).toISOString();
  const kind = i % 50;
  if (kind === 7) messages.push(message({ from: "Weekly <news@letters.example>", to: USER.login, date, id: `b${i}@letters.example`, headers: ["List-Id: <weekly.letters.example>"] }));
  else if (kind === 13) messages.push(message({ from: "noreply@saas.example", to: USER.login, date, id: `b${i}@saas.example` }));
  else messages.push(message({ from: `Person ${p} <p${p}@company${p % 400}.example>`, to: `Maya Okafor <${USER.login}>`, cc: i % 3 ? undefined : `p${(p + 1) % 2000}@company${(p + 1) % 400}.example`, date, id: `b${i}@company${p % 400}.example`, subject: `Re: deal ${i % 300}` }));
}
dovecot.deliver(USER.login, "INBOX", messages);
log(`  mailbox written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/** The bare baseline: the same header blocks of every message, fetched as the sync does and dropped. */
async function bareFetch(expected = N): Promise<number> {
  const client = new ImapFlow({ host: "127.0.0.1", port: dovecot!.port, secure: false, doSTARTTLS: false, auth: { user: USER.login, pass: USER.password }, logger: false, disableAutoIdle: true });
  await client.connect();
  const lock = await client.getMailboxLock("INBOX", { readOnly: true });
  const t0 = performance.now();
  let n = 0;
  for await (const m of client.fetch("1:*", { uid: true, headers: true }, { uid: true })) if (m.headers) n++;
  const seconds = (performance.now() - t0) / 1000;
  lock.release();
  await client.logout();
  if (n !== expected) throw new Error(`the bare fetch saw ${n} messages, not ${expected}`);
  return n / seconds;
}

function freshDeps(interval = INTERVAL): { deps: Deps; dir: string; userId: string; orgId: string } {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-mailsync-"));
  const config = loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: String(interval) }, { dataDir: dir });
  const deps = createDeps({ db: openDataDir(config).db, config, log: silentLog });
  const orgs = orgsService(deps);
  const org = orgs.createOrg("Northwind Ventures");
  const user = orgs.createUser({ orgId: org.id, email: USER.login, name: "Maya Okafor", shareNetwork: true });
  connectionsService(deps).setMailServer(org.id, { imap: `127.0.0.1:${dovecot!.port}`, security: "plain" });
  return { deps, dir, userId: user.id, orgId: org.id };
}

/** The first sync of the whole mailbox into a fresh data dir. */
async function firstSync(keep = false) {
  const f = freshDeps();
  await connectionsService(f.deps).connectMail(f.userId, { login: USER.login, password: USER.password, since: "2000-01-01" });
  const t0 = performance.now();
  const { connections } = await connectionsSync(f.deps).syncUser(f.userId);
  const seconds = (performance.now() - t0) / 1000;
  const e = connections[0];
  if (e.status !== "ok" || e.messages_new + e.skipped + e.duplicates !== N) throw new Error(`the sync did not read the mailbox: ${JSON.stringify(e)}`);
  if (!keep) {
    f.deps.db.$client.close();
    rmSync(f.dir, { recursive: true, force: true });
  }
  return { rate: N / seconds, seconds, entry: e, f };
}

// Dovecot builds its index and header cache on the first full read: warm it before measuring.
await bareFetch();
const bare: number[] = [];
const sync: number[] = [];
let last: Awaited<ReturnType<typeof firstSync>> | null = null;
for (let r = 0; r < ROUNDS; r++) {
  bare.push(await bareFetch());
  if (last) {
    last.f.deps.db.$client.close();
    rmSync(last.f.dir, { recursive: true, force: true });
  }
  last = await firstSync(true);
  sync.push(last.rate);
  log(`  round ${r + 1}: bare fetch ${fmt(bare[r])} msg/s, first sync ${fmt(last.rate)} msg/s, ratio ${(last.rate / bare[r]).toFixed(2)} (${last.seconds.toFixed(1)} s: ${fmt(last.entry.messages_new)} new, ${fmt(last.entry.skipped)} skipped)`);
}
const bestBare = Math.max(...bare);
const bestSync = Math.max(...sync);
const ratios = sync.map((x, i) => x / bare[i]).sort((a, b) => a - b);
log("");
log(`first sync of ${fmt(N)} messages: best ${fmt(bestSync)} msg/s, worst ${fmt(Math.min(...sync))} msg/s (target >= ${fmt(TARGET)}: ${Math.min(...sync) >= TARGET ? "met in every round" : bestSync >= TARGET ? "met in the best round" : "NOT met"})`);
log(`bare imapflow fetch of the same header blocks: best ${fmt(bestBare)} msg/s; ratio dealgraph / bare, round by round: median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(", ")})`);

// Freshness: the server's own timer, a new message, who-knows over HTTP.
const { deps, dir, userId } = last!.f;
deps.config.port = await freePort();
const key = apiKeysService(deps).create({ userId, scope: "read" }).secret;
const running = startServer(deps);
// The server's first sync comes soon after its start; the probes measure the steady state after it.
await Bun.sleep(Math.min(INTERVAL, 5) * 1000 + 2000);
log("");
log(`freshness: a server with DEALGRAPH_SYNC_INTERVAL_SECONDS=${INTERVAL}; a message from a new person, then who-knows until it shows`);
const delays: number[] = [];
for (let i = 0; i < PROBES; i++) {
  const domain = `newco${i}-${Date.now()}.example`;
  const t0 = performance.now();
  dovecot.deliver(USER.login, "INBOX", [message({ from: `Founder ${i} <founder@${domain}>`, to: USER.login, date: new Date().toISOString(), id: `fresh-${i}-${Date.now()}@${domain}` })]);
  for (;;) {
    const r = await fetch(`${running.url}/api/v1/network/who-knows?domain=${domain}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await r.json()) as { paths: unknown[] };
    if (body.paths.length > 0) break;
    if (performance.now() - t0 > 3 * INTERVAL * 1000) throw new Error(`who-knows did not show ${domain} within ${3 * INTERVAL} s`);
    await Bun.sleep(25);
  }
  const delay = (performance.now() - t0) / 1000;
  delays.push(delay);
  log(`  probe ${i + 1}: visible in who-knows after ${delay.toFixed(1)} s (interval ${INTERVAL} s: ${delay <= INTERVAL ? "within" : "NOT within"})`);
  // The next probe starts at a random point of the interval.
  await Bun.sleep(Math.random() * INTERVAL * 500);
}
log(`worst delay ${Math.max(...delays).toFixed(1)} s of a ${INTERVAL} s interval`);
await running.stop();

// 3. IDLE latency: the same data dir, a server whose interval is an hour.
const idleDeps = createDeps({ db: openDataDir(loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: "3600" }, { dataDir: dir })).db, config: loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: "3600" }, { dataDir: dir }), log: silentLog });
idleDeps.config.port = await freePort();
const idleServer = startServer(idleDeps);
const watchers = connectionsIdle(idleDeps);
for (const until = Date.now() + 60_000; !Object.values(watchers.states()).some((w) => w.state === "idle"); ) {
  if (Date.now() > until) throw new Error("the server's IDLE session did not start within 60 s");
  await Bun.sleep(50);
}
// The interval job's first run comes a few seconds after start; the next in an hour.
await Bun.sleep(8_000);
const bareIdle = new ImapFlow({ host: "127.0.0.1", port: dovecot.port, secure: false, doSTARTTLS: false, auth: { user: USER.login, pass: USER.password }, logger: false });
await bareIdle.connect();
await bareIdle.mailboxOpen("INBOX", { readOnly: true });
let bareSeen: (() => void) | null = null;
bareIdle.on("exists", (e: { count: number; prevCount: number }) => {
  if (e.count > e.prevCount) bareSeen?.();
});
void bareIdle.idle().catch(() => {});
log("");
log(`IDLE latency: a server with DEALGRAPH_SYNC_INTERVAL_SECONDS=3600 (only IDLE brings mail in early), ${IDLE_PROBES} messages from new people, who-knows polled until each shows`);
const idleDelays: number[] = [];
const bareDelays: number[] = [];
for (let i = 0; i < IDLE_PROBES; i++) {
  const domain = `idleco${i}-${Date.now()}.example`;
  const bareArrived = new Promise<number>((resolve) => (bareSeen = () => resolve(performance.now())));
  const t0 = performance.now();
  dovecot.deliver(USER.login, "INBOX", [message({ from: `Founder ${i} <founder@${domain}>`, to: USER.login, date: new Date(Date.now() - 60_000).toISOString(), id: `idle-${i}-${Date.now()}@${domain}` })]);
  for (;;) {
    const r = await fetch(`${idleServer.url}/api/v1/network/who-knows?domain=${domain}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await r.json()) as { paths: unknown[] };
    if (body.paths.length > 0) break;
    if (performance.now() - t0 > 120_000) throw new Error(`who-knows did not show ${domain} within 120 s`);
    await Bun.sleep(25);
  }
  idleDelays.push((performance.now() - t0) / 1000);
  bareDelays.push(((await Promise.race([bareArrived, Bun.sleep(30_000).then(() => NaN)])) - t0) / 1000);
  log(`  probe ${i + 1}: who-knows after ${idleDelays[i].toFixed(2)} s; bare IDLE client's EXISTS after ${bareDelays[i].toFixed(2)} s`);
  await Bun.sleep(500 + Math.random() * 1500);
}
const pct = (xs: number[], p: number) => {
  const sorted = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const p95 = pct(idleDelays, 95);
log(`IDLE latency, delivery to who-knows: p50 ${pct(idleDelays, 50).toFixed(2)} s, p95 ${p95.toFixed(2)} s (target p95 <= ${IDLE_TARGET_S} s: ${p95 <= IDLE_TARGET_S ? "met" : "NOT met"})`);
log(`bare imapflow IDLE, delivery to EXISTS: p50 ${pct(bareDelays, 50).toFixed(2)} s, p95 ${pct(bareDelays, 95).toFixed(2)} s; ratio dealgraph / bare: p50 ${(pct(idleDelays, 50) / pct(bareDelays, 50)).toFixed(2)}, p95 ${(p95 / pct(bareDelays, 95)).toFixed(2)}`);
await bareIdle.logout().catch(() => bareIdle.close());
await idleServer.stop();
rmSync(dir, { recursive: true, force: true });

// 4. The ledger after kill -9 rounds, on a fresh data dir over the whole mailbox.
const k = freshDeps(3600);
const { connection_id: killed } = await connectionsService(k.deps).connectMail(k.userId, { login: USER.login, password: USER.password, since: "2000-01-01" });
const total = (await imapCount()) as number;
const highWater = () => (k.deps.db.$client.query("SELECT last_uid FROM connection_folders WHERE connection_id = ? AND name = 'INBOX'").get(killed) as { last_uid: number } | null)?.last_uid ?? 0;
log("");
log(`the ledger after kill -9: ${KILL_ROUNDS} \`dealgraph sync\` children killed mid-backfill of ${fmt(total)} messages, then one that finishes`);
const killStarted = performance.now();
let reached = 0;
for (let r = 0; r < KILL_ROUNDS; r++) {
  const child = new Child([process.execPath, join(import.meta.dir, "../../src/main.ts"), "sync", "--user", k.userId, "--json", "--data-dir", k.dir], { cwd: join(import.meta.dir, "../.."), env: cleanEnv() });
  // Killed at a random point after it committed something new (at most a few seconds in).
  const wait = 500 + Math.random() * 3000;
  const t0 = performance.now();
  while ((highWater() <= reached || performance.now() - t0 < wait) && performance.now() - t0 < 120_000) await Bun.sleep(5);
  child.proc.kill("SIGKILL");
  await child.proc.exited;
  reached = highWater();
  log(`  round ${r + 1}: killed at high-water UID ${fmt(reached)}`);
}
const finish = await connectionsSync(k.deps).syncUser(k.userId);
if (finish.connections[0].status !== "ok") throw new Error(`the finishing sync failed: ${JSON.stringify(finish.connections[0])}`);
const killSeconds = (performance.now() - killStarted) / 1000;
const checks = await checkLedger(k.deps, killed);
const rows = connectionsLedger(k.deps).entries(killed);
const importedByLedger = rows.reduce((n, e) => n + e.imported, 0);
const interactions = (k.deps.db.$client.query("SELECT count(*) AS n FROM interactions").get() as { n: number }).n;
const lost = checks.reduce((n, c) => n + c.missing, 0);
const doubled = checks.reduce((n, c) => n + c.excess, 0) + Math.max(0, importedByLedger - interactions);
const inbox = checks.find((c) => c.folder === "INBOX")!;
log(`ledger check: INBOX high-water ${fmt(inbox.high_water)}, on the server ${fmt(inbox.on_server)}, counted ${fmt(inbox.counted)} over ${rows.filter((e) => e.folder === "INBOX").length} rows; imported ${fmt(importedByLedger)}, interactions ${fmt(interactions)}: lost ${lost}, double-counted ${doubled}${lost === 0 && doubled === 0 ? "" : " (NOT exact)"}`);
const bareOnce = await bareFetch(total);
log(`time through the kills and the finishing sync: ${killSeconds.toFixed(1)} s; one bare fetch of the mailbox ${(total / bareOnce).toFixed(1)} s: ratio ${(killSeconds / (total / bareOnce)).toFixed(2)}`);
k.deps.db.$client.close();
rmSync(k.dir, { recursive: true, force: true });
await dovecot.close();

/** Messages in INBOX now. */
async function imapCount(): Promise<number> {
  const client = new ImapFlow({ host: "127.0.0.1", port: dovecot!.port, secure: false, doSTARTTLS: false, auth: { user: USER.login, pass: USER.password }, logger: false, disableAutoIdle: true });
  await client.connect();
  const status = await client.status("INBOX", { messages: true });
  await client.logout();
  return (status && status.messages) || 0;
}
