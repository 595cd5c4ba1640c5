import { describe, expect, test } from "bun:test";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { hasCard, knows, thread } from "../../helpers/network.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

let t: TestApp;
let f: Fixture;

// Alice (Acme, shares) and Bob (Acme, does not share) both know people at target.com; Carol is
// at Globex and knows Jane too.
function setup() {
  ({ t, f } = seededApp());
  const { alice, bob, carol } = f.users;
  const jane = { email: "jane@target.com", name: "Jane Doe", title: "CFO" };
  knows(t.deps, alice.id, jane, [...thread(12, 7, 2), { daysAgo: 10, direction: "meeting" }, { daysAgo: 40, direction: "meeting" }]);
  knows(t.deps, alice.id, { email: "raj@target.com", name: "Raj Patel" }, thread(3, 30, 20, ["sent"]));
  knows(t.deps, alice.id, { email: "old@target.com", name: "Olga Old" }, thread(2, 30, 700));
  knows(t.deps, bob.id, { email: "john@target.com", name: "John Smith" }, thread(20, 3, 1));
  knows(t.deps, bob.id, jane, thread(2, 5, 300));
  knows(t.deps, carol.id, { email: "jane@target.com", name: "Jane Doe" }, thread(30, 2, 1));
  hasCard(t.deps, alice.id, { email: "card@cardonly.com", name: "Cardie Only" });
}

const whoKnows = (key: string, qs: string) => t.request("GET", `/api/v1/network/who-knows?${qs}`, { key });

describe("GET /api/v1/network/who-knows", () => {
  test("ranks the pooled paths at a domain, strongest first, each naming its owner", async () => {
    setup();
    const res = await whoKnows(f.keys.read.secret, "domain=target.com");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ target: { domain: "target.com", person: null }, scope: "org_shared", unavailable_reason: null });
    const paths = res.json.paths;
    // Bob does not share: only Alice's relationships are pooled for Alice's key.
    expect(paths.map((p: any) => [p.email, p.path_owner])).toEqual([
      ["jane@target.com", "Alice Archer"],
      ["raj@target.com", "Alice Archer"],
      ["old@target.com", "Alice Archer"],
    ]);
    for (let i = 1; i < paths.length; i++) expect(paths[i - 1].strength_score).toBeGreaterThanOrEqual(paths[i].strength_score);
    const jane = paths[0];
    expect(jane).toMatchObject({ name: "Jane Doe", title: "CFO", domain: "target.com", relationship: "strong", owner_user_id: f.users.alice.id, unavailable_reason: null });
    expect(jane.warmth).toBeGreaterThan(0.5);
    expect(jane.warmth).toBeLessThanOrEqual(1);
    expect(jane.signals).toMatchObject({ emails_sent: 6, emails_received: 6, meetings: 2, two_way_ratio: 1, days_since_last_touch: 2, last_touch_by: "owner" });
    // One-way mail is worth less than a two-way thread; a relationship silent for two years is dormant.
    expect(paths[1].signals.two_way_ratio).toBe(0);
    expect(paths[2].relationship).toBe("dormant");
  });

  test("a user who does not share still sees their own paths, plus teammates who share", async () => {
    setup();
    const res = await whoKnows(f.keys.bobRead.secret, "domain=target.com");
    const owners = res.json.paths.map((p: any) => `${p.email}/${p.path_owner}`);
    expect(owners).toContain("john@target.com/Bob Baker");
    expect(owners).toContain("jane@target.com/Alice Archer");
    expect(owners).toContain("jane@target.com/Bob Baker");
    expect(owners[0]).toBe("john@target.com/Bob Baker");
  });

  test("another organization's network is invisible", async () => {
    setup();
    const globex = await whoKnows(f.keys.otherOrgWrite.secret, "domain=target.com");
    expect(globex.json.paths.map((p: any) => p.path_owner)).toEqual(["Carol Chen"]);
    const acme = await whoKnows(f.keys.read.secret, "person=jane@target.com");
    expect(acme.json.paths.every((p: any) => p.path_owner !== "Carol Chen")).toBe(true);
    expect(acme.json.paths[0].contact_id).not.toBe(globex.json.paths[0].contact_id);
  });

  test("by person: an email, a name in any case and spacing, or a person at a domain", async () => {
    setup();
    const byEmail = await whoKnows(f.keys.read.secret, "person=JANE@target.com");
    expect(byEmail.json.paths.map((p: any) => p.name)).toEqual(["Jane Doe"]);
    expect(byEmail.json.target).toEqual({ domain: null, person: "JANE@target.com" });
    const byName = await whoKnows(f.keys.read.secret, `person=${encodeURIComponent("  jane   DOE ")}`);
    expect(byName.json.paths.map((p: any) => p.email)).toEqual(["jane@target.com"]);
    const both = await whoKnows(f.keys.read.secret, "domain=target.com&person=Raj%20Patel");
    expect(both.json.paths.map((p: any) => p.email)).toEqual(["raj@target.com"]);
    const wrongDomain = await whoKnows(f.keys.read.secret, "domain=other.com&person=Raj%20Patel");
    expect(wrongDomain.json).toMatchObject({ paths: [], unavailable_reason: "contact_not_found" });
  });

  test("a domain written as a URL is understood", async () => {
    setup();
    const res = await whoKnows(f.keys.read.secret, `domain=${encodeURIComponent("https://www.Target.com/about")}`);
    expect(res.json.paths.length).toBe(3);
  });

  test("limit keeps the strongest", async () => {
    setup();
    const res = await whoKnows(f.keys.read.secret, "domain=target.com&limit=1");
    expect(res.json.paths.map((p: any) => p.email)).toEqual(["jane@target.com"]);
  });

  test("nobody known: contact_not_found; known only from a contact card: no_relationship_data", async () => {
    setup();
    expect((await whoKnows(f.keys.read.secret, "domain=nobody.example")).json).toMatchObject({ paths: [], unavailable_reason: "contact_not_found" });
    expect((await whoKnows(f.keys.read.secret, "domain=cardonly.com")).json).toMatchObject({ paths: [], unavailable_reason: "no_relationship_data" });
  });
});

describe("GET /api/v1/network/who-knows: bad parameters", () =>
  runScenarios([
    {
      name: "neither domain nor person: 422 naming domain",
      method: "GET",
      path: "/api/v1/network/who-knows",
      key: "read",
      expect: { status: 422, body: { detail: [{ loc: ["query", "domain"], type: "missing" }] } },
    },
    ...[
      ["0", "greater_than_equal"],
      ["51", "less_than_equal"],
      ["ten", "int_parsing"],
      ["2.5", "int_parsing"],
    ].map(([limit, type]) => ({
      name: `limit=${limit}: 422 naming limit`,
      method: "GET",
      path: `/api/v1/network/who-knows?domain=a.com&limit=${limit}`,
      key: "read" as const,
      expect: { status: 422, body: { detail: [{ loc: ["query", "limit"], type }] } },
    })),
    {
      name: "an empty domain: 422",
      method: "GET",
      path: "/api/v1/network/who-knows?domain=",
      key: "read",
      expect: { status: 422, body: { detail: [{ loc: ["query", "domain"], type: "string_too_short" }] } },
    },
  ]));
