// The oauth-prune job: codes and tokens go a day after they expire (a used refresh token stays until
// then, so its reuse is still caught and revokes the grant), and a client that registered but never
// completed a grant goes a day after it registered (unless it is signing in right now: a code still
// usable); a client with a grant stays.
import { expect, test } from "bun:test";
import { findJob } from "../../jobs/index.ts";
import { authorizeQuery, codeOf, OAUTH_ENV, oauthForm, pkce, registerClient, signInGrant, throughConsent } from "../helpers/oauth.ts";
import { webApp } from "../helpers/web.ts";

const DAY = 86_400_000;

test("oauth-prune drops what expired a day ago, keeps what can still be used or caught", async () => {
  const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
  const job = findJob("oauth-prune")!;
  const { clientId, tokens } = await signInGrant(t, b);
  const next = (await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId })).json;
  await registerClient(t); // never used
  const count = (table: string) => t.deps.db.$client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
  expect([count("oauth_codes"), count("oauth_tokens"), count("oauth_clients")]).toEqual([1, 4, 2]);

  expect(await job.runOnce(t.deps)).toEqual({ codes_deleted: 0, tokens_deleted: 0, clients_deleted: 0 });
  // A day and an hour on: the code (60 s) and both access tokens (1 h) are a day past expiry, and
  // the client that never completed a grant is a day old.
  t.clock.advance(DAY + 2 * 3600_000);
  expect(await job.runOnce(t.deps)).toEqual({ codes_deleted: 1, tokens_deleted: 2, clients_deleted: 1 });
  expect(count("oauth_clients")).toBe(1);
  // The used refresh token is still known: its reuse revokes the grant.
  const reuse = await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
  expect(reuse.json.error_description).toMatch(/already used/);
  expect((await oauthForm(t, "/oauth/token", { grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: clientId })).json.error).toBe("invalid_grant");

  t.clock.advance(7 * DAY);
  expect((await job.runOnce(t.deps)).clients_deleted).toBe(0); // it has a grant (revoked, but completed)
  expect(count("oauth_clients")).toBe(1);
  t.clock.advance(30 * DAY);
  expect((await job.runOnce(t.deps)).tokens_deleted).toBe(2);
  expect(count("oauth_grants")).toBe(1);
});

test("oauth-prune: a client that never completed a grant goes a day after registering, not before, and not while it signs in", async () => {
  const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
  const job = findJob("oauth-prune")!;
  const ids = (): string[] => t.deps.db.$client.query<{ id: string }, []>("SELECT id FROM oauth_clients ORDER BY created_at").all().map((r) => r.id);
  const early = await registerClient(t);
  t.clock.advance(DAY - 60_000);
  // 23 h 59 min old: kept.
  expect((await job.runOnce(t.deps)).clients_deleted).toBe(0);
  const signingIn = await registerClient(t);
  const abandoned = await registerClient(t);
  t.clock.advance(60_000);
  // Exactly a day old: gone.
  expect((await job.runOnce(t.deps)).clients_deleted).toBe(1);
  expect(ids()).toEqual([signingIn, abandoned]);

  // A day on, one of them is on the consent page's redirect with a code it has not exchanged yet.
  t.clock.advance(DAY - 30_000);
  const { challenge } = pkce();
  codeOf(await throughConsent(b, authorizeQuery(signingIn, challenge), { decision: "allow", signIn: "alice@acme.vc" }));
  expect((await job.runOnce(t.deps)).clients_deleted).toBe(1); // the abandoned one
  expect(ids()).toEqual([signingIn]);
  // The code expires unused (60 s): the client never completed a grant, and goes.
  t.clock.advance(61_000);
  expect((await job.runOnce(t.deps)).clients_deleted).toBe(1);
  expect(ids()).toEqual([]);
  expect(early).toBeString();
});
