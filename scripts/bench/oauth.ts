// MCP sign-in's costs, each against a bare baseline measured in the same run, on a WAL database in
// a temp dir holding `--grants` grants (two tokens each, plus their refreshes):
//   1. The credential check of every /mcp request: oauthService.verifyAccess (hash, one indexed
//      lookup joining grant, user and client, the checks) vs the bare prepared SELECT of a token
//      row by hash on bun:sqlite; the API key's check (apiKeysService.verify) beside it.
//                                                          Target: verifyAccess < 50 us.
//   2. POST /mcp tools/list in process (app.handle: auth, budget count, the SDK's transport), with
//      an access token vs with an API key, alternating: p50/p99 and the ratio token/key.
//                                                          Target: ratio <= 1.2.
//   3. Refresh with rotation, POST /oauth/token in process (form, client check, the transaction
//      that spends the old refresh token and writes two new tokens) vs the bare same writes in a
//      bun:sqlite transaction.                              Target: p99 < 10 ms.
//
//   bun scripts/bench/oauth.ts [--grants 5000] [--requests 2000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { silentLog } from "../../src/lib/log.ts";
import { hashSecret, newSignInToken } from "../../src/modules/identity/key-secrets.ts";
import { apiKeysService } from "../../src/modules/identity/keys.service.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { oauthClientsService } from "../../src/modules/oauth/oauth.clients.ts";
import { oauthService } from "../../src/modules/oauth/oauth.service.ts";
import { randomToken, sha256Base64url } from "../../src/lib/tokens.ts";

const { values: opts } = parseArgs({ options: { grants: { type: "string", default: "5000" }, requests: { type: "string", default: "2000" } } });
const GRANTS = Number(opts.grants);
const REQUESTS = Number(opts.requests);
const TARGET = { verifyUs: 50, mcpRatio: 1.2, refreshP99Ms: 10 };
const BASE = "http://localhost";
const REDIRECT = "http://127.0.0.1:47999/callback";

const log = (line: string) => console.log(line);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const f2 = (x: number) => x.toFixed(2);

const dir = mkdtempSync(join(tmpdir(), "dealgraph-bench-oauth-"));
// A clock the bench moves: refreshes are limited per client address per minute, so each one is a second apart.
let nowMs = Date.parse("2026-06-01T09:00:00.000Z");
const config = loadConfig({ DEALGRAPH_PUBLIC_URL: BASE }, { dataDir: dir });
const { db } = openDataDir(config);
const sqlite = db.$client;
const deps = createDeps({ db, config, log: silentLog, clock: { now: () => new Date(nowMs) } });
const app = createApp(deps);

try {
  // ---------------------------------------------------------------------------------------------
  // The firm: one org, one member with a key, `GRANTS` apps allowed (code exchanged through the service)
  const orgs = orgsService(deps);
  const org = orgs.createOrg("Bench Ventures");
  const user = orgs.createUser({ orgId: org.id, email: "bench@bench.vc", name: "Bench" });
  const key = apiKeysService(deps).create({ userId: user.id, scope: "read", name: "bench", dailyRequests: 10_000_000 }).secret;
  const oauth = oauthService(deps);
  const clients = oauthClientsService(deps);
  let t0 = performance.now();
  let last = { clientId: "", access: "", refresh: "" };
  for (let i = 0; i < GRANTS; i++) {
    const { client } = clients.register({ client_name: `App ${i}`, redirect_uris: [REDIRECT] }, null);
    const verifier = randomToken(32);
    const code = oauth.issueCode({ client, redirectUri: REDIRECT, scope: "read", state: null, codeChallenge: sha256Base64url(verifier), resource: `${BASE}/mcp` }, user.id, org.id, "read");
    const tokens = oauth.exchangeCode({ clientId: client.id, code, codeVerifier: verifier, redirectUri: REDIRECT, resource: `${BASE}/mcp` });
    last = { clientId: client.id, access: tokens.access_token, refresh: tokens.refresh_token };
  }
  const tokenRows = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_tokens").get()!.n;
  log(`${GRANTS} grants set up in ${((performance.now() - t0) / 1000).toFixed(1)} s (${tokenRows} token rows)`);

  // ---------------------------------------------------------------------------------------------
  // 1. The credential check
  const bareSelect = sqlite.query<{ grant_id: string; scope: string; expires_at: string }, [string]>("SELECT grant_id, scope, expires_at FROM oauth_tokens WHERE token_hash = ?");
  const keys = apiKeysService(deps);
  const N = 20_000;
  const timeEach = (run: () => unknown) => {
    for (let i = 0; i < 1000; i++) run();
    const start = performance.now();
    for (let i = 0; i < N; i++) run();
    return ((performance.now() - start) / N) * 1000;
  };
  const bareUs = timeEach(() => bareSelect.get(hashSecret(last.access)));
  const verifyUs = timeEach(() => {
    if (oauth.verifyAccess(last.access, BASE)?.status !== "VALID") throw new Error("the bench's access token was refused");
  });
  const keyUs = timeEach(() => keys.verify(key));
  log(`1. credential check (${N} each): verifyAccess ${f2(verifyUs)} us, bare SELECT by hash ${f2(bareUs)} us (${f2(verifyUs / bareUs)}x bare); API key verify ${f2(keyUs)} us (${f2(keyUs / bareUs)}x bare)`);

  // ---------------------------------------------------------------------------------------------
  // 2. POST /mcp tools/list, token vs key, alternating
  const mcp = async (secret: string) => {
    const start = performance.now();
    const res = await app.handle(
      new Request(`${BASE}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/mcp answered ${res.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < 200; i++) await mcp(i % 2 ? key : last.access);
  const withToken: number[] = [];
  const withKey: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    withToken.push(await mcp(last.access));
    withKey.push(await mcp(key));
  }
  const ratio = pct(withToken, 50) / pct(withKey, 50);
  log(`2. /mcp tools/list (${REQUESTS} each): token p50 ${f2(pct(withToken, 50))} ms, p99 ${f2(pct(withToken, 99))} ms; key p50 ${f2(pct(withKey, 50))} ms, p99 ${f2(pct(withKey, 99))} ms; ratio token/key ${f2(ratio)} (p50)`);

  // ---------------------------------------------------------------------------------------------
  // 3. Refresh with rotation vs the bare same writes
  const refreshTimes: number[] = [];
  let refresh = last.refresh;
  for (let i = 0; i < REQUESTS; i++) {
    nowMs += 1000;
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh, client_id: last.clientId }).toString();
    const start = performance.now();
    const res = await app.handle(new Request(`${BASE}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
    const json = (await res.json()) as { refresh_token?: string; error_description?: string };
    refreshTimes.push(performance.now() - start);
    if (res.status !== 200 || !json.refresh_token) throw new Error(`refresh ${i} answered ${res.status}: ${json.error_description}`);
    refresh = json.refresh_token;
  }
  const grantId = sqlite.query<{ grant_id: string }, [string]>("SELECT grant_id FROM oauth_tokens WHERE token_hash = ?").get(hashSecret(refresh))!.grant_id;
  const spend = sqlite.query("UPDATE oauth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL");
  const insert = sqlite.query("INSERT INTO oauth_tokens (token_hash, grant_id, kind, scope, created_at, expires_at) VALUES (?, ?, ?, 'read', ?, ?)");
  const bareTimes: number[] = [];
  let bareRefresh = newSignInToken("refresh").hash;
  insert.run(bareRefresh, grantId, "refresh", new Date(nowMs).toISOString(), new Date(nowMs + 86_400_000).toISOString());
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    sqlite.transaction(() => {
      const at = new Date(nowMs).toISOString();
      spend.run(at, bareRefresh);
      insert.run(newSignInToken("access").hash, grantId, "access", at, at);
      bareRefresh = newSignInToken("refresh").hash;
      insert.run(bareRefresh, grantId, "refresh", at, at);
    }).immediate();
    bareTimes.push(performance.now() - start);
  }
  log(
    `3. refresh with rotation (${REQUESTS}): p50 ${f2(pct(refreshTimes, 50))} ms, p99 ${f2(pct(refreshTimes, 99))} ms, ${Math.round(1000 / (refreshTimes.reduce((a, b) => a + b, 0) / REQUESTS))}/s; ` +
      `bare writes p50 ${f2(pct(bareTimes, 50))} ms, p99 ${f2(pct(bareTimes, 99))} ms (${f2(pct(refreshTimes, 50) / pct(bareTimes, 50))}x bare at p50)`,
  );

  const misses = [
    verifyUs > TARGET.verifyUs && `verifyAccess ${f2(verifyUs)} us > ${TARGET.verifyUs}`,
    ratio > TARGET.mcpRatio && `/mcp token/key ${f2(ratio)} > ${TARGET.mcpRatio}`,
    pct(refreshTimes, 99) > TARGET.refreshP99Ms && `refresh p99 ${f2(pct(refreshTimes, 99))} ms > ${TARGET.refreshP99Ms}`,
  ].filter(Boolean);
  log(misses.length ? `targets missed: ${misses.join("; ")}` : "targets met");
} finally {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
