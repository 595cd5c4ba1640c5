// Network settings (sharing opt-in, going-stale, cadence, snooze), contacts search, and the admin
// views (members and sharing, every key of the org, revoke only; 403 for non-admins).
import { beforeEach, describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { knows, thread } from "../helpers/network.ts";
import { textOf, webApp, type Browser } from "../helpers/web.ts";

let t: TestApp;
let f: Fixture;
let b: Browser;

beforeEach(async () => ({ t, f, b } = await webApp({ passwords: ["alice", "bob"] })));

const staleRows = (html: string) => [...html.matchAll(/<tr data-contact="([^"]*)">/g)].map((m) => m[1]);
const staleTable = (html: string) => html.split('data-testid="stale-table"')[1]?.split("</table>")[0] ?? "";

describe("network settings", () => {
  test("the sharing opt-in explains itself and switches both ways", async () => {
    await b.signIn("bob@acme.vc");
    const page = await b.get("/app/network");
    const text = textOf(page.html);
    expect(text).toContain("Off: only you see your relationships");
    expect(text).toContain("your teammates at Acme Ventures see your relationships in who knows");
    expect(text).toContain("never leave Acme Ventures");
    expect(text).toContain("never see your emails, meetings");
    const on = await b.post("/app/network/sharing", { share: "on" });
    expect(on.status).toBe(303);
    const after = await b.follow(on);
    expect(textOf(after.html)).toContain("Sharing is on");
    expect(textOf(after.html)).toContain("On: teammates can find paths through you");
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.bobRead.secret })).json.user.share_network).toBe(true);
    await b.follow(await b.post("/app/network/sharing", { share: "off" }));
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.bobRead.secret })).json.user.share_network).toBe(false);
  });

  test("sharing on makes bob's relationships visible to alice's who-knows, off hides them again", async () => {
    knows(t.deps, f.users.bob.id, { email: "ceo@target.com", name: "Tara Target" }, thread(8, 5, 2));
    const whoKnows = async () => (await t.request("GET", "/api/v1/network/who-knows?domain=target.com", { key: f.keys.read.secret })).json.paths.length;
    expect(await whoKnows()).toBe(0);
    await b.signIn("bob@acme.vc");
    await b.get("/app/network");
    await b.post("/app/network/sharing", { share: "on" });
    expect(await whoKnows()).toBe(1);
    await b.get("/app/network");
    await b.post("/app/network/sharing", { share: "off" });
    expect(await whoKnows()).toBe(0);
  });

  test("a declared cadence puts a contact on the going-stale list; a snooze takes it off", async () => {
    const alice = f.users.alice.id;
    knows(t.deps, alice, { email: "dana@fund.com", name: "Dana Diaz" }, thread(3, 10, 20)); // 20 days silent, nothing learned
    knows(t.deps, alice, { email: "sam@fund.com", name: "Sam Smith" }, thread(3, 10, 2));
    await b.signIn("alice@acme.vc");
    let page = await b.get("/app/network");
    expect(page.html).toContain('data-testid="stale-empty"');
    expect(textOf(page.html)).toContain("0 relationships past their cadence");

    await b.get("/app/contacts");
    const set = await b.post("/app/network/cadence", { contact: "dana@fund.com", days: "14", back: "/app/contacts" });
    expect(set.status).toBe(303);
    expect(set.location).toBe("/app/contacts");
    const contacts = await b.follow(set);
    expect(textOf(contacts.html)).toContain("Keeping in touch with dana@fund.com every 14 days.");
    expect(textOf(contacts.html)).toContain("declared: every 14 d");

    page = await b.get("/app/network");
    expect(staleRows(staleTable(page.html))).toEqual(["dana@fund.com"]);
    expect(textOf(page.html)).toContain("1 relationship past its cadence");
    expect(textOf(staleTable(page.html))).toContain("Dana Diaz");

    const snooze = await b.post("/app/network/snooze", { contact: "dana@fund.com", until: "2026-12-15", back: "/app/network" });
    expect(textOf((await b.follow(snooze)).html)).toContain("dana@fund.com is snoozed until 2026-12-15.");
    expect(staleRows(staleTable(b.last!.html))).toEqual([]);
    // On the day the snooze ends, it is back.
    t.clock.set("2026-12-15T09:00:00Z");
    await b.signIn("alice@acme.vc");
    expect(staleRows(staleTable((await b.get("/app/network")).html))).toEqual(["dana@fund.com"]);

    // 0 clears the declared cadence: nothing learned, so nothing is stale.
    await b.follow(await b.post("/app/network/cadence", { contact: "dana@fund.com", days: "0", back: "/app/network" }));
    expect(textOf(b.last!.html)).toContain("Cleared the cadence for dana@fund.com");
    expect(staleRows(staleTable(b.last!.html))).toEqual([]);
  });

  test("bad cadence and snooze input, or someone who is not a contact: an error message, nothing changed", async () => {
    knows(t.deps, f.users.alice.id, { email: "dana@fund.com", name: "Dana Diaz" }, thread(3, 10, 20));
    await b.signIn("alice@acme.vc");
    await b.get("/app/contacts");
    const csrf = b.last!.html.match(/name="csrf" value="([^"]+)"/)![1];
    const cases: [string, Record<string, string>, string][] = [
      ["/app/network/cadence", { contact: "dana@fund.com", days: "-1" }, "must be a whole number of days"],
      ["/app/network/cadence", { contact: "dana@fund.com", days: "9999" }, "from 0 to 3650"],
      ["/app/network/cadence", { contact: "stranger@else.com", days: "7" }, "No relationship between"],
      ["/app/network/snooze", { contact: "dana@fund.com", until: "someday" }, "Not a date"],
    ];
    for (const [path, fields, message] of cases) {
      const page = await b.follow(await b.post(path, { ...fields, back: "/app/contacts" }, { csrf }));
      expect(page.html).toContain('class="flash error"');
      expect(textOf(page.html)).toContain(message);
    }
    const rel = t.deps.db.$client.query("SELECT declared_cadence_days AS d, snoozed_until AS s FROM relationships").get();
    expect(rel).toEqual({ d: null, s: null });
  });

  test("a back address off the app is ignored", async () => {
    knows(t.deps, f.users.alice.id, { email: "dana@fund.com" }, thread(3, 10, 20));
    await b.signIn("alice@acme.vc");
    await b.get("/app/contacts");
    const res = await b.post("/app/network/cadence", { contact: "dana@fund.com", days: "7", back: "https://evil.example/" });
    expect(res.location).toBe("/app");
  });
});

describe("contacts", () => {
  beforeEach(() => {
    const alice = f.users.alice.id;
    knows(t.deps, alice, { email: "jane@target.com", name: "Jane Doe", title: "CEO" }, thread(10, 5, 3));
    knows(t.deps, alice, { email: "john@other.com", name: "John Roe" }, thread(4, 9, 30));
    knows(t.deps, alice, { email: "x_y@percent.com", name: "100% Percent" }, thread(2, 9, 30));
    knows(t.deps, f.users.bob.id, { email: "bobs.friend@else.com", name: "Bob's Friend" }, thread(4, 9, 3));
  });

  test("only the user's own contacts, searchable by name or email; LIKE wildcards are literal", async () => {
    await b.signIn("alice@acme.vc");
    const all = await b.get("/app/contacts");
    expect(staleRows(all.html).sort()).toEqual(["jane@target.com", "john@other.com", "x_y@percent.com"]);
    expect(textOf(all.html)).not.toContain("Bob's Friend");
    expect(staleRows((await b.get("/app/contacts?q=jane")).html)).toEqual(["jane@target.com"]);
    expect(staleRows((await b.get("/app/contacts?q=OTHER.COM")).html)).toEqual(["john@other.com"]);
    expect(staleRows((await b.get("/app/contacts?q=%25")).html)).toEqual(["x_y@percent.com"]);
    expect(staleRows((await b.get("/app/contacts?q=x_y")).html)).toEqual(["x_y@percent.com"]);
    const none = await b.get("/app/contacts?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(textOf(none.html)).toContain("No contact matches “<script>alert(1)</script>”");
    expect(none.html).not.toContain("<script>alert(1)");
  });

  test("a contact's name with markup is escaped", async () => {
    knows(t.deps, f.users.alice.id, { email: "evil@x.com", name: "<img src=x onerror=alert(1)>" }, thread(3, 9, 3));
    await b.signIn("alice@acme.vc");
    const page = await b.get("/app/contacts?q=evil");
    expect(page.html).not.toContain("<img src=x");
    expect(page.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("admin views", () => {
  test("members with their sharing state, and every key of the org (not another org's)", async () => {
    await b.signIn("alice@acme.vc");
    const page = await b.get("/app/admin");
    expect(page.status).toBe(200);
    const members = page.html.split('data-testid="members-table"')[1].split("</table>")[0];
    expect(textOf(members)).toContain("Alice Archer");
    expect(textOf(members)).toContain("Bob Baker");
    expect(textOf(members)).not.toContain("Carol");
    expect(members).toMatch(new RegExp(`data-user-id="${f.users.alice.id}">[\\s\\S]*?Sharing[\\s\\S]*?</tr>`));
    expect(members).toMatch(new RegExp(`data-user-id="${f.users.bob.id}">[\\s\\S]*?Not sharing[\\s\\S]*?</tr>`));
    const keys = page.html.split('data-testid="key-table"')[1];
    expect(keys).toContain(`data-key-id="${f.keys.bobRead.id}"`);
    expect(keys).toContain(`data-key-id="${f.keys.read.id}"`);
    expect(keys).not.toContain(f.keys.otherOrgWrite.id);
    // Revoke only: no rotation, and never a secret.
    expect(keys).not.toContain("/rotate");
    expect(keys).toContain(`/app/admin/keys/${f.keys.bobRead.id}/revoke`);
    expect(page.html).not.toContain(f.keys.bobRead.secret);
  });

  test("an admin revokes a member's key; another org's key id is 404", async () => {
    await b.signIn("alice@acme.vc");
    await b.get("/app/admin");
    const csrf = b.last!.html.match(/name="csrf" value="([^"]+)"/)![1];
    const foreign = await b.post(`/app/admin/keys/${f.keys.otherOrgWrite.id}/revoke`, {}, { csrf });
    expect(foreign.status).toBe(404);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.otherOrgWrite.secret })).status).toBe(200);
    expect((await b.post(`/app/admin/keys/not-a-key/revoke`, {}, { csrf })).status).toBe(404);

    const res = await b.post(`/app/admin/keys/${f.keys.bobRead.id}/revoke`, {}, { csrf });
    expect(res.status).toBe(303);
    expect(textOf((await b.follow(res)).html)).toContain("Revoked “bob read” of Bob Baker");
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.bobRead.secret })).status).toBe(401);
  });

  test("a non-admin gets a 403 page on every admin page and action, and no Admin link", async () => {
    await b.signIn("bob@acme.vc");
    const home = await b.get("/app");
    expect(home.html).not.toContain('href="/app/admin"');
    const page = await b.get("/app/admin");
    expect(page.status).toBe(403);
    expect(textOf(page.html)).toContain("Admins only");
    expect(page.html).not.toContain("Alice Archer");
    const csrf = (await b.get("/app/keys")).html.match(/name="csrf" value="([^"]+)"/)![1];
    const res = await b.post(`/app/admin/keys/${f.keys.read.id}/revoke`, {}, { csrf });
    expect(res.status).toBe(403);
    expect((await t.request("GET", "/api/v1/me", { key: f.keys.read.secret })).status).toBe(200);
  });

  test("a member name with markup is escaped on the admin page", async () => {
    t.deps.db.$client.query("UPDATE users SET name = ? WHERE id = ?").run("<script>alert(document.cookie)</script>", f.users.bob.id);
    await b.signIn("alice@acme.vc");
    const page = await b.get("/app/admin");
    expect(page.html).not.toContain("<script>alert");
    expect(page.html).toContain("&lt;script&gt;alert(document.cookie)&lt;/script&gt;");
  });
});

describe("overview", () => {
  test("counts of keys, contacts, going-stale, and the sharing state", async () => {
    knows(t.deps, f.users.alice.id, { email: "jane@target.com", name: "Jane Doe" }, thread(10, 5, 3));
    const home = await b.signIn("alice@acme.vc");
    const text = textOf(home.html);
    expect(text).toContain("Welcome, Alice");
    expect(text).toContain("2 active API keys");
    expect(text).toContain("1 contact in your network");
    expect(text).toContain("Sharing on");
    expect(text).toContain("review your 2 members");
  });
});
