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
//
//   bun scripts/bench/mail-sync.ts [--messages 50000] [--rounds 2] [--interval 10] [--probes 3]
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
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../src/modules/connections/connections.sync.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { message } from "../../test/helpers/import-files.ts";
import { freePort, startDovecot } from "../../test/helpers/mail-servers.ts";

const { values } = parseArgs({ options: { messages: { type: "string" }, rounds: { type: "string" }, interval: { type: "string" }, probes: { type: "string" } } });
const N = Number(values.messages ?? 50_000);
const ROUNDS = Number(values.rounds ?? 2);
const INTERVAL = Number(values.interval ?? 10);
const PROBES = Number(values.probes ?? 3);
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
async function bareFetch(): Promise<number> {
  const client = new ImapFlow({ host: "127.0.0.1", port: dovecot!.port, secure: false, doSTARTTLS: false, auth: { user: USER.login, pass: USER.password }, logger: false, disableAutoIdle: true });
  await client.connect();
  const lock = await client.getMailboxLock("INBOX", { readOnly: true });
  const t0 = performance.now();
  let n = 0;
  for await (const m of client.fetch("1:*", { uid: true, headers: true }, { uid: true })) if (m.headers) n++;
  const seconds = (performance.now() - t0) / 1000;
  lock.release();
  await client.logout();
  if (n !== N) throw new Error(`the bare fetch saw ${n} messages, not ${N}`);
  return n / seconds;
}

function freshDeps(): { deps: Deps; dir: string; userId: string; orgId: string } {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-mailsync-"));
  const config = loadConfig({ DEALGRAPH_SYNC_INTERVAL_SECONDS: String(INTERVAL) }, { dataDir: dir });
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
rmSync(dir, { recursive: true, force: true });
await dovecot.close();
