// The admin command line of CONTRACT.md, run in process on a real data dir, and the keys it
// prints used against the real app on the same database.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const dir = () => {
  const d = tempDataDir();
  dirs.push(d);
  return d;
};

async function me(dataDir: string, secret: string) {
  const sqlite = openSqlite(join(dataDir, "dealgraph.db"), { busyTimeoutMs: 1000 });
  try {
    const app = createApp(createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), log: silentLog }));
    const res = await app.handle(new Request("http://localhost/api/v1/me", { headers: { authorization: `Bearer ${secret}` } }));
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  } finally {
    sqlite.close();
  }
}

describe("admin org|user|key", () => {
  test("--json prints one object per created thing; the printed key works at once", async () => {
    const d = dir();
    const org = await cli(d, "admin", "org", "create", "--name", "Acme Ventures", "--json");
    expect(org.code).toBe(0);
    expect(Object.keys(org.json)).toEqual(["org_id"]);
    const user = await cli(d, "admin", "user", "create", "--org", org.json.org_id, "--email", "Ann@Acme.vc", "--name", "Ann", "--share-network", "--json");
    expect(Object.keys(user.json)).toEqual(["user_id"]);
    const key = await cli(d, "admin", "key", "create", "--user", user.json.user_id, "--scope", "read", "--json");
    expect(Object.keys(key.json).sort()).toEqual(["key_id", "secret"]);
    expect(key.json.secret).toMatch(/^ak_/);
    const res = await me(d, key.json.secret);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: "ann@acme.vc", share_network: true });
    expect(res.body.org.org_id).toBe(org.json.org_id);
  });

  test("human output without --json; the secret is shown once and only its hash is stored", async () => {
    const d = dir();
    const org = await cli(d, "admin", "org", "create", "--name", "Acme");
    expect(org.stdout).toMatch(/^created organization Acme: [0-9a-f-]{36}$/);
    const orgId = org.stdout.split(": ")[1];
    const user = (await cli(d, "admin", "user", "create", "--org", orgId, "--email", "a@acme.vc", "--name", "A", "--json")).json.user_id;
    const key = await cli(d, "admin", "key", "create", "--user", user, "--scope", "write");
    const secret = /secret \(shown once, store it now\): (ak_\S+)/.exec(key.stdout)![1];
    const sqlite = openSqlite(join(d, "dealgraph.db"), { busyTimeoutMs: 100 });
    const dump = JSON.stringify(sqlite.query("SELECT * FROM api_keys").all());
    sqlite.close();
    expect(dump).not.toContain(secret);
    expect(dump).toContain(new Bun.CryptoHasher("sha256").update(secret).digest("hex"));
  });

  test("a user in no organization gets keys whose every request is 403", async () => {
    const d = dir();
    const user = await cli(d, "admin", "user", "create", "--no-org", "--email", "x@y.com", "--name", "X", "--json");
    expect(user.code).toBe(0);
    const key = await cli(d, "admin", "key", "create", "--user", user.json.user_id, "--scope", "write", "--json");
    expect((await me(d, key.json.secret)).status).toBe(403);
  });

  test("share on|off flips the network-sharing opt-in", async () => {
    const d = dir();
    const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
    const user = (await cli(d, "admin", "user", "create", "--org", org, "--email", "s@a.vc", "--name", "S", "--json")).json.user_id;
    const key = (await cli(d, "admin", "key", "create", "--user", user, "--scope", "read", "--json")).json.secret;
    expect((await me(d, key)).body.user.share_network).toBe(false);
    expect((await cli(d, "admin", "user", "share", "--user", user, "on")).code).toBe(0);
    expect((await me(d, key)).body.user.share_network).toBe(true);
    expect((await cli(d, "admin", "user", "share", "--user", user, "off")).code).toBe(0);
    expect((await me(d, key)).body.user.share_network).toBe(false);
  });

  test("key budgets and expiry from the command line", async () => {
    const d = dir();
    const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
    const user = (await cli(d, "admin", "user", "create", "--org", org, "--email", "b@a.vc", "--name", "B", "--json")).json.user_id;
    const key = (
      await cli(d, "admin", "key", "create", "--user", user, "--scope", "read", "--daily-requests", "2", "--daily-actions", "9", "--expires-at", "2099-01-01T00:00:00Z", "--json")
    ).json;
    const first = await me(d, key.secret);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.body.key).toMatchObject({ expires_at: "2099-01-01T00:00:00.000Z", usage_today: { actions: { limit: 9 } } });
    await me(d, key.secret);
    expect((await me(d, key.secret)).status).toBe(429);
  });

  test("an expiry as a plain day (midnight UTC) or a timestamp with an offset; a budget at the maximum", async () => {
    const d = dir();
    const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
    const user = (await cli(d, "admin", "user", "create", "--org", org, "--email", "e@a.vc", "--name", "E", "--json")).json.user_id;
    const day = (await cli(d, "admin", "key", "create", "--user", user, "--scope", "read", "--expires-at", "2099-02-28", "--daily-requests", "10000000", "--json")).json;
    const first = await me(d, day.secret);
    expect(first.body.key.expires_at).toBe("2099-02-28T00:00:00.000Z");
    expect(first.headers.get("x-ratelimit-limit")).toBe("10000000");
    const offset = (await cli(d, "admin", "key", "create", "--user", user, "--scope", "read", "--expires-at", "2099-03-01T09:30:00+02:00", "--json")).json;
    expect((await me(d, offset.secret)).body.key.expires_at).toBe("2099-03-01T07:30:00.000Z");
  });

  test("revoke is immediate; rotate prints the new secret and the old key's end", async () => {
    const d = dir();
    const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
    const user = (await cli(d, "admin", "user", "create", "--org", org, "--email", "c@a.vc", "--name", "C", "--json")).json.user_id;
    const a = (await cli(d, "admin", "key", "create", "--user", user, "--scope", "read", "--json")).json;
    const b = (await cli(d, "admin", "key", "create", "--user", user, "--scope", "read", "--json")).json;
    expect((await cli(d, "admin", "key", "revoke", a.key_id)).code).toBe(0);
    expect((await me(d, a.secret)).status).toBe(401);
    const rotated = await cli(d, "admin", "key", "rotate", b.key_id, "--overlap-hours", "1", "--json");
    expect(rotated.code).toBe(0);
    // (plain assertions: Bun's toMatchObject with asymmetric matchers rewrites the object it checks)
    expect(rotated.json.previous_key_id).toBe(b.key_id);
    expect(rotated.json.key_id).not.toBe(b.key_id);
    expect(rotated.json.secret).toMatch(/^ak_/);
    expect(new Date(rotated.json.previous_expires_at).getTime() - Date.now()).toBeGreaterThan(3500_000);
    expect((await me(d, rotated.json.secret)).status).toBe(200);
    expect((await me(d, b.secret)).status).toBe(200);
    const list = await cli(d, "admin", "key", "list", "--user", user, "--json");
    expect(list.json.keys.map((k: { status: string }) => k.status).sort()).toEqual(["active", "active", "revoked"]);
  });
});

describe("bad command lines: one line on stderr, a non-zero exit, nothing on stdout", () => {
  const cases: [string, string[], number, RegExp][] = [
    ["unknown command", ["frobnicate"], 2, /unknown command "frobnicate"/],
    ["unknown option", ["admin", "org", "create", "--name", "A", "--colour"], 2, /Unknown option '--colour'/],
    ["missing name", ["admin", "org", "create"], 2, /--name is required/],
    ["both --org and --no-org", ["admin", "user", "create", "--org", "x", "--no-org", "--email", "a@b.c", "--name", "A"], 2, /exactly one of --org/],
    ["bad scope", ["admin", "key", "create", "--user", "u", "--scope", "admin"], 2, /--scope must be read or write/],
    ["bad budget", ["admin", "key", "create", "--user", "u", "--scope", "read", "--daily-requests=-5"], 2, /--daily-requests must be a whole number/],
    ["a budget that looks like an option", ["admin", "key", "create", "--user", "u", "--scope", "read", "--daily-requests", "-5"], 2, /ambiguous/],
    ["bad expiry", ["admin", "key", "create", "--user", "u", "--scope", "read", "--expires-at", "tomorrow"], 2, /--expires-at must be an ISO 8601/],
    ["a day that does not exist", ["admin", "key", "create", "--user", "u", "--scope", "read", "--expires-at", "2027-02-30"], 2, /--expires-at must be an ISO 8601 date \(a real day/],
    ["a timestamp on a day that does not exist", ["admin", "key", "create", "--user", "u", "--scope", "read", "--expires-at", "2027-04-31T10:00:00Z"], 2, /--expires-at must be/],
    ["an hour that does not exist", ["admin", "key", "create", "--user", "u", "--scope", "read", "--expires-at", "2027-03-01T24:30:00Z"], 2, /--expires-at must be/],
    ["a timestamp without a zone", ["admin", "key", "create", "--user", "u", "--scope", "read", "--expires-at", "2027-03-01T09:00"], 2, /with a zone/],
    ["an absurd daily budget", ["admin", "key", "create", "--user", "u", "--scope", "read", "--daily-actions", "99999999999999999999"], 2, /--daily-actions must be/],
    ["a daily budget over the maximum", ["admin", "key", "create", "--user", "u", "--scope", "read", "--daily-requests", "10000001"], 2, /--daily-requests must be at most 10,000,000/],
    ["a budget in exponent notation", ["admin", "key", "create", "--user", "u", "--scope", "read", "--daily-requests", "1e3"], 2, /--daily-requests must be a whole number/],
    ["unknown org", ["admin", "user", "create", "--org", "0199a0a0-0000-7000-8000-000000000000", "--email", "a@b.co", "--name", "A"], 1, /No organization with id/],
    ["unknown user", ["admin", "key", "create", "--user", "nobody", "--scope", "read"], 1, /No user with id nobody/],
    ["not an email", ["admin", "user", "create", "--no-org", "--email", "not-an-email", "--name", "A"], 1, /Not an email address/],
    ["unknown key to revoke", ["admin", "key", "revoke", "nope"], 1, /No API key with id nope/],
    ["bad share state", ["admin", "user", "share", "--user", "u", "maybe"], 2, /on\|off/],
    ["unknown job", ["jobs", "run", "nope"], 2, /unknown job "nope"; known: key-usage-prune/],
  ];
  for (const [name, argv, code, message] of cases) {
    test(name, async () => {
      const d = dir();
      const res = await cli(d, ...argv);
      expect(res.code).toBe(code);
      expect(res.stderr).toMatch(/^error: /);
      expect(res.stderr.split("\n").length).toBe(1);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe("");
    });
  }

  test("a duplicate email is refused and the first user is unchanged", async () => {
    const d = dir();
    const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
    expect((await cli(d, "admin", "user", "create", "--org", org, "--email", "d@a.vc", "--name", "D")).code).toBe(0);
    const dup = await cli(d, "admin", "user", "create", "--no-org", "--email", "D@A.VC", "--name", "Other");
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
  });

  test("a bad setting in the environment stops the command with its name", async () => {
    const { captureIo } = await import("../helpers/cli.ts");
    const { runCli } = await import("../../src/cli/index.ts");
    const { io, err } = captureIo({ DEALGRAPH_STALE_RUN_SECONDS: "soon" });
    expect(await runCli(["admin", "org", "create", "--name", "A", "--data-dir", dir()], io)).toBe(2);
    expect(err.join("\n")).toMatch(/DEALGRAPH_STALE_RUN_SECONDS must be/);
  });
});

describe("jobs list|run", () => {
  test("lists the registered jobs with their schedule and runs one now", async () => {
    const d = dir();
    const list = await cli(d, "jobs", "list", "--json");
    expect(list.json.jobs).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: "key-usage-prune", pattern: "17 3 * * *", next_run: expect.stringMatching(/T03:17:00/) })]),
    );
    const run = await cli(d, "jobs", "run", "key-usage-prune", "--json");
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ job: "key-usage-prune", result: { deleted: 0 } });
  });
});
