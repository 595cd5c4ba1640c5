// Upgrades: `serve` on a data dir an earlier release made. Every fixture under test/fixtures/ (made
// by scripts/make-datadir-fixture.ts with the release of its name, one per release that changed the
// schema) must open and serve with every later release; a data dir with pending migrations gets a backup before anything changes; and a
// migration that fails leaves the database as it was, saying which one failed.
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrations } from "../../migrations/index.ts";
import { runCli } from "../../src/cli/index.ts";
import { serveCommand, type Running } from "../../src/cli/serve.ts";
import { applyMigrations, MigrationError } from "../../src/db/migrate.ts";
import { blobPath } from "../../src/lib/blobs.ts";
import { backupsDir } from "../../src/modules/backups/backups.service.ts";
import { captureIo, cli, tempDataDir } from "../helpers/cli.ts";
import { dumpDatabase, FIXTURES, loadDataDirFixture } from "../helpers/datadir-fixture.ts";

const EVERY_FIXTURE = readdirSync(FIXTURES).filter((n) => n.startsWith("datadir-")).sort();
// The failure cases start from the oldest: it has the most migrations pending.
const OLDEST = EVERY_FIXTURE[0];
const dirs: string[] = [];
let running: Running | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fixtureDir(fixture = OLDEST) {
  const dir = tempDataDir();
  dirs.push(dir);
  return { dir, ...loadDataDirFixture(fixture, dir) };
}

/** The whole database as SQL text: equal dumps, equal databases. */
function dumpOf(dir: string): string {
  const sqlite = new Database(join(dir, "dealgraph.db"), { readonly: true });
  try {
    return dumpDatabase(sqlite);
  } finally {
    sqlite.close();
  }
}

async function serve(dir: string) {
  const { io, err } = captureIo();
  running = await serveCommand(["--port", "0", "--data-dir", dir], io);
  return { url: running.url, err };
}

describe.each(EVERY_FIXTURE)("the data dir made by an earlier release (%s)", (fixture) => {
  test("opens and serves: the same keys, records, files and sealed secrets", async () => {
    const { dir, facts } = fixtureDir(fixture);
    const { url } = await serve(dir);
    const get = (path: string, key = facts.keys.write) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(((await (await get("/api/v1/me", facts.keys.read)).json()) as any).user.email).toBe("gp@fixture.vc");
    expect((await get(`/api/v1/deals/${facts.deal_id}`)).status).toBe(200);
    expect((await get(`/api/v1/webhooks/${facts.webhook.id}`)).status).toBe(200);
    expect(Bun.file(blobPath(dir, facts.deck_sha256)).size).toBeGreaterThan(0);
    // The fixture's key opens what it sealed.
    const sealed = new Database(join(dir, "dealgraph.db"), { readonly: true });
    const row = sealed.query<{ secret_enc: string }, [string]>("SELECT secret_enc FROM webhook_endpoints WHERE id = ?").get(facts.webhook.id)!;
    sealed.close();
    const { createSecretBox } = await import("../../src/lib/secret-box.ts");
    const { purposeKey, SECRET_BOX_PURPOSE } = await import("../../src/lib/server-key.ts");
    const master = new Uint8Array(Buffer.from((await Bun.file(join(dir, "secret.key")).text()).trim(), "base64"));
    expect(await createSecretBox(() => purposeKey(master, SECRET_BOX_PURPOSE)).decrypt(row.secret_enc, facts.webhook.id)).toBe(facts.webhook.secret);
    // A release newer than the fixture backs it up before migrating it; the same release has nothing to do.
    const current = [...migrations.map((m) => m.tag)];
    const upgraded = current.some((tag) => !facts.made_with.includes(tag));
    expect(readdirSync(dir).includes("backups") && readdirSync(backupsDir(dir)).some((n) => n.endsWith("-pre-upgrade.tar.gz"))).toBe(upgraded);
  });
});

describe("serve on a data dir with pending migrations", () => {
  test("writes a backup first (of the database as it was), then applies every pending migration", async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const older = migrations.slice(0, migrations.length - 3);
    const sqlite = new Database(join(dir, "dealgraph.db"), { create: true });
    applyMigrations(sqlite, new Date(), { migrations: older, dataSteps: [] });
    sqlite.query("INSERT INTO orgs (id, name, created_at) VALUES ('org_old', 'Older Capital', '2025-01-01T00:00:00.000Z')").run();
    sqlite.close();

    await serve(dir);
    const archives = readdirSync(backupsDir(dir)).filter((n) => n.endsWith(".tar.gz"));
    expect(archives).toEqual([expect.stringMatching(/^dealgraph-\d{8}T\d{6}Z-pre-upgrade\.tar\.gz$/)]);
    const live = new Database(join(dir, "dealgraph.db"), { readonly: true });
    expect(live.query("SELECT COUNT(*) AS n FROM _migrations").get()).toEqual({ n: migrations.length + 1 });
    expect(live.query("SELECT name FROM orgs").all()).toEqual([{ name: "Older Capital" }]);
    live.close();

    // The backup holds the older schema: restored, it is the data dir as it was before the upgrade.
    const restored = join(tempDataDir(), "restored");
    dirs.push(restored);
    const r = await cli(restored, "restore", join(backupsDir(dir), archives[0]), "--json");
    expect(r.code, r.stderr).toBe(0);
    const old = new Database(join(restored, "dealgraph.db"), { readonly: true });
    expect(old.query("SELECT tag FROM _migrations ORDER BY tag").all().map((x: any) => x.tag)).toEqual(older.map((m) => m.tag));
    expect(old.query("SELECT name FROM orgs").all()).toEqual([{ name: "Older Capital" }]);
    old.close();
  });

  test("a migration that fails leaves the data dir as it was and says which one failed (real `serve`)", async () => {
    const { dir } = fixtureDir();
    // The ledger forgets the fixture's last SQL migration, whose columns exist: applying it again fails.
    const sqlite = new Database(join(dir, "dealgraph.db"));
    const last = sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations WHERE tag NOT LIKE 'js:%' ORDER BY tag DESC LIMIT 1").get()!.tag;
    sqlite.query("DELETE FROM _migrations WHERE tag = ?").run(last);
    sqlite.close();
    const before = dumpOf(dir);
    const { io, err } = captureIo();
    expect(await runCli(["serve", "--port", "0", "--data-dir", dir], io)).toBe(1);
    const said = err.join("\n");
    expect(said).toContain(`error: migration ${last} failed:`);
    expect(said).toContain("Nothing was applied: the database is as it was");
    expect(dumpOf(dir)).toBe(before);
    // The backup written before the attempt is there; and the data dir is free for the next start.
    expect(readdirSync(backupsDir(dir)).filter((n) => n.endsWith("-pre-upgrade.tar.gz"))).toHaveLength(1);
    expect(readdirSync(dir)).not.toContain("serve.pid");
  });

  test("all pending migrations are one transaction: one failing after others succeeded undoes them all", () => {
    const { dir } = fixtureDir();
    const before = dumpOf(dir);
    const sqlite = new Database(join(dir, "dealgraph.db"));
    // What the fixture's release had not applied yet is pending too, before the two extra ones.
    const applied = new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag));
    const newer = migrations.filter((m) => !applied.has(m.tag)).map((m) => m.tag);
    const extra = [
      { tag: "9998_would_succeed", sql: "CREATE TABLE upgrade_probe (id TEXT PRIMARY KEY);\n--> statement-breakpoint\nINSERT INTO upgrade_probe VALUES ('x');" },
      { tag: "9999_fails", sql: "ALTER TABLE no_such_table ADD COLUMN y TEXT;" },
    ];
    let failure: unknown = null;
    try {
      applyMigrations(sqlite, new Date(), { migrations: [...migrations, ...extra] });
    } catch (error) {
      failure = error;
    }
    sqlite.close();
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as MigrationError).tag).toBe("9999_fails");
    expect((failure as Error).message).toContain("migration 9999_fails failed: no such table: no_such_table");
    const pending = [...newer, "9998_would_succeed", "9999_fails"];
    expect((failure as Error).message).toContain(`${pending.length} pending: ${pending.join(", ")}`);
    expect(dumpOf(dir)).toBe(before);
  });
});
