// `dealgraph connections ledger` after `dealgraph sync` processes killed with -9 in the middle of a
// large folder's backfill (real Dovecot on loopback, the real CLI in a child process): after each
// kill the ledger's rows match the folder's high-water UID exactly, and once a sync finishes, the
// messages on the server (counted by a separate IMAP client) = imported + duplicates + skipped +
// failed, with every message imported once.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { Child, cleanEnv } from "../../scripts/lib/child-process.ts";
import { cli, cliIn, tempDataDir } from "../helpers/cli.ts";
import { message } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, type Dovecot } from "../helpers/mail-servers.ts";

const ROOT = join(import.meta.dir, "../..");
const DANA = { login: "dana@acme.vc", password: "kill-nine-Pa55-dana" };
let dovecot: Dovecot | null = null;
const dirs: string[] = [];

beforeAll(async () => {
  dovecot = await startDovecot({ users: [DANA] });
});
afterAll(async () => {
  await dovecot?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Row = { folder: string; uid_from: number; uid_to: number; seen: number; imported: number; duplicates: number; skipped: Record<string, number>; failed: Record<string, number> };
const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

/** Messages on the server in the folder with a UID up to `uid`, by an IMAP client of its own. */
async function onServer(folder: string, uid: number): Promise<number> {
  const client = new ImapFlow({ host: "127.0.0.1", port: dovecot!.port, secure: false, doSTARTTLS: false, auth: { user: DANA.login, pass: DANA.password }, logger: false, disableAutoIdle: true });
  await client.connect();
  try {
    const lock = await client.getMailboxLock(folder, { readOnly: true });
    try {
      return ((await client.search({ uid: `1:${uid}` }, { uid: true })) || []).filter((u) => u <= uid).length;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout();
  }
}

describe.skipIf(!hasDovecot() && process.env.CI !== "1")("the ledger after kill -9 (Dovecot, CLI)", () => {
  test("two `dealgraph sync` runs killed mid-backfill, then one that finishes: the invariant holds after each, nothing counted twice", async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const org = (await cli(dir, "admin", "org", "create", "--name", "Acme Ventures", "--json")).json.org_id as string;
    const dana = (await cli(dir, "admin", "user", "create", "--org", org, "--email", DANA.login, "--name", "Dana", "--json")).json.user_id as string;
    const N = 12_000;
    const senders = 300;
    dovecot!.deliver(
      DANA.login,
      "INBOX",
      Array.from({ length: N }, (_, i) =>
        i % 40 === 7
          ? message({ from: "Weekly <news@letters.example>", to: DANA.login, date: new Date(Date.parse("2026-06-01T00:00:00Z") + i * 600_000).toISOString(), id: `k9-${i}@letters.example`, headers: ["List-Id: <weekly.letters.example>"] })
          : message({ from: `Person ${i % senders} <p${i % senders}@corp${i % 20}.com>`, to: DANA.login, date: new Date(Date.parse("2026-06-01T00:00:00Z") + i * 600_000).toISOString(), id: `k9-${i}@corp.example` }),
      ),
    );
    await cli(dir, "admin", "mail-server", "set", "--org", org, "--imap", `127.0.0.1:${dovecot!.port}`, "--imap-security", "plain");
    const id = (await cliIn(dir, DANA.password, "connect", "mail", "--user", dana, "--login", DANA.login, "--since", "2026-01-01", "--json")).json.connection_id as string;

    const db = new Database(join(dir, "dealgraph.db"), { readonly: true });
    const highWater = () => db.query<{ last_uid: number }, []>("SELECT last_uid FROM connection_folders WHERE name = 'INBOX'").get()?.last_uid ?? 0;
    const ledger = async () => {
      const r = await cli(dir, "connections", "ledger", id, "--json");
      expect(r.code).toBe(0);
      expect(r.json.connection_id).toBe(id);
      return r.json.ledger as Row[];
    };
    const interactions = () => db.query<{ n: number }, []>("SELECT count(*) AS n FROM interactions").get()!.n;

    let committed = 0;
    for (let round = 1; round <= 2; round++) {
      const child = new Child([process.execPath, join(ROOT, "src/main.ts"), "sync", "--user", dana, "--json", "--data-dir", dir], { cwd: ROOT, env: cleanEnv() });
      const deadline = Date.now() + 60_000;
      // Killed once it has committed at least one batch past where the last one stopped.
      while (highWater() <= committed && Date.now() < deadline) await Bun.sleep(5);
      child.proc.kill("SIGKILL");
      await child.proc.exited;
      const now = highWater();
      expect(now).toBeGreaterThan(committed);
      expect(now).toBeLessThan(N);
      committed = now;
      const rows = (await ledger()).filter((r) => r.folder === "INBOX");
      // The rows and the high-water went together: they cover exactly 1..committed, each UID once.
      expect(rows).toHaveLength(round);
      expect(rows[0].uid_from).toBe(1);
      for (let i = 1; i < rows.length; i++) expect(rows[i].uid_from).toBe(rows[i - 1].uid_to + 1);
      expect(rows.at(-1)!.uid_to).toBe(committed);
      const seen = rows.reduce((n, r) => n + r.seen, 0);
      expect(seen).toBe(await onServer("INBOX", committed));
      for (const r of rows) expect(r.imported + r.duplicates + total(r.skipped) + total(r.failed)).toBe(r.seen);
      expect(rows.reduce((n, r) => n + r.imported, 0)).toBe(interactions());
    }

    const finished = await cli(dir, "sync", "--user", dana, "--json");
    expect(finished.code).toBe(0);
    const rows = (await ledger()).filter((r) => r.folder === "INBOX");
    expect(rows).toHaveLength(3);
    expect(rows.at(-1)).toMatchObject({ uid_from: committed + 1, uid_to: N });
    const counted = rows.reduce((n, r) => n + r.seen, 0);
    expect(counted).toBe(N);
    expect(await onServer("INBOX", N)).toBe(N);
    const lists = N / 40;
    expect(rows.reduce((n, r) => n + r.imported, 0)).toBe(N - lists);
    expect(rows.reduce((n, r) => n + (r.skipped.mailing_list ?? 0), 0)).toBe(lists);
    expect(rows.reduce((n, r) => n + r.duplicates + total(r.failed), 0)).toBe(0);
    expect(interactions()).toBe(N - lists);

    // Read by a person: one line per sync and folder.
    const human = await cli(dir, "connections", "ledger", id);
    expect(human.code).toBe(0);
    const lines = human.stdout.split("\n");
    // The two killed syncs' INBOX rows, then the finishing sync's INBOX and (empty) Sent.
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/  Sent  UIDVALIDITY \d+  nothing new past UID 0: 0 seen, 0 imported, 0 duplicates$/);
    expect(lines[2]).toMatch(new RegExp(`INBOX  UIDVALIDITY \\d+  UIDs ${committed + 1}-${N}: [\\d,]+ seen, [\\d,]+ imported, 0 duplicates, [\\d,]+ skipped \\(mailing_list [\\d,]+\\)$`));
    expect(human.stdout).not.toContain(DANA.password);
    // A page at a time: without --offset the latest rows, then a line saying which; --offset pages from the oldest.
    const latest = await cli(dir, "connections", "ledger", id, "--limit", "2");
    expect(latest.stdout.split("\n")).toEqual([lines[2], lines[3], "rows 3-4 of 4, oldest first (--offset N --limit N for others)"]);
    const oldest = await cli(dir, "connections", "ledger", id, "--limit", "2", "--offset", "0", "--json");
    expect(oldest.json).toMatchObject({ connection_id: id, total: 4, limit: 2, offset: 0, has_more: true });
    expect(oldest.json.ledger.map((r: Row) => r.uid_from)).toEqual([1, rows[0].uid_to + 1]);
    expect((await cli(dir, "connections", "ledger", id, "--offset", "9")).stdout).toBe(`connection ${id}: --offset 9 is past the ledger's 4 rows\n`.trimEnd());
    for (const [flag, value, said] of [["--limit", "0", /--limit must be at least 1/], ["--limit", "1001", /--limit must be at most 1,000/], ["--offset", "-1", /--offset/], ["--limit", "ten", /--limit must be a whole number/]] as const) {
      const bad = await cli(dir, "connections", "ledger", id, flag, value);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(said);
    }
    // Unknown and malformed ids.
    expect((await cli(dir, "connections", "ledger", crypto.randomUUID())).stderr).toMatch(/No connection with id/);
    expect((await cli(dir, "connections", "ledger", "nope")).stderr).toMatch(/No connection with id nope/);
    db.close();
  }, 180_000);
});
