// Damage anywhere in an archive's compressed stream is refused, with a reason that says so: each
// gzip member's CRC-32 and length, else the entry's sha256, the tar headers or the JSON entries
// show it (a damaged member header or deflate block can decode into other bytes). 64 bytes are
// flipped at every 97th byte of a small real archive's structure and every 2,999th of its bulk, and
// each copy is read as `backup verify` does.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { readArchive } from "../../src/modules/backups/backups.read.ts";
import { createBackup } from "../../src/modules/backups/backups.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { tempDataDir } from "../helpers/cli.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("64 flipped bytes at any place of the compressed stream: the archive is refused as corrupted, damaged or truncated", async () => {
  const dir = tempDataDir();
  const work = tempDataDir();
  dirs.push(dir, work);
  const config = loadConfig({}, { dataDir: dir });
  const { db } = openDataDir(config);
  const orgs = orgsService(createDeps({ db, config, log: silentLog }));
  const org = orgs.createOrg("Damage Ventures");
  for (let i = 0; i < 50; i++) orgs.createUser({ orgId: org.id, email: `p${i}@damage.vc`, name: `Partner ${i}` });
  db.$client.close();
  const { file } = await createBackup({ config, now: new Date(), out: join(work, "a.tar.gz") });
  expect((await readArchive(file, { workDir: work })).problems).toEqual([]);

  const whole = readFileSync(file);
  const damaged = join(work, "x.tar.gz");
  const answers: string[] = [];
  // Every 97th byte of the structure (the gzip header, the first entries, the manifest and the
  // trailer; each stored block's header, every 65,540 bytes when the member is stored), every 2,999th
  // of the bulk between (a stored member's data is the database's bytes).
  const spots = new Set<number>();
  for (let at = 0; at + 64 <= whole.length; at += 97) if (at < 8_000 || at > whole.length - 8_000) spots.add(at);
  for (let at = 8_000; at + 64 <= whole.length - 8_000; at += 2_999) spots.add(at);
  for (let h = 10; h < whole.length; h += 65_540) for (let at = Math.max(0, h - 60); at <= h + 5 && at + 64 <= whole.length; at += 13) spots.add(at);
  for (const at of [...spots].sort((a, b) => a - b)) {
    const b = Buffer.from(whole);
    for (let i = 0; i < 64; i++) b[at + i] ^= 0xff;
    writeFileSync(damaged, b);
    const { problems } = await readArchive(damaged, { workDir: work });
    answers.push(`${at}: ${problems.join("; ") || "no problem found"}`);
  }
  expect(answers.length).toBeGreaterThan(50);
  expect(answers.filter((a) => !/corrupted|damaged|truncated/.test(a))).toEqual([]);
});
