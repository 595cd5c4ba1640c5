// The shared auth scenarios on every webhook route; another org's endpoint (or delivery) is 404.
import { describe } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { runScenarios } from "../../helpers/scenarios.ts";
import { seedEndpoint } from "../../helpers/webhooks.ts";

// A public IP literal: registration checks it without DNS and never connects to it.
const PUBLIC_URL = "https://93.184.215.14/hooks/dealgraph";

const own = (f: Fixture, t: TestApp) => seedEndpoint(t, f.orgs.acme.id);
const foreign = (f: Fixture, t: TestApp) => seedEndpoint(t, f.orgs.globex.id);

describe("POST /api/v1/webhooks", () =>
  runScenarios(authScenarios({ method: "POST", path: "/api/v1/webhooks", body: { url: PUBLIC_URL }, scope: "write", ok: 201 })));

describe("GET /api/v1/webhooks", () => runScenarios(authScenarios({ method: "GET", path: "/api/v1/webhooks", scope: "read", ok: 200 })));

describe("GET /api/v1/webhooks/{webhook_id}", () =>
  runScenarios(
    authScenarios({
      method: "GET",
      path: (f, t) => `/api/v1/webhooks/${own(f, t).webhookId}`,
      foreignPath: (f, t) => `/api/v1/webhooks/${foreign(f, t).webhookId}`,
      scope: "read",
      ok: 200,
    }),
  ));

describe("DELETE /api/v1/webhooks/{webhook_id}", () =>
  runScenarios(
    authScenarios({
      method: "DELETE",
      path: (f, t) => `/api/v1/webhooks/${own(f, t).webhookId}`,
      foreignPath: (f, t) => `/api/v1/webhooks/${foreign(f, t).webhookId}`,
      scope: "write",
      ok: 204,
    }),
  ));

describe("POST /api/v1/webhooks/{webhook_id}/rotate-secret", () =>
  runScenarios(
    authScenarios({
      method: "POST",
      path: (f, t) => `/api/v1/webhooks/${own(f, t).webhookId}/rotate-secret`,
      foreignPath: (f, t) => `/api/v1/webhooks/${foreign(f, t).webhookId}/rotate-secret`,
      body: { overlap_hours: 1 },
      scope: "write",
      ok: 200,
    }),
  ));

describe("GET /api/v1/webhooks/{webhook_id}/deliveries", () =>
  runScenarios(
    authScenarios({
      method: "GET",
      path: (f, t) => `/api/v1/webhooks/${own(f, t).webhookId}/deliveries`,
      foreignPath: (f, t) => `/api/v1/webhooks/${foreign(f, t).webhookId}/deliveries`,
      scope: "read",
      ok: 200,
    }),
  ));

describe("GET /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}", () =>
  runScenarios(
    authScenarios({
      method: "GET",
      path: (f, t) => `/api/v1/webhooks/${own(f, t).webhookId}/deliveries/${own(f, t).deliveryId}`,
      foreignPath: (f, t) => `/api/v1/webhooks/${foreign(f, t).webhookId}/deliveries/${foreign(f, t).deliveryId}`,
      scope: "read",
      ok: 200,
    }),
  ));

describe("POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", () =>
  runScenarios(
    authScenarios({
      method: "POST",
      path: (f, t) => `/api/v1/webhooks/${own(f, t).webhookId}/deliveries/${own(f, t).deliveryId}/redeliver`,
      foreignPath: (f, t) => `/api/v1/webhooks/${foreign(f, t).webhookId}/deliveries/${foreign(f, t).deliveryId}/redeliver`,
      scope: "write",
      ok: 202,
    }),
  ));
