// `dealgraph admin grant list|revoke` on a real data dir: the grants members allowed (made through
// the oauth module's own services on the same database), and a revocation that the app's next
// request at /mcp meets.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openSqlite, wrapDrizzle } from "../../src/db/client.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { oauthClientsService } from "../../src/modules/oauth/oauth.clients.ts";
import { oauthService } from "../../src/modules/oauth/oauth.service.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { OAUTH_ENV, pkce, REDIRECT_URI, RESOURCE } from "../helpers/oauth.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The data dir's database as the server would open it (public URL http://localhost), for `use`. */
async function withServer<T>(dataDir: string, use: (deps: ReturnType<typeof createDeps>, app: ReturnType<typeof createApp>) => Promise<T> | T): Promise<T> {
  const sqlite = openSqlite(join(dataDir, "dealgraph.db"), { busyTimeoutMs: 1000 });
  try {
    const deps = createDeps({ db: wrapDrizzle(sqlite), config: loadConfig(OAUTH_ENV), log: silentLog });
    return await use(deps, createApp(deps));
  } finally {
    sqlite.close();
  }
}

/** A member's consent and the app's code exchange, through the services. */
function grant(deps: ReturnType<typeof createDeps>, user: { id: string; org: string }, name: string) {
  const { client } = oauthClientsService(deps).register({ client_name: name, redirect_uris: [REDIRECT_URI] }, null);
  const { verifier, challenge } = pkce();
  const code = oauthService(deps).issueCode({ client, redirectUri: REDIRECT_URI, scope: "write", state: null, codeChallenge: challenge, resource: RESOURCE }, user.id, user.org, "write");
  return oauthService(deps).exchangeCode({ clientId: client.id, code, codeVerifier: verifier, redirectUri: REDIRECT_URI, resource: RESOURCE });
}

async function firm() {
  const d = tempDataDir();
  dirs.push(d);
  const org = (await cli(d, "admin", "org", "create", "--name", "Acme", "--json")).json.org_id;
  const other = (await cli(d, "admin", "org", "create", "--name", "Globex", "--json")).json.org_id;
  const ann = (await cli(d, "admin", "user", "create", "--org", org, "--email", "ann@acme.vc", "--name", "Ann", "--json")).json.user_id;
  const gus = (await cli(d, "admin", "user", "create", "--org", other, "--email", "gus@globex.vc", "--name", "Gus", "--json")).json.user_id;
  const tokens = await withServer(d, (deps) => ({ ann: grant(deps, { id: ann, org }, "Claude"), gus: grant(deps, { id: gus, org: other }, "Cursor") }));
  return { d, org, other, ann, gus, tokens };
}

describe("admin grant list|revoke", () => {
  test("lists every grant, by user or by organization, as JSON or one line each", async () => {
    const { d, org, ann } = await firm();
    const all = await cli(d, "admin", "grant", "list", "--json");
    expect(all.code).toBe(0);
    expect(all.json.grants.map((g: any) => g.client_name).sort()).toEqual(["Claude", "Cursor"]);
    const byOrg = await cli(d, "admin", "grant", "list", "--org", org, "--json");
    expect(byOrg.json.grants).toEqual([
      expect.objectContaining({ client_name: "Claude", scope: "read write", status: "active", user: { user_id: ann, name: "Ann", email: "ann@acme.vc" }, last_used_at: null }),
    ]);
    expect((await cli(d, "admin", "grant", "list", "--user", ann, "--json")).json.grants).toHaveLength(1);
    const human = await cli(d, "admin", "grant", "list", "--org", org);
    expect(human.stdout).toMatch(/^[0-9a-f-]{36}  active   read write  Claude  ann@acme\.vc  last used never$/);
  });

  test("revoke: the app's next request at /mcp is refused; the list says why", async () => {
    const { d, org, tokens } = await firm();
    const id = (await cli(d, "admin", "grant", "list", "--org", org, "--json")).json.grants[0].grant_id;
    const mcp = (secret: string) =>
      withServer(d, async (_deps, app) =>
        (await app.handle(new Request("http://localhost/mcp", { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }))).status,
      );
    expect(await mcp(tokens.ann.access_token)).toBe(200);
    const revoked = await cli(d, "admin", "grant", "revoke", id, "--json");
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ grant_id: id, revoked_at: expect.any(String) });
    expect(await mcp(tokens.ann.access_token)).toBe(401);
    expect(await mcp(tokens.gus.access_token)).toBe(200);
    const listed = (await cli(d, "admin", "grant", "list", "--org", org, "--json")).json.grants[0];
    expect(listed).toMatchObject({ status: "revoked", revoked_reason: "revoked from the command line" });
    expect((await cli(d, "admin", "grant", "list", "--org", org, "--active", "--json")).json.grants).toEqual([]);
    // Printed secrets: none (only ids and names).
    expect(JSON.stringify(listed)).not.toContain("mcp_");
  });

  const refusals: [string, string[], number, RegExp][] = [
    ["an unknown grant", ["admin", "grant", "revoke", "0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9d"], 1, /No grant with id/],
    ["not an id", ["admin", "grant", "revoke", "nope"], 1, /No grant with id nope/],
    ["no id", ["admin", "grant", "revoke"], 2, /usage: dealgraph admin grant revoke GRANT_ID/],
    ["both --user and --org", ["admin", "grant", "list", "--user", "a", "--org", "b"], 2, /usage: dealgraph admin grant list/],
    ["an unknown verb", ["admin", "grant", "rotate"], 2, /usage: dealgraph admin grant list/],
  ];
  for (const [name, argv, code, message] of refusals) {
    test(`${name}: exit ${code}, one line saying why`, async () => {
      const d = tempDataDir();
      dirs.push(d);
      const res = await cli(d, ...argv);
      expect(res.code).toBe(code);
      expect(res.stderr).toMatch(message);
      expect(res.stderr.split("\n")).toHaveLength(1);
    });
  }
});
