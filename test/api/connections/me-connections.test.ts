// GET /api/v1/me/connections: the key user's connections as `connections list` shows them, with
// any key; another member's connections (same organization or another) are never in it, and no
// credential ever is (a subscription URL's secret path included). The connection here is a real
// iCalendar subscription on a loopback server (the organization's own calendar host).
import { afterEach, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { ConnectionsResponse } from "../../../src/modules/connections/connections.model.ts";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../../src/modules/connections/connections.sync.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { seedIdentity } from "../../helpers/fixtures.ts";
import { calendar } from "../../helpers/import-files.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

describe("GET /api/v1/me/connections", () =>
  runScenarios(authScenarios({ method: "GET", path: "/api/v1/me/connections", scope: "read", ok: 200 })));

let t: TestApp;
afterEach(() => t?.close());

describe("what it shows", () => {
  test("the key user's connections only, each as the contract says, never a credential", async () => {
    const ics = calendar({ uid: "m1@t", start: "20261110T100000Z", lines: ["ORGANIZER:mailto:alice@acme.vc", "ATTENDEE:mailto:jane@target.com"] });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(ics, { headers: { "content-type": "text/calendar" } }) });
    try {
      t = createTestApp();
      const f = seedIdentity(t.deps);
      const origin = `http://127.0.0.1:${server.port}`;
      const service = connectionsService(t.deps);
      service.setMailServer(f.orgs.acme.id, { imap: "127.0.0.1:1", security: "plain", caldav: `${origin}/` });
      const { connection_id } = await service.connectCalendar(f.users.alice.id, { icsUrl: `${origin}/calendars/tok-9f8e7d6c/basic.ics` });

      const before = await t.request("GET", "/api/v1/me/connections", { key: f.keys.read.secret });
      expect(before.status).toBe(200);
      expect(before.json).toEqual({
        connections: [
          { connection_id, kind: "calendar", account: `${origin} (subscription)`, status: "never_synced", last_synced_at: null, items_synced: 0, last_error: null, source: "ics", progress: null, last_result: null, next_attempt_at: null },
        ],
        scope: "key_user",
        as_of: t.clock.now().toISOString(),
      });
      expect([...Value.Errors(ConnectionsResponse, before.json)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);

      await connectionsSync(t.deps).syncUser(f.users.alice.id);
      const after = await t.request("GET", "/api/v1/me/connections", { key: f.keys.write.secret });
      expect(after.json.connections).toMatchObject([{ connection_id, status: "ok", items_synced: 1, last_synced_at: t.clock.now().toISOString(), last_result: { meetings_new: 1, messages_new: 0, duplicates: 0, skipped: 0 } }]);
      expect([...Value.Errors(ConnectionsResponse, after.json)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      for (const res of [before, after]) expect(res.text).not.toContain("tok-9f8e7d6c");

      // A teammate and a member of another organization see none of it.
      for (const key of [f.keys.bobRead.secret, f.keys.otherOrgWrite.secret]) {
        const other = await t.request("GET", "/api/v1/me/connections", { key });
        expect(other.json).toMatchObject({ connections: [], scope: "key_user" });
      }

      // The document describes it.
      const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
      expect(doc.paths["/api/v1/me/connections"].get).toMatchObject({ operationId: "listMyConnections" });
      expect(doc.paths["/api/v1/me/connections"].get.responses["200"].content["application/json"].schema.required).toEqual(ConnectionsResponse.required);
    } finally {
      server.stop(true);
    }
  });
});
