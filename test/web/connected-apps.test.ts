// Connected apps in the web app: a member's grants (app, scope, allowed, last used, today's usage)
// with revoke, effective at the app's next request; an org admin sees and revokes every member's;
// another member's (for a non-admin) or another organization's grant is 404; names are escaped.
import { describe, expect, test } from "bun:test";
import { mcpCall, OAUTH_ENV, registerClient, signInGrant } from "../helpers/oauth.ts";
import { Browser, textOf, webApp } from "../helpers/web.ts";

const rowIds = (html: string, table: string) => {
  const section = html.split(`data-testid="${table}"`)[1]?.split("</table>")[0] ?? "";
  return [...section.matchAll(/data-grant-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
};

describe("connected apps", () => {
  test("a member's grants with scope, dates and today's usage; in the Settings menu", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b, { scope: "write" });
    await mcpCall(t, tokens.access_token);
    await mcpCall(t, tokens.access_token);
    const page = await b.get("/app/connected-apps");
    expect(page.status).toBe(200);
    expect(page.html).toContain('href="/app/connected-apps" class="active" aria-current="page"');
    const text = textOf(page.html);
    expect(text).toContain("Test Assistant");
    expect(text).toContain("read + write");
    expect(text).toContain("2 / 5,000 requests");
    expect(text).toContain("0 / 25 actions");
    expect(text).toMatch(/Last used.*\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(page.html).toContain('<code data-testid="mcp-url">http://localhost/mcp</code>');
    // Not an admin page: alice is an admin, so hers has the org's table too.
    expect(rowIds(page.html, "org-grants")).toHaveLength(1);
  });

  test("revoke: a flash, the app's next request refused, the row kept a week with the reason", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    const id = rowIds((await b.get("/app/connected-apps")).html, "my-grants")[0];
    const done = await b.follow(await b.post(`/app/connected-apps/${id}/revoke`, {}));
    expect(textOf(done.html)).toContain("Revoked “Test Assistant”. Its next request is refused.");
    expect((await mcpCall(t, tokens.access_token)).status).toBe(401);
    expect(textOf(done.html)).toContain("revoked by its user");
    t.clock.advance(8 * 86_400_000);
    expect(rowIds((await b.get("/app/connected-apps")).html, "my-grants")).toEqual([]);
  });

  test("a member who is not an admin sees only their own, and cannot revoke a teammate's (404)", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, passwords: ["alice", "bob"], signIn: "alice@acme.vc" });
    const { tokens } = await signInGrant(t, b);
    const aliceGrant = rowIds((await b.get("/app/connected-apps")).html, "my-grants")[0];
    const bob = new Browser(t);
    await bob.signIn("bob@acme.vc");
    const page = await bob.get("/app/connected-apps");
    expect(rowIds(page.html, "my-grants")).toEqual([]);
    expect(page.html).not.toContain('data-testid="org-grants"');
    expect((await bob.post(`/app/connected-apps/${aliceGrant}/revoke`, {})).status).toBe(404);
    expect((await mcpCall(t, tokens.access_token)).status).toBe(200);
  });

  test("an org admin sees every member's apps and revokes one; another organization's grant is 404 to them", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, passwords: ["alice", "bob", "carol"], signIn: "alice@acme.vc" });
    const bob = new Browser(t);
    await bob.signIn("bob@acme.vc");
    const bobs = await signInGrant(t, bob);
    const carol = new Browser(t);
    await carol.signIn("carol@globex.vc");
    const carols = await signInGrant(t, carol);
    const carolGrant = rowIds((await carol.get("/app/connected-apps")).html, "my-grants")[0];

    const admin = await b.get("/app/connected-apps");
    const orgRows = rowIds(admin.html, "org-grants");
    expect(orgRows).toHaveLength(1);
    expect(orgRows).not.toContain(carolGrant);
    expect(textOf(admin.html)).toContain("Bob Baker");
    expect((await b.post(`/app/connected-apps/${carolGrant}/revoke`, {})).status).toBe(404);
    expect((await mcpCall(t, carols.tokens.access_token)).status).toBe(200);

    const done = await b.follow(await b.post(`/app/connected-apps/${orgRows[0]}/revoke`, {}));
    expect(textOf(done.html)).toContain("Revoked “Test Assistant” of Bob Baker.");
    expect((await mcpCall(t, bobs.tokens.access_token)).status).toBe(401);
    expect(textOf((await bob.get("/app/connected-apps")).html)).toContain("revoked by an administrator");
  });

  test("unknown or malformed grant ids are 404; a revoke without the CSRF token is refused", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    await signInGrant(t, b);
    const id = rowIds((await b.get("/app/connected-apps")).html, "my-grants")[0];
    for (const bad of ["nope", "0190b6d2-7c1e-7a4b-9c3d-2e5f6a7b8c9d", "..%2F"]) expect((await b.post(`/app/connected-apps/${bad}/revoke`, {})).status).toBe(404);
    expect((await b.post(`/app/connected-apps/${id}/revoke`, {}, { csrf: null })).status).toBe(403);
    expect(t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM oauth_grants WHERE revoked_at IS NULL").get()!.n).toBe(1);
  });

  test("an app's self-declared name is shown as text", async () => {
    const { t, b } = await webApp({ env: OAUTH_ENV, signIn: "alice@acme.vc" });
    const clientId = await registerClient(t, { client_name: `<img src=x onerror=alert(1)>"` });
    await signInGrant(t, b, { clientId });
    const page = await b.get("/app/connected-apps");
    expect(page.html).not.toContain("<img src=x");
    expect(textOf(page.html)).toContain(`<img src=x onerror=alert(1)>"`);
  });

  test("signed out: to sign-in, and back here after", async () => {
    const { b } = await webApp({ env: OAUTH_ENV });
    const res = await b.get("/app/connected-apps");
    expect(res.status).toBe(303);
    expect(res.location).toBe("/app/sign-in?next=%2Fapp%2Fconnected-apps");
  });
});
