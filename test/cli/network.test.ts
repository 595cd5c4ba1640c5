import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { knows, thread } from "../helpers/network.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("network cadence and snooze set and clear a user's settings for one contact", async () => {
  const d = tempDataDir();
  dirs.push(d);
  const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
  const user = (await cli(d, "admin", "user", "create", "--org", org, "--email", "u@a.vc", "--name", "U", "--json")).json.user_id;
  const sqlite = openSqlite(join(d, "dealgraph.db"), { busyTimeoutMs: 1000 });
  const deps = createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), log: silentLog });
  knows(deps, user, { email: "pat@b.com", name: "Pat" }, thread(3, 10, 5));
  const read = () => sqlite.query<{ d: number | null; s: string | null }, []>("SELECT declared_cadence_days AS d, snoozed_until AS s FROM relationships").get()!;

  const set = await cli(d, "network", "cadence", "--user", user, "--contact", "PAT@b.com", "--days", "14", "--json");
  expect(set.code).toBe(0);
  expect(set.json).toEqual({ declared_cadence_days: 14 });
  expect(read().d).toBe(14);
  expect((await cli(d, "network", "cadence", "--user", user, "--contact", "pat@b.com", "--days", "0")).stdout).toMatch(/cleared/);
  expect(read().d).toBeNull();
  const snooze = await cli(d, "network", "snooze", "--user", user, "--contact", "pat@b.com", "--until", "2027-01-15", "--json");
  expect(snooze.json).toEqual({ snoozed_until: "2027-01-15T00:00:00.000Z" });
  expect(read().s).toBe("2027-01-15T00:00:00.000Z");

  for (const [argv, code, message] of [
    [["network", "cadence", "--user", user, "--contact", "pat@b.com", "--days=-3"], 2, /--days must be a whole number/],
    [["network", "cadence", "--user", user, "--contact", "pat@b.com", "--days", "weekly"], 2, /--days must be a whole number/],
    [["network", "cadence", "--user", user, "--contact", "stranger@b.com", "--days", "7"], 1, /No relationship/],
    [["network", "snooze", "--user", user, "--contact", "pat@b.com", "--until", "soon"], 1, /Not a date/],
    [["network", "snooze", "--user", user, "--contact", "pat@b.com", "--until", "2026-02-31"], 1, /^error: until: Not a date: "2026-02-31" \(give a calendar day YYYY-MM-DD/],
    [["network", "snooze", "--user", user, "--contact", "pat@b.com"], 2, /--until is required/],
    [["network", "forget"], 2, /usage: dealgraph network/],
  ] as const) {
    const res = await cli(d, ...argv);
    expect(res.code, argv.join(" ")).toBe(code);
    expect(res.stderr).toMatch(message);
  }
  expect(read().s).toBe("2027-01-15T00:00:00.000Z"); // the refused snoozes changed nothing
  sqlite.close();
});

test("`admin user share off` withdraws at once the reach candidates that rest on that teammate's mail", async () => {
  const d = tempDataDir();
  dirs.push(d);
  const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
  const maya = (await cli(d, "admin", "user", "create", "--org", org, "--email", "maya@a.vc", "--name", "Maya", "--json")).json.user_id;
  const omar = (await cli(d, "admin", "user", "create", "--org", org, "--email", "omar@a.vc", "--name", "Omar", "--share-network", "--json")).json.user_id;
  const key = (await cli(d, "admin", "key", "create", "--user", maya, "--scope", "read", "--json")).json.secret;
  const sqlite = openSqlite(join(d, "dealgraph.db"), { busyTimeoutMs: 1000 });
  const deps = createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}, { dataDir: d }), log: silentLog });
  const proxy = { email: "jane@bank.com", name: "Jane Proxy" };
  knows(deps, maya, proxy, thread(16, 6, 2));
  // Only Omar's mail shows Jane with the founder.
  const founder = { email: "sam@startup.io", name: "Sam Founder", title: "Founder" };
  knows(deps, omar, proxy, thread(2, 30, 10, ["received"]), [founder]);
  expect((await cli(d, "jobs", "run", "reach-candidates")).code).toBe(0);
  const app = createApp(deps);
  const names = async () => {
    const res = await app.handle(new Request("http://localhost/api/v1/network/reach/candidates", { headers: { authorization: `Bearer ${key}` } }));
    return ((await res.json()) as { candidates: { full_name: string }[] }).candidates.map((c) => c.full_name);
  };
  expect(await names()).toEqual(["Sam Founder"]);
  expect((await cli(d, "admin", "user", "share", "--user", omar, "off")).code).toBe(0);
  expect(await names()).toEqual([]);
  sqlite.close();
});
