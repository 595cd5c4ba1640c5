import { describe, expect, test } from "bun:test";
import { graphWriter } from "../../../src/modules/network/network.graph.ts";
import { applyMigrations } from "../../../src/db/migrate.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { hasCard, knows, personId, thread } from "../../helpers/network.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

const NAME_KEY_STEP = "js:persons-name-key";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
  const { alice, bob, carol } = f.users;
  knows(t.deps, alice.id, { email: "jane@target.com", name: "Jane Doe", linkedinUrl: "https://www.linkedin.com/in/Jane-Doe/" }, thread(10, 5, 3));
  knows(t.deps, bob.id, { email: "jane@target.com" }, thread(30, 1, 1)); // Bob does not share
  knows(t.deps, alice.id, { email: "sam@a.com", name: "Sam Lee" }, thread(2, 10, 50));
  knows(t.deps, carol.id, { email: "sam2@a.com", name: "Sam Lee" }, thread(40, 1, 1)); // another org
  knows(t.deps, alice.id, { email: "sam3@b.com", name: "Sam Lee" }, thread(8, 3, 2));
  hasCard(t.deps, alice.id, { email: "card@x.com", name: "Cardie Only", location: "Berlin" });
}

const lookup = (key: string, contacts: unknown) => t.request("POST", "/api/v1/network/warmth/lookup", { key, body: { contacts } });

describe("POST /api/v1/network/warmth/lookup", () => {
  test("one row per identifier, in order, each with its query; every kind of identifier", async () => {
    setup();
    const janeId = personId(t.deps, f.orgs.acme.id, "jane@target.com");
    const carolsSam = personId(t.deps, f.orgs.globex.id, "sam2@a.com");
    const queries = ["jane@target.com", janeId, "linkedin.com/in/jane-doe", "Sam Lee", "nobody@nowhere.com", "card@x.com", carolsSam, "JANE@TARGET.COM"];
    const res = await lookup(f.keys.read.secret, queries);
    expect(res.status).toBe(200);
    expect(res.json.scope).toBe("org_shared");
    const r = res.json.results;
    expect(r.map((x: any) => x.query)).toEqual(queries);
    for (const i of [0, 1, 2, 7]) expect(r[i]).toMatchObject({ contact_id: janeId, name: "Jane Doe", path_owner: "Alice Archer", unavailable_reason: null });
    // A name shared by several persons: the best of their pooled paths (not Carol's, another org).
    expect(r[3]).toMatchObject({ email: "sam3@b.com", path_owner: "Alice Archer" });
    const notFound = { contact_id: null, name: null, title: null, email: null, domain: null, warmth: null, strength_score: null, relationship: null, path_owner: null, owner_user_id: null, unavailable_reason: "contact_not_found" };
    expect(r[4]).toMatchObject(notFound);
    expect(r[6]).toMatchObject(notFound); // another organization's contact id
    expect(r[5]).toMatchObject({ name: "Cardie Only", email: "card@x.com", warmth: null, strength_score: null, relationship: null, unavailable_reason: "no_relationship_data" });
  });

  test("a LinkedIn URL that cannot be decoded matches nothing (contact_not_found), here and in who-knows; mobile URLs match", async () => {
    setup();
    const broken = "https://www.linkedin.com/in/%E0%A4%A";
    const res = await lookup(f.keys.read.secret, [broken, "https://m.linkedin.com/in/jane-doe?trk=app", "jane@target.com"]);
    expect(res.status).toBe(200);
    expect(res.json.results[0]).toMatchObject({ query: broken, contact_id: null, unavailable_reason: "contact_not_found" });
    expect(res.json.results[1]).toMatchObject({ name: "Jane Doe", unavailable_reason: null });
    expect(res.json.results[2]).toMatchObject({ name: "Jane Doe" });
    const who = await t.request("GET", `/api/v1/network/who-knows?person=${encodeURIComponent(broken)}`, { key: f.keys.read.secret });
    expect(who.status).toBe(200);
    expect(who.json).toMatchObject({ paths: [], unavailable_reason: "contact_not_found", target: { person: broken } });
  });

  test("names match whatever their case, beyond ASCII too", async () => {
    setup();
    knows(t.deps, f.users.alice.id, { email: "elodie@durand.fr", name: "Élodie Durand" }, thread(4, 3, 2));
    knows(t.deps, f.users.alice.id, { email: "jurgen@mueller.de", name: "JÜRGEN Müller" }, thread(4, 3, 2));
    const res = await lookup(f.keys.read.secret, ["ÉLODIE DURAND", "élodie  durand", "Jürgen MÜLLER"]);
    expect(res.json.results.map((r: any) => r.email)).toEqual(["elodie@durand.fr", "elodie@durand.fr", "jurgen@mueller.de"]);
    const who = await t.request("GET", `/api/v1/network/who-knows?person=${encodeURIComponent("ÉLODIE DURAND")}`, { key: f.keys.read.secret });
    expect(who.json.paths.map((p: any) => p.name)).toEqual(["Élodie Durand"]);
  });

  test("names the migration could not fold are folded by a one-time step at start-up, and a later start does no work", async () => {
    setup();
    knows(t.deps, f.users.alice.id, { email: "elodie@durand.fr", name: "Élodie Durand" }, thread(4, 3, 2));
    const sqlite = t.deps.db.$client;
    const recorded = () => sqlite.query("SELECT tag FROM _migrations WHERE tag = ?").get(NAME_KEY_STEP);
    // This app's start recorded the step; a database from before it has neither the record nor the keys.
    expect(recorded()).not.toBeNull();
    sqlite.run("DELETE FROM _migrations WHERE tag = ?", [NAME_KEY_STEP]);
    sqlite.run("UPDATE persons SET name_key = NULL WHERE display_name LIKE '%lodie%'");
    const start = () => applyMigrations(sqlite);
    start();
    expect(recorded()).not.toBeNull();
    expect((await lookup(f.keys.read.secret, ["ÉLODIE DURAND"])).json.results[0].email).toBe("elodie@durand.fr");
    // The next start only probes the ledger: a key missing now (no import writes one) stays missing.
    sqlite.run("UPDATE persons SET name_key = NULL WHERE display_name LIKE '%lodie%'");
    expect(start()).toEqual([]);
    expect(sqlite.query("SELECT name_key FROM persons WHERE display_name LIKE '%lodie%'").get()).toEqual({ name_key: null });
  });

  test("a path through a teammate who does not share is never used", async () => {
    setup();
    const res = await lookup(f.keys.read.secret, ["jane@target.com"]);
    expect(res.json.results[0].path_owner).toBe("Alice Archer");
    expect(res.json.results[0].signals.emails_sent + res.json.results[0].signals.emails_received).toBe(10);
  });
});

describe("POST /api/v1/network/warmth/lookup: bad bodies", () =>
  runScenarios([
    {
      name: "more than 100 identifiers: 422",
      method: "POST",
      path: "/api/v1/network/warmth/lookup",
      key: "read",
      body: { contacts: Array.from({ length: 101 }, (_, i) => `p${i}@x.com`) },
      expect: { status: 422, body: { detail: [{ loc: ["body", "contacts"], type: "too_long" }] } },
    },
    { name: "no identifiers: 422", method: "POST", path: "/api/v1/network/warmth/lookup", key: "read", body: { contacts: [] }, expect: { status: 422, body: { detail: [{ loc: ["body", "contacts"], type: "too_short" }] } } },
    { name: "missing contacts: 422", method: "POST", path: "/api/v1/network/warmth/lookup", key: "read", body: {}, expect: { status: 422, body: { detail: [{ loc: ["body", "contacts"], type: "missing" }] } } },
    { name: "a non-string identifier: 422 with its index", method: "POST", path: "/api/v1/network/warmth/lookup", key: "read", body: { contacts: ["a@b.co", 7] }, expect: { status: 422, body: { detail: [{ loc: ["body", "contacts", 1], type: "string_type" }] } } },
    { name: "an empty identifier: 422", method: "POST", path: "/api/v1/network/warmth/lookup", key: "read", body: { contacts: [""] }, expect: { status: 422, body: { detail: [{ loc: ["body", "contacts", 0], type: "string_too_short" }] } } },
    { name: "malformed JSON: 422", method: "POST", path: "/api/v1/network/warmth/lookup", key: "read", rawBody: "{contacts:", expect: { status: 422, body: { detail: [{ loc: ["body"], type: "json_invalid" }] } } },
  ]));

describe("GET /api/v1/network/contacts", () => {
  test("the key user's own graph only, with linkedin_url and location", async () => {
    setup();
    const res = await t.request("GET", "/api/v1/network/contacts", { key: f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(res.json.scope).toBe("key_user");
    expect(res.json.next_cursor).toBeNull();
    expect(res.json.contacts.map((c: any) => c.email)).toEqual(["jane@target.com", "sam@a.com", "sam3@b.com", "card@x.com"]);
    expect(res.json.contacts[0]).toMatchObject({ linkedin_url: "https://www.linkedin.com/in/jane-doe", path_owner: "Alice Archer" });
    expect(res.json.contacts[3]).toMatchObject({ location: "Berlin", unavailable_reason: "no_relationship_data", strength_score: null });
    const bob = await t.request("GET", "/api/v1/network/contacts", { key: f.keys.bobRead.secret });
    expect(bob.json.contacts.map((c: any) => c.email)).toEqual(["jane@target.com"]);
    expect(bob.json.contacts[0].path_owner).toBe("Bob Baker");
  });

  test("pages with an opaque cursor until it is null, and stays exact while an import runs between pages", async () => {
    setup();
    const alice = f.users.alice.id;
    t.deps.db.transaction(() => {
      const w = graphWriter(t.deps, alice);
      for (let i = 0; i < 23; i++) w.contact({ email: `bulk${i}@many.com`, name: `Bulk ${i}` });
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const qs: string = cursor ? `?limit=5&cursor=${encodeURIComponent(cursor)}` : "?limit=5";
      const res = await t.request("GET", `/api/v1/network/contacts${qs}`, { key: f.keys.read.secret });
      expect(res.status).toBe(200);
      expect(res.json.contacts.length).toBeLessThanOrEqual(5);
      seen.push(...res.json.contacts.map((c: any) => c.email));
      cursor = res.json.next_cursor;
      if (pages === 1) {
        // A concurrent import: new contacts and new touches on contacts already paged past.
        knows(t.deps, alice, { email: "late@new.com", name: "Late Arrival" }, thread(2, 1, 1));
        knows(t.deps, alice, { email: "jane@target.com" }, thread(3, 1, 1));
        t.deps.db.transaction(() => graphWriter(t.deps, alice).contact({ email: "later@new.com" }));
      }
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen).size).toBe(seen.length); // no duplicate
    expect(seen.length).toBe(4 + 23 + 2); // no gap: everything before, and the two that arrived
    expect(seen.slice(-2)).toEqual(["late@new.com", "later@new.com"]);
  });

  test("a cursor this server did not issue, or issued to another user: 422 naming the cursor", async () => {
    setup();
    // A cursor forged the way the old format allowed (a public CRC anyone can compute), at a real position.
    const crcForged = Buffer.from(`k1.1.${Bun.hash.crc32("k1.1").toString(36)}`).toString("base64url");
    const issued: string = (await t.request("GET", "/api/v1/network/contacts?limit=1", { key: f.keys.read.secret })).json.next_cursor;
    const [prefix, position, mac] = Buffer.from(issued, "base64url").toString().split(".");
    const moved = Buffer.from(`${prefix}.${Number(position) + 1}.${mac}`).toString("base64url");
    const unsigned = Buffer.from(`${prefix}.${position}`).toString("base64url");
    for (const bad of ["abc", "eyJ4IjoxfQ", Buffer.from("k1.5.zzz").toString("base64url"), Buffer.from("k1.-1.0").toString("base64url"), crcForged, moved, unsigned, `${issued}x`]) {
      const res = await t.request("GET", `/api/v1/network/contacts?cursor=${bad}`, { key: f.keys.read.secret });
      expect(res.status, bad).toBe(422);
      expect(res.json.detail[0].loc).toEqual(["query", "cursor"]);
    }
    expect((await t.request("GET", `/api/v1/network/contacts?limit=1&cursor=${issued}`, { key: f.keys.read.secret })).status).toBe(200);
    // Alice's cursor is hers: Bob (same org) and Carol (another org) cannot page with it.
    for (const key of [f.keys.bobRead.secret, f.keys.otherOrgWrite.secret]) {
      const res = await t.request("GET", `/api/v1/network/contacts?cursor=${issued}`, { key });
      expect(res.status).toBe(422);
      expect(res.json.detail[0].loc).toEqual(["query", "cursor"]);
    }
  });

  test("limit bounds", async () => {
    setup();
    for (const [limit, status] of [["0", 422], ["201", 422], ["200", 200], ["x", 422]] as const) {
      const res = await t.request("GET", `/api/v1/network/contacts?limit=${limit}`, { key: f.keys.read.secret });
      expect(res.status, limit).toBe(status);
      if (status === 422) expect(res.json.detail[0].loc).toEqual(["query", "limit"]);
    }
  });
});
