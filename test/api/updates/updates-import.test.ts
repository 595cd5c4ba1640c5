// `dealgraph import updates` as a child process: an mbox of updates, the import killed with
// SIGKILL midway, then run again. Each update is one transaction: whatever the kill interrupted
// left no update without its figures (nor its points and webhook event), and the rerun adds
// exactly the rest (Message-IDs): no point and no event twice.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { openDataDir } from "../../../src/db/open.ts";
import { createDeps } from "../../../src/deps.ts";
import { silentLog } from "../../../src/lib/log.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { portfolioImporter } from "../../../src/modules/portfolio/portfolio.import.ts";

const MAIN = join(import.meta.dir, "..", "..", "..", "src", "main.ts");
const MESSAGES = 400;

function mbox(): string {
  const out: string[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const month = new Date(Date.UTC(2000 + Math.floor(i / 12), i % 12, 1));
    const name = month.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
    const sent = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 4)).toUTCString();
    out.push(
      `From jane@acme.com Mon Jan  1 00:00:00 2024`,
      `From: Jane <jane@acme.com>`,
      `Subject: ${name} update`,
      `Date: ${sent}`,
      `Message-ID: <u${i}@acme.com>`,
      "",
      `${name} update`,
      `ARR: $${1000 + i}k`,
      `Cash: $${2000 + i}k`,
      "",
    );
  }
  return out.join("\n");
}

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "dealgraph-updates-import-"));
  const config = loadConfig({}, { dataDir });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, log: silentLog });
  const orgs = orgsService(deps);
  const org = orgs.createOrg("Acme Ventures");
  const user = orgs.createUser({ orgId: org.id, email: "alice@acme.vc", name: "Alice" });
  portfolioImporter(deps).importPortfolio(org.id, {
    name: "p.csv",
    text: "name,website,sector,stage,status,fund_name,holding_type,investment_date\nAcme Robotics,acme.com,Robotics,seed,active,Fund I,direct_company,2020-01-01\n",
  });
  db.$client.close();
  const file = join(dataDir, "updates.mbox");
  writeFileSync(file, mbox());
  return { dataDir, userId: user.id, file, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

const run = (s: ReturnType<typeof setup>) =>
  Bun.spawn([process.execPath, MAIN, "import", "updates", "--user", s.userId, "--data-dir", s.dataDir, s.file], { stdout: "pipe", stderr: "pipe", env: { ...process.env } });

function counts(dataDir: string) {
  const db = new Database(join(dataDir, "dealgraph.db"), { readonly: true });
  try {
    const updates = db.query<{ n: number }, []>("SELECT count(*) AS n FROM investor_updates").get()!.n;
    const figures = db.query<{ n: number }, []>("SELECT count(*) AS n FROM update_figures").get()!.n;
    const bare = db.query<{ n: number }, []>("SELECT count(*) AS n FROM investor_updates u WHERE (SELECT count(*) FROM update_figures f WHERE f.update_id = u.id) <> 2").get()!.n;
    const points = db.query<{ n: number }, []>("SELECT count(*) AS n FROM portfolio_metric_points WHERE source = 'investor_update'").get()!.n;
    // Each update's webhook event is written in its transaction: one per update, never two.
    const events = db.query<{ n: number }, []>("SELECT count(*) AS n FROM outbox_events WHERE event = 'portfolio.update.received'").get()!.n;
    return { updates, figures, bare, points, events };
  } finally {
    db.close();
  }
}

describe("import updates", () => {
  test("killed with SIGKILL midway, then run again: every update whole, each applied once", async () => {
    const s = setup();
    try {
      const child = run(s);
      // Kill once some updates are in (the import commits one update at a time).
      const deadline = Date.now() + 60_000;
      let seen = 0;
      while (Date.now() < deadline) {
        await Bun.sleep(50);
        try {
          seen = counts(s.dataDir).updates;
        } catch {
          seen = 0; // the child has not created its tables yet
        }
        if (seen >= 5) break;
      }
      child.kill("SIGKILL");
      await child.exited;
      const killed = counts(s.dataDir);
      expect(killed.updates).toBeGreaterThanOrEqual(5);
      expect(killed.updates).toBeLessThan(MESSAGES);
      expect(killed.bare).toBe(0);
      expect(killed.points).toBe(killed.figures);
      expect(killed.events).toBe(killed.updates);

      const again = run(s);
      const out = await new Response(again.stdout).text();
      expect(await again.exited).toBe(0);
      expect(out).toContain(`${MESSAGES} messages: ${MESSAGES - killed.updates} new updates`);
      expect(out).toContain(`${killed.updates} already imported`);
      expect(counts(s.dataDir)).toEqual({ updates: MESSAGES, figures: 2 * MESSAGES, bare: 0, points: 2 * MESSAGES, events: MESSAGES });
    } finally {
      s.cleanup();
    }
  }, 120_000);

  test("a file that is not mail is named with its reason; usage errors exit 2", async () => {
    const s = setup();
    try {
      const bad = join(s.dataDir, "notes.mbox");
      writeFileSync(bad, "just some text\nwithout separators\n");
      const child = Bun.spawn([process.execPath, MAIN, "import", "updates", "--user", s.userId, "--data-dir", s.dataDir, bad], { stdout: "pipe", stderr: "pipe" });
      const err = await new Response(child.stderr).text();
      expect(await child.exited).toBe(1);
      expect(err).toContain(`${bad}: not an mbox file`);
      const usage = Bun.spawn([process.execPath, MAIN, "import", "updates", "--data-dir", s.dataDir, s.file], { stdout: "pipe", stderr: "pipe" });
      expect(await new Response(usage.stderr).text()).toContain("--user is required");
      expect(await usage.exited).toBe(2);
    } finally {
      s.cleanup();
    }
  }, 60_000);
});
