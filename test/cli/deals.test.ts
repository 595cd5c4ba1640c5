// `dealgraph deals stage`: the pipeline stage set from the command line, read back through the API's service.
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openSqlite } from "../../src/db/client.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("deals stage moves a deal through the pipeline; unknown deals exit 1, bad stages exit 2", async () => {
  const d = tempDataDir();
  dirs.push(d);
  const org = (await cli(d, "admin", "org", "create", "--name", "A", "--json")).json.org_id;
  const user = (await cli(d, "admin", "user", "create", "--org", org, "--email", "u@a.vc", "--name", "U", "--json")).json.user_id;
  const sqlite = openSqlite(join(d, "dealgraph.db"), { busyTimeoutMs: 1000 });
  const id = "0190b6f4-1111-7000-8000-000000000001";
  sqlite
    .query(
      `INSERT INTO deals (id, org_id, created_by, company_name, kind, stage, source, target_key, created_at, updated_at)
       VALUES (?, ?, ?, 'Ledgerly', 'company', 'new', 'upload', 'name:ledgerly', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
    )
    .run(id, org, user);
  const read = () => sqlite.query<{ stage: string; updated_at: string }, [string]>("SELECT stage, updated_at FROM deals WHERE id = ?").get(id)!;

  const json = await cli(d, "deals", "stage", id, "diligence", "--json");
  expect(json.code).toBe(0);
  expect(json.json).toEqual({ deal_id: id, stage: "diligence" });
  expect(read().stage).toBe("diligence");
  expect(read().updated_at > "2025-01-01T00:00:00.000Z").toBe(true);
  const human = await cli(d, "deals", "stage", id, "ic");
  expect(human.code).toBe(0);
  expect(human.stdout).toBe(`deal ${id} is now at stage ic`);
  for (const stage of ["new", "screening", "diligence", "ic", "invested", "passed"]) {
    expect((await cli(d, "deals", "stage", id, stage, "--json")).json.stage).toBe(stage);
  }

  for (const [argv, code, message] of [
    [["deals", "stage", "0190b6f4-1111-7000-8000-0000000000ff", "ic"], 1, /^error: No deal 0190b6f4-1111-7000-8000-0000000000ff$/],
    [["deals", "stage", "not-a-uuid", "ic"], 1, /^error: No deal not-a-uuid$/],
    [["deals", "stage", id, "won"], 2, /unknown stage "won".*usage: dealgraph deals stage DEAL_ID new\|screening\|diligence\|ic\|invested\|passed/],
    [["deals", "stage", id, "IC"], 2, /unknown stage "IC"/],
    [["deals", "stage", id], 2, /usage: dealgraph deals stage/],
    [["deals", "stage", id, "ic", "extra"], 2, /usage: dealgraph deals stage/],
    [["deals", "stage", id, "ic", "--force"], 2, /Unknown option '--force'/],
    [["deals", "move", id, "ic"], 2, /usage: dealgraph deals stage/],
  ] as const) {
    const res = await cli(d, ...argv);
    expect(res.code, argv.join(" ")).toBe(code);
    expect(res.stderr.split("\n")).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  }
  expect(read().stage).toBe("passed");
  expect((await cli(d, "help")).stdout).toMatch(/dealgraph deals stage DEAL_ID/);
  sqlite.close();
});
