// Import rate of the real mail importer (issue 3: 5,000 messages/s or better, on a sample of at
// least 100,000 messages), with baselines measured in the same run on the same file:
//   - bare: reading the file in chunks and splitting it into messages (no decoding, no parsing)
//   - parse: the importer's reader and header parsing plus the relationship rules, no database
//   - import: `importMail` into a fresh data dir (one transaction, the graph writer)
//
//   bun scripts/bench/network-import.ts [--messages 100000] [--keep DIR]
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { mailSignal } from "../../src/modules/network/import/mail-signal.ts";
import { readMbox } from "../../src/modules/network/import/mbox.ts";
import { importMail } from "../../src/modules/network/import/network.import.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { writeMailbox } from "../../src/demo/network.ts";

export type ImportRateSample = {
  messages: number;
  bytes: number;
  seconds: number;
  perSecond: number;
  /** Reading and splitting the same file only. */
  baselinePerSecond: number;
  /** Reading, header parsing and the relationship rules, without writing. */
  parsePerSecond: number;
  imported: number;
  skipped: number;
  duplicates: number;
};

/** Messages per second of reading the file in 1 MB chunks and finding the `From ` separators. */
function bareSplit(path: string): { messages: number; seconds: number } {
  const started = performance.now();
  const fd = openSync(path, "r");
  const chunk = Buffer.allocUnsafe(1 << 20);
  let messages = 0;
  let atLineStart = true;
  try {
    for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
      let pos = 0;
      while (pos < n) {
        // A separator split across chunks is counted by its start; good enough for a baseline.
        if (atLineStart && chunk[pos] === 70 && chunk[pos + 1] === 114 && chunk[pos + 2] === 111 && chunk[pos + 3] === 109 && chunk[pos + 4] === 32) messages++;
        const nl = chunk.indexOf(10, pos);
        if (nl === -1 || nl >= n) {
          atLineStart = false;
          break;
        }
        pos = nl + 1;
        atLineStart = true;
      }
    }
  } finally {
    closeSync(fd);
  }
  return { messages, seconds: (performance.now() - started) / 1000 };
}

export async function importRateSample(o: { messages?: number; keep?: string } = {}): Promise<ImportRateSample> {
  const wanted = Math.max(100_000, o.messages ?? 100_000);
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-import-bench-"));
  try {
    const me = { name: "Maya Okafor", email: "maya@northwind.vc" };
    const mbox = join(dir, "sample.mbox");
    const now = new Date();
    const written = writeMailbox(mbox, { now, messages: wanted, me });

    const bare = bareSplit(mbox);
    if (Math.abs(bare.messages - written.messages) > written.messages / 1000) throw new Error(`bare split found ${bare.messages} messages, ${written.messages} were written`);

    const parseStarted = performance.now();
    const own = (e: string) => e === me.email;
    readMbox(mbox, (block) => void mailSignal(block, own, now));
    const parseSeconds = (performance.now() - parseStarted) / 1000;

    const config = loadConfig({}, { dataDir: join(dir, "data") });
    const { db } = openDataDir(config);
    const deps = createDeps({ db, config, log: silentLog });
    const orgs = orgsService(deps);
    const org = orgs.createOrg("Northwind Ventures");
    const user = orgs.createUser({ orgId: org.id, email: me.email, name: me.name });
    const started = performance.now();
    const stats = importMail(deps, { userId: user.id, path: mbox });
    const seconds = (performance.now() - started) / 1000;
    db.$client.close();
    return {
      messages: stats.read,
      bytes: written.bytes,
      seconds,
      perSecond: stats.read / seconds,
      baselinePerSecond: bare.messages / bare.seconds,
      parsePerSecond: stats.read / parseSeconds,
      imported: stats.imported,
      skipped: stats.skipped,
      duplicates: stats.duplicates,
    };
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { messages: { type: "string" }, keep: { type: "string" } } });
  const s = await importRateSample({ messages: values.messages ? Number(values.messages) : undefined, keep: values.keep });
  const r = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(`sample: ${r(s.messages)} messages, ${(s.bytes / 1e6).toFixed(1)} MB (${r(s.imported)} imported, ${r(s.skipped)} skipped, ${r(s.duplicates)} duplicates)`);
  console.log(`bare read + split:        ${r(s.baselinePerSecond).padStart(10)} msg/s`);
  console.log(`read + parse + rules:     ${r(s.parsePerSecond).padStart(10)} msg/s`);
  console.log(`import (into SQLite):     ${r(s.perSecond).padStart(10)} msg/s  (${s.seconds.toFixed(2)} s; ${(s.perSecond / s.baselinePerSecond).toFixed(3)} of the bare baseline)`);
  console.log(`target >= 5,000 msg/s:    ${s.perSecond >= 5000 ? "PASS" : "MISS"}`);
}
