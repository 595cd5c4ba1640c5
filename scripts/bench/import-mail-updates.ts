// What reading investor updates costs a big `dealgraph import mail` (issue 30): the benchmark
// mailbox of scripts/bench/network-import.ts (--messages, 100,000 by default) with --updates
// founders' updates appended, imported the way the CLI does it
//   - before: with the deals module's inbox hook only (the import before updates were read)
//   - after:  with the updates module's hook added (withInvestorUpdates), and its reading after
//             the import (complete(): every wanted message parsed, updates applied)
// each into a fresh data dir whose firm holds --holdings companies. Two books of holdings:
// "typical", the domains of --holdings correspondents picked across the mailbox, and "heavy", the
// --holdings domains that send the most mail in it (every message from them is read whole).
// Runs alternate before/after, best of --repeat each; the ratio is after's time over before's.
//
//   bun scripts/bench/import-mail-updates.ts [--messages 100000] [--updates 200] [--holdings 20] [--repeat 2]
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { writeMailbox } from "../../src/demo/network.ts";
import { silentLog } from "../../src/lib/log.ts";
import { inboxVerification } from "../../src/modules/deals/deals.verification.inbox.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { mailboxes } from "../../src/modules/network/import/headers.ts";
import { readMbox } from "../../src/modules/network/import/mbox.ts";
import { importMail } from "../../src/modules/network/import/network.import.ts";
import { portfolioImporter } from "../../src/modules/portfolio/portfolio.import.ts";
import { withInvestorUpdates } from "../../src/modules/updates/updates.inbox.ts";

const { values } = parseArgs({ options: { messages: { type: "string" }, updates: { type: "string" }, holdings: { type: "string" }, repeat: { type: "string" } } });
const MESSAGES = Number(values.messages ?? 100_000);
const UPDATES = Number(values.updates ?? 200);
const HOLDINGS = Number(values.holdings ?? 20);
const REPEAT = Number(values.repeat ?? 2);
const me = { name: "Maya Okafor", email: "maya@northwind.vc" };

const dir = mkdtempSync(join(tmpdir(), "dealgraph-import-updates-bench-"));
try {
  const mbox = join(dir, "sample.mbox");
  const written = writeMailbox(mbox, { now: new Date(), messages: MESSAGES, me });

  // Senders' domains by the mail they send (the firm's own left out).
  const byDomain = new Map<string, number>();
  readMbox(mbox, (block) => {
    const from = mailboxes(block, "from")[0]?.email;
    const domain = from?.slice(from.lastIndexOf("@") + 1);
    if (domain && domain !== "northwind.vc" && domain.includes(".")) byDomain.set(domain, (byDomain.get(domain) ?? 0) + 1);
  });
  const ranked = [...byDomain.entries()].sort((a, b) => b[1] - a[1]);
  const books = {
    typical: Array.from({ length: HOLDINGS }, (_, i) => ranked[Math.floor(((i + 0.5) * ranked.length) / HOLDINGS)]),
    heavy: ranked.slice(0, HOLDINGS),
  };

  // Founders' updates from the typical book's domains, after the mailbox (one a month per holding).
  const updates: string[] = [];
  for (let i = 0; i < UPDATES; i++) {
    const domain = books.typical[i % HOLDINGS][0];
    const month = new Date(Date.UTC(2024, Math.floor(i / HOLDINGS), 1));
    const name = month.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
    updates.push(
      `From founder@${domain} Mon Jan  1 00:00:00 2024`,
      `From: Founder <founder@${domain}>`,
      `To: ${me.name} <${me.email}>`,
      `Subject: ${name} update`,
      `Date: ${new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 4)).toUTCString()}`,
      `Message-ID: <update-${i}@${domain}>`,
      "",
      `${name} update`,
      `ARR: $${1000 + i}k`,
      `Cash: $${3000 + i}k`,
      `Headcount: ${20 + (i % 7)}`,
      "",
    );
  }
  appendFileSync(mbox, updates.join("\n"));

  const csv = (domains: [string, number][]) =>
    "name,website,sector,stage,status,fund_name,holding_type,investment_date\n" + domains.map(([d], i) => `Holding ${i + 1},${d},Software,seed,active,Fund I,direct_company,2020-01-01`).join("\n") + "\n";

  let run = 0;
  async function once(book: [string, number][], withUpdates: boolean) {
    const config = loadConfig({}, { dataDir: join(dir, `data-${run++}`) });
    const { db } = openDataDir(config);
    const deps = createDeps({ db, config, log: silentLog });
    const orgs = orgsService(deps);
    const org = orgs.createOrg("Northwind Ventures");
    const user = orgs.createUser({ orgId: org.id, email: me.email, name: me.name });
    portfolioImporter(deps).importPortfolio(org.id, { name: "p.csv", text: csv(book) });
    const verification = inboxVerification(deps).mailInbox(org.id);
    const started = performance.now();
    let report = null;
    if (withUpdates) {
      const inbox = withInvestorUpdates(deps, { orgId: org.id, userId: user.id }, verification, "import");
      importMail(deps, { userId: user.id, path: mbox, inbox: inbox.hook, wantsWhole: inbox.wantsWhole });
      await inbox.complete();
      report = inbox.report;
    } else {
      importMail(deps, { userId: user.id, path: mbox, inbox: verification.hook });
      await verification.complete();
    }
    const seconds = (performance.now() - started) / 1000;
    db.$client.close();
    rmSync(config.dataDir, { recursive: true, force: true });
    return { seconds, report };
  }

  const total = written.messages + UPDATES;
  console.log(`sample: ${total.toLocaleString("en-US")} messages (${UPDATES} updates appended), ${(written.bytes / 1e6).toFixed(1)} MB; ${HOLDINGS} holdings per book`);
  for (const [name, book] of Object.entries(books)) {
    const sent = book.reduce((a, [, n]) => a + n, 0);
    let before = Infinity;
    let after = Infinity;
    let report = null;
    for (let r = 0; r < REPEAT; r++) {
      before = Math.min(before, (await once(book, false)).seconds);
      const a = await once(book, true);
      after = Math.min(after, a.seconds);
      report = a.report;
    }
    console.log(`${name}: the holdings' domains send ${sent.toLocaleString("en-US")} of the mailbox's messages (before the updates)`);
    console.log(`  before (no updates read): ${before.toFixed(2)} s, ${Math.round(total / before).toLocaleString("en-US")} msg/s`);
    console.log(`  after (updates read):     ${after.toFixed(2)} s, ${Math.round(total / after).toLocaleString("en-US")} msg/s; read whole ${report!.read}, ${report!.updates} updates (${report!.applied} figures applied, ${report!.needs_review} to review), ${report!.not_updates} no update`);
    console.log(`  ratio after/before:       ${(after / before).toFixed(3)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
